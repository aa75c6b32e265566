"""Parameters read only as a truth value: ``if (|WITH_CSR)``, ``generate if (EN)``,
``OPT ? a : b``, ``!P && x``, whose every value the design reads by its class.

A parameter whose every use in both texts is the condition of an ``if`` (procedural or
generate) or the predicate of ``?:``, reached from the name only through parentheses, ``!``,
the ``|`` reduction, ``&&`` and ``||``, takes part in the design only through its truth value
and its type: each of those reads its operand's truth, which for an integral value is 0 (every
bit 0), 1 (some bit 1) or x (no bit 1, some bit x or z), and for a real one 0 or 1, with ``|``
no legal operation on a real. So four probes are every behaviour the module can have under it:
0, 1, ``1'bx`` (``if (!P)`` for ``if (P)`` swaps the branches where P is x: a generate or
procedural ``if`` takes its ``else`` on x) and 0.5 (``|P`` for ``P`` does not build on a real:
red-team round 113); a value the reference does not build or pass with is no probe, as for
every parameter. The generic probes tried nine values (serv's ``WITH_CSR``: -1, 0, 2, 3, 4,
8, 31, 32, 33).

Read from the syntax tree (pyslang) and checked against the raw tokens, as string choices are:
any other occurrence of the name (a value use, a select, ``~P``, a comparison, a localparam or
an instance's parameter computed from it, ``$bits``, a loop condition, a macro body, a branch
slang does not read) leaves the parameter out, and so does any macro use or ```include`` in
either text, and a type or range written in its declaration (a narrow type could truncate).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rtlopt.frontend._param_choices import _PLAIN
from rtlopt.frontend._param_deps import _tokens, parsed_module
from rtlopt.frontend._param_guards import _nodes
from rtlopt.frontend._slang import node_kind

__all__ = ["CLASSES", "truth_choices"]

#: One value of each class a truth-value read tells apart: false, true, x (integral) and a
#: real (its own type: ``|`` does not build on it; its truth is that of any nonzero value).
CLASSES = ("0", "1", "1'bx", "0.5")

#: Nodes between the name and its condition that read only their operands' truth (or pass
#: the value through unchanged: parentheses).
_THROUGH = frozenset(
    {
        "ParenthesizedExpression",
        "UnaryLogicalNotExpression",
        "UnaryBitwiseOrExpression",
        "LogicalAndExpression",
        "LogicalOrExpression",
    }
)


def _start(node: Any) -> int:
    return int(node.sourceRange.start.offset)


def _in_condition(name: Any) -> bool:
    """Whether the name ``name`` is read only as a truth value: the condition of an ``if``
    (procedural or generate) or the predicate of ``?:``, through :data:`_THROUGH` only."""
    node, child = name.parent, name
    while node is not None and node_kind(node) in _THROUGH:
        node, child = node.parent, node
    kind = node_kind(node) if node is not None else ""
    if kind == "IfGenerate":
        return _start(node.condition) == _start(child)
    if kind != "ConditionalPattern" or getattr(node, "matchesClause", None) is not None:
        return False
    predicate = node.parent
    if node_kind(predicate) != "ConditionalPredicate":
        return False
    conditions = [c for c in predicate.conditions if node_kind(c) == "ConditionalPattern"]
    return len(conditions) == 1 and node_kind(predicate.parent) in (
        "ConditionalStatement",
        "ConditionalExpression",
    )


def _read(text: str, module: str, p: str) -> bool | None:
    """Whether ``module`` of ``text`` declares ``p`` (untyped, once); None when ``p`` is read
    otherwise than as a truth value, or the text cannot be read so."""
    toks = _tokens(text)
    for i, t in enumerate(toks):
        if t.text == "`" and i + 1 < len(toks) and toks[i + 1].text not in _PLAIN:
            return None  # a macro may hide a use, an include another declaration
    raw = sum(1 for t in toks if t.kind in ("ident", "escaped") and t.text == p)
    parsed = parsed_module(text, module)
    if parsed is None:
        return None
    tree = parsed[0]
    declared = names = truths = 0
    for n in _nodes(tree.root):
        kind = node_kind(n)
        if kind == "IdentifierName" and str(n.identifier.valueText) == p:
            names += 1
            truths += _in_condition(n)
        elif kind == "ParameterDeclaration":
            for d in n.declarators:
                if node_kind(d) == "Comma" or str(d.name.valueText) != p:
                    continue
                declared += 1
                if str(getattr(n, "type", "")).strip() or getattr(d, "initializer", None) is None:
                    return None  # a type or range written (it could truncate), no default
    del tree
    if names != truths or raw != names + declared or declared > 1:
        return None
    return declared == 1


def truth_choices(texts: Sequence[str], module: str, p: str) -> list[str] | None:
    """The probe values (:data:`CLASSES`) that cover every behaviour of ``module`` under ``p``
    in all of ``texts`` (reference first), where each reads ``p`` only as a truth value; None
    otherwise (module docstring)."""
    got = [_read(text, module, p) for text in texts]
    if any(g is None for g in got) or not got[0]:
        return None
    return list(CLASSES)
