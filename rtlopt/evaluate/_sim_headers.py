"""A changed header in the simulators' readings, for `rtlopt check`.

The gate judges the modules a changed header reaches in the reading rtlopt proves
(``SYNTHESIS`` defined). A simulator reads the header without ``SYNTHESIS``: a change that
reads differently there, in a header whose text depends on the reading, or in a header that
a file includes only in a branch the proven reading does not take, is not judged by that
proof (``evaluate/_sim_reading.py`` for a module's own text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtlopt.evaluate._configs import active_tokens, tested_macros
from rtlopt.evaluate._sim_reading import SIMULATOR_MACROS, readings
from rtlopt.verilog import blank_comments

__all__ = ["header_simulator_change", "unread_include_sites"]

_INCLUDE = re.compile(r'`include\s+"([^"\n]+)"')


def header_simulator_change(old: str, new: str, defined: Iterable[str]) -> str:
    """How a changed header (its text at the base and after the change) reads otherwise in a
    simulator's reading than in the proven one ``defined`` (``SYNTHESIS`` added), or "": the
    change shows there, and the header reads differently there than in the proven reading
    (before or after the change)."""
    a, b = blank_comments(old, strings=False), blank_comments(new, strings=False)
    base = frozenset(defined) | {"SYNTHESIS"}
    tested = tested_macros(a) | tested_macros(b)
    if not tested & ({"SYNTHESIS"} | SIMULATOR_MACROS):
        return ""
    try:
        for label, reading in readings(base, tested):
            old_s, new_s = active_tokens(a, base), active_tokens(b, base)
            old_t, new_t = active_tokens(a, reading), active_tokens(b, reading)
            if old_t != new_t and (old_s != old_t or new_s != new_t):
                return f"{label} it changes otherwise than in the reading rtlopt proves"
    except ValueError as exc:
        return f"its conditionals do not nest ({exc})"
    return ""


def unread_include_sites(
    header: str, texts: Mapping[str, str], defined: Iterable[str]
) -> list[str]:
    """Where a file of ``texts`` (path -> text) includes ``header`` (a path in the same
    tree), directly or through other headers, in a branch the proven reading ``defined``
    (``SYNTHESIS`` added) does not take: ``"file line N (with SYNTHESIS undefined ...)"``,
    a simulator's reading named where one takes it."""
    base = frozenset(defined) | {"SYNTHESIS"}
    targets, out, seen = [header], [], set[str]()
    while targets:
        target = targets.pop()
        if target in seen:
            continue
        seen.add(target)
        for rel, text in texts.items():
            code = blank_comments(text, strings=False)
            sites = [m for m in _INCLUDE.finditer(code) if _names(target, rel, m.group(1))]
            if not sites:
                continue
            targets.append(rel)
            marked, tags = code, []
            for k, m in reversed(list(enumerate(sites))):
                tag = f"rtlopt_include_site_{k}"
                tags.append((k, m))
                marked = marked[: m.start()] + tag + marked[m.end() :]
            try:
                here = set(active_tokens(marked, base))
                sims = [
                    (label, set(active_tokens(marked, r)))
                    for label, r in readings(base, tested_macros(code))
                ]
            except ValueError:
                out.append(f"{rel} (its conditionals do not nest)")
                continue
            for k, m in sorted(tags, key=lambda x: x[0]):
                tag = f"rtlopt_include_site_{k}"
                if tag in here:
                    continue
                line = code.count("\n", 0, m.start()) + 1
                which = next((label for label, toks in sims if tag in toks), "")
                out.append(
                    f"{rel} line {line} includes it "
                    + (
                        f"in a branch a simulator reads ({which})"
                        if which
                        else "in a branch this configuration switches off"
                    )
                )
    return out


def _names(target: str, including: str, name: str) -> bool:
    """Whether ``include "name"`` in the file ``including`` may name ``target`` (a path
    relative to the tree): the name relative to the including file's folder, or a path
    suffix of it (an include folder)."""
    folder = including.rsplit("/", 1)[0] + "/" if "/" in including else ""
    return target == folder + name or target == name or target.endswith("/" + name)
