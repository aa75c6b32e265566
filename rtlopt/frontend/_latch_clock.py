"""Which latches are clock-gating cells, for :mod:`rtlopt.frontend._partial`.

A latch holds x from power-up until its enable is first true: it is an x source like an
``always_comb`` writing on some paths only. A clock-gating cell's latch (cv32e40p's and ibex's
``if (!clk_i) en_q = en_i;`` beside ``assign clk_o = clk_i & en_q;``) is x only until the
clock's first low phase, and the x never leaves the cell: the only reader is the AND with the
same clock, which is 0 while the latch is open. Counted, every gated clock would be an x-fed
clock input, which the x-faithfulness proof refuses; so such a latch is no x source, and only
such a latch. :func:`clock_gate` takes a block for one only where every part of the pattern
is shown:

- its statement is one ``if`` without ``else`` (in ``begin``/``end``) whose condition is a
  1-bit name alone, negated (``!c``, ``~c``) or compared with a constant (``c == 1'b0``);
- the ``if`` writes every bit of every variable it writes on every path, and reads none of
  them (a latch reading itself holds x whatever opens it);
- each variable it writes is read nowhere in its module but as an operand of ``&`` whose other
  operand is the condition's name (the gated clock), and is not a port;
- that name is a clock: an input port of the design's top (the environment's clock), reached
  from the latch's module through input ports its instances connect by plain names (a port a
  parent ties to a constant or to an expression is no clock, nor is a register or a net the
  design drives: a gated clock, a divided one), for which some block of a module on the way
  waits for an edge (:data:`DEPTH` levels).

Anything not shown is judged an x source (never missed, may be refused).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rtlopt.frontend._net_bits import key, named, pieces, width
from rtlopt.frontend._no_wake import event_names
from rtlopt.frontend._slang import node_kind

__all__ = ["DEPTH", "clock_gate"]

#: Levels of the hierarchy followed up from a port to the name its instance connects.
DEPTH = 16
_SIGNALS = frozenset({"Net", "Variable"})


def clock_gate(body: Any, root: Any) -> bool:
    """Whether the latch whose statement is ``body`` (an ``always_latch``'s, or an ``always
    @*``'s) is a clock-gating cell's (:mod:`this module <rtlopt.frontend._latch_clock>`)."""
    from rtlopt.frontend._assigned import surely

    stmt = body
    while node_kind(stmt) == "Block":
        stmt = stmt.body
    if node_kind(stmt) != "Conditional" or getattr(stmt, "ifFalse", None) is not None:
        return False
    conditions = list(getattr(stmt, "conditions", []))
    if len(conditions) != 1 or getattr(conditions[0], "pattern", None) is not None:
        return False
    clock = _clock_name(conditions[0].expr)
    if clock is None or not _clock(clock):
        return False
    written = _written(stmt.ifTrue, root)
    if not written or any(_reads(stmt.ifTrue, name) for name in written):
        return False
    for sym in written.values():
        if node_kind(sym) != "Variable" or _is_port(sym):
            return False
        if not frozenset(range(width(sym))) <= surely(stmt.ifTrue, sym, root):
            return False
        if not _only_gated(sym, key(clock)):
            return False
    return True


def _clock_name(expr: Any) -> Any:
    """The 1-bit net or variable ``expr`` is, negates or compares with a constant; else None."""
    kind = node_kind(expr)
    if kind == "UnaryOp" and str(expr.op).rsplit(".", 1)[-1] in ("LogicalNot", "BitwiseNot"):
        return _clock_name(expr.operand)
    if kind == "BinaryOp" and str(expr.op).rsplit(".", 1)[-1] in ("Equality", "Inequality"):
        if getattr(expr.right, "constant", None) is not None:
            return _clock_name(expr.left)
        return None
    if kind == "Conversion":
        return _clock_name(expr.operand)
    if kind != "NamedValue":
        return None
    sym = expr.symbol
    if node_kind(sym) not in _SIGNALS or width(sym) != 1:
        return None
    return sym


def _written(stmt: Any, root: Any) -> dict[str, Any]:
    from pyslang import ast

    out: dict[str, Any] = {}

    def each(node: Any) -> None:
        for sym, _, _ in pieces(node.left, root):
            out.setdefault(key(sym), sym)

    stmt.visit(lookup_table={ast.ExpressionKind.Assignment: each})
    return out


def _reads(stmt: Any, name: str) -> bool:
    """Whether ``stmt`` names ``name`` more often than its assignments write it."""
    from pyslang import ast

    counts: Counter[str] = Counter()

    def assignment(node: Any) -> None:
        counts["written"] += sum(1 for s in named(node.left) if key(s) == name)

    def each(node: Any) -> None:
        if key(node.symbol) == name:
            counts["named"] += 1

    stmt.visit(
        lookup_table={
            ast.ExpressionKind.Assignment: assignment,
            ast.ExpressionKind.NamedValue: each,
            ast.ExpressionKind.HierarchicalValue: each,
        }
    )
    return counts["named"] > counts["written"]


def _members(scope: Any) -> list[Any]:
    from rtlopt.frontend._slang import instance_members

    body = getattr(scope, "containingInstance", None) or scope
    try:
        return instance_members(body)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
        return []


def _only_gated(sym: Any, clock: str) -> bool:
    """Whether the module holding ``sym`` reads it only as ``clock & sym`` (or ``sym &
    clock``): every mention of it is its latch's write or such an operand."""
    from pyslang import ast

    name = key(sym)
    counts: Counter[str] = Counter()

    def mention(node: Any) -> None:
        if key(node.symbol) == name:
            counts["named"] += 1

    def binary(node: Any) -> None:
        if str(node.op).rsplit(".", 1)[-1] != "BinaryAnd":
            return
        sides = [node_kind(node.left), node_kind(node.right)]
        if sides != ["NamedValue", "NamedValue"]:
            return
        keys = {key(node.left.symbol), key(node.right.symbol)}
        if keys == {name, clock}:
            counts["gated"] += 1

    def assignment(node: Any) -> None:
        counts["written"] += sum(1 for s in named(node.left) if key(s) == name)

    table = {
        ast.ExpressionKind.NamedValue: mention,
        ast.ExpressionKind.HierarchicalValue: mention,
        ast.ExpressionKind.BinaryOp: binary,
        ast.ExpressionKind.Assignment: assignment,
    }
    for m in _members(sym.parentScope):
        try:
            m.visit(lookup_table=table)
        except Exception:  # noqa: BLE001 - not readable: not shown
            return False
    return counts["gated"] > 0 and counts["named"] == counts["gated"] + counts["written"]


def _is_port(sym: Any) -> bool:
    body = getattr(sym.parentScope, "containingInstance", None) or sym.parentScope
    for port in getattr(body, "portList", []):
        inner = getattr(port, "internalSymbol", None)
        if inner is not None and key(inner) == key(sym):
            return True
    return False


def _clock(sym: Any) -> bool:
    """Whether ``sym`` is an input port reached from a top's input port through plain-name
    connections, with an edge waited for on the way."""
    edge = False
    for _ in range(DEPTH):
        scope = getattr(sym, "parentScope", None)
        if scope is None:
            return False
        edge = edge or key(sym) in _edges(scope)
        up = _connected(sym, scope)
        if up is True:
            return edge  # a top's input port
        if up is None:
            return False
        sym = up
    return False


def _edges(scope: Any) -> set[str]:
    """The names the blocks of ``scope``'s instance wait for an edge of."""
    out: set[str] = set()
    for m in _members(scope):
        if node_kind(m) != "ProceduralBlock" or node_kind(m.body) != "Timed":
            continue
        timing = m.body.timing
        events = list(timing.events) if node_kind(timing) == "EventList" else [timing]
        for e in events:
            if node_kind(e) == "SignalEvent" and e.edge.name != "None_":
                out.update(key(s) for s in event_names(e.expr))
    return out


def _connected(sym: Any, scope: Any) -> Any:
    """For the inner name of an input port: True for a top's, the name its instance connects
    alone to it, or None (an expression, a constant, not an input port)."""
    body = getattr(scope, "containingInstance", None)
    instance = getattr(body, "parentInstance", None)
    if instance is None:
        return None
    for port in getattr(body, "portList", []):
        inner = getattr(port, "internalSymbol", None)
        if inner is None or key(inner) != key(sym):
            continue
        if str(getattr(port, "direction", "")).rsplit(".", 1)[-1] != "In":
            return None
        if "." not in str(getattr(instance, "hierarchicalPath", "")):
            return True
        try:
            expr = instance.getPortConnection(port).expression
        except Exception:  # noqa: BLE001 - not known: no clock
            return None
        if expr is None or node_kind(expr) != "NamedValue":
            return None
        found = [s for s in named(expr) if node_kind(s) in _SIGNALS]
        return found[0] if len(found) == 1 else None
    return None
