"""Literals that Yosys and simulation read differently, found on the syntax tree (pyslang) and
cross-checked with the lexer, so that a literal the parser did not place is still judged.

* **x/z digits.** Yosys 0.23's ``proc_mux`` drops the undefined bits of a ``case`` item, so
  ``16'b1011_1110_1110_111x`` is a wildcard to the proof; IEEE 1364 (9.5) compares a plain
  ``case`` with ``===`` and ``casez`` ignores only ``z``/``?``, so for 0/1 inputs simulation
  never matches that item. In a case statement such a digit is accepted only where both read
  it alike: a ``casez`` item's ``z``/``?``, a ``casex`` (or ``case ... inside``) item. A
  decision on an x constant elsewhere (``if (a === 4'b10x1)``) is x in the proof and a choice
  in simulation: in a candidate the miter refuses what relies on it (x where the reference is
  defined), in a reference it would let the proof accept anything there, so a reference
  (``strict``) may hold x/z digits only in those items and in values (the right side of an
  assignment or initializer, through parentheses, concatenations and the branches of ``?:``).
  A parameter whose value has such digits is judged where it is used.
* **Real numbers.** Yosys converts each real literal of a non-constant expression to an integer
  where it stands (``(t ? 0.4 : 0.0) * 3`` is 0), simulation computes in real arithmetic (1).
  Real and time literals, the real system functions and parameters with a real value are
  accepted only in parameter declarations and parameter overrides, where both tools evaluate
  the constant alike (measured: Yosys 0.23 and iverilog 11 agree there).

:func:`reading_problems` returns ``(line, message)`` pairs for text whose comments and string
contents are blanked, races between clocked blocks (:mod:`rtlopt.harness._races`) included.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from rtlopt.harness._calls import carried_state_problems
from rtlopt.harness._casewidth import case_width_problems
from rtlopt.harness._elaborated import elaborate
from rtlopt.harness._foreach_order import foreach_problems
from rtlopt.harness._nodes import _children, _kind, _span, _walk
from rtlopt.harness._races import exposed_outputs, nodes, race_problems
from rtlopt.harness._syntax import parse
from rtlopt.harness._wide_constant import wide_constant_problems
from rtlopt.harness._wide_division import wide_division_problems
from rtlopt.harness._wide_index import wide_index_problems
from rtlopt.harness._xcontrol import x_control_problems
from rtlopt.verilog import blank_comments, blank_spans, line_of, scan

__all__ = ["parse", "reading_problems", "reference_problems", "reference_readings"]

#: A based literal with its digits (the apostrophe and the base letter are not separated).
_BASED = re.compile(r"'[sS]?[bBoOdDhH]\s*[0-9a-fA-F_xXzZ?]+|'[xXzZ](?![\w$])")
_XZ = re.compile(r"[xXzZ?]")
_REAL = re.compile(
    r"(?<![\w$.'])(?:\d[\d_]*\.\d[\d_]*(?:[eE][+-]?\d[\d_]*)?|\d[\d_]*[eE][+-]?\d[\d_]*"
    r"|\d[\d_]*(?:\.\d[\d_]*)?(?:s|ms|us|ns|ps|fs|step)(?![\w$]))"
)
_TIMESCALE = re.compile(r"`\s*timescale\b[^\n]*")
#: System functions that return or read a real value.
REAL_FUNCTIONS = frozenset(
    "$ln $log10 $exp $sqrt $pow $floor $ceil $sin $cos $tan $asin $acos $atan $atan2 $hypot "
    "$sinh $cosh $tanh $asinh $acosh $atanh $rtoi $itor $realtobits $bitstoreal "
    "$shortrealtobits $bitstoshortreal".split()
)
_SYSNAME = re.compile(r"\$[A-Za-z_][A-Za-z0-9_$]*")
_VALUE_ROOTS = frozenset(
    {
        "AssignmentExpression",
        "NonblockingAssignmentExpression",
        "EqualsValueClause",
        "ReturnStatement",
    }
)
_REAL_TYPES = frozenset({"RealType", "RealTimeType", "ShortRealType"})


def _lexical(code: str, based: bool = False) -> str:
    """``code`` with escaped identifiers and `timescale lines blanked (and based literals:
    ``16'h 1e5`` holds no real number)."""
    spans = [(a, b) for kind, a, b in scan(code) if kind == "escaped"]
    spans += [m.span() for m in _TIMESCALE.finditer(code)]
    if based:
        spans += [m.span() for m in _BASED.finditer(code)]
    return blank_spans(code, spans)


def _digits(node: Any) -> str:
    """The digits of an integer literal node (``""`` for other nodes)."""
    k = _kind(node)
    if k == "IntegerVectorExpression":
        return str(node.value.valueText)
    if k == "UnbasedUnsizedLiteralExpression":
        return str(node.literal.valueText)[1:]
    return ""


def _values(expr: Any) -> Iterator[Any]:
    """The nodes of ``expr`` that are values of it: itself, through parentheses,
    concatenations, replications and the branches of ``?:``."""
    stack = [expr]
    while stack:
        e = stack.pop()
        if e is None:
            continue
        yield e
        k = _kind(e)
        if k == "ParenthesizedExpression":
            stack.append(e.expression)
        elif k == "ConcatenationExpression":
            stack.extend(x for x in _children(e.expressions) if not hasattr(x, "valueText"))
        elif k == "MultipleConcatenationExpression":
            stack.append(e.concatenation)
        elif k == "ConditionalExpression":
            stack += [e.left, e.right]


def _value_of(node: Any) -> Any:
    k = _kind(node)
    if k in ("AssignmentExpression", "NonblockingAssignmentExpression"):
        return node.right
    if k == "EqualsValueClause":
        return node.expr
    return node.returnValue


def _parameters(root: Any) -> list[tuple[Any, str, Any]]:
    """``(declaration, name, initializer)`` of every parameter and localparam."""
    out = []
    for node in nodes(root, "ParameterDeclaration"):
        if _kind(node) != "ParameterDeclaration":
            continue
        for d in _children(node.declarators):
            init = getattr(d, "initializer", None)
            if _kind(d) == "Declarator" and init is not None:
                out.append((node, str(d.name.valueText), init.expr))
    return out


def _names(node: Any, whole: bool = False) -> Iterator[tuple[str, Any]]:
    for n in nodes(node, "IdentifierName") if whole else _walk(node):
        if _kind(n) == "IdentifierName":
            yield str(n.identifier.valueText), n


def _xz_parameters(root: Any) -> dict[str, str]:
    """Parameters whose value holds x/z digits (literally or through another one): name to
    the digits."""
    params = _parameters(root)
    found: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for _, name, init in params:
            if name in found:
                continue
            digits = "".join(_digits(n) for n in _walk(init))
            digits += "".join(found.get(m, "") for m, _ in _names(init))
            if _XZ.search(digits):
                found[name] = digits
                changed = True
    return found


def _xz_allowed(root: Any, xz_params: dict[str, str]) -> tuple[list[tuple[int, int]], set[int]]:
    """Spans where an x/z literal reads alike in every tool, and the identifier nodes (by
    offset) of x/z parameters used there."""
    spans: list[tuple[int, int]] = []
    uses: set[int] = set()

    def allow(node: Any, digits_ok: str | None) -> None:
        digits = _digits(node)
        if _kind(node) == "IdentifierName":
            name = str(node.identifier.valueText)
            if name in xz_params and _ok(xz_params[name], digits_ok):
                uses.add(_span(node)[0])
        elif digits and _ok(digits, digits_ok):
            spans.append(_span(node))

    for node in nodes(root, *_VALUE_ROOTS, "CaseStatement"):
        k = _kind(node)
        if k in _VALUE_ROOTS:
            for v in _values(_value_of(node)):
                allow(v, None)
        elif k == "CaseStatement":
            word = str(node.caseKeyword.valueText)
            inside = node.matchesOrInside is not None and node.matchesOrInside.valueText
            ok = "xXzZ?" if word == "casex" or inside else "zZ?" if word == "casez" else ""
            if not ok:
                continue
            for item in _children(node.items):
                if _kind(item) != "StandardCaseItem":
                    continue
                for e in _children(item.expressions):
                    for v in _values(e):
                        allow(v, ok)
    return spans, uses


def _ok(digits: str, allowed: str | None) -> bool:
    """Digits whose x/z/? characters are all in ``allowed`` (None: a value, any)."""
    return allowed is None or all(c in allowed for c in _XZ.findall(digits))


def _case_spans(root: Any) -> list[tuple[int, int]]:
    """The expressions and item labels of every case statement."""
    spans = []
    for node in nodes(root, "CaseStatement"):
        if _kind(node) == "CaseStatement":
            spans.append(_span(node.expr))
            for item in _children(node.items):
                if _kind(item) == "StandardCaseItem":
                    spans += [
                        _span(e) for e in _children(item.expressions) if not hasattr(e, "valueText")
                    ]
    return spans


def _xz_problems(code: str, tree: Any, shift: int, strict: bool) -> list[tuple[int, str]]:
    """x/z digits outside the places every tool reads alike: in case statements only (the
    proof's wildcard; a decision on an x constant elsewhere is x in the proof, so the miter
    refuses a candidate that relies on it), everywhere when ``strict`` (a reference: there an
    x makes the proof accept anything) or when the text does not parse."""
    root = tree.root
    xz_params = _xz_parameters(root)
    spans, uses = _xz_allowed(root, xz_params)
    spans = [(a - shift, b - shift) for a, b in spans]
    strict = strict or any(d.isError() for d in tree.diagnostics)
    cases = [(a - shift, b - shift) for a, b in _case_spans(root)]

    def judged(at: int) -> bool:
        inside = strict or any(a <= at < b for a, b in cases)
        return inside and not any(a <= at < b for a, b in spans)

    why = (
        "synthesis and the proof read it as a wildcard or an unknown where simulation "
        "compares exactly (x/z digits belong in casez/casex items and assigned values only)"
    )
    out: list[tuple[int, str]] = []
    for m in _BASED.finditer(_lexical(code)):
        digits = m.group(0)[2:] if m.group(0)[1] in "sS" else m.group(0)[1:]
        if _XZ.search(digits) and judged(m.start()):
            lit = " ".join(m.group(0).split())
            out.append((m.start(), f"the literal {lit} has x/z digits here: {why}"))
    for name, n in _names(root, True) if xz_params else ():
        at = _span(n)[0]
        if name in xz_params and at not in uses and not _in_parameter(n) and judged(at - shift):
            out.append((at - shift, f"the parameter {name} has x/z digits and is used here: {why}"))
    return out


def _in_parameter(node: Any) -> bool:
    """The node lies in a parameter declaration or a parameter override."""
    p = getattr(node, "parent", None)
    while p is not None:
        if _kind(p) in ("ParameterDeclaration", "ParameterValueAssignment"):
            return True
        p = getattr(p, "parent", None)
    return False


def _constant_spans(root: Any, shift: int) -> list[tuple[int, int]]:
    spans = []
    for node in nodes(root, "ParameterDeclaration", "ParameterValueAssignment"):
        if _kind(node) in ("ParameterDeclaration", "ParameterValueAssignment"):
            a, b = _span(node)
            spans.append((a - shift, b - shift))
    return spans


def _real_parameters(root: Any) -> set[str]:
    """Parameters with a real value: a real type, or no integral type and a real value."""
    params = _parameters(root)
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for decl, name, init in params:
            if name in found:
                continue
            t = decl.type
            typed = _kind(t) != "ImplicitType" or any(
                _kind(c) == "VariableDimension" for c in _walk(t)
            )
            real = _kind(t) in _REAL_TYPES or (
                not typed
                and any(
                    _kind(n) in ("RealLiteralExpression", "TimeLiteralExpression")
                    or (
                        _kind(n) == "SystemName"
                        and str(n.systemIdentifier.valueText) in REAL_FUNCTIONS
                    )
                    or (_kind(n) == "IdentifierName" and str(n.identifier.valueText) in found)
                    for n in _walk(init)
                )
            )
            if real:
                found.add(name)
                changed = True
    return found


def _real_problems(code: str, root: Any, shift: int) -> list[tuple[int, str]]:
    spans = _constant_spans(root, shift)
    why = (
        "synthesis and the proof convert each real value to an integer where it stands, "
        "simulation computes in real arithmetic (use integers, or a parameter)"
    )
    out: list[tuple[int, str]] = []
    text = _lexical(code, based=True)
    found = [(m.start(), f"the real number {m.group(0)}") for m in _REAL.finditer(text)]
    found += [
        (m.start(), f"the real function {m.group(0)}")
        for m in _SYSNAME.finditer(text)
        if m.group(0) in REAL_FUNCTIONS
    ]
    reals = _real_parameters(root)
    found += [
        (_span(n)[0] - shift, f"the real parameter {name}")
        for name, n in _names(root, True)
        if name in reals
    ]
    for at, what in found:
        if not any(a <= at < b for a, b in spans):
            out.append((at, f"{what} is used outside a parameter declaration: {why}"))
    return out


@functools.lru_cache(maxsize=64)
def reading_problems(
    code: str, strict: bool = False, reference: str = ""
) -> tuple[tuple[int, str], ...]:
    """What tools read differently in ``code`` (comments and string contents blanked): x/z
    digits (``strict``: the rules of a reference), real numbers (above), races between
    clocked blocks (:mod:`._races`; a candidate's output port may carry a blocking write only
    where the ``reference`` text's does, and a descending ``foreach`` loop only as the
    reference holds it: :mod:`._foreach_order`), narrow case items (:mod:`._casewidth`), decisions
    on undriven or constant-x values (:mod:`._xcontrol`) and state kept in combinational code
    (:mod:`._calls`), as ``(line, message)``."""
    try:
        tree, shift = parse(code)
        found = _xz_problems(code, tree, shift, strict) + _real_problems(code, tree.root, shift)
        exposed = None if strict else _exposed(reference if "edge" in code else "")
        found += race_problems(code, tree, shift, exposed)
        found += _elaborated_problems(tree, shift, None if strict else reference)
        found += carried_state_problems(code, tree, shift)
    except (RuntimeError, RecursionError):  # pyslang's nesting limit, or the flow's
        return ((1, "the text nests deeper than the screen's parser allows"),)
    return tuple(sorted({(line_of(code, max(at, 0)), msg) for at, msg in found}))


def _elaborated_problems(tree: Any, shift: int, reference: str | None) -> list[tuple[int, str]]:
    """Case items read at different widths (:mod:`._casewidth`), decisions on an undriven
    or constant-x value (:mod:`._xcontrol`), indices wider than a simulator reads
    (:mod:`._wide_index`), parameters whose unsized value needs more than 32 bits
    (:mod:`._wide_constant`), divisions wider than 64 bits in continuous assignments
    (:mod:`._wide_division`) and, in a candidate (``reference``: the reference's text),
    ``foreach`` loops a simulator runs in the other order (:mod:`._foreach_order`), on the text
    elaborated alone."""
    try:
        design = elaborate(tree)
        if design is None:
            return []
        found = case_width_problems(design, shift) + x_control_problems(design, shift)
        found += wide_index_problems(design, shift) + wide_constant_problems(design, shift)
        found += wide_division_problems(design, shift)
        if reference is not None:
            found += foreach_problems(design, shift, blank_comments(reference))
        return found
    except (RuntimeError, RecursionError):
        raise
    except Exception as exc:  # pyslang's bindings raise plain errors on what they cannot read
        return [(0, f"the screen could not elaborate this text to judge it ({exc}); simplify it")]


@functools.lru_cache(maxsize=16)
def _exposed(reference: str) -> frozenset[str]:
    if "posedge" not in reference and "negedge" not in reference:
        return frozenset()
    try:
        return exposed_outputs(parse(blank_comments(reference))[0])
    except (RuntimeError, RecursionError):
        return frozenset()


_DESIGNS: dict[int, tuple[object, list[tuple[int, str]]]] = {}


def reference_readings(design: object, texts: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """:func:`reference_problems` of the reference module ``texts`` (computed once per
    ``design``)."""
    hit = _DESIGNS.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_DESIGNS) > 8:
            _DESIGNS.clear()
        hit = _DESIGNS[id(design)] = (design, reference_problems(texts(), "the reference module"))
    return hit[1]


def reference_problems(texts: Iterable[str], what: str) -> list[tuple[int, str]]:
    """The first construct of the reference ``texts`` that tools read differently, as a
    screening problem on the candidate's line 1: the proof would model a different reference
    than simulation, so no candidate that differs from it is checked. The line named is the
    text's (the screen places each reference module at its file's line)."""
    for text in texts:
        for line, msg in reading_problems(blank_comments(text), strict=True):
            return [(1, f"unchecked: {what}, line {line}: {msg}")]
    return []
