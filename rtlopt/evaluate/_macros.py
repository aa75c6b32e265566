"""Which text macros another build of the repository may define differently.

A change of a module nothing instantiates that depends on such a macro cannot be probed
(evaluate/_params.py reports it unchecked); one the repository defines unconditionally (or
inside a file's own include guard) is fixed in every build.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["overridable_macros"]

_DIRECTIVE = re.compile(r"`(ifdef|ifndef|elsif|else|endif|define)\b[ \t]*(\w*)")


def overridable_macros(design: Design, names: Sequence[str]) -> list[str]:
    """The macros of ``names`` another build of the repository may define differently: one
    the repository's files define inside a conditional (other than a file's include guard),
    so that another define on the command line selects another definition, or one they do not
    define at all outside the configuration's defines (then any build sets it). A macro the
    configuration defines, or a file defines unconditionally, is fixed."""
    from rtlopt.evaluate._sources import files_read
    from rtlopt.frontend._unit import is_skeleton
    from rtlopt.verilog import blank_comments

    wanted = {n.lstrip("`") for n in names}  # the dependence names them as used: `W
    fixed: set[str] = {n for n in wanted if n in design.defines}
    guarded: set[str] = set()
    try:
        files = sorted(files_read(design))
    except Exception:  # noqa: BLE001 - fail closed: every macro stays open
        return list(names)
    read = {f.resolve() for f in files}
    # a file of the repository the design does not read (another configuration's header,
    # cfg/fpga/config.vh beside cfg/asic/config.vh) that defines the macro: another build
    # reads it
    for f, defined in _repository_defines(design.root).items():
        if f not in read:
            guarded |= defined & wanted
    for f in files:
        if is_skeleton(f):
            continue  # the directives of a repository file that is read here itself
        try:
            text = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        guard = _include_guard(text)
        depth = 0
        for m in _DIRECTIVE.finditer(text):
            kind, word = m.group(1), m.group(2)
            if kind in ("ifdef", "ifndef"):
                depth += 1
            elif kind == "endif":
                depth = max(0, depth - 1)
            elif kind == "define" and word in wanted and word != guard:
                # inside the file's own include guard is unconditional
                (fixed if depth == (1 if guard else 0) else guarded).add(word)
    return [n for n in names if n.lstrip("`") in guarded or n.lstrip("`") not in fixed]


def _include_guard(text: str) -> str:
    """The include guard's macro when ``text`` opens with ```ifndef G`` then ```define G``
    (no value) and the ```endif`` that closes that ```ifndef`` ends the file; else ""."""
    m = re.match(r"\s*`ifndef\s+(\w+)\s*\n\s*`define\s+(\w+)[ \t]*\n", text)
    if m is None or m.group(1) != m.group(2) or not text.rstrip().endswith("`endif"):
        return ""
    depth = 0
    for d in _DIRECTIVE.finditer(text):
        if d.group(1) in ("ifdef", "ifndef"):
            depth += 1
        elif d.group(1) == "endif":
            depth -= 1
            if depth == 0 and text[d.end() :].strip():
                return ""  # the guard closes before the end: what follows is not guarded
    return m.group(1)


_SOURCE_SUFFIXES = (".v", ".sv", ".vh", ".svh", ".inc", ".h", ".vinc")


@functools.lru_cache(maxsize=8)
def _repository_defines(root: Path) -> dict[Path, frozenset[str]]:
    """The macros each Verilog source or header of the repository defines (outside rtlopt's
    own folders), read once per run."""
    from rtlopt.verilog import blank_comments

    out: dict[Path, frozenset[str]] = {}
    for f in root.rglob("*"):
        if f.suffix not in _SOURCE_SUFFIXES or {".rtlopt", ".git"} & set(f.parts):
            continue
        try:
            text = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        names = frozenset(m.group(2) for m in _DIRECTIVE.finditer(text) if m.group(1) == "define")
        if names:
            out[f.resolve()] = names
    return out
