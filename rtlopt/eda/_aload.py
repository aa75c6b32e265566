"""Asynchronous reset branches written the other way round, normalised before ``read_slang``.

``always_ff @(posedge clk or negedge rst_n) if (rst_n) <normal> else <reset>`` is legal
SystemVerilog and means what ``if (!rst_n) <reset> else <normal>`` means: on the falling edge
of ``rst_n`` (and on a clock edge while it is low) the ``else`` branch runs. Yosys 0.23's own
reader, iverilog and commercial tools accept it; yosys-slang requires the first ``if`` of an
asynchronous-load block to test the signal at the level its edge leaves it and rejects the
other form ("polarity of condition doesn't match edge sensitivity"; it has no option to accept
it). A user's equivalent rewrite must not be rejected for it, so
:func:`normalise_async_polarity` rewrites the candidate's text before slang reads it:

    if (rst_n) A else B   ->   if (!rst_n) begin B end else begin A end

for every edge-sensitive block with two or more edges whose ``if`` chain tests one of its
edge signals (a plain 1-bit name, possibly under ``!``/``~``, ``== 1'b0/1``, ``!= 1'b0/1``)
at the other level. The two forms are the same hardware for every defined value of the
reset; they differ only when the reset is x or z (simulation takes the ``else`` branch of an
undefined condition), which synthesis, and so the slang view every tool reads, does not
model. Nothing else is touched; a block already in the canonical form, or one the rules do
not recognise, stays as written (slang then reports what it reports). The user's own text is
what the writeback keeps; only the view is elaborated from the normalised copy.
"""

from __future__ import annotations

import logging
import re
from typing import Any

__all__ = ["normalise_async_polarity"]

log = logging.getLogger(__name__)

#: Rewrites per text at most (one per pass; a pass reparses the text).
_MAX_PASSES = 256
_ONE = re.compile(r"^(1'[bB]1|1'[hH]1|1'[dD]1|1|'1)$")
_ZERO = re.compile(r"^(1'[bB]0|1'[hH]0|1'[dD]0|0|'0)$")


def normalise_async_polarity(text: str) -> tuple[str, int]:
    """Swap the branches of asynchronous-reset ``if`` statements written at the other level.

    Args:
        text: A candidate's source text.

    Returns:
        The normalised text and how many ``if`` statements were rewritten (0: ``text`` as is).
    """
    try:
        from pyslang import syntax
    except ImportError:  # pragma: no cover - pyslang is a dependency
        return text, 0
    done = 0
    for _ in range(_MAX_PASSES):
        tree = syntax.SyntaxTree.fromText(text)
        edit = _first_edit(tree.root, text)
        if edit is None:
            break
        (c0, c1, cond), (t0, t1), (e0, e1) = edit
        t_text, e_text = text[t0:t1], text[e0:e1]
        text = (
            text[:c0]
            + cond
            + text[c1:t0]
            + _block(e_text)
            + text[t1:e0]
            + _block(t_text)
            + text[e1:]
        )
        done += 1
    if done:
        log.debug("asynchronous reset branches swapped in %d if statement(s)", done)
    return text, done


def _block(stmt: str) -> str:
    # a branch moved after `if (...)` must not capture the `else` (dangling else)
    return f"begin {stmt} end"


Edit = tuple[tuple[int, int, str], tuple[int, int], tuple[int, int]]


def _span(node: Any, text: str) -> tuple[int, int] | None:
    """The node's character range in ``text`` (None when it comes from a macro expansion)."""
    rng = node.sourceRange
    a, b = int(rng.start.offset), int(rng.end.offset)
    if not 0 <= a <= b <= len(text):
        return None
    if text[a:b].split() != str(node).split():
        return None
    return a, b


def _first_edit(root: Any, text: str) -> Edit | None:
    stack = [root]
    while stack:
        node = stack.pop()
        name = node.kind.name
        if name in ("AlwaysFFBlock", "AlwaysBlock"):
            edit = _block_edit(node, text)
            if edit is not None:
                return edit
            continue
        for child in reversed(list(node)):
            if hasattr(child, "kind") and hasattr(child, "sourceRange") and _is_node(child):
                stack.append(child)
    return None


def _is_node(obj: Any) -> bool:
    from pyslang import syntax

    return isinstance(obj, syntax.SyntaxNode)


def _block_edit(block: Any, text: str) -> Edit | None:
    stmt = block.statement
    if stmt.kind.name != "TimingControlStatement":
        return None
    timing = stmt.timingControl
    if timing.kind.name != "EventControlWithExpression":
        return None
    triggers: dict[str, bool] = {}  # signal -> posedge
    if not _events(timing.expr, triggers) or len(triggers) < 2:
        return None
    body = stmt.statement
    while len(triggers) > 1:
        body = _single(body)
        if body is None or body.kind.name != "ConditionalStatement":
            return None
        if body.uniqueOrPriority is not None and str(body.uniqueOrPriority).strip():
            return None
        conds = list(body.predicate.conditions)
        if len(conds) != 1 or conds[0].matchesClause is not None or body.elseClause is None:
            return None
        parsed = _condition(conds[0].expr)
        if parsed is None or parsed[0] not in triggers:
            return None
        sig, level = parsed
        posedge = triggers.pop(sig)
        if level != posedge:
            c = _span(conds[0].expr, text)
            t = _span(body.statement, text)
            e = _span(body.elseClause.clause, text)
            if c is None or t is None or e is None:
                return None
            canonical = sig if posedge else f"!{sig}"
            return (c[0], c[1], canonical), t, e
        body = body.elseClause.clause
    return None


def _events(expr: Any, out: dict[str, bool]) -> bool:
    """Collect ``posedge/negedge name`` events; False when any event is something else."""
    kind = expr.kind.name
    if kind == "ParenthesizedEventExpression":
        return _events(expr.expr, out)
    if kind == "BinaryEventExpression":
        return _events(expr.left, out) and _events(expr.right, out)
    if kind != "SignalEventExpression" or expr.iffClause is not None:
        return False
    edge = expr.edge.kind.name
    if edge not in ("PosEdgeKeyword", "NegEdgeKeyword") or expr.expr.kind.name != "IdentifierName":
        return False
    name = str(expr.expr).strip()
    if name in out:
        return False
    out[name] = edge == "PosEdgeKeyword"
    return True


def _single(stmt: Any) -> Any | None:
    """The one statement inside nested ``begin ... end`` blocks without declarations."""
    while stmt.kind.name == "SequentialBlockStatement":
        items = list(stmt.items)
        if len(items) != 1:
            return None
        stmt = items[0]
    return stmt


def _condition(expr: Any) -> tuple[str, bool] | None:
    """``(signal, level at which the condition is true)`` of a recognised reset test."""
    kind = expr.kind.name
    if kind == "ParenthesizedExpression":
        return _condition(expr.expression)
    if kind == "IdentifierName":
        return str(expr).strip(), True
    if kind in ("UnaryLogicalNotExpression", "UnaryBitwiseNotExpression"):
        inner = _condition(expr.operand)
        return None if inner is None else (inner[0], not inner[1])
    if kind in ("EqualityExpression", "InequalityExpression"):
        left = _condition(expr.left)
        const = str(expr.right).strip()
        if left is None or expr.left.kind.name != "IdentifierName":
            return None
        if _ONE.match(const):
            value = True
        elif _ZERO.match(const):
            value = False
        else:
            return None
        if kind == "InequalityExpression":
            value = not value
        return left[0], value
    return None
