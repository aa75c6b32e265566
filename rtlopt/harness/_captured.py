"""Module names the repository already uses: a module a change adds under such a name captures
them.

A design may instantiate a module no file of the repository defines: a cell of a vendor's
simulation library (``iverilog -y $(VENDOR)``), a primitive, a black box. A module defined in
a source takes precedence over a library folder, so a helper module a candidate adds under
that name becomes every other instance of it, which the proof of the target never compares.
:func:`used_names` finds the names that any text file of the repository instantiates or
declares (a Makefile may compile a file of any name).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from rtlopt.inputs import repository_files
from rtlopt.verilog import blank_comments, module_spans
from rtlopt.verilog_instances import instances_of

__all__ = ["repository_files", "used_names"]

#: Larger files are judged by a byte search for the name alone.
_SCANNED_BYTES = 4_000_000


def used_names(
    root: Path,
    names: Iterable[str],
    text_of: Callable[[Path, str], str] | None = None,
    *,
    undefined: bool = False,
) -> dict[str, str]:
    """``name -> where`` for each of ``names`` that a text file under ``root`` instantiates or
    declares (``where``: the file, relative to ``root``). ``text_of(path, text)`` may give the
    text a file is judged by (the target's own module left out, say; "" skips the file). A file
    too large or unreadable counts where a byte search finds the name. ``undefined``: only
    the names that no text declares (those a text declares are another rule's)."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    word = re.compile(
        rb"(?<![\w$])(?:" + b"|".join(re.escape(n.encode()) for n in wanted) + rb")(?![\w$])"
    )
    out: dict[str, str] = {}
    declared_here: set[str] = set()
    try:
        files = repository_files(root)
    except OSError:
        return {n: str(root) for n in wanted}
    for f in files:
        try:
            rel = f.relative_to(root).as_posix()
            if f.stat().st_size > _SCANNED_BYTES:
                with f.open("rb") as fh:
                    data = fh.read()
                out.update({n: rel for n in wanted if n not in out and _has(word, data, n)})
                continue
            data = f.read_bytes()
        except OSError:
            continue
        if b"\0" in data[:8192] or not word.search(data):
            continue
        text = data.decode(errors="replace")
        if text_of is not None:
            text = text_of(f, text)
        code = blank_comments(text)
        declared = {s.name for s in module_spans(text)}
        declared_here |= declared
        for n in wanted:
            if n not in out and (n in declared or instances_of(code, n)):
                out[n] = rel
    if undefined:
        return {n: w for n, w in out.items() if n not in declared_here}
    return out


def _has(word: re.Pattern[bytes], data: bytes, name: str) -> bool:
    return any(m.group(0) == name.encode() for m in word.finditer(data))
