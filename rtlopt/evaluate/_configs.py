"""Other configurations of a module with conditional compilation.

rtlopt proves the configuration the project's defines select. A module whose body tests
macros (```ifdef M`` / ```ifndef`` / ```elsif``) is also built in other configurations, and
code shared by several of them (outside every conditional, or in a branch more than one
selects) is proven only in this one: a rewrite that moves a statement across a branch, or
uses what one branch drives where another drives something else, reads the same here and
differently there.

:func:`differing_configurations` reads the reference module and the candidate under every
assignment of the tested macros (defined or not where the module starts, then as the module's
own ```define`` / ```undef`` lines change them) and compares their token streams: a change that
only touches branches this configuration alone selects reads the same everywhere else; every
other configuration is proven by ``evaluate/_config_check.py``. The macros the flow itself
fixes (``SYNTHESIS``: rtlopt proves the synthesized view) and the identity macros of tools are
not enumerated.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from pathlib import Path

from rtlopt.verilog import blank_comments

__all__ = [
    "TOOL_MACROS",
    "active_tokens",
    "differing_configurations",
    "external_macros",
    "label",
    "other_configuration_change",
    "tested_macros",
]

#: Macros that name the flow or a tool rather than a configuration of the design.
TOOL_MACROS = frozenset(
    {
        "SYNTHESIS",
        "__ICARUS__",
        "VERILATOR",
        "YOSYS",
        "XILINX_SIMULATOR",
        "MODEL_TECH",
        "QUESTA",
        "VCS",
        "INCA",
        "XCELIUM",
        "RIVIERA",
    }
)

#: Stands for a header included through a macro name (```include `HDR``) among the macros.
UNFOLLOWED = "`include `"

#: At most this many tested macros are enumerated (2**n readings of each text).
MAX_MACROS = 10

_DIRECTIVE = re.compile(r"`(ifdef|ifndef|elsif|else|endif|define|undef|undefineall|include)\b")
_ARGUMENT = re.compile(r"[ \t]*([A-Za-z_][\w$]*)?")
_CONDITION = re.compile(r"`(?:ifdef|ifndef|elsif)\s+([A-Za-z_][\w$]*)")
_TOKEN = re.compile(r"[A-Za-z_][\w$]*|\\\S+|\d[\w']*|'[sS]?[bBoOdDhH]\s*[\w?]+|\"[^\"\n]*\"|\S")


def tested_macros(code: str) -> set[str]:
    """The macros the conditionals of ``code`` (comments blanked) test."""
    return set(_CONDITION.findall(code))


def _line_end(code: str, at: int) -> int:
    """The end of the directive's line from ``at`` (a ``define`` continues over lines that
    end with a backslash)."""
    while True:
        eol = code.find("\n", at)
        if eol < 0:
            return len(code)
        if not code[at:eol].rstrip().endswith("\\"):
            return eol
        at = eol + 1


def active_tokens(code: str, defined: Iterable[str]) -> list[str]:
    """The tokens of ``code`` (comments blanked) that a compilation in which ``defined`` are
    the defined macros reads: switched-off branches dropped, each active ``define`` /
    ``undef`` / ``include`` kept as one token (and applied).

    Raises:
        ValueError: unbalanced conditionals.
    """
    state = set(defined)
    out: list[str] = []
    stack: list[tuple[bool, bool]] = []  # (the enclosing region is active, a branch was taken)
    active, pos = True, 0
    for m in _DIRECTIVE.finditer(code):
        if m.start() < pos:
            continue  # inside a define's body
        if active:
            out += _TOKEN.findall(code[pos : m.start()])
        kind, arg, pos = m.group(1), "", m.end()
        if kind not in ("else", "endif", "undefineall"):
            a = _ARGUMENT.match(code, pos)
            assert a is not None  # the pattern matches the empty string
            arg, pos = a.group(1) or "", a.end()
        if kind in ("ifdef", "ifndef"):
            taken = (arg in state) == (kind == "ifdef")
            stack.append((active, taken))
            active = active and taken
        elif kind in ("elsif", "else"):
            if not stack:
                raise ValueError(f"`{kind} without `ifdef")
            outer, taken = stack[-1]
            now = not taken and (kind == "else" or arg in state)
            stack[-1] = (outer, taken or now)
            active = outer and now
        elif kind == "endif":
            if not stack:
                raise ValueError("`endif without `ifdef")
            active = stack.pop()[0]
        else:
            end = _line_end(code, pos) if kind == "define" else pos
            if active:
                out.append(f"`{kind} {arg} {' '.join(code[pos:end].split())}".rstrip())
                if kind == "define":
                    state.add(arg)
                elif kind == "undef":
                    state.discard(arg)
                elif kind == "undefineall":
                    state.clear()
            pos = end
    if stack:
        raise ValueError("`ifdef without `endif")
    if active:
        out += _TOKEN.findall(code[pos:])
    return out


_INCLUDE = re.compile(r'`include\s+"([^"\n]+)"')
_GUARD = re.compile(r"`ifndef\s+([A-Za-z_][\w$]*)\s+`define\s+\1\b")


def external_macros(files: Iterable[Path], include_dirs: Iterable[Path]) -> frozenset[str]:
    """The macros the conditionals of ``files`` and of the headers they include (searched in
    the including file's folder, then ``include_dirs``) test, include guards and the flow's
    own macros aside: switches of code outside the target module's own text (its submodules,
    a header it includes) that the token comparison cannot see."""
    dirs = tuple(include_dirs)
    seen: set[Path] = set()
    out: set[str] = set()
    todo = [Path(f) for f in files]
    while todo and len(seen) < 500:
        f = todo.pop()
        try:
            key = f.resolve()
            if key in seen or not f.is_file():
                continue
            seen.add(key)
            code = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        out |= tested_macros(code) - set(_GUARD.findall(code))
        if re.search(r"`include\s*`", code):
            out.add(UNFOLLOWED)  # a header named by a macro: not followed, fail closed
        for name in _INCLUDE.findall(code):
            todo += [d / name for d in (f.parent, *dirs) if (d / name).is_file()][:1]
    return frozenset(out - TOOL_MACROS)


def differing_configurations(
    reference: str,
    candidate: str,
    defined: frozenset[str],
    *,
    external: frozenset[str] = frozenset(),
    limit: int = MAX_MACROS,
) -> tuple[list[str], list[frozenset[str]], str]:
    """The tested macros, the assignments of them (the macros defined where the module starts)
    other than this configuration's that must be proven, and why none can be listed ("": they
    can). ``defined``: the tested macros defined here (the configuration proven).

    An assignment is left out only when it gives ``external`` macros (tested outside the
    module's own text) their values here, the module includes no header (whose directives
    this reading does not apply), and ``candidate`` reads the same as ``reference`` under it
    (both the module's text, comments blanked)."""
    if UNFOLLOWED in external:
        return (
            [],
            [],
            "a file of the design includes a header through a macro name, whose conditionals "
            "rtlopt cannot follow",
        )
    macros = sorted((tested_macros(reference) | tested_macros(candidate) | external) - TOOL_MACROS)
    if not macros:
        return [], [], ""
    if len(macros) > limit:
        return (
            macros,
            [],
            (
                f"the design's conditionals test {len(macros)} macros ({', '.join(macros[:4])}, "
                f"...); rtlopt checks a change in at most {limit}"
            ),
        )
    fixed = {m for m in defined if m in TOOL_MACROS}
    here = frozenset(m for m in macros if m in defined)
    opaque = "`include" in reference or "`include" in candidate  # also `include `NAME
    out: list[frozenset[str]] = []
    for bits in itertools.product((False, True), repeat=len(macros)):
        config = frozenset(m for m, on in zip(macros, bits, strict=True) if on)
        if config == here:
            continue
        if opaque or any((m in config) != (m in here) for m in external):
            out.append(config)
            continue
        try:
            same = active_tokens(reference, config | fixed) == active_tokens(
                candidate, config | fixed
            )
        except ValueError as exc:
            return macros, [], f"the module's conditionals do not nest ({exc})"
        if not same:
            out.append(config)
    return macros, out, ""


def label(macros: list[str], config: frozenset[str]) -> str:
    """``A defined, B undefined``: one configuration of ``macros``."""
    return ", ".join(f"{m} {'defined' if m in config else 'undefined'}" for m in macros)


def other_configuration_change(
    reference: str, candidate: str, defined: frozenset[str], *, limit: int = MAX_MACROS
) -> str:
    """Why ``candidate`` reads differently from ``reference`` in another configuration (the
    first one), or "" when it reads the same in every one."""
    macros, configs, why = differing_configurations(reference, candidate, defined, limit=limit)
    if why or not configs:
        return why
    return (
        f"with {label(macros, configs[0])} (another configuration of the module's `ifdef) "
        "the change reads differently"
    )
