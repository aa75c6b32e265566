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
- **the reference's claim**: otherwise the claim must say the same of both designs: it reads
  only the target's input ports, parameters and enum members (no call), its statement runs
  whenever its procedural block runs (no condition, loop or subroutine between them), and
  the reference's target holds such a statement with the same qualifier text
  (:func:`rtlopt.harness._qualified._signature`) and the same elaborated facts: the case
  kind, the expression's type, each label's value (a label or condition that is no constant:
  its type and the names and types it reads), the final ``else``, the block and its event
  control. Where such a claim fails, the inputs are the ones the reference's own claim says
  never come, and the reference leaves its values open there too. A claim on internal nets
  (a one-hot decode, a partial case over a state register) is the design's own: the
  candidate may drive those nets otherwise, so it is not taken from the reference.
- the reference's own text (:func:`rtlopt.harness.same_as_reference`) is the same design.

Both sides are read under each parameterization of the target the repository elaborates (the
defaults, then each parent's values: the ones the equivalence proof covers). A statement in a
generate block such a setting leaves out is not read in it; one the elaboration does not
reach otherwise (a module slang cannot elaborate) or a text slang cannot read leaves its
qualifiers unchecked (fail closed).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.frontend.model import Design
from rtlopt.harness._qualified import _signature
from rtlopt.harness._reference import reference_modules, target_context_text
from rtlopt.harness._screen import same_as_reference
from rtlopt.verilog import blank_comments, blank_spans, line_of

__all__ = ["Claim", "claim_problems", "design_claims", "settings", "text_claims"]

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
    "default item), or a claim on the module's inputs alone that the reference makes alike "
    "(same expression type and label values, in a statement its block always runs); "
    "synthesis of the written text may give any value where no item matches or items "
    "overlap, and every tool here reads the plain statement; drop the qualifier"
)


@dataclass(frozen=True)
class Claim:
    """One elaborated qualified statement.

    Attributes:
        buffer: The file (buffer name) of its text.
        offset: Its start in that buffer.
        key: Its qualifier text and elaborated facts (compared with the reference's).
        holds: Its claim is true for every value of its expression.
        moves: Its claim is a function of the top's inputs alone (parameters and enum
            members aside) and it runs whenever its procedural block runs: the same claim
            says the same of both designs (see :func:`claim_problems`).
    """

    buffer: str
    offset: int
    key: tuple[str, str]
    holds: bool
    moves: bool = False


def _shape(e: Any, root: Any) -> str:
    """An expression as the claim reads it: its type and constant value, or, when it is no
    constant, its type and the names (with their types) it reads."""
    from pyslang import ast

    v = e.eval(ast.EvalContext(root))
    if v:
        return f"{e.type} {v}"
    names: list[str] = []

    def each(x: Any) -> bool:
        if x.kind == ast.ExpressionKind.NamedValue:
            names.append(f"{x.symbol.name}:{x.type}")
        return True

    e.visit(each)
    return f"{e.type} ({' '.join(names)}) {' '.join(str(e.syntax or '').split())}"


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


def _facts(stmt: Any, root: Any) -> tuple[str, bool, list[Any]]:
    """The statement's elaborated facts, whether its claim holds for every value, and the
    expressions the claim reads (the case expression and labels, or the conditions)."""
    from pyslang import ast

    check = str(stmt.check).rsplit(".", 1)[-1]
    if isinstance(stmt, ast.CaseStatement):
        read = [stmt.expr, *(e for g in stmt.items for e in g.expressions)]
        parts = [check, str(stmt.condition), _shape(stmt.expr, root)]
        parts += [" , ".join(_shape(e, root) for e in g.expressions) for g in stmt.items]
        parts.append("default" if stmt.defaultCase is not None else "no default")
        return " | ".join(parts), _case_holds(stmt, root), read
    parts, read = [check], []
    node = stmt
    while True:
        read += [c.expr for c in node.conditions]
        parts += [_shape(c.expr, root) for c in node.conditions]
        other = node.ifFalse
        if (
            other is None
            or not isinstance(other, ast.ConditionalStatement)
            or str(other.check).endswith(("Unique", "Unique0", "Priority"))
        ):
            parts.append("no else" if other is None else "else")
            break
        node = other
    return " | ".join(parts), check == "Priority" and parts[-1] == "else", read


#: Expressions a claim read from the inputs may hold (no call: a function reads what it likes).
_PLAIN = frozenset(
    {
        "IntegerLiteral",
        "UnbasedUnsizedIntegerLiteral",
        "NamedValue",
        "UnaryOp",
        "BinaryOp",
        "ConditionalOp",
        "Concatenation",
        "Replication",
        "ElementSelect",
        "RangeSelect",
        "MemberAccess",
        "Conversion",
    }
)

#: Syntax between a statement and its procedural block that runs it whenever the block runs.
_UNCONDITIONAL = frozenset({"SequentialBlockStatement", "TimingControlStatement"})
_BLOCKS = frozenset({"AlwaysBlock", "AlwaysCombBlock", "AlwaysFFBlock", "AlwaysLatchBlock"})


def _guard(syn: Any) -> str | None:
    """The procedural block that runs statement ``syn`` each time it runs (its kind and
    event control), or None when a condition, loop or subroutine stands between them."""
    timing = ""
    node = syn.parent
    for _ in range(256):
        if node is None:
            return None
        kind = str(node.kind).rsplit(".", 1)[-1]
        if kind in _BLOCKS:
            return f"{kind} {' '.join(timing.split())}"
        if kind not in _UNCONDITIONAL:
            return None
        if kind == "TimingControlStatement":
            timing = str(node.timingControl)
        node = node.parent
    return None


def _reads_inputs_only(read: list[Any], inputs: set[tuple[str, str, int]], sm: Any) -> bool:
    """Every name ``read`` holds is an input port of the top (its internal net or variable),
    a parameter or an enum member: the claim is a function of the inputs alone."""
    from pyslang import ast

    ok = True
    constants = (ast.SymbolKind.Parameter, ast.SymbolKind.EnumValue)

    def each(x: Any) -> bool:
        nonlocal ok
        if x.kind == ast.ExpressionKind.NamedValue:
            sym = x.symbol
            if sym.kind not in constants and _where(sm, sym) not in inputs:
                ok = False
        elif str(x.kind).rsplit(".", 1)[-1] not in _PLAIN:
            ok = False  # a call, a hierarchical or member reference: no plain function
        return True

    for e in read:
        e.visit(each)
    return ok


def _claims(comp: Any) -> tuple[list[Claim], list[tuple[str, int, int]]]:
    """Every qualified case and if statement ``comp`` elaborates (generate blocks it leaves
    uninstantiated aside), and those blocks as ``(file, start, end)``."""
    from pyslang import ast

    sm = comp.sourceManager
    root = comp.getRoot()
    found: list[Any] = []
    dead: list[tuple[str, int, int]] = []

    def each(node: Any) -> bool:
        if isinstance(node, ast.GenerateBlockSymbol) and node.isUninstantiated:
            syn = node.syntax
            if syn is not None:
                r = syn.sourceRange
                dead.append((str(sm.getFullPath(r.start.buffer)), r.start.offset, r.end.offset))
        elif isinstance(node, ast.CaseStatement | ast.ConditionalStatement):
            if not str(node.check).endswith("None_") and node.syntax is not None:
                found.append(node)
        return True

    root.visit(each)
    inputs = {
        _where(sm, p.internalSymbol)
        for top in root.topInstances
        for p in top.body.portList
        if str(p.direction).endswith(".In") and p.internalSymbol is not None
    }
    out: list[Claim] = []
    for stmt in found:
        start = stmt.syntax.sourceRange.start
        name, at = str(sm.getFullPath(start.buffer)), int(start.offset)
        if any(name == f and a <= at < b for f, a, b in dead):
            continue
        facts, holds, read = _facts(stmt, root)
        guard = _guard(stmt.syntax)
        moves = guard is not None and _reads_inputs_only(read, inputs, sm)
        key = (_signature(stmt.syntax), f"{facts} | {guard}")
        out.append(Claim(name, at, key, holds, moves))
    return out, dead


def _where(sm: Any, sym: Any) -> tuple[str, str, int]:
    """A symbol's name and declaration place (file, offset)."""
    loc = sym.location
    return str(sym.name), str(sm.getFullPath(loc.buffer)), int(loc.offset)


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
    copts = ast.CompilationOptions()
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
    try:
        found, dead = _claims(_compile(design, code, overrides))
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        raise RuntimeError(str(exc)) from exc
    mine = [c for c in found if Path(c.buffer).name == _PROBE]
    dead_here = [(a, b) for f, a, b in dead if Path(f).name == _PROBE]
    seen = {c.offset for c in mine}
    for at in _written(code):  # written, not in a block the defaults leave out, not read
        if at not in seen and not any(a <= at < b for a, b in dead_here):
            mine.append(Claim(_PROBE, at, ("", "not elaborated"), False))
    return mine


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
                out.append(int(node.sourceRange.start.offset) - shift)
        stack.extend(_children(node))
    return out


#: Per design (kept while it is the same object): the parameter overrides of each
#: parameterization the repository elaborates, then the reference's keys per overrides.
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


def design_claims(design: Design, overrides: tuple[str, ...] = ()) -> Counter[tuple[str, str]]:
    """The keys of the reference's qualified statements (the target and its submodules
    elaborated as the repository is, the target with ``overrides``), counted; computed once
    per design and overrides.

    Raises:
        RuntimeError: slang cannot read or elaborate the repository.
    """

    def read() -> Counter[tuple[str, str]]:
        spans = [(str(m.file.resolve()), m.start, m.end) for m in reference_modules(design)]
        return Counter(
            c.key
            for c in _claims(_compile(design, None, overrides))[0]
            if c.moves and any(c.buffer == f and a <= c.offset < b for f, a, b in spans)
        )

    got: Counter[tuple[str, str]] = _cached(design, ("reference", *overrides), read)
    return Counter(got)


def claim_problems(code: str, design: Design) -> list[tuple[int, str]]:
    """``(line, why)`` of each qualified statement of the candidate's ``code`` whose claim is
    not established under one of the target's parameterizations (see the module
    docstring); one problem on line 1 when the candidate or the reference cannot be
    elaborated."""
    if not _QUALIFIER.search(blank_comments(code)) or same_as_reference(code, design):
        return []  # the reference's own text: the same design claims the same
    out: list[tuple[int, str]] = []
    try:
        for overrides in settings(design):
            mine = text_claims(code, design, overrides)
            if all(c.holds for c in mine):
                continue
            theirs = design_claims(design, overrides)
            for c in sorted(mine, key=lambda c: c.offset):
                if c.holds:
                    continue
                if c.moves and theirs[c.key] > 0:
                    theirs[c.key] -= 1
                    continue
                out.append((line_of(code, c.offset), _WHY))
    except RuntimeError as exc:
        return [(1, f"the case qualifiers' claims cannot be read ({exc}); drop the qualifiers")]
    return sorted(set(out))
