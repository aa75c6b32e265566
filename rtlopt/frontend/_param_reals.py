"""Real overrides of an untyped parameter (red-team round 116).

An untyped parameter takes the type of the value that overrides it: ``lib #(.P(0.5))`` makes
``P`` a real wherever the module reads it. The proof that frees a value parameter
(:mod:`rtlopt.evaluate._param_free`) covers its integer and vector values only, and a real
reads otherwise: ``if (|P)`` does not build at 0.5 where ``if (P)`` does, ``P >= 1`` and
``P > 0`` part at 0.5, ``w = P`` rounds where ``if (P)`` tests for non-zero (0.4 is true and
rounds to 0), ``rst ? P : d`` turns ``d`` into a real.

A real value behaves as an integer one only where every read of the parameter, in both texts,
is of one kind: a *truth* read (an ``if`` or generate ``if`` condition, a ``?:`` predicate, an
operand of ``!``, ``&&``, ``||``: the value is read as non-zero or zero, as the integer 1 or 0
is), or a *rounding* read (the whole right-hand side of an assignment or the initializer of a
net, variable or typed parameter: the value is rounded to an integer first, as an integer
override of that value would be). :func:`real_reads` gives the kinds; :func:`takes_a_real`
asks slang whether the module builds with the parameter overridden by a real at all (``P[0]``,
``P & 1``, a width: a real override is an error there, so no such value needs checking).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rtlopt.frontend._param_deps import _module
from rtlopt.frontend._param_guards import _nodes
from rtlopt.frontend._slang import node_kind
from rtlopt.frontend.model import Design

__all__ = ["real_reads", "takes_a_real"]

TRUTH, ROUNDING, OTHER = "truth", "rounding", "other"
_TRUTH_PARENTS = frozenset(
    {
        "ConditionalPattern",
        "UnaryLogicalNotExpression",
        "LogicalAndExpression",
        "LogicalOrExpression",
    }
)
_ASSIGNMENTS = frozenset({"AssignmentExpression", "NonblockingAssignmentExpression"})


def _parent(node: Any) -> Any:
    """The node's parent past parentheses."""
    up = node.parent
    while up is not None and node_kind(up) == "ParenthesizedExpression":
        node, up = up, up.parent
    return node, up


def _kind_of(name_node: Any) -> str:
    """The kind of one read of a parameter (module docstring)."""
    node, up = _parent(name_node)
    kind = node_kind(up) if up is not None else ""
    if kind in _TRUTH_PARENTS:
        return TRUTH
    if kind == "IfGenerate":  # the condition itself (pyslang's wrappers: by position)
        return TRUTH if _span(up.condition.sourceRange) == _span(node.sourceRange) else OTHER
    if kind in _ASSIGNMENTS and _span(up.right.sourceRange) == _span(node.sourceRange):
        return ROUNDING
    decl = up.parent.parent if kind == "EqualsValueClause" and up.parent is not None else None
    if decl is None:
        return OTHER
    if node_kind(decl) in ("DataDeclaration", "NetDeclaration"):
        return ROUNDING
    typed = " ".join(str(decl.type).split()) not in ("", "signed")
    return ROUNDING if node_kind(decl) == "ParameterDeclaration" and typed else OTHER


def _span(r: Any) -> tuple[int, int]:
    return int(r.start.offset), int(r.end.offset)


def real_reads(text: str, module: str, names: Sequence[str]) -> dict[str, set[str]] | None:
    """The kinds of the reads of each parameter of ``names`` in ``module`` (:data:`TRUTH`,
    :data:`ROUNDING`, :data:`OTHER`); None when the text holds no such module."""
    from pyslang import syntax

    tree = syntax.SyntaxTree.fromText(text.encode("utf-8", "surrogateescape").decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None:
        return None
    wanted = set(names)
    out: dict[str, set[str]] = {n: set() for n in names}
    for n in _nodes(mod):
        if node_kind(n) == "IdentifierName" and str(n.identifier.valueText) in wanted:
            out[str(n.identifier.valueText)].add(_kind_of(n))
    del tree
    return out


def takes_a_real(text: str, module: str, name: str, design: Design) -> bool:
    """Whether ``module`` of ``text`` builds with ``name`` overridden by a real (slang, with
    the design's include folders and defines): no error that the text alone does not have."""
    from rtlopt.frontend._param_free import _errors

    probe = f"\nmodule rtlopt_real_override; {module} #(.{name}(0.5)) u (); endmodule\n"
    try:
        before, after = _errors(text, design), _errors(text + probe, design)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: assume it builds
        return True
    for code in before:
        if code in after:
            after.remove(code)
    return not after
