"""Case and if qualifiers the SystemVerilog view would still read.

Every tool reads ``unique``/``unique0``/``priority`` case and if statements as plain ones (as
a simulator does: :func:`rtlopt.verilog_plain.plain_case_qualifiers`); on the view path slang reads
copies of the files with them blanked (:mod:`rtlopt.eda._slang`). A qualifier that reaches
slang through a repository macro (```define U unique`` ... ```U case (s)``) or is written in
an included header (read where it is) is not stripped, so the view would read a value no
item matches as x, which a candidate could then refine to anything.

:func:`view_qualifiers` finds them: the qualifier tokens slang parses from the stripped text
in the design's context (macros and includes expanded). A candidate with one is screened out;
a reference with one is unchecked on the view path (:func:`reference_qualifiers`).
:func:`file_qualifiers` finds them in files slang reads directly (a design's packages, read
in order in one compilation unit): the evaluation leaves a candidate whose view reads one
unchecked (``evaluate/_view.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rtlopt.frontend.model import Design
from rtlopt.harness._expanded import parsed
from rtlopt.harness._semantics import _children, _kind, once_per_design
from rtlopt.verilog import blank_comments, line_of
from rtlopt.verilog_plain import plain_case_qualifiers

__all__ = [
    "QUALIFIER_WHY",
    "file_qualifiers",
    "moved_qualifiers",
    "qualifier_problems",
    "reference_qualifiers",
    "view_qualifiers",
]

_STATEMENTS = frozenset({"CaseStatement", "ConditionalStatement"})
#: Preprocessor errors after which :func:`file_qualifiers` has not read what slang reads.
_UNREAD = frozenset({"CouldNotOpenIncludeFile", "UnknownDirective", "ExceededMaxIncludeDepth"})
_WHY = (
    "a unique/unique0/priority qualifier that comes from a macro or an included file is not "
    "allowed: the SystemVerilog view would read a value no item matches as x, every "
    "simulator keeps the value before (write the qualifier in the text, or drop it)"
)
#: Why a qualifier from a macro or an included file is refused (for messages of other layers).
QUALIFIER_WHY = _WHY


def _origin(sm: Any, loc: Any, prelude: frozenset[str]) -> tuple[int, str] | None:
    """Where a qualifier token at ``loc`` comes from when slang's copies would still hold it:
    ``(offset in the main buffer, "")`` for one a macro or an ``include`` line of the text
    brings in, ``(-1, file name)`` for one in a header of the design's context; None for one
    written in a prelude file (its copy is stripped)."""
    macro = bool(sm.isMacroLoc(loc))
    loc = sm.getFullyExpandedLoc(loc)
    if not macro and str(sm.getFullPath(loc.buffer)) in prelude:
        return None
    name = str(sm.getFullPath(loc.buffer))
    for _ in range(64):  # include depth: slang itself stops far below this
        if sm.getFileName(loc) == "candidate.sv":
            return int(loc.offset), name
        loc = sm.getFullyExpandedLoc(sm.getIncludedFrom(loc.buffer))
        if not sm.isFileLoc(loc):
            break
    return -1, name


def view_qualifiers(text: str, design: Design, context: bool = False) -> list[tuple[int, str]]:
    """The case and if qualifiers the view reads where ``text`` stripped of its own
    (:func:`plain_case_qualifiers`) is read in the design's context: ``(line, "")`` for one a
    macro or an included file brings into the text's line, ``(0, file)`` for one outside it
    (a header the context includes; a prelude file's own qualifiers are stripped). Unless
    ``context`` (the design's context is judged too), a text without a backtick is skipped.

    Raises:
        RuntimeError: slang cannot read the text in the design's context.
    """
    plain = plain_case_qualifiers(text)
    if not context and "`" not in blank_comments(plain):
        return []  # no macro, no include: the copy slang reads holds none
    tree, sm, head = parsed(plain, design)
    prelude = frozenset(str(p.resolve()) for p in design.sources.prelude)
    found: set[tuple[int, str]] = set()
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if _kind(node) in _STATEMENTS:
            tok = node.uniqueOrPriority
            where = _origin(sm, tok.location, prelude) if str(tok.valueText) else None
            if where is not None:
                at, name = where
                found.add((line_of(plain, at - head), "") if at >= head else (0, name))
        stack.extend(_children(node))
    return sorted(found)


def file_qualifiers(files: Sequence[Path], design: Design) -> list[tuple[Path, int]]:
    """The case and if qualifiers the view reads in ``files`` read as slang reads them: in
    order, one compilation unit, each file's own qualifiers stripped (as in slang's copies),
    the design's include folders and defines and ``SYNTHESIS``. ``(file, line)`` of each one a
    macro or an included header brings into one of ``files`` (where it is used, or the
    ``include`` line), sorted.

    Raises:
        RuntimeError: slang cannot read the files.
    """
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._slang import preprocessor

    paths = [Path(f).resolve() for f in files]
    if not paths:
        return []
    own = frozenset(str(p) for p in paths)
    defines = {"SYNTHESIS": "", **design.sources.defines}
    dirs = [*dict.fromkeys(p.parent for p in paths), *design.include_dirs]
    sm, popts = preprocessor([*dirs, design.target.file.parent], defines)
    try:
        buffers = [
            sm.assignText(str(p), plain_case_qualifiers(p.read_text(errors="replace")))
            for p in dict.fromkeys(paths)
        ]
        tree = syntax.SyntaxTree.fromBuffers(buffers, sm, pyslang.Bag([popts]))
    except Exception as exc:  # pyslang's bindings raise plain errors; OSError likewise
        raise RuntimeError(str(exc)) from exc
    for diag in tree.diagnostics:
        # a header or macro this reading misses may hold one: slang's own reading fails there
        if str(diag.code).removeprefix("DiagCode(").rstrip(")") in _UNREAD:
            at = diag.location
            where = f"{Path(str(sm.getFullPath(at.buffer))).name}:{sm.getLineNumber(at)}"
            raise RuntimeError(f"{where}: {str(diag.code)[9:-1]}")
    found: set[tuple[Path, int]] = set()
    stack: list[Any] = [tree.root]
    while stack:
        node = stack.pop()
        if _kind(node) in _STATEMENTS and str(node.uniqueOrPriority.valueText):
            loc = sm.getFullyExpandedLoc(node.uniqueOrPriority.location)
            for _ in range(64):  # include depth: slang itself stops far below this
                if str(sm.getFullPath(loc.buffer)) in own or not sm.isFileLoc(loc):
                    break
                loc = sm.getFullyExpandedLoc(sm.getIncludedFrom(loc.buffer))
            # a file's own are stripped: one that is still read came from a macro or header
            found.add((Path(str(sm.getFullPath(loc.buffer))), int(sm.getLineNumber(loc))))
        stack.extend(_children(node))
    return sorted(found)


def qualifier_problems(text: str, design: Design) -> list[tuple[int, str]]:
    """A candidate's qualifiers the view would read (:func:`view_qualifiers`) as problems
    (one that slang cannot read in the design's context is judged by the compile stage)."""
    try:
        return [(line, _WHY) for line, _ in view_qualifiers(text, design) if line]
    except RuntimeError:
        return []


_DESIGNS: dict[int, tuple[object, list[tuple[int, str]]]] = {}


def reference_qualifiers(design: Design, texts: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """The first qualifier the view would read in the reference modules ``texts``, as an
    "unchecked" problem on the candidate's line 1 (fail closed: a module slang cannot read in
    the design's context is unchecked too). Computed once per ``design``."""

    def first() -> list[tuple[int, str]]:
        for code in texts():
            try:
                lines = view_qualifiers(code, design, context=True)
            except RuntimeError as exc:
                return [(1, f"unchecked: the reference module's case qualifiers ({exc})")]
            if lines:
                line, name = lines[0]
                where = f"line {line}" if line else f"through {Path(name).name}"
                return [(1, f"unchecked: the reference module, {where}: {_WHY}")]
        return []

    return once_per_design(_DESIGNS, design, first)


def _signature(node: Any) -> str:
    """What decides where a qualified statement leaves values open to synthesis: a case's
    qualifier, keyword, expression and item labels (``default`` too); an if chain's qualifier,
    conditions and final ``else``. The item bodies do not."""
    parts = [str(node.uniqueOrPriority.valueText)]
    if _kind(node) == "CaseStatement":
        parts += [str(node.caseKeyword), str(node.expr)]
        for item in _children(node.items):
            if _kind(item) == "StandardCaseItem":
                parts.append("".join(str(x) for x in item.expressions))
            else:
                parts.append(_kind(item))
    else:
        while True:
            parts.append(str(node.predicate))
            e = node.elseClause
            if e is None:
                parts.append("no else")
                break
            if _kind(e.clause) != "ConditionalStatement" or str(
                e.clause.uniqueOrPriority.valueText
            ):
                parts.append("else")
                break
            node = e.clause
    return " | ".join(" ".join(p.split()) for p in parts)


def _qualified(code: str) -> list[tuple[int, str]]:
    """``(offset, signature)`` (:func:`_signature`) of each case or if statement of ``code``
    (comments blanked) with a qualifier."""
    from rtlopt.harness._readings import parse

    tree, shift = parse(code)
    out: list[tuple[int, str]] = []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if _kind(node) in _STATEMENTS and str(node.uniqueOrPriority.valueText):
            out.append((int(node.sourceRange.start.offset) - shift, _signature(node)))
        stack.extend(_children(node))
    return out


#: A based literal (``2'd3``, ``'hA``): no name in it.
_BASED = re.compile(r"\d*\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ_?]+|'[01xXzZ]")
#: A name (a parameter, an enum member) in a signature; the qualifier words aside.
_NAME = re.compile(
    r"\b(?!(?:unique0?|priority|case[xz]?|inside|DefaultCaseItem|no else|else)\b)[A-Za-z_]\w*"
)
#: Declarations of constants and types: parameters, localparams, typedefs (enum members).
_DECLARATION = re.compile(r"\b(?:localparam|parameter|typedef)\b[^;]*;")


def _declarations(code: str) -> Counter[str]:
    """The constant and type declarations of ``code``, white space made one blank."""
    return Counter(" ".join(m.group(0).split()) for m in _DECLARATION.finditer(code))


def moved_qualifiers(code: str, references: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """Qualified statements of the candidate ``code`` (comments blanked) that no reference
    module of ``references()`` (raw texts) qualifies alike (the same :func:`_signature`:
    expression, labels, conditions): every tool here reads the plain statement, but a
    synthesis tool reading the written text may give any value where no item matches, or
    merge overlapping items, so a qualifier may only stay on a statement the reference
    qualifies with the same labels (not move to a partial case, nor to an ``if``); where a
    label names a constant, only if the candidate declares its constants and types as the
    reference does (a localparam's new value makes a full case partial). Applied where the
    claims are not read under every setting the guarantee covers: a target with parameters
    that no instance of the repository uses (its probes are the guarantee, and
    :mod:`rtlopt.harness._claims` reads the defaults and the repository's settings only)."""
    if not any(w in code for w in ("unique", "priority")):
        return []
    found = _qualified(code)
    if not found:
        return []
    refs = [blank_comments(r) for r in references()]
    allowed = Counter(t for ref in refs for _, t in _qualified(ref))
    # labels that name constants read alike only where every constant is declared alike
    same_names = _declarations(code) == _declarations("\n".join(refs))
    out: list[tuple[int, str]] = []
    for at, text in found:
        if allowed[text] > 0 and (same_names or not _NAME.search(_BASED.sub(" ", text))):
            allowed[text] -= 1
            continue
        out.append(
            (
                line_of(code, max(at, 0)),
                "a unique/unique0/priority qualifier is allowed only on a statement the "
                "reference qualifies alike (its expression and labels, or conditions): "
                "synthesis of the written "
                "text may give any value where no item matches, and every tool here reads "
                "the plain statement; drop the qualifier",
            )
        )
    return out
