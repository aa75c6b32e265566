"""The edit answer format: SEARCH/REPLACE blocks against the parent (Aider style, EvolVE's IGR).

A long module is not rewritten whole: the model answers with blocks ::

    <<<<<<< SEARCH
    lines copied exactly from the code shown
    =======
    the lines that replace them
    >>>>>>> REPLACE

Semantics (deliberate choices, each tested):

* Every SEARCH is located in the *parent* (the code shown), never in the result of earlier
  blocks, so the order of the blocks does not matter and overlaps can be detected.
* Matching is by whole lines. A SEARCH must match exactly one place. When it matches nowhere
  exactly, trailing whitespace is ignored, then all whitespace inside a line (indentation,
  spacing); the first level that finds a match decides. At a whitespace-insensitive match the
  REPLACE lines are re-indented by the indentation the SEARCH lacked (or had in excess).
* A SEARCH that matches several places is ambiguous (the error names the lines); one that
  matches nowhere is not found (the error names the closest lines of the parent); an empty
  SEARCH, a SEARCH holding an omission marker of the prompt, and a malformed block are errors.
* Two blocks whose matched lines overlap (even partially) are a conflict, unless they are
  identical (then the duplicate is dropped); a block whose REPLACE equals its SEARCH is a no-op.
* Applying keeps every other line of the parent byte for byte, so the written branch changes
  only the edited lines.

Any error makes the whole answer unusable: :class:`EditError` names the block (1-based).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "EditBlock",
    "EditError",
    "EditResult",
    "apply_edits",
    "changed_lines",
    "has_edit_blocks",
    "parse_edit_blocks",
]

_SEARCH = re.compile(r"^\s*<{5,9}\s*SEARCH\s*$")
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_REPLACE = re.compile(r"^\s*>{5,9}\s*REPLACE\s*$")
_FENCE = re.compile(r"^\s*```")
_THINK = re.compile(r"<think>.*?(</think>|\Z)", re.S | re.I)
OMISSION_MARKER = re.compile(r"^\s*//\s*\.\.\.\s*\d+\s+lines?\s+omitted")
"""A line the prompt put in place of omitted code; it is not part of the parent."""


class EditError(Exception):
    """An edit answer that cannot be applied.

    Attributes:
        block: The failing block (1-based), None for the answer as a whole.
        reason: What is wrong and how to fix it.
    """

    def __init__(self, block: int | None, reason: str) -> None:
        self.block = block
        self.reason = reason
        where = f"edit block {block}" if block is not None else "edit"
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class EditBlock:
    """One SEARCH/REPLACE block.

    Attributes:
        index: Position in the answer, 1-based.
        search: The lines to find.
        replace: The lines to put in their place.
    """

    index: int
    search: tuple[str, ...]
    replace: tuple[str, ...]


@dataclass(frozen=True)
class EditResult:
    """An applied edit.

    Attributes:
        text: The parent with every block applied.
        spans: Per applied block, the replaced lines of the parent ``(start, end)``, 0-based,
            end exclusive, in parent order.
        notes: Remarks (a whitespace-insensitive match, a dropped duplicate or no-op block).
    """

    text: str
    spans: tuple[tuple[int, int], ...]
    notes: tuple[str, ...] = ()


def has_edit_blocks(answer: str) -> bool:
    """Whether the answer holds at least one SEARCH marker line."""
    return any(_SEARCH.match(line) for line in answer.splitlines())


def parse_edit_blocks(answer: str) -> list[EditBlock]:
    """The blocks of an answer (reasoning and code fences around them are ignored).

    Raises:
        EditError: a block without its divider or REPLACE marker, or no block at all.
    """
    text = _THINK.sub("", answer.replace("\r\n", "\n"))
    blocks: list[EditBlock] = []
    state = "out"
    search: list[str] = []
    replace: list[str] = []
    for line in text.split("\n"):
        if state == "out":
            if _SEARCH.match(line):
                state, search, replace = "search", [], []
            continue
        if state == "search":
            if _DIVIDER.match(line):
                state = "replace"
            elif _SEARCH.match(line) or _REPLACE.match(line):
                raise EditError(
                    len(blocks) + 1,
                    "the block has no ======= line between its SEARCH and REPLACE parts",
                )
            else:
                search.append(line)
            continue
        if _REPLACE.match(line):
            blocks.append(EditBlock(len(blocks) + 1, tuple(search), tuple(replace)))
            state = "out"
        elif _SEARCH.match(line) or _DIVIDER.match(line):
            raise EditError(len(blocks) + 1, "the block does not end with a >>>>>>> REPLACE line")
        else:
            replace.append(line)
    if state != "out":
        # an answer cut off by the token limit, or a closing fence in place of the marker
        raise EditError(len(blocks) + 1, "the block does not end with a >>>>>>> REPLACE line")
    if not blocks:
        raise EditError(None, "the answer holds no <<<<<<< SEARCH block")
    return [_strip_fences(b) for b in blocks]


def _strip_fences(b: EditBlock) -> EditBlock:
    """Drop fence lines a model put inside a block (```verilog ... ```)."""

    def clean(lines: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(line for line in lines if not _FENCE.match(line))

    return EditBlock(b.index, clean(b.search), clean(b.replace))


def _norm_exact(line: str) -> str:
    return line


def _norm_trailing(line: str) -> str:
    return line.rstrip()


def _norm_space(line: str) -> str:
    return " ".join(line.split())


_LEVELS = (
    ("exact", _norm_exact),
    ("trailing whitespace ignored", _norm_trailing),
    ("whitespace ignored", _norm_space),
)


def _trim_blank_edges(lines: tuple[str, ...]) -> tuple[str, ...]:
    """SEARCH without leading/trailing blank lines (models add them around fences)."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _find(parent: Sequence[str], search: Sequence[str]) -> tuple[list[int], str]:
    """Start lines where ``search`` matches, at the first level with any match."""
    k = len(search)
    for label, norm in _LEVELS:
        want = [norm(s) for s in search]
        normed = [norm(p) for p in parent]
        first = want[0]
        hits = [
            i
            for i in range(len(parent) - k + 1)
            if normed[i] == first and normed[i : i + k] == want
        ]
        if hits:
            return hits, label
    return [], ""


def _reindent(search: Sequence[str], parent: Sequence[str], replace: Sequence[str]) -> list[str]:
    """REPLACE shifted by the indentation the SEARCH lacked (or had in excess)."""
    for s, p in zip(search, parent, strict=True):
        if s.strip():
            s_ind = s[: len(s) - len(s.lstrip())]
            p_ind = p[: len(p) - len(p.lstrip())]
            break
    else:
        return list(replace)
    if s_ind == p_ind:
        return list(replace)
    if p_ind.endswith(s_ind):  # SEARCH lacked a prefix: add it
        add = p_ind[: len(p_ind) - len(s_ind)]
        return [add + r if r.strip() else r for r in replace]
    if s_ind.endswith(p_ind):  # SEARCH had too much: remove it where present
        extra = s_ind[: len(s_ind) - len(p_ind)]
        return [r[len(extra) :] if r.startswith(extra) else r for r in replace]
    return list(replace)


def _closest(parent: Sequence[str], search: Sequence[str]) -> tuple[int, int] | None:
    """The parent lines most similar to ``search`` (0-based start, end exclusive)."""
    k = len(search)
    if not parent or k == 0:
        return None
    firsts = {_norm_space(s) for s in search if s.strip()}
    starts: set[int] = set()
    normed = [_norm_space(p) for p in parent]
    for line in firsts:
        for m in difflib.get_close_matches(line, normed, n=5, cutoff=0.6):
            for i, p in enumerate(normed):
                if p == m:
                    starts.update(range(max(0, i - k + 1), i + 1))
    if not starts:
        return None
    target = "\n".join(_norm_space(s) for s in search)
    best, best_ratio = None, 0.0
    for i in sorted(starts)[:400]:
        window = "\n".join(normed[i : i + k])
        ratio = difflib.SequenceMatcher(None, target, window, autojunk=False).ratio()
        if ratio > best_ratio:
            best, best_ratio = (i, min(len(parent), i + k)), ratio
    return best if best_ratio >= 0.5 else None


def _lines_label(start: int, end: int) -> str:
    return f"line {start + 1}" if end - start <= 1 else f"lines {start + 1}-{end}"


def apply_edits(parent: str, blocks: Sequence[EditBlock]) -> EditResult:
    """Apply ``blocks`` to ``parent`` (see the module docstring for the rules).

    Raises:
        EditError: a block does not apply (not found, ambiguous, empty, holds an omission
            marker, overlaps another block).
    """
    lines = parent.split("\n")
    trailing_newline = parent.endswith("\n")
    if trailing_newline:
        lines = lines[:-1]
    placed: list[tuple[int, int, EditBlock, list[str]]] = []
    notes: list[str] = []
    for b in blocks:
        search = _trim_blank_edges(b.search)
        if not search:
            raise EditError(
                b.index, "its SEARCH part is empty: copy the lines to change from the code shown"
            )
        if any(OMISSION_MARKER.match(s) for s in search):
            raise EditError(
                b.index,
                "its SEARCH part holds an omission marker (`// ... lines "
                "omitted`): SEARCH may only hold lines of the code itself",
            )
        hits, level = _find(lines, search)
        if not hits:
            near = _closest(lines, search)
            hint = (
                f"; the closest are {_lines_label(*near)}: copy them exactly"
                if near
                else "; copy the lines exactly from the code shown"
            )
            head = next(s for s in search if s.strip()).strip()
            raise EditError(
                b.index, f"its SEARCH text was not found (first line `{head[:80]}`){hint}"
            )
        if len(hits) > 1:
            where = ", ".join(str(h + 1) for h in hits[:6])
            more = f" and {len(hits) - 6} more" if len(hits) > 6 else ""
            raise EditError(
                b.index,
                f"its SEARCH text matches {len(hits)} places (starting at "
                f"lines {where}{more}): add surrounding lines to make it unique",
            )
        start = hits[0]
        end = start + len(search)
        replace = list(b.replace)
        if level != "exact":
            notes.append(f"block {b.index} matched {_lines_label(start, end)} with {level}")
            if level == "whitespace ignored":
                replace = _reindent(search, lines[start:end], _trim_blank_edges(b.replace))
        placed.append((start, end, b, replace))
    placed.sort(key=lambda p: (p[0], p[1], p[2].index))
    kept: list[tuple[int, int, EditBlock, list[str]]] = []
    for p in placed:
        if kept and p[0] < kept[-1][1]:
            q = kept[-1]
            if (p[0], p[1]) == (q[0], q[1]) and p[3] == q[3]:
                notes.append(f"block {p[2].index} repeats block {q[2].index}; dropped")
                continue
            one, two = sorted((q, p), key=lambda x: x[2].index)
            raise EditError(
                two[2].index,
                f"it overlaps block {one[2].index} "
                f"({_lines_label(one[0], one[1])} and "
                f"{_lines_label(two[0], two[1])}): merge them into one block",
            )
        kept.append(p)
    out = list(lines)
    spans: list[tuple[int, int]] = []
    for start, end, b, replace in reversed(kept):
        if replace == lines[start:end]:
            notes.append(f"block {b.index} changes nothing")
            continue
        out[start:end] = replace
        spans.append((start, end))
    text = "\n".join(out) + ("\n" if trailing_newline else "")
    return EditResult(text, tuple(reversed(spans)), tuple(notes))


def changed_lines(old: str, new: str, *, limit: int = 2000) -> tuple[int, ...]:
    """0-based lines of ``new`` that differ from ``old`` (inserted or replaced), at most
    ``limit``; for a deletion, the line after it. Used to focus the next prompt on the edit."""
    a, b = old.splitlines(), new.splitlines()
    out: list[int] = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, _i1, _i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        out.extend(range(j1, j2) if j2 > j1 else [min(j1, max(0, len(b) - 1))])
        if len(out) >= limit:
            break
    return tuple(sorted(set(out)))[:limit]
