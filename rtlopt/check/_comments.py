"""A change of comments only: nothing any tool reads differently, so nothing to prove.

A commit that edits documentation comments is the commonest commit of an RTL repository, and
the gate runs on every one. Judged like any change, each module of the file is evaluated (a
full proof each; minutes on a large SystemVerilog design, or a stop when the design needs a
configuration the repository does not state). :func:`comments_only` says when the two texts
read the same to every tool, and it says so only where that holds by construction:

- a comment is dropped only where the preprocessor drops it: not one that a tool reads as a
  directive (``synopsys translate_off``, ``full_case``, ``verilator`` ...), kept in place and
  compared byte for byte, and not one on a compiler-directive line or in a macro body (a
  ```define`` and its continuation lines, where tools disagree on comments);
- directive lines, the lines a macro body continues onto and the lines of a macro call's
  argument list (Yosys 0.23 keeps a stringified argument's blanks and comments; every line
  where the parentheses outside macro bodies do not balance) compare byte for byte (blanks
  after a backslash, a blank line that ends a macro, comments on them); elsewhere white space
  (blank, tab and line ends only: a no-break space is a syntax error, iverilog refuses a
  vertical tab, Yosys also a form feed) is compared as tokens are separated, one space per
  run, and string literals and escaped identifiers byte for byte;
- line numbers are the same for every line of code, unless the caller knows that no file the
  design may read uses ```__LINE__`` (``lines_matter=False``): the two checkouts and the
  files and folders outside them the design reads (include and library folders, listed
  files), searched whole; what cannot be searched (an ```include`` by absolute path, ``..``
  or macro, a folder that cannot be listed, too many files) counts as a use.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rtlopt.harness import tool_pragmas, unbalanced_macros
from rtlopt.verilog import DIRECTIVES, alternation, blank_comments, scan

__all__ = ["comment_only_files", "comments_only"]

#: Comments other tools read as directives, beyond synthesis pragmas: kept as code.
_TOOL_WORD = re.compile(
    r"\b(verilator|iverilog|yosys|coverage|lint_(?:off|on)|spyglass|ivl_\w+|pragma)\b", re.I
)


def _directive_lines(text: str, lines: Sequence[str]) -> list[int]:
    """Indexes of the lines that hold a compiler directive or continue a macro body (the line
    before ends in a backslash, blanks after it included: Yosys ends a macro there, iverilog
    does not), or lie in a macro call's argument list (:func:`_macro_argument_lines`), in
    order."""
    found: set[int] = set(_macro_argument_lines(text, len(lines)))
    continued = False
    for i, line in enumerate(lines):
        if continued or "`" in line:
            found.add(i)
        continued = line.rstrip(" \t\r\f\v").endswith("\\")
    return sorted(found)


#: A macro use (a backtick word that is no compiler directive) and the blanks after it.
_MACRO_USE = re.compile(rf"`(?!(?:{alternation(DIRECTIVES)})\b)[A-Za-z_]\w*\s*")


def _macro_argument_lines(text: str, count: int) -> list[int]:
    """The lines from each macro use followed by ``(`` to its closing ``)``: an argument is
    read as the preprocessor reads it, blanks and comments kept (Yosys 0.23 keeps both in a
    stringified argument), so those lines are compared byte for byte. Every line, where the
    parentheses outside the macro bodies do not balance (a macro body that opens or closes an
    argument list: where one ends is not known from this text)."""
    code = blank_comments(text)
    outside, continued = [], False  # the code outside macro bodies
    for line in code.split("\n"):
        outside.append("" if continued or "`define" in line else line)
        continued = (continued or "`define" in line) and line.rstrip(" \t\r\f\v").endswith("\\")
    depth = 0
    for ch in re.findall(r"[()]", "\n".join(outside)):
        depth += 1 if ch == "(" else -1
        if depth < 0:
            break
    if depth != 0:
        return list(range(count))
    out: list[int] = []
    for m in _MACRO_USE.finditer(code):
        if code[m.end() : m.end() + 1] != "(":
            continue
        depth, end = 0, len(code)
        for k in range(m.end(), len(code)):
            if code[k] in "()":
                depth += 1 if code[k] == "(" else -1
                if depth == 0:
                    end = k
                    break
        out += range(code.count("\n", 0, m.start()), code.count("\n", 0, end) + 1)
    return out


#: White space as every tool reads it: blank, tab and line ends only (a no-break space is a
#: syntax error; iverilog 11 refuses a vertical tab, Yosys 0.23 also a form feed): anything
#: else is compared byte for byte.
_BLANKS = re.compile(r"[ \t\n\r]+")


def _normal(text: str) -> tuple[str, list[str], list[int]]:
    """What a tool reads of ``text``, comments and white space aside: the token stream with
    every droppable comment gone and each white space run outside strings one space; the
    directive and macro-continuation lines byte for byte (a blank after a backslash, a blank
    line ending a macro body, a comment in a macro all count); and the line of each line of
    code (to compare line numbers)."""
    lines = text.split("\n")
    directives = _directive_lines(text, lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    on_directive = {starts[i] + k for i in directives for k in range(len(lines[i]) + 1)}
    pragmas = {offset for offset, _ in tool_pragmas(text)}
    stream: list[str] = []
    code_lines: set[int] = set()
    at = 0

    def gap(upto: int) -> None:
        piece = text[at:upto]
        stream.append(_BLANKS.sub(" ", piece))
        for m in re.finditer(r"[^ \t\n\r]+", piece):
            code_lines.add(text.count("\n", 0, at + m.start()))

    for kind, a, b in scan(text):
        droppable = (
            kind == "comment"
            and a not in pragmas
            and _TOOL_WORD.search(text[a:b]) is None
            and not any(k in on_directive for k in (a, b - 1))
        )
        gap(a)
        stream.append(" " if droppable else f"\0{text[a:b]}\0")  # strings byte for byte
        if not droppable:
            code_lines.add(text.count("\n", 0, a))
        at = b
    gap(len(text))
    return "".join(stream), [lines[i] for i in directives], sorted(code_lines)


def comments_only(old: str, new: str, *, lines_matter: bool = True) -> bool:
    """``new`` differs from ``old`` in comments and white space only, as every tool reads
    them (see the module's docstring)."""
    if old == new:
        return True
    if "\0" in old + new:  # the stream's own separator: never read as comments only
        return False
    a, a_directives, a_lines = _normal(old)
    b, b_directives, b_lines = _normal(new)
    if a_directives != b_directives or _squeezed(a) != _squeezed(b):
        return False
    return not lines_matter or a_lines == b_lines


def _squeezed(stream: str) -> str:
    """A stream with each run of spaces between tokens one space and none at its ends; the
    verbatim parts (between NULs: strings, kept comments) untouched."""
    parts = stream.split("\0")
    return "\0".join(p if i % 2 else re.sub(" +", " ", p) for i, p in enumerate(parts)).strip(" ")


def _text(path: Path) -> str | None:
    """The file's text, or None for a symlink, a missing file or bytes that are not UTF-8 (a
    replaced byte could hide a difference)."""
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


#: An ```include`` whose file the search of :func:`_unsearched` follows: a plain relative
#: name (a macro name, an absolute path or a ``..`` may read a file outside the searched ones).
_INCLUDE = re.compile(rb'`include\s*("[^"\n]*")?')

#: Files outside the checkouts searched at most (more: the search fails closed).
MAX_OUTSIDE_FILES = 20000


def _unsearched(data: bytes) -> bool:
    """``data`` holds ```__LINE__`` or an ```include`` the search cannot follow."""
    if b"__LINE__" in data:
        return True
    for m in _INCLUDE.finditer(data):
        name = m.group(1)
        if name is None or name.startswith(b'"/') or b".." in name:
            return True
    return False


def files_outside(elsewhere: Sequence[Path]) -> list[Path] | None:
    """The files of ``elsewhere`` (files, and the folders that hold them, whose headers they
    include; folders, searched whole), or None past :data:`MAX_OUTSIDE_FILES`."""
    folders = {p for p in elsewhere if p.is_dir()}
    folders |= {p.parent for p in elsewhere if not p.is_dir()}
    found: set[Path] = {p for p in elsewhere if not p.is_dir()}

    def unreadable(exc: OSError) -> None:
        raise exc

    try:
        for folder in sorted(folders):
            for here, _, names in os.walk(folder, onerror=unreadable, followlinks=True):
                found |= {Path(here) / n for n in names}
                if len(found) > MAX_OUTSIDE_FILES:
                    return None
    except OSError:  # a folder that cannot be listed: not searched
        return None
    return sorted(found)


def _read_files(trees: Sequence[Path], elsewhere: Sequence[Path] | None) -> list[Path] | None:
    """Every file the design may read: those of the ``trees`` and those ``elsewhere`` (the
    include and library folders and listed files outside the checkouts); None: not known."""
    if elsewhere is None:
        return None
    outside = files_outside(elsewhere)
    if outside is None:
        return None
    return [p for tree in trees for p in tree.rglob("*")] + outside


def _any_holds(files: list[Path] | None, holds: Callable[[bytes], bool]) -> bool:
    """Some of ``files`` (None: not known) ``holds``, or cannot be read."""
    if files is None:
        return True
    for path in files:
        try:
            if path.is_file() and holds(path.read_bytes()):  # a link: what it names
                return True
        except OSError:
            return True
    return False


def _unbalanced_macro(data: bytes) -> bool:
    """``data`` defines a macro whose body opens or closes a parenthesis it does not close or
    open: it builds an argument list with the text around its use (```OPEN p  q `CLOSE``),
    whose blanks a stringification keeps, and which no line of the using file shows."""
    return b"`define" in data and bool(unbalanced_macros([data.decode(errors="replace")]))


def comment_only_files(
    changes: Mapping[str, str], base: Path, new: Path, *, elsewhere: Sequence[Path] | None
) -> list[str]:
    """The modified Verilog files of ``changes`` (path -> git status) whose change, between
    the checkouts ``base`` and ``new``, is comments and white space only
    (:func:`comments_only`): no tool reads them differently, so they are not judged. Line
    numbers may move only where no file the design may read uses ```__LINE__``: those of
    either tree and ``elsewhere``, the files and folders outside the checkouts the design
    reads on either side (None: not known, so no line moves)."""
    from rtlopt.check._git import VERILOG_SUFFIXES

    files = _read_files([base, new], elsewhere)
    if _any_holds(files, _unbalanced_macro):
        return []  # where an argument list ends is not known from a file's own text
    found: list[tuple[str, bool]] = []  # (path, its code lines stayed where they were)
    for rel, status in changes.items():
        if status != "M" or not rel.endswith(VERILOG_SUFFIXES):
            continue
        old, now = _text(base / rel), _text(new / rel)
        if old is not None and now is not None and comments_only(old, now, lines_matter=False):
            found.append((rel, comments_only(old, now)))
    if any(not same_lines for _, same_lines in found) and _any_holds(files, _unsearched):
        found = [f for f in found if f[1]]
    return [rel for rel, _ in found]
