"""Drivers that make x or z although what they read is defined, for
:class:`rtlopt.frontend._net_drivers.Drivers`.

The proofs and rtlopt's simulation drive the target's inputs with 0 or 1 only, so a driver of
a net in their fan-in cone that a simulation reads x or z from with every operand defined is
an x source (:attr:`rtlopt.frontend._run_x.MayBeX.kind` in brackets):

- a gate with a control and every switch (``bufif0/1``, ``notif0/1``, ``nmos``, ``pmos``,
  ``rnmos``, ``rpmos``, ``cmos``, ``rcmos``, ``tranif0/1``, ``rtranif0/1``, ``tran``,
  ``rtran``): z while the control is off, or where nothing drives the other side ("switch",
  :attr:`MayBeX.z`: ``===`` and ``!==`` tell z from x);
- a drive strength with ``highz0`` or ``highz1`` (``assign (strong0, highz1) w = s``, ``wire
  (highz0, weak1) w = s``, ``buf (strong0, highz1) g(w, s)``): z for one of its values
  ("switch", :attr:`MayBeX.z`: round 93 cases 01, 02);
- an output of an instance of a module with a ``specify`` block (a path delay): x until the
  first update ("delay");
- a ``force`` of a net: the net reads its drivers' value before the force and after a
  ``release``, z where nothing else drives it ("switch": round 93 case 03);
- an instance of a user-defined primitive: x for an input its table does not list (and, when
  sequential, until its state is first set) ("udp"; its table is not read: any counts);
- a delay (``assign #5 w = ...``, ``wire #5 w``, ``buf #5 g(...)``, ``and #(1, 2)``): the net
  reads x until the first update ("delay");
- a variable without an initial value every write of which a delay, an event, a ``wait`` or a
  task call of its process comes before (``initial #5 w = 1;``, ``initial begin #1; w = 1;
  end``, ``initial @(posedge s) w = 1;``, ``always #5 w = s;``, an intra-assignment delay
  ``w = #5 1``): x until the first write ("delay"; :class:`rtlopt.frontend._powerup.Registers`
  keeps the writes, a clocked block's are a register's).

A gate without a control and without a delay (``and``, ``or``, ``xor``, ``buf``, ``not``...)
is no source by itself: its output is what its inputs read (:class:`Gate`: the fan-in cone goes
through it). ``pullup`` and ``pulldown`` drive a defined value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rtlopt.frontend._run_x import MayBeX, place, text_of

__all__ = [
    "Gate",
    "assigns_x",
    "cell_port",
    "delayed",
    "forced",
    "gaps",
    "high_impedance",
    "specified",
    "has_timing",
    "late_call",
    "late_task",
    "is_task",
    "late_write",
    "task_output",
    "primitive_value",
    "timing_start",
    "uncovered",
]

#: Gates with a control and switches: z while off (or where nothing drives the other side).
SWITCHES = frozenset(
    {
        *("bufif0", "bufif1", "notif0", "notif1"),
        *("nmos", "pmos", "rnmos", "rpmos", "cmos", "rcmos"),
        *("tranif0", "tranif1", "rtranif0", "rtranif1", "tran", "rtran"),
    }
)
#: Gates whose output is a function of their inputs (defined where the inputs are).
PLAIN = frozenset({"and", "nand", "or", "nor", "xor", "xnor", "buf", "not"})
#: Gates driving a defined value.
PULLS = frozenset({"pullup", "pulldown"})
# timing controls that wait for time to pass, not for an event
_DELAYS = frozenset({"Delay", "Delay3", "OneStepDelay", "CycleDelay"})
_SWITCH_FIX = (
    "drive it with a continuous assignment or a gate without a control (a defined value on "
    "every bit whatever the control is)"
)
_UDP_FIX = "drive it with a continuous assignment (a user-defined primitive's table is not read)"
_DELAY_FIX = "drop the delay (a simulation reads x until the first update)"


@dataclass(frozen=True)
class Gate:
    """The output of a gate without a control and without a delay: what its ``inputs`` read
    (``instance``: the gate)."""

    instance: Any
    inputs: tuple[Any, ...]

    @property
    def syntax(self) -> Any:  # for :func:`rtlopt.frontend._run_x.text_of`
        return self.instance.syntax

    @property
    def location(self) -> Any:  # for :func:`rtlopt.frontend._run_x.place`
        return self.instance.location


def _name(node: Any) -> str:
    return f"{node.primitiveType.name} {node.name}"


def high_impedance(node: Any, sm: Any) -> MayBeX | None:
    """Why the continuous assignment, net declaration or gate ``node`` drives z for one of
    its values (its drive strength names ``highz0`` or ``highz1``), or None."""
    parent = getattr(getattr(node, "syntax", None), "parent", None)
    strength = " ".join(str(getattr(parent, "strength", None) or "").split())
    if "highz" not in strength:
        return None
    what = " ".join(str(parent).split())[:80]
    return MayBeX.make(
        f"{what} ({{0}}) drives z for one of its values {strength}",
        (place(node, sm),),
        fix="drop the drive strength (a simulation reads z where it names highz)",
        kind="switch",
        z=True,
    )


def specified(node: Any, sm: Any) -> MayBeX | None:
    """Why the outputs of the instance ``node`` read x until their first update: its module
    has a ``specify`` block (a path delay, ``(i => o) = 5``, under ``-gspecify``: round 93
    case 05), or None."""
    from pyslang import ast

    block = next((m for m in node.body if m.kind == ast.SymbolKind.SpecifyBlock), None)
    if block is None:
        return None
    return MayBeX.make(
        f"module {node.definition.name}'s specify block ({{0}}) may delay its outputs: they "
        "read x until the first update",
        (place(block, sm),),
        fix=_DELAY_FIX,
        kind="delay",
    )


def forced(node: Any, sm: Any) -> MayBeX:
    """Why the ``force`` statement ``node`` of a net leaves the net z: before it and after a
    ``release`` the net reads its other drivers."""
    return MayBeX.make(
        f"{text_of(node.assignment)} is forced ({{0}}): before the force and after a release "
        "the net reads its other drivers, z where none drives it",
        (place(node, sm),),
        fix="drive the net with a continuous assignment (or force a variable)",
        kind="switch",
        z=True,
    )


def primitive_value(node: Any, inputs: list[Any], sm: Any) -> Any:
    """What the primitive instance ``node`` (a gate, a switch or a user-defined primitive)
    drives its outputs with: None a defined value (``pullup``), a :class:`Gate` (what its
    ``inputs`` read), or why it may be x or z (a :class:`MayBeX`)."""
    prim = str(node.primitiveType.name)
    where = (place(node, sm),)
    if prim in PULLS:
        return None
    weak = high_impedance(node, sm)
    if weak is not None:
        return weak
    if prim in SWITCHES:
        what = (
            "connects two nets both ways: z where nothing else drives them"
            if prim in ("tran", "rtran")
            else "drives z while its control is off"
        )
        return MayBeX.make(
            f"{_name(node)} ({{0}}) {what}", where, fix=_SWITCH_FIX, kind="switch", z=True
        )
    if prim not in PLAIN:
        seq = "" if not getattr(node.primitiveType, "isSequential", True) else (
            " and holds x until its state is first set"
        )  # fmt: skip
        return MayBeX.make(
            f"{_name(node)} ({{0}}) drives x for the inputs its table does not list{seq}",
            where,
            fix=_UDP_FIX,
            kind="udp",
        )
    if node.delay is not None:
        return MayBeX.make(
            f"{_name(node)} ({{0}}) delays its output ({' '.join(str(node.delay.syntax).split())}"
            "): it reads x until the first update",
            where,
            fix=_DELAY_FIX,
            kind="delay",
        )
    return Gate(node, tuple(inputs))


def delayed(node: Any, sm: Any) -> MayBeX:
    """Why the continuous assignment ``node`` (a ``ContinuousAssign`` with a delay) or a net
    with a delay makes x until its first update."""
    delay = " ".join(str(node.delay.syntax).split())
    if node.kind.name == "ContinuousAssign":
        text = f"assign {delay} {text_of(node.assignment)}"
        what = "its net"
    else:
        text = f"the net '{node.name}' with a delay ({delay})"
        what = "it"
    return MayBeX.make(
        f"{text} ({{0}}) delays the update: {what} reads x until the first one",
        (place(node, sm),),
        fix=_DELAY_FIX,
        kind="delay",
    )


def late_write(sym: Any, first: Any, sm: Any) -> MayBeX:
    """Why the variable ``sym`` without an initial value reads x until its first write
    (``first``: a write that a delay, an event or a task call of its process comes before)."""
    return MayBeX.make(
        f"'{sym.name}' ({{0}}) reads x until its first write, {text_of(first)} ({{1}}), which a "
        "delay, an event or a task call of its process comes before (no write at time 0)",
        (place(sym, sm), place(first, sm)),
        fix=f"give '{sym.name}' an initial value (an initializer, or a write at time 0)",
        kind="delay",
    )


def timing_start(node: Any) -> tuple[bool, bool]:
    """For the procedural block ``node``: whether the walk tracks its timing controls (a write
    after one is late, :func:`late_write`), and whether its writes are late from the start.
    An ``always`` waiting on an event list first is a register's or a combinational block's
    (:mod:`rtlopt.frontend._powerup`): not tracked; one waiting on a delay (``always #5``) is
    late from the start, and so is a ``final`` block."""
    kind = node.procedureKind.name
    if kind == "Final":
        return True, True
    body = node.body
    if kind == "Initial" or body.kind.name != "Timed":
        return True, False
    if body.timing.kind.name in _DELAYS:
        return True, True
    return False, False


#: Statements an ``initial`` runs through to the next at time 0 for sure.
_PLAIN = frozenset({"ExpressionStatement", "Empty", "VariableDeclaration"})


def side_effect(fn: Any) -> bool:
    """Whether the subroutine ``fn`` assigns a name declared outside itself."""
    from pyslang import ast

    from rtlopt.frontend._net_bits import key, named

    inside = key(fn) + "."
    found: list[bool] = []

    def each(node: Any) -> None:
        if any(not key(s).startswith(inside) for s in named(node.left)):
            found.append(True)

    fn.body.visit(lookup_table={ast.ExpressionKind.Assignment: each})
    return bool(found)


def late_task(task: Any) -> bool:
    """Whether what the task ``task`` writes may be written later than time 0: unless it
    holds no timing control, every block calling it is an ``always_comb`` or ``always_latch``
    (run at time 0) without a timing control or an ``initial`` calling it before its first
    timing control, and no other task or function calls it. A task called from an
    ``always @*`` runs when the block does, and ``@*`` does not wait for what the task's body
    reads (``always @* t;`` never runs in iverilog); one called from a clocked block writes
    at a clock edge, as a register; from an ``initial`` or ``always`` with a delay, later."""
    from pyslang import ast

    timed = has_timing

    def calls(node: Any) -> bool:
        found: list[bool] = []

        def each(call: Any) -> None:
            if getattr(getattr(call, "subroutine", None), "name", None) == task.name:
                found.append(True)

        node.visit(lookup_table={ast.ExpressionKind.Call: each})
        return bool(found)

    def called_late(body: Any) -> bool:
        """Whether ``body`` (an ``initial``'s) may not call the task at time 0: only a
        call standing in its top-level sequence after nothing but plain statements surely
        runs then (one under an ``if``, a loop or a ``fork`` may not, nor one after a
        loop, a ``disable`` or a delay)."""
        stmts = list(body.list) if body.kind.name == "List" else [body]
        if body.kind.name == "Block":
            inner = body.body
            stmts = list(inner.list) if inner.kind.name == "List" else [inner]
        for stmt in stmts:
            if has_timing(stmt) or stmt.kind.name not in _PLAIN:
                return True  # a delay, or a statement that may not end (a loop, a disable)
            if calls(stmt):
                return False
            if _calls_any(stmt):
                return True  # another subroutine first: it may wait
        return True

    if timed(task.body):
        return True
    for member in _callers(task):
        if member.kind == ast.SymbolKind.Subroutine:
            if member is not task:
                return True
            continue
        kind = member.procedureKind.name
        if kind == "Initial":
            if called_late(member.body):
                return True
        elif kind not in ("AlwaysComb", "AlwaysLatch") or timed(member.body):
            return True
    return False


#: Per compilation (kept alive with it, the last few): the blocks and subroutines that
#: call a subroutine of each name, anywhere in the design.
_CALLERS: dict[int, tuple[Any, dict[str, list[Any]]]] = {}


def _callers(task: Any) -> list[Any]:
    """The procedural blocks and subroutines of the whole design that call a subroutine
    named like ``task`` (generate blocks, other modules' hierarchical calls included)."""
    from pyslang import ast

    comp = getattr(getattr(task, "parentScope", None), "compilation", None)
    if comp is None:
        return []
    entry = _CALLERS.get(id(comp))
    if entry is None or entry[0] is not comp:
        index: dict[str, list[Any]] = {}

        def each(sym: Any) -> None:
            names: set[str] = set()

            def call(c: Any) -> None:
                names.add(str(getattr(getattr(c, "subroutine", None), "name", "")))

            sym.body.visit(lookup_table={ast.ExpressionKind.Call: call})
            for n in names:
                index.setdefault(n, []).append(sym)

        comp.getRoot().visit(
            lookup_table={ast.SymbolKind.ProceduralBlock: each, ast.SymbolKind.Subroutine: each}
        )
        while len(_CALLERS) >= 4:
            _CALLERS.pop(next(iter(_CALLERS)))
        entry = (comp, index)
        _CALLERS[id(comp)] = entry
    return entry[1].get(str(task.name), [])


def has_timing(stmt: Any) -> bool:
    """Whether the statement ``stmt`` holds a delay, an event control or a ``wait`` (an
    intra-assignment one too: ``d = #5 v``)."""
    from pyslang import ast

    found: list[bool] = []
    table: dict[Any, Any] = {
        k: lambda _: found.append(True) for k in (ast.StatementKind.Timed, ast.StatementKind.Wait)
    }
    table[ast.ExpressionKind.Assignment] = lambda n: found.append(bool(n.timingControl))
    stmt.visit(lookup_table=table)
    return any(found)


def _calls_any(stmt: Any) -> bool:
    """Whether ``stmt`` calls a function or task of the design (not a system one)."""
    from pyslang import ast

    found: list[bool] = []

    def each(call: Any) -> None:
        system = call.isSystemCall
        found.append(not (system() if callable(system) else system))

    stmt.visit(lookup_table={ast.ExpressionKind.Call: each})
    return any(found)


def is_task(call: Any) -> bool:
    """Whether ``call`` calls a task (not a function or system task)."""
    sub = getattr(call, "subroutine", None)
    return getattr(getattr(sub, "subroutineKind", None), "name", "") == "Task"


def late_call(node: Any) -> bool:
    """Whether ``node`` calls a task holding a timing control (its outputs are written
    when it returns, later than the call)."""
    sub = getattr(node, "subroutine", None)
    kind = getattr(getattr(sub, "subroutineKind", None), "name", "")
    return sub is not None and kind == "Task" and has_timing(sub.body)


def assigns_x(stmt: Any, root: Any) -> bool:
    """Whether ``stmt`` assigns a value with x/z bits somewhere."""
    from pyslang import ast

    from rtlopt.frontend._run_x import x_value

    found: list[bool] = []

    def each(node: Any) -> Any:
        if not found and x_value(node.right, root):
            found.append(True)

    stmt.visit(lookup_table={ast.ExpressionKind.Assignment: each})
    return bool(found)


def uncovered(lo: int, hi: int, covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges of ``[lo, hi)`` no range of ``covered`` covers."""
    out: list[tuple[int, int]] = []
    at = lo
    for first, last in sorted(covered):
        if first > at and at < hi:
            out.append((at, min(first, hi)))
        at = max(at, last)
    if at < hi:
        out.append((at, hi))
    return out


def task_output(sym: Any, arg: Any, sm: Any) -> MayBeX:
    """Why the variable ``sym`` a task's output argument writes (``arg``) may be x: what the
    task passes out is not followed into its body (fail closed)."""
    return MayBeX.make(
        f"'{sym.name}' ({{0}}) is written by a task's output argument, {text_of(arg)} ({{1}}): "
        "what the task passes out is not followed (it may be x)",
        (place(sym, sm), place(arg, sm)),
        fix=f"assign '{sym.name}' directly, or from a function's result",
        kind="run",
    )


def cell_port(inst: Any, conn: Any, sm: Any) -> MayBeX:
    """What a connection of an instance of a module the repository does not define (a vendor
    cell, ``inst``) drives: not known, x where no other driver writes the bits (a flip-flop
    cell's output is x until its first clock; the cell's inputs have their own drivers)."""
    name = getattr(getattr(inst, "definition", None), "name", "") or getattr(inst, "name", "")
    return MayBeX.make(
        f"{text_of(conn)} ({{0}}) is connected to {getattr(inst, 'name', 'an instance')}, an "
        f"instance of {name or 'a module'}, which the repository does not define (a vendor "
        "cell): what it drives is not known (a flip-flop cell's output is x until its first "
        "clock)",
        (place(inst, sm),),
        cover=True,
        fix="add the cell's model to the repository (a filelist or the configuration's files)",
        kind="run",
    )


def gaps(
    size: int, lo: int, hi: int, counted: list[tuple[int | None, int | None, str | None]]
) -> tuple[str, list[tuple[int, int]]] | None:
    """The bits of ``[lo, hi)`` no defined driver of ``counted`` covers, with the value
    that drives them (:meth:`rtlopt.frontend._net_drivers.Drivers.undriven`)."""
    defined: list[tuple[int, int]] = []
    xs: list[tuple[int, int, str]] = []
    for first, last, x in counted:
        if first is None or last is None:
            if size:
                continue  # bits not known: drives none for sure
            first, last = 0, 0
        if x is None:
            if not size:
                return None  # no bits to count: any defined driver drives it
            defined.append((first, last))
        else:
            xs.append((first, last, x))
    missing = uncovered(lo, hi, defined) if size else [(0, 0)]
    if not missing:
        return None
    for first, last, x in xs:
        if x and any(first < b and a < last for a, b in missing):
            return x, missing
    return "", missing
