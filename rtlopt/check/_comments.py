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
- white space is compared as tokens are separated: a run of blanks is one space, a run with a
  line break is one line break (a line break ends a directive);
- line numbers are the same for every line of code, unless the caller knows that no file the
  design reads uses ```__LINE__`` (``lines_matter=False``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.harness import tool_pragmas
from rtlopt.verilog import comments

__all__ = ["comment_only_files", "comments_only"]

#: Comments other tools read as directives, beyond synthesis pragmas: kept as code.
_TOOL_WORD = re.compile(
    r"\b(verilator|iverilog|yosys|coverage|lint_(?:off|on)|spyglass|ivl_\w+|pragma)\b", re.I
)


def _directive_lines(text: str) -> set[int]:
    """Indexes of the lines of ``text`` that hold a compiler directive or continue a macro
    body (the line before ends in a backslash)."""
    lines = text.split("\n")
    out: set[int] = set()
    continued = False
    for i, line in enumerate(lines):
        if continued or "`" in line:
            out.add(i)
        continued = line.rstrip().endswith("\\")
    return out


def _normal(text: str) -> tuple[str, list[int]]:
    """``text`` with every droppable comment a space, white space runs collapsed; and the
    line of each token-bearing line of code (to compare line numbers)."""
    pragmas = {offset for offset, _ in tool_pragmas(text)}
    keep_lines = _directive_lines(text)
    parts: list[str] = []
    at = 0
    for offset, c in comments(text):
        line = text.count("\n", 0, offset)
        kept = (
            offset in pragmas
            or _TOOL_WORD.search(c) is not None
            or line in keep_lines
            or any(line + k in keep_lines for k in range(1, c.count("\n") + 1))
        )
        parts += [text[at:offset], c if kept else re.sub(r"[^\n]", " ", c)]
        at = offset + len(c)
    parts.append(text[at:])
    blanked = "".join(parts)
    code_lines = [i for i, line in enumerate(blanked.split("\n")) if line.strip()]
    collapsed = re.sub(r"[ \t\f\v]*\n\s*", "\n", blanked)
    collapsed = re.sub(r"[ \t\f\v]+", " ", collapsed).strip()
    return collapsed, code_lines


def comments_only(old: str, new: str, *, lines_matter: bool = True) -> bool:
    """``new`` differs from ``old`` in comments and white space only, as every tool reads
    them (see the module's docstring); line endings aside."""
    old, new = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
    if old == new:
        return True
    a, a_lines = _normal(old)
    b, b_lines = _normal(new)
    if a != b:
        return False
    return not lines_matter or a_lines == b_lines


def _text(path: Path) -> str | None:
    """The file's text, or None for a symlink, a missing file or bytes that are not UTF-8 (a
    replaced byte could hide a difference)."""
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _uses_line_macro(trees: Sequence[Path]) -> bool:
    """Some file of the trees holds ```__LINE__`` (a macro that expands to a line number)."""
    for tree in trees:
        for path in tree.rglob("*"):
            try:
                if path.is_file() and not path.is_symlink() and b"__LINE__" in path.read_bytes():
                    return True
            except OSError:
                return True
    return False


def comment_only_files(changes: Mapping[str, str], base: Path, new: Path) -> list[str]:
    """The modified Verilog files of ``changes`` (path -> git status) whose change, between
    the checkouts ``base`` and ``new``, is comments and white space only
    (:func:`comments_only`): no tool reads them differently, so they are not judged. Line
    numbers may move only where no file of either tree uses ```__LINE__``."""
    from rtlopt.check._git import VERILOG_SUFFIXES

    found: list[tuple[str, bool]] = []  # (path, its code lines stayed where they were)
    for rel, status in changes.items():
        if status != "M" or not rel.endswith(VERILOG_SUFFIXES):
            continue
        old, now = _text(base / rel), _text(new / rel)
        if old is not None and now is not None and comments_only(old, now, lines_matter=False):
            found.append((rel, comments_only(old, now)))
    if any(not same_lines for _, same_lines in found) and _uses_line_macro([base, new]):
        found = [f for f in found if f[1]]
    return [rel for rel, _ in found]
