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

__all__ = ["declared_names", "name_uses", "repository_files", "used_names"]

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
    used, declared, _ = name_uses(root, names, text_of)
    if undefined:
        return {n: w for n, w in used.items() if n not in declared}
    return used


def declared_names(
    root: Path, names: Iterable[str], text_of: Callable[[Path, str], str] | None = None
) -> dict[str, str]:
    """``name -> where`` for each of ``names`` that a text file under ``root`` declares as a
    module (in any ```ifdef`` branch: the text is read, not preprocessed); ``text_of`` as for
    :func:`used_names`. A file too large to read counts where a byte search finds the name."""
    _, declared, unread = name_uses(root, names, text_of)
    return {**unread, **declared}


def name_uses(
    root: Path, names: Iterable[str], text_of: Callable[[Path, str], str] | None = None
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """``(used, declared, unread)``: for each of ``names``, the first file under ``root`` that
    instantiates or declares it, the first that declares it, and the first file judged by a
    byte search alone (too large, or the folder unreadable) that holds it (see
    :func:`used_names`)."""
    wanted = sorted(set(names))
    if not wanted:
        return {}, {}, {}
    word = re.compile(
        rb"(?<![\w$])(?:" + b"|".join(re.escape(n.encode()) for n in wanted) + rb")(?![\w$])"
    )
    out: dict[str, str] = {}
    declared_at: dict[str, str] = {}
    unread: dict[str, str] = {}
    try:
        files = repository_files(root)
    except OSError:
        return {n: str(root) for n in wanted}, {}, {n: str(root) for n in wanted}
    for f in files:
        try:
            rel = f.relative_to(root).as_posix()
            if f.stat().st_size > _SCANNED_BYTES:
                with f.open("rb") as fh:
                    data = fh.read()
                found = {n: rel for n in wanted if _has(word, data, n)}
                out.update({n: w for n, w in found.items() if n not in out})
                unread.update({n: w for n, w in found.items() if n not in unread})
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
        for n in wanted:
            if n in declared and n not in declared_at:
                declared_at[n] = rel
            if n not in out and (n in declared or instances_of(code, n)):
                out[n] = rel
    return out, declared_at, unread


def _has(word: re.Pattern[bytes], data: bytes, name: str) -> bool:
    return any(m.group(0) == name.encode() for m in word.finditer(data))
