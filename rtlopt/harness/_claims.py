"""What a kept case or if qualifier claims, read from slang's elaboration in the design.

Every tool here reads a ``unique``/``unique0``/``priority`` statement as the plain one, but a
synthesis tool reading the written text may give any value where the claim fails: for
``unique``/``priority``, "some item matches whenever the statement runs"; for
``unique``/``unique0``, "at most one item matches". The equivalence proof says nothing about
that freedom, so a candidate may keep a qualifier only where its claim is established:

- **holds**: the claim is true for every value of the statement's expression, from the
  candidate's own elaboration (its expression's width and signedness, each label's constant
  value, packages and parameters evaluated): constant labels without overlap (``casez``/
  ``casex`` wildcards read as the case kind reads them), and a ``default`` item or labels
  that cover every value of the expression; a ``priority if`` with a final ``else``. Such a
  qualifier never leaves a value open, whatever the reference holds.
- **anything else is unchecked**: a claim that leaves some value open is not taken from the
  reference, even the same claim on the same inputs: its statement may run (and its output
  be seen) where the reference's did not, and synthesis may then give any value there. A
  candidate drops such a qualifier (the plain statement is what every tool here proved).
- the reference's own text (:func:`rtlopt.harness.same_as_reference`) is the same design.

Both sides are read under each parameterization of the target the repository elaborates (the
defaults, then each parent's values: the ones the equivalence proof covers). A statement in a
generate block such a setting leaves out is not read in it; one the elaboration does not
reach otherwise (a module slang cannot elaborate) or a text slang cannot read leaves its
qualifiers unchecked (fail closed).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.frontend._slang import compilation_options
from rtlopt.frontend.model import Design
from rtlopt.harness._reference import target_context_text
from rtlopt.harness._screen import same_as_reference
from rtlopt.verilog import blank_comments, blank_spans, line_of

__all__ = ["Claim", "claim_problems", "settings", "text_claims"]

#: A qualifier word (a text without one claims nothing).
_QUALIFIER = re.compile(r"\b(?:unique0?|priority)\b")
#: The buffer name of the candidate's text in its elaboration.
_PROBE = "rtlopt_claims_candidate.sv"
#: Widest case expression whose values are enumerated for coverage (wider: counted when no
#: label has a wildcard).
_ENUMERATED_BITS = 12
_WHY = (
    "a unique/unique0/priority qualifier is kept only where its claim is established: "
    "constant labels that never overlap and cover every value of the expression (or a "
    "default item) or a priority if with a final else; "
    "synthesis of the written text may give any value where no item matches or items "
    "overlap, and every tool here reads the plain statement; drop the qualifier"
)


@dataclass(frozen=True)
class Claim:
    """One elaborated qualified statement.

    Attributes:
        buffer: The file (buffer name) of its text.
        offset: Its start in that buffer.
        holds: Its claim is true for every value of its expression.
    """

    buffer: str
    offset: int
    holds: bool


def _pattern(e: Any, root: Any, kind: str) -> tuple[int, int] | None:
    """A constant label as ``(value, care mask)`` at its elaborated width (wildcard bits not
    cared for, as the case kind reads them); None for no constant or a bit that never
    matches a two-state value."""
    import pyslang
    from pyslang import ast

    v = e.eval(ast.EvalContext(root))
    if not v or not isinstance(v.value, pyslang.SVInt):
        return None
    width = int(v.value.bitWidth)
    digits = v.value.toString(pyslang.LiteralBase.Binary, False).lower()
    if digits.startswith("-"):  # a negative signed value: its two's complement
        if not set(digits[1:]) <= {"0", "1"}:
            return None
        digits = format((1 << width) - int(digits[1:], 2), "b")
    digits = digits.rjust(width, "0")
    wild = {"Normal": "", "WildcardJustZ": "z", "WildcardXOrZ": "xz"}.get(kind)
    if wild is None or len(digits) != width:
        return None
    value = care = 0
    for d in digits:
        value, care = value << 1, care << 1
        if d in wild:
            continue
        if d not in "01":
            return None
        value, care = value | int(d), care | 1
    return value, care


def _extent(stmt: Any) -> tuple[int, int, bool] | None:
    """The case expression's own width, the statement's compared width and whether the
    expression is sign-extended to it; None for a width this reading does not judge."""
    from pyslang import ast

    inner = stmt.expr
    while inner.kind == ast.ExpressionKind.Conversion:
        inner = inner.operand
    own, width = int(inner.type.bitWidth), int(stmt.expr.type.bitWidth)
    if own <= 0 or width < own:
        return None
    return own, width, bool(stmt.expr.type.isSigned and inner.type.isSigned)


def _covers(pats: list[tuple[int, int]], own: int, width: int, signed: bool) -> bool:
    """Every value of an ``own``-bit expression, extended to ``width`` bits, matches one of
    ``pats``."""
    span = 1 << own
    low = 1 << (own - 1)

    def extended(v: int) -> int:
        return (v - span + (1 << width)) if signed and v & low else v

    if all(c == (1 << width) - 1 for _, c in pats):  # no wildcard: count the values hit
        hit = {v for v, _ in pats}
        inside = {v for v in hit if (v < low if signed else v < span)}
        inside |= {v for v in hit if signed and v >= (1 << width) - low}
        return len(inside) == span
    if own > _ENUMERATED_BITS:
        return False
    return all(any((extended(v) ^ pv) & pc == 0 for pv, pc in pats) for v in range(span))


def _case_holds(stmt: Any, root: Any) -> bool:
    """The case statement's claim is true for every value of its expression."""
    kind = str(stmt.condition).rsplit(".", 1)[-1]
    check = str(stmt.check).rsplit(".", 1)[-1]
    patterns = [_pattern(e, root, kind) for g in stmt.items for e in g.expressions]
    if not patterns or any(p is None for p in patterns):
        return False
    pats = [p for p in patterns if p is not None]
    if check in ("Unique", "Unique0"):
        for i, (v1, c1) in enumerate(pats):
            if any((v1 ^ v2) & c1 & c2 == 0 for v2, c2 in pats[i + 1 :]):
                return False
    if check == "Unique0" or stmt.defaultCase is not None:
        return True
    extent = _extent(stmt)
    return extent is not None and _covers(pats, *extent)


def _holds(stmt: Any, root: Any) -> bool:
    """Whether the statement's claim holds for every value of what it reads: a case (see
    :func:`_case_holds`), or a ``priority if`` whose chain ends in an ``else``."""
    from pyslang import ast

    if isinstance(stmt, ast.CaseStatement):
        return _case_holds(stmt, root)
    node = stmt
    while True:
        other = node.ifFalse
        if other is None:
            return False
        if not isinstance(other, ast.ConditionalStatement) or str(other.check).endswith(
            ("Unique", "Unique0", "Priority")
        ):
            return str(stmt.check).rsplit(".", 1)[-1] == "Priority"
        node = other


def _claims(comp: Any) -> tuple[list[Claim], list[tuple[str, int, int]]]:
    """Every qualified case and if statement ``comp`` elaborates (generate blocks it leaves
    uninstantiated aside), and those blocks as ``(file, start, end)``."""
    from pyslang import ast

    sm = comp.sourceManager
    root = comp.getRoot()
    found: list[Any] = []
    dead: list[tuple[str, int, int]] = []

    def each(node: Any) -> Any:
        if isinstance(node, ast.InstanceBodySymbol | ast.ClassType) and node.isUninstantiated:
            # a definition nothing in the elaborated design instantiates (slang elaborates
            # every definition to report its errors): no statement of it is reached
            return ast.VisitAction.Skip
        if isinstance(node, ast.GenerateBlockSymbol) and node.isUninstantiated:
            syn = node.syntax
            if syn is not None:
                r = syn.sourceRange
                dead.append((str(sm.getFullPath(r.start.buffer)), r.start.offset, r.end.offset))
            # not built here; another instance (a loop's other iteration) of the same text
            # may be, and its statements are judged there
            return ast.VisitAction.Skip
        if isinstance(node, ast.CaseStatement | ast.ConditionalStatement):
            if not str(node.check).endswith("None_") and node.syntax is not None:
                found.append(node)
        return ast.VisitAction.Advance

    root.visit(each)
    out: list[Claim] = []
    for stmt in found:
        name, at = _site(sm, stmt.syntax.sourceRange.start)
        out.append(Claim(name, at, _holds(stmt, root)))
    return out, dead


def _site(sm: Any, loc: Any) -> tuple[str, int]:
    """Where the text at ``loc`` is written in a file the unit names: a macro's expansion at
    the place the macro is used, a header's text at the place it is included."""
    for _ in range(256):
        loc = sm.getFullyExpandedLoc(loc)
        up = sm.getIncludedFrom(loc.buffer)
        if not up.buffer.id:  # a buffer no include directive read
            break
        loc = up
    return str(sm.getFullPath(loc.buffer)), int(loc.offset)


def _library(design: Design) -> list[Path]:
    """The files the elaboration reads: the target's closure and every source file (its
    packages) but one that defines another module of the target's name (a copy beside it)."""
    target = design.target
    other = re.compile(rf"\bmodule\s+(?:(?:static|automatic)\s+)?{re.escape(target.name)}\b")
    out = [target.file, *design.closure]
    for path in design.sources.files:
        if path in out:
            continue
        try:
            text = blank_comments(path.read_text(errors="replace"))
        except OSError:
            continue
        if other.search(text) is None:
            out.append(path)
    return list(dict.fromkeys(out))


def _compile(design: Design, probe: str | None, overrides: tuple[str, ...]) -> Any:
    """The repository elaborated with the target as the top, or, with ``probe``, that text
    in the target module's place (its file's other units kept, the target file's macros in
    front of it)."""
    import pyslang
    from pyslang import ast, syntax

    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor(design.include_dirs, design.defines)
    copts = compilation_options()
    copts.topModules = {design.target.name}
    if overrides:
        copts.paramOverrides = list(overrides)
    bag = pyslang.Bag([popts, copts])
    comp = ast.Compilation(bag)
    target = design.target
    for path in _library(design):
        bufs = [sm.readSource(str(p)) for p in design.prelude if p != path]
        if probe is not None and path == target.file:
            text = blank_spans(path.read_text(errors="replace"), [(target.start, target.end)])
            bufs.append(sm.assignText(str(path), text))
        else:
            bufs.append(sm.readSource(str(path)))
        comp.addSyntaxTree(syntax.SyntaxTree.fromBuffers(bufs, sm, bag))
    if probe is not None:
        bufs = [sm.readSource(str(p)) for p in design.prelude]
        bufs.append(sm.assignText("rtlopt_claims_context.svh", target_context_text(design)))
        bufs.append(sm.assignText(_PROBE, probe))
        comp.addSyntaxTree(syntax.SyntaxTree.fromBuffers(bufs, sm, bag))
    comp.getAllDiagnostics()
    return comp


def text_claims(code: str, design: Design, overrides: tuple[str, ...] = ()) -> list[Claim]:
    """The qualified statements of ``code`` (the candidate's module) elaborated in the
    target's place in the design (with the parameter ``overrides``); one the elaboration
    does not reach outside a generate block it leaves out holds nothing
    (key ``not elaborated``).

    Raises:
        RuntimeError: slang cannot read or elaborate it.
    """
    return _read_candidate(code, design, overrides)[0]


def _read_candidate(
    code: str, design: Design, overrides: tuple[str, ...]
) -> tuple[list[Claim], list[Claim]]:
    """:func:`text_claims`, and the qualified statements elsewhere (repository modules the
    candidate instantiates, packages' subroutines) whose claim is not shown to hold.

    Raises:
        RuntimeError: slang cannot read or elaborate it.
    """
    try:
        found, dead = _claims(_compile(design, code, overrides))
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        raise RuntimeError(str(exc)) from exc
    mine = [c for c in found if Path(c.buffer).name == _PROBE]
    elsewhere = [c for c in found if Path(c.buffer).name != _PROBE and not c.holds]
    dead_here = [(a, b) for f, a, b in dead if Path(f).name == _PROBE]
    seen = {c.offset for c in mine}
    for at in _written(code):  # written, not in a block the defaults leave out, not read
        if at not in seen and not any(a <= at < b for a, b in dead_here):
            mine.append(Claim(_PROBE, at, False))  # not elaborated: no claim established
    return mine, elsewhere


def _qualified_elsewhere(design: Design) -> bool:
    """Whether a file of the repository other than the target's text (a module the candidate
    may instantiate, a package whose subroutine it may call, a header, a macro) writes a
    qualifier word; once per design."""
    t = design.target

    def read() -> bool:
        files = [*design.prelude, *design.closure, *design.sources.files]
        for folder in dict.fromkeys([t.file.parent, *design.include_dirs]):
            try:
                files += [f for f in folder.iterdir() if f.suffix in (".vh", ".svh", ".h")]
            except OSError:
                continue
        for f in dict.fromkeys(Path(x) for x in files):
            try:
                text = f.read_text(errors="replace")
            except OSError:
                continue
            if f.resolve() == t.file.resolve():
                text = blank_spans(text, [(t.start, t.end)])
            if _QUALIFIER.search(blank_comments(text)):
                return True
        return False

    got: bool = _cached(design, ("qualified elsewhere",), read)
    return got


def _written(code: str) -> list[int]:
    """The offsets of the qualified case and if statements of ``code`` by its syntax."""
    from rtlopt.harness._readings import parse
    from rtlopt.harness._semantics import _children, _kind

    tree, shift = parse(code)
    out: list[int] = []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if _kind(node) in ("CaseStatement", "ConditionalStatement"):
            if str(node.uniqueOrPriority.valueText):
                # a qualifier through a macro: where the macro is used
                out.append(_site(tree.sourceManager, node.sourceRange.start)[1] - shift)
        stack.extend(_children(node))
    return out


#: Per design (kept while it is the same object): the parameter overrides of each
#: parameterization the repository elaborates.
_CACHE: dict[int, tuple[Design, dict[tuple[str, ...], Any]]] = {}


def _cached(design: Design, key: tuple[str, ...], compute: Callable[[], Any]) -> Any:
    hit = _CACHE.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_CACHE) > 8:
            _CACHE.clear()
        hit = _CACHE[id(design)] = (design, {})
    if key not in hit[1]:
        try:
            hit[1][key] = compute()
        except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
            hit[1][key] = RuntimeError(str(exc))
    got = hit[1][key]
    if isinstance(got, RuntimeError):
        raise got
    return got


def settings(design: Design) -> list[tuple[str, ...]]:
    """The parameter overrides under which the claims are read: none (the defaults), then
    each other parameterization of the target the repository's tops elaborate (an enum
    parameter's value cast to its type).

    Raises:
        RuntimeError: slang cannot elaborate the repository.
    """
    from rtlopt.frontend._enum_params import enum_parameters, typed_overrides
    from rtlopt.frontend._params import parameterizations

    def read() -> list[tuple[str, ...]]:
        found = parameterizations(design)
        if len(found) < 2:
            return [()]
        tops = _compile(design, None, ()).getRoot().topInstances
        enums = next((enum_parameters(t) for t in tops if t.name == design.target.name), {})
        out: list[tuple[str, ...]] = [()]
        for pz in found[1:]:
            out.append(tuple(typed_overrides([f"{k}={v}" for k, v in pz.values], enums)))
        return list(dict.fromkeys(out))

    got: list[tuple[str, ...]] = _cached(design, ("settings",), read)
    return got


def claim_problems(code: str, design: Design) -> list[tuple[int, str]]:
    """``(line, why)`` of each qualified statement of the candidate's ``code`` whose claim is
    not established under one of the target's parameterizations (see the module
    docstring); one problem on line 1 when the candidate or the reference cannot be
    elaborated."""
    if same_as_reference(code, design):
        return []  # the reference's own text: the same design claims the same
    blank = blank_comments(code)
    out: list[tuple[int, str]] = []
    try:
        if not (_QUALIFIER.search(blank) or "`" in blank or _qualified_elsewhere(design)):
            return []  # no qualifier the candidate writes (by a macro or a header) or reaches
        for overrides in settings(design):
            mine, elsewhere = _read_candidate(code, design, overrides)
            out += [(line_of(code, c.offset), _WHY) for c in mine if not c.holds]
            out += [(1, _elsewhere_why(c)) for c in elsewhere]
    except RuntimeError as exc:
        return [(1, f"the case qualifiers' claims cannot be read ({exc}); drop the qualifiers")]
    return sorted(set(out))


def _elsewhere_why(c: Claim) -> str:
    try:
        where = (
            f"{Path(c.buffer).name}:{line_of(Path(c.buffer).read_text(errors='replace'), c.offset)}"
        )
    except OSError:
        where = Path(c.buffer).name
    return (
        f"the design reaches a unique/unique0/priority statement at {where} whose claim is "
        "not shown to hold for every value: the candidate "
        "may drive it where the claim fails, and synthesis of the written design may then "
        "give any value (a repository statement: the candidate cannot drop its qualifier)"
    )
