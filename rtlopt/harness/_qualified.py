"""Case and if qualifiers the SystemVerilog view would still read.

Every tool reads ``unique``/``unique0``/``priority`` case and if statements as plain ones (as
a simulator does: :func:`rtlopt.verilog.plain_case_qualifiers`); on the view path slang reads
copies of the files with them blanked (:mod:`rtlopt.eda._slang`). A qualifier that reaches
slang through a repository macro (```define U unique`` ... ```U case (s)``) or an included
file is not in the copy's text, so the view would read a value no item matches as x, which a
candidate could then refine to anything.

:func:`view_qualifiers` finds them: the qualifier tokens slang parses from the stripped text
in the design's context (macros and includes expanded). A candidate with one is screened out;
a reference with one is unchecked on the view path (:func:`reference_qualifiers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rtlopt.frontend.model import Design
from rtlopt.harness._expanded import parsed
from rtlopt.harness._semantics import _children, _kind
from rtlopt.verilog import blank_comments, line_of, plain_case_qualifiers

__all__ = ["qualifier_problems", "reference_qualifiers", "view_qualifiers"]

_STATEMENTS = frozenset({"CaseStatement", "ConditionalStatement"})
_WHY = (
    "a unique/unique0/priority qualifier that comes from a macro or an included file is not "
    "allowed: the SystemVerilog view would read a value no item matches as x, every "
    "simulator keeps the value before (write the qualifier in the text, or drop it)"
)


def _main_offset(sm: Any, loc: Any) -> int | None:
    """The offset in the main buffer (``candidate.sv``) where ``loc`` comes from: its macro
    expansion's use, then the ``include`` lines that brought its file in."""
    loc = sm.getFullyExpandedLoc(loc)
    for _ in range(64):  # include depth: slang itself stops far below this
        if sm.getFileName(loc) == "candidate.sv":
            return int(loc.offset)
        loc = sm.getFullyExpandedLoc(sm.getIncludedFrom(loc.buffer))
        if not sm.isFileLoc(loc):
            return None
    return None


def view_qualifiers(text: str, design: Design) -> list[int]:
    """Lines of ``text`` whose case or if statement the view reads with a qualifier although
    the text is stripped of its own (:func:`plain_case_qualifiers`): one from a macro or an
    included file, in the design's context.

    Raises:
        RuntimeError: slang cannot read the text in the design's context.
    """
    plain = plain_case_qualifiers(text)
    if "`" not in blank_comments(plain):
        return []  # no macro, no include: the copy slang reads holds none
    tree, sm, head = parsed(plain, design)
    lines: list[int] = []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if _kind(node) in _STATEMENTS:
            tok = node.uniqueOrPriority
            if tok is not None and str(tok.valueText):
                at = _main_offset(sm, tok.location)
                if at is not None and at >= head:
                    lines.append(line_of(plain, at - head))
        stack.extend(_children(node))
    return sorted(set(lines))


def qualifier_problems(text: str, design: Design) -> list[tuple[int, str]]:
    """A candidate's qualifiers the view would read (:func:`view_qualifiers`) as problems
    (one that slang cannot read in the design's context is judged by the compile stage)."""
    try:
        return [(line, _WHY) for line in view_qualifiers(text, design)]
    except RuntimeError:
        return []


_DESIGNS: dict[int, tuple[object, list[tuple[int, str]]]] = {}


def reference_qualifiers(design: Design, texts: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """The first qualifier the view would read in the reference modules ``texts``, as an
    "unchecked" problem on the candidate's line 1 (fail closed: a module slang cannot read in
    the design's context is unchecked too). Computed once per ``design``."""
    hit = _DESIGNS.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_DESIGNS) > 8:
            _DESIGNS.clear()
        found: list[tuple[int, str]] = []
        for code in texts():
            try:
                lines = view_qualifiers(code, design)
            except RuntimeError as exc:
                found = [(1, f"unchecked: the reference module's case qualifiers ({exc})")]
                break
            if lines:
                found = [(1, f"unchecked: the reference module, line {lines[0]}: {_WHY}")]
                break
        hit = _DESIGNS[id(design)] = (design, found)
    return hit[1]
