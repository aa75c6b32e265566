"""What an ``always`` block waits for when none of it gets an event at time 0, for
:mod:`rtlopt.frontend._partial`.

An ``always @*`` (or ``always @(a or b)``) block runs only on an event of what it waits for.
A name whose value is set before time 0 gets no event then (iverilog ``-g2012``, the reading
of :mod:`rtlopt.frontend._time_zero`): a variable's declaration initializer (``reg p =
1'b1;``), a two-state variable's default 0, and a net a continuous assignment or declaration
drives from only such names (``wire w = p;``). Waiting for only such names, the block holds
its variables x until one of them changes, and forever when none ever does.

A name is "held" here when it is:

- a variable that no combinational block, ``initial`` block or continuous assignment writes:
  its initializer's value, a two-state type's 0, or x until a clocked block's first write
  (after time 0: the block's variables are x until then);
- a net that only continuous assignments, its declaration's initializer and ``buf`` or
  ``not`` gates drive, each of whose values reads a held name and nothing else (a
  constant's value reaches the net at time 0 with an event).

Anything else wakes the block (a port, a variable an ``initial`` or combinational block
writes, an instance's output, a net with another driver). Past :data:`DEPTH` nets a name
is not held.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._net_bits import key, named
from rtlopt.frontend._slang import node_kind

__all__ = ["DEPTH", "held"]

#: The nets a question follows at most.
DEPTH = 32
_SIGNALS = frozenset({"Net", "Variable"})


def _signals(expr: Any) -> list[Any]:
    return [s for s in named(expr) if node_kind(s) in _SIGNALS]


def _members(scope: Any) -> list[Any]:
    from rtlopt.frontend._slang import instance_members as members

    try:
        return members(scope)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
        return []


def _writes(stmt: Any, name: str, root: Any) -> bool:
    """Whether ``stmt`` assigns the net or variable named ``name``."""
    from pyslang import ast

    from rtlopt.frontend._net_bits import pieces

    found: list[bool] = []

    def each(node: Any) -> None:
        if not found and any(key(s) == name for s, _, _ in pieces(node.left, root)):
            found.append(True)

    stmt.visit(lookup_table={ast.ExpressionKind.Assignment: each})
    return bool(found)


def _clocked(block: Any) -> bool:
    body = block.body
    if block.procedureKind.name == "AlwaysFF":
        return True
    if block.procedureKind.name != "Always" or body.kind.name != "Timed":
        return False
    timing = body.timing
    events = list(timing.events) if timing.kind.name == "EventList" else [timing]
    return all(e.kind.name == "SignalEvent" and e.edge.name != "None_" for e in events)


def held(sym: Any, root: Any, depth: int = 0) -> bool:
    """Whether the net or variable ``sym`` gets no event at time 0 for sure
    (:mod:`this module <rtlopt.frontend._no_wake>`)."""
    if depth > DEPTH:
        return False
    scope = getattr(sym, "parentScope", None)
    if scope is None:
        return False
    name = key(sym)
    kind = node_kind(sym)
    if kind == "Variable":
        # an initializer's value, a two-state default, or x until a clocked block's first
        # write (after time 0): no event at time 0 unless another block writes it
        for m in _members(scope):
            if (
                node_kind(m) == "ProceduralBlock"
                and not _clocked(m)
                and _writes(m.body, name, root)
            ):
                return False
            if node_kind(m) == "ContinuousAssign" and _writes(m.assignment, name, root):
                return False
            if node_kind(m) in ("Instance", "PrimitiveInstance") and _drives(m, name, root):
                return False
        return True
    if kind != "Net":
        return False
    values = [] if sym.initializer is None else [sym.initializer]
    for m in _members(scope):
        mk = node_kind(m)
        if mk == "ContinuousAssign":
            if _writes(m.assignment, name, root):
                values.append(m.assignment.right)
        elif mk == "PrimitiveInstance" and _drives(m, name, root):
            inputs = _buffer_inputs(m)
            if inputs is None:
                return False
            values += inputs  # a buf or not gate passes its input's value on, no event
        elif mk in ("ProceduralBlock", "Instance", "PrimitiveInstance"):
            if _drives(m, name, root):
                return False
    if not values:
        return False  # a port, or driven elsewhere: not known
    for value in values:
        reads = _signals(value)
        if not reads or not all(held(s, root, depth + 1) for s in reads):
            return False
    return True


def _buffer_inputs(gate: Any) -> list[Any] | None:
    """The input expressions of a ``buf`` or ``not`` gate (its outputs are assignments from
    an empty argument), or None for any other primitive."""
    from pyslang import ast

    kind = str(getattr(getattr(gate, "primitiveType", None), "name", ""))
    if kind not in ("buf", "not"):
        return None
    return [
        c
        for c in gate.portConnections
        if not (
            c.kind == ast.ExpressionKind.Assignment
            and c.right.kind == ast.ExpressionKind.EmptyArgument
        )
    ]


def _drives(member: Any, name: str, root: Any) -> bool:
    """Whether a procedural block, instance or gate ``member`` may drive ``name``."""
    try:
        if _writes(member, name, root):
            return True
    except Exception:  # noqa: BLE001 - fail towards "wakes"
        return True
    if node_kind(member) == "Instance":
        # an output connection reads as an assignment only through port connections
        for conn in getattr(member, "portConnections", []):
            expr = getattr(conn, "expression", None)
            if expr is not None and any(key(s) == name for s in named(expr)):
                return True
    return False
