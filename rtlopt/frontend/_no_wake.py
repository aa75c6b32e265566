"""What an ``always`` block waits for when none of it gets an event at time 0, for
:mod:`rtlopt.frontend._partial`.

An ``always @*`` (or ``always @(a or b)``) block runs only on an event of what it waits for.
A name whose value is set before time 0 gets no event then (iverilog ``-g2012``, the reading
of :mod:`rtlopt.frontend._time_zero`): a variable's declaration initializer (``reg p =
1'b1;``), a two-state variable's default 0, and a net a continuous assignment or declaration
drives from only such names (``wire w = p;``). Waiting for only such names, the block holds
its variables x until one of them changes, and forever when none ever does.

A name "wakes" (gets an event at time 0) only where that is shown; anything not shown is
"held" (the x source is then judged, never missed):

- a top's port (the environment drives it) wakes; a child's input port is what its
  instance's connection reads (held when that is; an unconnected input is held);
- a variable wakes when a combinational block writes it (on every path, whole, each value
  surely defined: no x constant, no x from defined operands, every name read waking), or an
  ``initial`` block before its first delay, event or task call, at its top level, with a
  value that is not a constant equal to the variable's power-up value (its initializer, a
  two-state type's 0, else x);
  the value read in a continuous assignment or a gate's inputs as for a net; otherwise it is
  held (its initializer's value, or x until a clocked block's first write after time 0);
- a net wakes when one of its drivers does: a continuous assignment or declaration whose
  value is a constant or reads a name that wakes, an ``and``/``or``/``nand``/``nor``/
  ``xor``/``xnor``/``buf``/``not`` gate (arrays too) with such an input, an instance whose
  output port's inner name wakes. Other drivers (a switch, a pull, a user-defined
  primitive, an inout) are not read: held.

Past :data:`DEPTH` names a name is held; a name met again on its own way is held.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._net_bits import key, named
from rtlopt.frontend._slang import node_kind

__all__ = ["DEPTH", "event_names", "held"]

#: The names a question follows at most, one after another.
DEPTH = 32
_SIGNALS = frozenset({"Net", "Variable"})
#: Gates whose output changes only when an input does.
_GATES = frozenset({"and", "or", "nand", "nor", "xor", "xnor", "buf", "not"})


def _signals(expr: Any) -> list[Any]:
    return [s for s in named(expr) if node_kind(s) in _SIGNALS]


def _members(scope: Any) -> list[Any]:
    """The members of ``scope`` (generate blocks entered), each gate or instance of an
    array on its own."""
    from rtlopt.frontend._slang import instance_members as members

    try:
        found = members(scope)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
        return []
    out: list[Any] = []
    while found:
        m = found.pop(0)
        if node_kind(m) == "InstanceArray":
            found[:0] = list(m)
        else:
            out.append(m)
    return out


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


#: The key, in an elaboration's shared writer indexes, of the answers that hold whatever
#: question asks them (:class:`_Memo`); no scope's ``id`` is negative.
_SETTLED = -1
_NONE = 1 << 30  # no name on the way: a position past every frame


class _Memo(dict[str, bool]):
    """One question's answers by name (a name met again on its own way: held), and the
    scopes' writer indexes (:class:`_Writers`, by the scope's ``id``) it shares with the
    questions of the same elaboration, together with the settled answers: a name whose
    answer read no name still on the way above it (nor the depth limit) has the same answer
    in every question, so the next question reads it (the lowest position on the way an
    answer read, as Tarjan's lowlink; held-out trial 49: biriscv's x analysis asked the same
    names thousands of times, 12 s an evaluation)."""

    def __init__(self, writers: dict[int, Any]) -> None:
        super().__init__()
        self.writers = writers
        self.settled: dict[str, bool] = writers.setdefault(_SETTLED, {})
        self.way: dict[str, int] = {}  # names on the way, by position
        self.lows: dict[str, int] = {}  # an answered name's lowest position read
        self.low = _NONE


def held(
    sym: Any,
    root: Any,
    depth: int = 0,
    memo: _Memo | None = None,
    *,
    writers: dict[int, Any] | None = None,
) -> bool:
    """Whether the net or variable ``sym`` may get no event at time 0
    (:mod:`this module <rtlopt.frontend._no_wake>`); ``writers``: the writer indexes of one
    elaboration's scopes, kept by the caller across its questions (each scope's members
    read once)."""
    memo = _Memo({} if writers is None else writers) if memo is None else memo
    name = key(sym)
    settled = memo.settled.get(name)
    if settled is not None:
        return settled
    if name in memo:
        at = memo.way.get(name)
        memo.low = min(memo.low, at if at is not None else memo.lows.get(name, _NONE))
        return memo[name]
    at = memo.way[name] = len(memo.way)
    memo[name] = True  # met again on its own way: held
    above, memo.low = memo.low, _NONE
    if depth > DEPTH:
        out, memo.low = True, -1  # cut by depth: this question's answer only
    else:
        out = _held(sym, root, depth, memo)
    del memo.way[name]
    memo[name] = out
    if memo.low >= at:
        memo.settled[name] = out
    else:
        memo.lows[name] = memo.low
    memo.low = min(above, memo.low)
    return out


def _held(sym: Any, root: Any, depth: int, memo: _Memo) -> bool:
    scope = getattr(sym, "parentScope", None)
    if scope is None or node_kind(sym) not in _SIGNALS:
        return True
    name = key(sym)
    fed = _port_value(sym, scope)
    if isinstance(fed, bool):
        return fed  # a top's port (the environment's) wakes; an inout, no connection: held
    values: list[Any] = [] if fed is None else [fed]
    if getattr(sym, "initializer", None) is not None and node_kind(sym) == "Net":
        values.append(sym.initializer)
    inner: list[Any] = []
    for m, mk in _writers(scope, root, memo.writers).of(name):
        if mk == "ProceduralBlock" and not _clocked(m):
            if _wakes_procedurally(m, sym, root, depth, memo):
                return False
        elif mk == "ContinuousAssign" and _writes(m.assignment, name, root):
            values.append(m.assignment.right)
        elif mk == "PrimitiveInstance":
            values += _gate_inputs(m, name, root)
        elif mk == "Instance":
            inner += _output_ports(m, name)
    for value in values:
        reads = _signals(value)
        if not reads or not all(held(s, root, depth + 1, memo) for s in reads):
            return False
    return all(held(s, root, depth + 1, memo) for s in inner)


class _Writers:
    """The members of one scope (:func:`_members`, in order), each with the names it may
    write, so that a question about one name visits only its writers (``of``): an unclocked
    procedural block's assignments, a continuous assignment's, a gate's output connections,
    an instance's output and inout connections; a member whose names cannot be read is
    asked about every name (its own check decides, as without the index)."""

    def __init__(self, scope: Any, root: Any) -> None:
        self.scope = scope  # kept: the scope's id names the index while it lives
        self._members: list[tuple[Any, str, frozenset[str] | None]] = []
        for m in _members(scope):
            mk = node_kind(m)
            if mk == "ProceduralBlock":
                try:
                    clocked = _clocked(m)
                except Exception:  # noqa: BLE001 - asked per name: its own check raises
                    self._members.append((m, mk, None))
                    continue
                if not clocked:
                    self._members.append((m, mk, _written_names(m.body, root)))
            elif mk == "ContinuousAssign":
                self._members.append((m, mk, _written_names(m.assignment, root)))
            elif mk == "PrimitiveInstance":
                self._members.append((m, mk, _written_names(m, root)))
            elif mk == "Instance":
                self._members.append((m, mk, _connected_names(m)))

    def of(self, name: str) -> list[tuple[Any, str]]:
        """The members that may write ``name``, in the scope's order, with their kinds."""
        return [(m, mk) for m, mk, names in self._members if names is None or name in names]


def _writers(scope: Any, root: Any, index: dict[int, Any]) -> _Writers:
    """``scope``'s writer index, built once per ``index`` (which keeps the scope alive)."""
    hit = index.get(id(scope))
    if hit is None or hit.scope is not scope:
        hit = index[id(scope)] = _Writers(scope, root)
    assert isinstance(hit, _Writers)
    return hit


def _written_names(node: Any, root: Any) -> frozenset[str] | None:
    """The keys of every name an assignment in ``node`` writes (:func:`_writes` asks for
    one), or None where one cannot be read."""
    from pyslang import ast

    from rtlopt.frontend._net_bits import pieces

    found: set[str] = set()

    def each(n: Any) -> None:
        found.update(key(s) for s, _, _ in pieces(n.left, root))

    try:
        node.visit(lookup_table={ast.ExpressionKind.Assignment: each})
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: asked per name
        return None
    return frozenset(found)


def _connected_names(instance: Any) -> frozenset[str] | None:
    """The keys of the names ``instance``'s output connections write (:func:`_output_ports`
    asks for one), or None where they cannot be read."""
    found: set[str] = set()
    try:
        for conn in getattr(instance, "portConnections", []):
            expr = getattr(conn, "expression", None)
            if expr is not None and node_kind(expr) == "Assignment":
                found.update(key(s) for s in named(expr.left))
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: asked per name
        return None
    return frozenset(found)


def _port_value(sym: Any, scope: Any) -> Any:
    """For an input port's inner name: False for a top's (the environment's), True when
    unconnected or an inout (held), else the expression its instance connects; None for
    any other name."""
    body = getattr(scope, "containingInstance", None)
    instance = getattr(body, "parentInstance", None)
    if instance is None:
        return None
    for port in getattr(body, "portList", []):
        if getattr(port, "internalSymbol", None) is None or key(port.internalSymbol) != key(sym):
            continue
        direction = str(getattr(port, "direction", "")).rsplit(".", 1)[-1]
        if direction == "Out":
            return None
        if "." not in str(getattr(instance, "hierarchicalPath", "")):
            return False  # a top's
        if direction != "In":
            return True
        try:
            conn = instance.getPortConnection(port)
        except Exception:  # noqa: BLE001 - not known: held
            return True
        expr = getattr(conn, "expression", None)
        return True if expr is None else expr
    return None


def _wakes_procedurally(block: Any, sym: Any, root: Any, depth: int, memo: _Memo) -> bool:
    """Whether the unclocked ``block`` gives ``sym`` an event at time 0 for sure: only a
    variable x from power-up (four-state, no initializer) can be shown to change (an
    initializer's value or a two-state 0 may be written again), on every path, whole, with
    values surely defined (:func:`_defined_values`): by ``always_comb`` or ``always_latch``
    writing it (run at time 0), by an ``always`` waiting without an edge for a name that
    wakes; an ``initial`` as :mod:`this module <rtlopt.frontend._no_wake>` says.
    Any other block (``final``, a delay, an edge beside a name) does not."""
    name = key(sym)
    if not _writes(block.body, name, root):
        return False
    proc = block.procedureKind.name
    fresh = getattr(sym, "initializer", None) is None and bool(
        getattr(getattr(sym, "type", None), "isFourState", True)
    )
    if proc == "Initial":
        return _initial_wakes(block, sym, root, depth, memo, fresh)
    if not fresh or not _whole(block, sym, root):
        return False  # a path that does not write it leaves it x: no event
    if not _defined_values(block, name, root, depth, memo):
        return False  # x written over x: no event
    if proc in ("AlwaysComb", "AlwaysLatch"):
        return True
    waits = _event_waits(block) if proc == "Always" else None
    return waits is not None and not all(held(s, root, depth + 1, memo) for s in waits)


def _defined_values(block: Any, name: str, root: Any, depth: int, memo: _Memo) -> bool:
    """Whether every value ``block`` writes to ``name`` is surely defined at time 0: a plain
    (not compound) assignment whose value has no x or z constant, computes no x from defined
    operands (:func:`rtlopt.frontend._run_x.run_x`: a division, a select out of its range, a
    call) and reads only names that wake (a register before its first write is x: ``l = r``
    writes x over x)."""
    from pyslang import ast

    from rtlopt.frontend._net_bits import pieces
    from rtlopt.frontend._run_x import run_x, x_value

    values: list[Any] = []
    bad: list[bool] = []

    def each(node: Any) -> None:
        if any(key(s) == name for s, _, _ in pieces(node.left, root)):
            if getattr(node, "isCompound", False) or node_kind(node.left) != "NamedValue":
                bad.append(True)
            values.append(node.right)

    try:
        block.body.visit(lookup_table={ast.ExpressionKind.Assignment: each})
        if bad or not values:
            return False
        for value in values:
            if x_value(value, root) or run_x(value, root, None):
                return False
            if any(held(s, root, depth + 1, memo) for s in _signals(value)):
                return False
    except Exception:  # noqa: BLE001 - not known: not shown
        return False
    return True


def _whole(block: Any, sym: Any, root: Any) -> bool:
    """Whether every path through ``block`` writes every bit of ``sym``."""
    from rtlopt.frontend._assigned import surely
    from rtlopt.frontend._net_bits import width
    from rtlopt.frontend._run_x import case_selector_x

    body = block.body
    stmt = body.stmt if body.kind.name == "Timed" else body
    try:
        return surely(stmt, sym, root, selector_x=case_selector_x) >= frozenset(range(width(sym)))
    except Exception:  # noqa: BLE001 - not known: not shown
        return False


def _initial_wakes(block: Any, sym: Any, root: Any, depth: int, memo: _Memo, fresh: bool) -> bool:
    """An ``initial`` writing ``sym`` before its first delay, loop or call a value that
    differs from its power-up value: a constant to the whole variable (its initializer's or a
    two-state 0 otherwise), or, for a variable x from power-up, a value reading a name that
    wakes."""
    name = key(sym)
    for stmt in _time_zero_statements(block.body):
        if not _writes(stmt, name, root):
            continue
        expr: Any = stmt.expr  # an assignment's statement (_time_zero_statements)
        whole = node_kind(expr.left) == "NamedValue" and not getattr(expr, "isCompound", False)
        if not fresh:
            if (
                whole
                and _constant(expr.right, root) is not None
                and not _repeats(expr.right, sym, root)
            ):
                return True
            continue
        if _repeats(expr.right, sym, root):
            continue
        reads = _signals(expr.right)
        if not reads or not all(held(s, root, depth + 1, memo) for s in reads):
            return True
    return False


def _event_waits(block: Any) -> list[Any] | None:
    """The names an ``always`` waiting without an edge waits for (``@*``: what its body
    reads and does not write), or None for any other ``always``."""
    body = block.body
    if body.kind.name != "Timed":
        return None
    timing = body.timing
    kind = timing.kind.name
    if kind == "ImplicitEvent":
        written = {key(s) for s in _assigned_names(body.stmt)}
        return [s for s in _signals(body.stmt) if key(s) not in written]
    events = list(timing.events) if kind == "EventList" else [timing]
    if any(e.kind.name != "SignalEvent" or e.edge.name != "None_" for e in events):
        return None
    return [s for e in events for s in event_names(e.expr)]


def event_names(expr: Any) -> list[Any]:
    """The net or variable an event control on ``expr`` waits for a change of: a name, or
    a select of all its bits; nothing for any other expression (a select of some bits, an
    array's element: the name may change where the selected bits do not)."""
    from rtlopt.frontend._net_bits import width

    kind = node_kind(expr)
    if kind == "NamedValue":
        return _signals(expr)
    if kind in ("RangeSelect", "ElementSelect") and node_kind(expr.value) == "NamedValue":
        base = _signals(expr.value)
        bits = getattr(getattr(expr, "type", None), "bitWidth", None)
        if base and bits is not None and int(bits) == width(base[0]):
            if node_kind(getattr(base[0], "type", None)) != "UnpackedArrayType":
                return base
    return []


def _assigned_names(stmt: Any) -> list[Any]:
    from pyslang import ast

    found: list[Any] = []
    stmt.visit(lookup_table={ast.ExpressionKind.Assignment: lambda n: found.extend(named(n.left))})
    return found


def _time_zero_statements(body: Any) -> list[Any]:
    """The statements of an ``initial`` block's top level before its first one holding a
    delay, an event, a wait or a call (``begin`` ... ``end`` entered)."""

    stmts = [body]
    out: list[Any] = []
    while stmts:
        stmt = stmts.pop(0)
        kind = node_kind(stmt)
        if kind == "Block":
            stmts[:0] = [stmt.body]
            continue
        if kind == "List":
            stmts[:0] = list(stmt.list)
            continue
        if kind != "ExpressionStatement" or node_kind(stmt.expr) != "Assignment":
            return out
        if _stops(stmt):
            return out
        out.append(stmt)
    return out


def _stops(stmt: Any) -> bool:
    """Whether ``stmt`` calls a subroutine or delays its assignment (``p = #5 q``)."""
    from pyslang import ast

    stopped: list[bool] = []
    stmt.visit(
        lookup_table={
            ast.ExpressionKind.Call: lambda _n: stopped.append(True),
            ast.ExpressionKind.Assignment: lambda n: stopped.append(bool(n.timingControl)),
        }
    )
    return any(stopped)


def _repeats(value: Any, sym: Any, root: Any) -> bool:
    """Whether ``value`` is a constant equal to ``sym``'s power-up value (its initializer's
    constant, else 0 for a two-state type, x for a four-state one)."""
    got = _constant(value, root)
    if got is None:
        return False
    init = getattr(sym, "initializer", None)
    if init is not None:
        return _constant(init, root) == got
    four = bool(getattr(getattr(sym, "type", None), "isFourState", True))
    digits = got.split("'")[-1].lstrip("sSbBoOdDhH") if "'" in got else got
    return bool(digits) and all(c in ("xX" if four else "0") for c in digits)


def _constant(expr: Any, root: Any) -> str | None:
    """``expr``'s constant value as text, or None."""
    from pyslang import ast

    got = getattr(expr, "constant", None)
    if got is None:
        try:
            got = expr.eval(ast.EvalContext(root))
        except Exception:  # noqa: BLE001 - not a constant
            return None
    text = str(got) if got is not None and bool(got) else ""
    return text if text and text != "<unset>" else None


def _gate_inputs(gate: Any, name: str, root: Any) -> list[Any]:
    """The input expressions of a gate ``gate`` driving ``name`` (nothing when it does not
    drive it; for a gate this module does not read, a value read as held)."""
    from pyslang import ast

    try:
        if not _writes(gate, name, root):
            return []
    except Exception:  # noqa: BLE001 - not known: held
        return []
    kind = str(getattr(getattr(gate, "primitiveType", None), "name", ""))
    if kind not in _GATES:
        return []  # a switch, a pull, a user-defined primitive: not read (held)
    return [
        c
        for c in gate.portConnections
        if not (
            c.kind == ast.ExpressionKind.Assignment
            and c.right.kind == ast.ExpressionKind.EmptyArgument
        )
    ]


def _output_ports(instance: Any, name: str) -> list[Any]:
    """The inner names of ``instance``'s output ports whose connection writes ``name`` (an
    inout's, or an output's that is no net or variable: not read, held)."""
    out: list[Any] = []
    for conn in getattr(instance, "portConnections", []):
        expr = getattr(conn, "expression", None)
        if expr is None or node_kind(expr) != "Assignment":
            continue
        if not any(key(s) == name for s in named(expr.left)):
            continue
        port = conn.port
        direction = str(getattr(port, "direction", "")).rsplit(".", 1)[-1]
        inner = getattr(port, "internalSymbol", None)
        if direction == "Out" and inner is not None and node_kind(inner) in _SIGNALS:
            out.append(inner)
    return out
