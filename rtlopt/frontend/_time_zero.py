"""Which inputs of the target the repository changes at simulation time 0 (an event).

An ``always @*`` block (or ``always @(a or b)``) runs only on an event of what it reads, while a
continuous assignment, a gate or ``always_comb`` is evaluated at time 0 whatever happens: until
the block's first event its outputs stay x. Whether an input makes an event at time 0 is a
matter of what drives it in the repository's design (iverilog, ``-g2012``):

* a constant (a literal, a parameter) connected to the port, or a net a continuous assignment
  or declaration assigns a constant: its value reaches the net at time 0, an event;
* a four-state variable without initializer that an ``initial`` block assigns a constant (no
  x/z bits, the whole variable) before its first timing control: an event at time 0 (one
  with an initializer or a two-state type may be assigned the value it holds: none);
* an input of the parent passed on: what the parent's instance connects it to (at any depth);
  a top's input is the environment's: a testbench outside the design may change it at time 0
  (as rtlopt's own simulation does) or hold it by an initializer without one, so it counts
  as changed in one reading (``environment=True``) and as held in the other;
* anything else makes none for sure: a variable's declaration initializer (``reg a = 1;``:
  SystemVerilog, ``-g2005-sv`` and later, gives it no event; ``-g2005`` does, but rtlopt does
  not know which language the repository is compiled as, so it reads the stricter one), a
  two-state variable's default 0, a continuous assignment of such a value, a register until
  its first write, an output of an instance.

:func:`evented_inputs` gives the target's inputs every instance of the repository changes at
time 0; :mod:`rtlopt.evaluate._time_zero` compares the reference's and the candidate's blocks
with it.
"""

from __future__ import annotations

import logging
from typing import Any

from rtlopt.frontend._net_bits import key, named
from rtlopt.frontend._net_drivers import x_value
from rtlopt.frontend._per_design import PerDesign
from rtlopt.frontend._slang import instance_members as _members
from rtlopt.frontend._slang import node_kind
from rtlopt.frontend.model import Design

__all__ = ["evented_inputs", "instantiated"]

log = logging.getLogger(__name__)

_SIGNALS = frozenset({"Net", "Variable"})
_SELECTS = frozenset({"ElementSelect", "RangeSelect", "MemberAccess"})
_DEPTH = 64


class _Events:
    """The repository's elaboration (:class:`rtlopt.frontend._open_inputs._Walk`) read for
    what changes at time 0."""

    def __init__(self, walk: Any, environment: bool = True) -> None:
        self.walk = walk
        self.environment = environment  # whether a top's input changes at time 0
        self.root = walk.root
        self.scopes: dict[str, set[str]] = {}  # an instance -> its signals set at time 0

    def connection(self, expr: Any, depth: int = 0) -> bool:
        """Whether every bit of ``expr`` (a port's connection) changes at time 0."""
        if expr is None or depth > _DEPTH:
            return False
        try:
            if x_value(expr, self.root):
                return False  # x stays x: no event
        except Exception:  # noqa: BLE001 - a value slang cannot print: fail closed
            return False
        if not [s for s in named(expr) if node_kind(s) in _SIGNALS]:
            return True  # a constant: driven onto the net at time 0
        if not _four_state(expr):
            return False  # a two-state value is 0, not x, before time 0: maybe no change
        core = _unwrapped(expr)
        kind = node_kind(core)
        if kind == "Concatenation":
            return all(self.connection(op, depth) for op in core.operands)
        while node_kind(core) in _SELECTS:
            if node_kind(core) == "ElementSelect" and named(core.selector):
                return False  # a variable index: not every bit for sure
            core = _unwrapped(core.value)
        if node_kind(core) != "NamedValue" or node_kind(core.symbol) not in _SIGNALS:
            return False  # an operator may keep its value (x & 0): no event for sure
        return self.signal(core.symbol, depth)

    def signal(self, sym: Any, depth: int) -> bool:
        """Whether every bit of the net or variable ``sym`` changes at time 0."""
        if not _four_state(sym):
            return False  # a two-state port or signal holds 0 before time 0
        parent = self.walk._parent_input(sym)  # noqa: SLF001 - the same walk
        if parent is not None:
            inst, port = parent
            if "." not in str(inst.hierarchicalPath):
                return self.environment  # a top's input: the environment's
            from rtlopt.frontend._open_inputs import _inputs

            exprs = [e for p, e in _inputs(inst) if str(p.name) == port]
            return bool(exprs) and self.connection(exprs[0], depth + 1)
        scope = self.walk._scope(sym)  # noqa: SLF001
        if not scope:
            return False
        if scope not in self.scopes:
            self.scopes[scope] = self._set_at_zero(self.walk.instances[scope].body)
        return key(sym) in self.scopes[scope]

    def _set_at_zero(self, body: Any) -> set[str]:
        """The nets and variables of ``body`` (generate blocks included) set to a constant at
        time 0 with an event."""
        out: set[str] = set()
        for m in _members(body):
            kind = node_kind(m)
            if kind == "Net" and m.initializer is not None and self._constant(m.initializer):
                out.add(key(m))
            elif kind == "ContinuousAssign" and getattr(m, "delay", None) is None:
                out |= self._assigned(m.assignment)  # a delayed one changes it later
            elif kind == "ProceduralBlock" and str(m.procedureKind).endswith("Initial"):
                for stmt in _leading(m.body):
                    if node_kind(stmt) == "ExpressionStatement":
                        out |= self._assigned(stmt.expr)
        # a net with another driver (a second assignment, an instance's or a gate's output,
        # a wired net's) may hold the value before time 0 through it: no change, no event
        out -= _driven_twice(body)
        # a variable that holds a value before time 0 (an initializer, a two-state type's
        # 0) may be written the same value: no change, no event
        held = {
            key(m)
            for m in _members(body)
            if node_kind(m) == "Variable"
            and (
                m.initializer is not None
                or not getattr(getattr(m, "type", None), "isFourState", False)
            )
        }
        return out - held

    def _assigned(self, expr: Any) -> set[str]:
        """The variable or net ``expr`` assigns whole with a constant, if it is such (a
        compound ``a += 1`` reads ``a``, x; an intra-assignment delay writes later)."""
        if node_kind(expr) != "Assignment" or not self._constant(expr.right):
            return set()
        if expr.isCompound or getattr(expr, "timingControl", None) is not None:
            return set()
        left = _unwrapped(expr.left)
        if node_kind(left) != "NamedValue" or node_kind(left.symbol) not in _SIGNALS:
            return set()
        return {key(left.symbol)}

    def _constant(self, expr: Any) -> bool:
        try:
            if x_value(expr, self.root):
                return False
        except Exception:  # noqa: BLE001 - fail closed
            return False
        return not [s for s in named(expr) if node_kind(s) in _SIGNALS]


def _unwrapped(expr: Any) -> Any:
    while node_kind(expr) == "Conversion":
        expr = expr.operand
    return expr


def _four_state(node: Any) -> bool:
    """Whether ``node`` (an expression, every conversion in it, or a signal) is of a
    four-state type (not known: no)."""
    while True:
        if not getattr(getattr(node, "type", None), "isFourState", False):
            return False
        if node_kind(node) != "Conversion":
            return True
        node = node.operand


def _driven_twice(body: Any) -> set[str]:
    """The signals of ``body`` more than one driver writes: continuous assignments, net
    initializers, the outputs and inouts of instances and gates (every name a gate's or an
    instance's connection reads counts, fail closed)."""
    from collections import Counter

    count: Counter[str] = Counter()
    for m in _members(body):
        kind = node_kind(m)
        if kind == "Net" and m.initializer is not None:
            count[key(m)] += 1
        elif kind == "ContinuousAssign":
            left = getattr(m.assignment, "left", None)
            count.update({key(s) for s in named(left) if node_kind(s) in _SIGNALS})
        elif kind in ("Instance", "PrimitiveInstance"):
            exprs = _connections(m)
            count.update({key(s) for e in exprs for s in named(e) if node_kind(s) in _SIGNALS})
    return {k for k, n in count.items() if n > 1}


def _connections(inst: Any) -> list[Any]:
    """The expressions an instance (its output and inout ports) or a gate (all of its
    terminals) connects."""
    if node_kind(inst) == "PrimitiveInstance":
        return [e for e in getattr(inst, "portConnections", ()) if e is not None]
    out = []
    for conn in getattr(inst, "portConnections", ()):
        port = getattr(conn, "port", None)
        direction = str(getattr(port, "direction", ""))
        if direction.endswith("In"):
            continue
        expr = getattr(conn, "expression", None)
        if expr is not None:
            out.append(expr)
    return out


def _leading(stmt: Any) -> list[Any]:
    """The statements an ``initial`` block runs before its first timing control (or
    anything else than a plain statement list)."""
    out: list[Any] = []
    stack = [stmt]
    while stack:
        cur = stack.pop(0)
        kind = node_kind(cur)
        if kind == "Block":
            stack.insert(0, cur.body)
        elif kind == "List":
            stack = list(cur.list) + stack
        elif kind == "ExpressionStatement":
            out.append(cur)
        else:
            break  # a timing control, a branch, a loop: what follows may wait
    return out


def evented_inputs(design: Design, environment: bool = True) -> frozenset[str]:
    """The target's input (and inout) ports that every instance of the repository changes at
    time 0 (all of them when nothing instantiates the target: a top's inputs are the
    environment's); once per design. ``environment=False``: a top's input counts as held
    without an event (an environment's initializer), so what reaches the target only from
    tops' inputs is not changed at time 0.

    Raises:
        RuntimeError: slang cannot elaborate the repository, or its elaboration cannot be
            read: nothing is known.
    """
    full, held, _ = _JUDGED(design)
    return full if environment else held


def instantiated(design: Design) -> bool:
    """Whether a module of the repository instantiates the target (what reads its outputs
    then lies outside it).

    Raises:
        RuntimeError: as :func:`evented_inputs`.
    """
    return _JUDGED(design)[2]


def _judged(design: Design) -> tuple[frozenset[str], frozenset[str], bool]:
    from rtlopt.frontend._open_inputs import _inputs, _Walk
    from rtlopt.frontend._params import _compile

    name = design.target.name
    ports = {p.name for p in design.target.ports if p.direction in ("input", "inout")}
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    try:
        walk = _Walk(_compile(files, {}, design))
        found = []
        for environment in (True, False):
            events = _Events(walk, environment)
            out = set(ports)
            for path, inst in walk.instances.items():
                if inst.body.definition.name != name:
                    continue
                if "." not in path:  # a top: its inputs are the environment's
                    out = out if environment else set()
                    continue
                for port, expr in _inputs(inst):
                    if str(port.name) in out and not events.connection(expr):
                        out.discard(str(port.name))
            found.append(frozenset(out))
        inner = any(i.body.definition.name == name and "." in p for p, i in walk.instances.items())
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        log.debug("time-0 events of %s not read", name, exc_info=True)
        raise RuntimeError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    return found[0], found[1], inner


_JUDGED: PerDesign[tuple[frozenset[str], frozenset[str], bool]] = PerDesign(_judged)
