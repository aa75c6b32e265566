"""The texts a design reads, for the screen's reference rules that judge text the tools may
read differently (:mod:`rtlopt.harness._macro_args`).

A reference's submodule, a package it imports or a header it includes is read by every tool
as the target is: a macro call there that Yosys 0.23 and iverilog read differently makes the
reference two designs as surely as one in the target's own lines. :func:`hierarchy_texts`
gives one list for all such rules: the target's and its submodules' module texts, the rest of
every file the design reads (its prelude, the packages it uses, its module closure: what
stands outside their modules, ``$unit`` declarations and directives), and every header
those include, transitively. A header named by a macro (```include `HDR``) cannot be
followed: it is named in :attr:`DesignTexts.unfollowed`, and a rule fails closed on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._files import read_source
from rtlopt.frontend._packages import package_files
from rtlopt.frontend.model import Design
from rtlopt.verilog import blank_comments, blank_spans, module_spans

__all__ = ["DesignText", "DesignTexts", "hierarchy_texts", "included_texts", "macro_texts"]

#: An include of a named file, or of a file named by a macro (group 2).
_INCLUDE = re.compile(r'`include\s*(?:"([^"\n]+)"|<([^>\n]+)>|(`\w+))')
#: At most this many headers are followed (a guard against include cycles through links).
_MAX_HEADERS = 2000


@dataclass(frozen=True)
class DesignText:
    """One text the design reads: ``text`` is ``path``'s from its line ``line`` on."""

    path: Path
    line: int
    text: str


@dataclass(frozen=True)
class DesignTexts:
    """The texts of a design's hierarchy (:func:`hierarchy_texts`)."""

    texts: tuple[DesignText, ...]
    #: Includes that name their header by a macro (``(file, line, directive)``): not followed.
    unfollowed: tuple[tuple[Path, int, str], ...]


def _read(path: Path) -> str | None:
    try:
        return read_source(path)
    except (OSError, DesignError):
        return None


def _modules(design: Design) -> list[DesignText]:
    out = []
    subs = [design.modules[n] for n in design.submodules if n in design.modules]
    for m in [design.target, *subs]:
        try:
            out.append(DesignText(m.file, m.line, m.text()))
        except OSError:
            continue
    return out


def _outside_modules(design: Design) -> list[DesignText]:
    """The files the design reads, each with its modules blanked (the hierarchy's own are
    read from :func:`_modules`; other modules are not elaborated)."""
    out = []
    for f in dict.fromkeys([*design.prelude, *package_files(design), *design.closure]):
        text = _read(f)
        if text is not None:
            spans = [(s.start, s.end) for s in module_spans(text)]
            out.append(DesignText(f, 1, blank_spans(text, spans)))
    return out


def _headers(
    found: list[DesignText], design: Design
) -> tuple[list[DesignText], list[tuple[Path, int, str]]]:
    """The headers ``found`` include, transitively (searched in the including file's
    folder, then the design's include folders), and the includes named by a macro."""
    seen: set[Path] = set()
    headers: list[DesignText] = []
    unfollowed: list[tuple[Path, int, str]] = []
    todo = list(found)
    while todo and len(seen) < _MAX_HEADERS:
        cur = todo.pop()
        code = blank_comments(cur.text, strings=False)
        for m in _INCLUDE.finditer(code):
            if m.group(3):
                line = cur.line + code.count("\n", 0, m.start())
                unfollowed.append((cur.path, line, m.group(0)))
                continue
            name = m.group(1) or m.group(2)
            dirs = [cur.path.parent, *design.include_dirs]
            hit = next((d / name for d in dirs if (d / name).is_file()), None)
            if hit is None or hit.resolve() in seen:
                continue  # not found: no tool reads the design either
            seen.add(hit.resolve())
            text = _read(hit)
            if text is not None:
                headers.append(DesignText(hit, 1, text))
                todo.append(headers[-1])
    return headers, unfollowed


def included_texts(text: str, design: Design) -> DesignTexts:
    """The headers a candidate ``text`` (written in place of the target, in its folder)
    includes, transitively, as :func:`hierarchy_texts` finds them."""
    if "`include" not in text:
        return DesignTexts((), ())
    headers, unfollowed = _headers([DesignText(design.target.file, 1, text)], design)
    return DesignTexts(tuple(headers), tuple(unfollowed))


_MEMO: dict[int, tuple[Design, DesignTexts]] = {}


def hierarchy_texts(design: Design) -> DesignTexts:
    """Every text ``design`` reads (see the module's docstring), raw; once per design."""
    hit = _MEMO.get(id(design))
    if hit is None or hit[0] is not design:
        found = _modules(design) + _outside_modules(design)
        headers, unfollowed = _headers(found, design)
        if len(_MEMO) > 8:
            _MEMO.clear()
        hit = _MEMO[id(design)] = (design, DesignTexts(tuple(found + headers), tuple(unfollowed)))
    return hit[1]


def macro_texts(design: Design) -> Iterator[str]:
    """The texts of the files that may define the repository's macros (its prelude, closure
    and sources, and the Verilog files of its include folders)."""
    files: list[Path] = [*design.prelude, *design.closure, *design.sources.files]
    for inc in design.include_dirs:
        for pattern in ("*.vh", "*.svh", "*.v", "*.sv", "*.h", "*.inc"):
            files.extend(sorted(inc.glob(pattern)))
    for f in dict.fromkeys(files):
        text = _read(f)  # regular files only: an include folder may hold a FIFO or a device
        if text is not None:
            yield text
