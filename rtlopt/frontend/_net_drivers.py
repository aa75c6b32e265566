"""What drives each net and variable of an elaborated design (slang), for
:mod:`rtlopt.frontend._open_inputs`: a net that reaches an input of the target with no driver
at all feeds it z, and one that only x/z values drive feeds it x.

A driver is every assignment whose left side names the net or variable (continuous, in an
``always``/``initial`` block, a task or function, a generate block, ``force`` and procedural
``assign``, a hierarchical name from another module, an interface's signal through a
modport), a declaration's initializer (``wire w = a;``, ``reg r = 0;``), the connection of an
output or inout port of an instance (slang writes those, a task's output arguments and
a system task's outputs as assignments of an empty argument), a gate's or primitive's output,
and any connection of an instance of a module the repository does not define (a vendor cell,
a ``-y`` library: directions unknown, each drives a value not known, x where no other driver
writes the bits); ``supply0``/``supply1``/``tri0``/``tri1`` nets and two-state variables need none.
Only the value of an assignment is judged: a driver is x when that value has an x or z bit
outside an operand of ``===``, ``!==``, ``==?``, ``!=?`` or ``inside`` (x read as a value).

Each driver drives the bits its left side selects (:mod:`rtlopt.frontend._net_bits`:
``assign w[3:0] = c;`` leaves ``w[7:4]`` z); one whose index is not constant (``w[i] = b``)
drives no bit for sure, so a net is driven only where drivers with known bits cover it. An
output or inout port of an instance of a module the repository defines drives what that
module's body drives the port with (:data:`PortState`, followed by the caller: nothing, x
only, or some bits only leave the net undriven), and an inout connection of the instance
whose input is judged drives nothing for that input (only other drivers count).

A driver whose value may be x at run time (:func:`rtlopt.frontend._run_x.run_x`) makes its
bits x whatever else drives them, and so do two drivers of one bit of a net
(:func:`rtlopt.frontend._two_drivers.conflict`). A driver whose value has x/z bits makes its
bits x even where defined drivers write them too (``default: y = 'x;``, an initial ``y =
'x;``: x wherever no other assignment overwrites it), except a z on a ``tri0``/``tri1`` net.
A system task's output argument (:func:`rtlopt.frontend._sys_x.output_x`: ``$readmemh``'s
memory, ``$value$plusargs``'s variable) is x only on the bits no defined driver writes; an
output argument of a task or function of the repository some path through whose body leaves
it unassigned (:func:`rtlopt.frontend._assigned.unassigned`) is x.
Drivers in a generate branch turned off are none. A select indexed by a procedural ``for``
loop's variable drives the bits of every iteration (:mod:`rtlopt.frontend._loops`); a
``case`` ``default`` assigning x no 0/1 value reaches is not walked (:mod:`._reach`); a
register without reset or initial value powers up x (:mod:`._powerup`); a variable a block
or a task may leave x (an inferred latch, an ``always`` nothing wakes up, an ``initial`` or a
task writing on some paths only) is x (:mod:`rtlopt.frontend._partial`).

Drivers that make x or z from defined operands (:mod:`rtlopt.frontend._x_drivers`): a gate
with a control or a switch (z), a user-defined primitive (x), a delay on a continuous
assignment, a net or a gate (x until the first update), and a variable without an initial
value every write of which a delay, an event or a task call of its process comes before
(x until the first write). A gate without a control and without a delay drives what its
inputs read (:meth:`Drivers.reads` follows them); ``pullup``/``pulldown`` a defined value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rtlopt.frontend import _x_drivers as xd
from rtlopt.frontend._assigned import unassigned
from rtlopt.frontend._call_reads import call_reads, reads_outside
from rtlopt.frontend._loops import Loops, enter, variable
from rtlopt.frontend._net_bits import Piece, key, named, pieces, width
from rtlopt.frontend._net_values import DriverValues, Entry, Port
from rtlopt.frontend._partial import Partials, subroutine_writes
from rtlopt.frontend._powerup import Block, Registers, block_of
from rtlopt.frontend._reach import decided, default_reached
from rtlopt.frontend._run_x import MayBeX, place, text_of, unassigned_local, x_value
from rtlopt.frontend._run_x import case_selector_x as _selector_x
from rtlopt.frontend._slang import node_kind
from rtlopt.frontend._sys_x import output_x

__all__ = ["Drivers", "Port", "key", "named", "x_value"]


class Drivers(DriverValues):
    """Every driver below ``scope`` (one walk) of each net and variable named like one of
    ``names`` (all of them when None), each with the bits it drives. ``local``: the walk
    stops at the instances in ``scope`` (their output and inout connections are drivers,
    what is inside them is not walked), so a net of ``scope`` it finds no driver for may
    still be driven from elsewhere (a hierarchical name): ask the design's walk (``scope``
    the root) then. ``partials``: the procedural blocks' partial writes of the elaboration,
    shared by its walks."""

    def __init__(
        self,
        scope: Any,
        root: Any,
        names: set[str] | None = None,
        *,
        local: bool = False,
        partials: Partials | None = None,
    ) -> None:
        from pyslang import ast

        self.root = root
        self._sm = root.compilation.sourceManager
        self._partials = Partials() if partials is None else partials
        self._names = names
        self._local = local
        self._of: dict[str, list[tuple[Entry, str]]] = {}  # net -> (driver, instance)
        # an assignment's value -> (its left side, the conditions it is under)
        self._context: dict[int, tuple[Any, tuple[Any, ...]]] = {}
        self._conds: tuple[Any, ...] = ()  # the conditions of the statement being walked
        self._open: Loops | None = None  # the ``for`` loops around the statement walked
        self._looped: dict[int, Loops] = {}  # an assignment's value -> the loops around it
        self._block: Block | None = None  # the procedural block being walked
        self._blocks: list[Block] = []
        # the values of continuous assignments (:mod:`rtlopt.frontend._comb_loop`), by id
        self.continuous: set[int] = set()
        # whether the block's timing controls are tracked, and whether one came before
        self._track, self._late = False, False
        self._delay: MayBeX | None = None  # a continuous assignment's delay being walked
        self.registers = Registers()
        # slang picks the nodes: Python sees only these kinds
        self._table = {
            ast.ExpressionKind.Assignment: self._assignment,
            ast.SymbolKind.Net: self._declared,
            ast.SymbolKind.Variable: self._declared,
            ast.SymbolKind.UninstantiatedDef: self._unknown_module,
            ast.SymbolKind.Instance: self._child,
            ast.SymbolKind.GenerateBlock: self._generate,
            ast.ExpressionKind.Call: self._call,
            ast.StatementKind.Conditional: self._conditional,
            ast.StatementKind.Case: self._case,
            ast.StatementKind.ForLoop: self._loop,
            ast.SymbolKind.ProceduralBlock: self._procedure,
            ast.SymbolKind.Subroutine: self._subroutine,
            ast.SymbolKind.PrimitiveInstance: self._primitive,
            ast.SymbolKind.ContinuousAssign: self._continuous,
            ast.StatementKind.ProceduralAssign: self._procedural_assign,
            ast.StatementKind.Timed: self._timed,
            ast.StatementKind.Wait: self._timed,
            ast.StatementKind.WaitFork: self._timed,
            ast.StatementKind.WaitOrder: self._timed,
        }
        scope.visit(lookup_table=self._table)

    def _child(self, node: Any) -> Any:
        """An instance's output and inout connections drive what the module drives its
        ports with, its inputs nothing; its body is walked unless ``local``."""
        from pyslang import ast

        path = str(node.hierarchicalPath)
        delayed = xd.specified(node, self._sm)  # a path delay: x until the first update
        for conn in node.portConnections:
            expr = conn.expression
            if expr is None or expr.kind != ast.ExpressionKind.Assignment:
                continue
            direction = str(getattr(conn.port, "direction", "")).rsplit(".", 1)[-1]
            port = Port(node, str(conn.port.name), path, direction == "InOut")
            self._add(pieces(expr.left, self.root), delayed or port, path)
        if not self._local:
            node.body.visit(lookup_table=self._table)
        return ast.VisitAction.Skip

    def _generate(self, node: Any) -> Any:
        """A generate branch the parameters turn off drives nothing."""
        from pyslang import ast

        return ast.VisitAction.Skip if node.isUninstantiated else ast.VisitAction.Advance

    def _add(
        self, found: list[Piece], value: Any | None, source: str = "", write: Any = None
    ) -> None:
        """``value`` drives the bits ``found`` (``write``: the assignment, in the block
        being walked, that writes them; else a driver outside any clocked block)."""
        for sym, lo, hi in found:
            if self._names is None or str(sym.name) in self._names:
                self._of.setdefault(key(sym), []).append(((lo, hi, value), source))
                if write is None:
                    self.registers.other.add(key(sym))
                else:
                    self.registers.write(
                        key(sym), write, self._block, self._conds, self.root, late=self._late
                    )

    def _procedure(self, node: Any) -> Any:
        """A procedural block: whether its writes are a register's
        (:mod:`rtlopt.frontend._powerup`)."""
        from pyslang import ast

        outer = (self._block, self._track, self._late)
        self._block = block = block_of(node)
        self._blocks.append(block)  # kept: the writers are told apart by ``id``
        self._track, self._late = xd.timing_start(node)
        try:
            node.body.visit(lookup_table=self._table)
        finally:
            self._block, self._track, self._late = outer
        for name, (_, first, kind) in self._partials(node, self.root).items():
            if self._names is None or name.rpartition(".")[2] in self._names:
                self.registers.partial.setdefault(name, (id(block), first, kind))
        return ast.VisitAction.Skip

    def _subroutine(self, node: Any) -> Any:
        """A task, or a function writing outside itself: what it writes on some paths only
        may stay x; late when it may run after time 0 (:func:`late_task`). Others are walked
        where they stand."""
        from pyslang import ast

        task = node.subroutineKind.name == "Task" or xd.side_effect(node)
        here = id(self._block) if self._block is not None else 0  # its writes' writer
        for name, (_, first, kind) in (subroutine_writes(node, self.root) if task else {}).items():
            self.registers.partial.setdefault(name, (here, first, kind))
        if not task or not xd.late_task(node):
            return ast.VisitAction.Advance
        outer = (self._track, self._late)
        self._track, self._late = True, True
        try:
            node.body.visit(lookup_table=self._table)
        finally:
            self._track, self._late = outer
        return ast.VisitAction.Skip

    def _timed(self, node: Any) -> None:
        """A delay, an event or a ``wait`` of a tracked block: what it writes next is late
        (:func:`rtlopt.frontend._x_drivers.late_write`)."""
        self._late = self._late or self._track

    def _primitive(self, node: Any) -> Any:
        """A gate, a switch or a user-defined primitive drives its outputs with what
        :func:`rtlopt.frontend._x_drivers.primitive_value` says (slang writes an output as an
        assignment of an empty argument)."""
        from pyslang import ast

        outputs, inputs = [], []
        for conn in node.portConnections:
            if (
                conn.kind == ast.ExpressionKind.Assignment
                and conn.right.kind == ast.ExpressionKind.EmptyArgument
            ):
                outputs.append(conn.left)
            else:
                conn.visit(lookup_table=self._table)  # a call's outputs
                inputs.append(conn)
        value = xd.primitive_value(node, inputs, self._sm)
        for left in outputs:
            self._add(pieces(left, self.root), value)
        return ast.VisitAction.Skip

    def _continuous(self, node: Any) -> Any:
        """A continuous assignment with a delay drives x until its first update, one with a
        ``highz`` strength z for one of its values."""
        from pyslang import ast

        source = xd.high_impedance(node, self._sm)
        if source is None and node.delay is None:
            return ast.VisitAction.Advance
        return self._as(node.assignment, source or xd.delayed(node, self._sm))

    def _procedural_assign(self, node: Any) -> Any:
        """A ``force`` of a net drives it only while it holds: z where nothing else
        does (:func:`rtlopt.frontend._x_drivers.forced`)."""
        from pyslang import ast

        left = node.assignment.left if node.assignment.kind.name == "Assignment" else None
        nets = [p for p in pieces(left, self.root)] if node.isForce and left is not None else []
        if not any(node_kind(p[0]) == "Net" for p in nets):
            return ast.VisitAction.Advance
        return self._as(node.assignment, xd.forced(node, self._sm))

    def _as(self, assignment: Any, source: MayBeX) -> Any:
        """Walk ``assignment`` with its value read as the x source ``source``."""
        from pyslang import ast

        outer, self._delay = self._delay, source
        try:
            assignment.visit(lookup_table=self._table)
        finally:
            self._delay = outer
        return ast.VisitAction.Skip

    def _under(self, conds: list[Any], stmts: list[Any]) -> Any:
        """Walk ``stmts`` under ``conds`` (an ``if``'s or ``case``'s): what they assign is
        fed by what the conditions read."""
        from pyslang import ast

        for cond in conds:
            cond.visit(lookup_table=self._table)  # a call's outputs in a condition
        outer, self._conds = self._conds, (*self._conds, *conds)
        try:
            for stmt in stmts:
                if stmt is not None:
                    stmt.visit(lookup_table=self._table)
        finally:
            self._conds = outer
        return ast.VisitAction.Skip

    def _conditional(self, node: Any) -> Any:
        """An ``if``: a branch no value of its condition's operands takes
        (``if (FPU == 1 && en)`` with ``FPU`` 0) is not walked."""
        conds = [c.expr for c in node.conditions]
        truth = decided(conds[0], self.root) if len(conds) == 1 else None
        if truth is not None and node.conditions[0].pattern is None:
            return self._under([], [node.ifTrue if truth else node.ifFalse])
        return self._under(conds, [node.ifTrue, node.ifFalse])

    def _case(self, node: Any) -> Any:
        """A ``case``: its ``default`` is not walked when it assigns a value with x/z bits
        and no 0/1 value of the operands of the expression and items reaches it
        (:func:`rtlopt.frontend._reach.default_reached`)."""
        conds = [node.expr, *(e for item in node.items for e in item.expressions)]
        default = node.defaultCase
        if default is not None and xd.assigns_x(default, self.root):
            default = default if default_reached(node, self.root) else None
        return self._under(conds, [*(item.stmt for item in node.items), default])

    def _loop(self, node: Any) -> Any:
        """A procedural ``for`` loop: its body's selects indexed by the loop's variable are
        judged over the loop's iterations (:mod:`rtlopt.frontend._loops`)."""
        from pyslang import ast

        for var in node.loopVars:
            self._declared(var)
        if (var := variable(node)) is not None:
            self.registers.loop_vars.add(key(var))
        for part in (*node.initializers, node.stopExpr, *node.steps):
            if part is not None:
                part.visit(lookup_table=self._table)
        outer, self._open = self._open, enter(node, self.root, self._open)
        try:
            node.body.visit(lookup_table=self._table)
        finally:
            self._open = outer
        return ast.VisitAction.Skip

    def _assignment(self, node: Any) -> None:
        from pyslang import ast

        right = node.right
        empty = right.kind == ast.ExpressionKind.EmptyArgument  # an output argument's
        if not empty:
            self._context[id(right)] = (node.left, self._conds)
            if self._open is not None:
                self._looped[id(right)] = self._open
        value = self._delay if self._delay is not None and not empty else right
        if self._block is None and not empty:
            self.continuous.add(id(value))  # no procedural block: evaluated continuously
        found = pieces(node.left, self.root, loops=self._open)
        if self._track and node.timingControl is not None:  # ``w = #5 1``: late
            outer, self._late = self._late, True
            self._add(found, None if empty else value, write=node)
            self._late = outer if node.isNonBlocking else True
            return
        self._add(found, None if empty else value, write=node)

    def reads(
        self,
        sym: Any,
        bits: tuple[int | None, int | None] = (None, None),
        decide: Callable[[Any], bool | None] | None = None,
    ) -> list[Piece]:
        """The nets and variables (with their bits) the drivers of ``bits`` of ``sym``
        read: an assignment's or initializer's value, the indices of its left side, the
        conditions (``if``, ``case`` and its labels) it is under (not an edge's event control:
        a register's clock), what bodies they call read. A port, a task's output or a value
        judged x reads nothing here (:meth:`undriven` judges those). ``decide``: the truth of
        a ``?:``'s condition whatever the unknowns (:class:`KnownBits`): its arm is read."""
        size = width(sym)
        lo, hi = (bits[0], bits[1]) if bits[0] is not None and bits[1] is not None else (0, size)
        out: list[Piece] = []
        for (first, last, value), _ in self._of.get(key(sym), []):
            if value is None or isinstance(value, (Port, MayBeX)):
                continue
            if first is not None and last is not None and size and not (first < hi and lo < last):
                continue
            if isinstance(value, xd.Gate):  # a gate's output reads its inputs
                for arg in value.inputs:
                    out += pieces(arg, self.root, reading=True, decide=decide)
                continue
            loops = self._looped.get(id(value))
            out += pieces(value, self.root, reading=True, loops=loops, decide=decide)
            left, conds = self._context.get(id(value), (None, ()))
            if left is not None:
                out += [
                    p
                    for p in pieces(left, self.root, reading=True, loops=loops)
                    if key(p[0]) != key(sym)
                ]
            for cond in conds:
                out += pieces(cond, self.root, reading=True, loops=loops)
            out += [(s, None, None) for e in (value, *conds) for s in call_reads(e)]
        return out

    def _call(self, node: Any) -> Any:
        """A call's output arguments. A system task's are written with a defined value, or
        maybe left x where no other driver writes them
        (:func:`rtlopt.frontend._sys_x.output_x`); a task's or function's of the repository
        are x when a path through its body leaves the output unassigned
        (:func:`rtlopt.frontend._assigned.unassigned`)."""
        from pyslang import ast

        system = bool(node.isSystemCall)
        why = output_x(node, self._sm) if system else None
        formals = [] if system else list(getattr(node.subroutine, "arguments", None) or [])
        for i, arg in enumerate(node.arguments):
            if not (
                arg.kind == ast.ExpressionKind.Assignment
                and arg.right.kind == ast.ExpressionKind.EmptyArgument
            ):
                arg.visit(lookup_table=self._table)
                continue
            found = pieces(arg.left, self.root, loops=self._open)
            if not system:
                formal = formals[i] if i < len(formals) else None
                value = self._output(node, formal)
                if value is None and (xd.is_task(node) or reads_outside(node)):
                    # an output a task returns (after its own delay, maybe): not followed
                    late = xd.late_call(node)
                    for sym, lo, hi in found:
                        why = (xd.late_write if late else xd.task_output)(sym, arg, self._sm)
                        self._add([(sym, lo, hi)], why)
                    continue
                self._add(found, value)
                continue
            # the task may leave any of the bits unwritten: all of them, when not known
            self._add(
                [(s, 0, width(s)) if lo is None else (s, lo, hi) for s, lo, hi in found]
                if why is not None
                else found,
                why,
            )
        kind = str(getattr(getattr(node, "subroutine", None), "subroutineKind", ""))
        if not system and self._track and not kind.endswith("Function"):
            self._late = True  # a task may wait: what the block writes next is late
        return ast.VisitAction.Skip

    def _output(self, call: Any, formal: Any) -> MayBeX | None:
        """Why the output argument ``formal`` of the subroutine ``call`` calls may be left
        unassigned (x), or None (a defined driver)."""
        direction = str(getattr(formal, "direction", "")).rsplit(".", 1)[-1]
        if formal is None or direction != "Out":
            return None
        what = f"its output '{formal.name}'"
        if not unassigned(call.subroutine, self.root, formal, selector_x=_selector_x):
            local = unassigned_local(call.subroutine, self.root)
            if local is None:
                return None
            what = f"its local '{local.name}', which the body reads,"
        return MayBeX.make(
            f"{text_of(call)} ({{0}}) calls {call.subroutineName}, a path through whose body "
            f"({{1}}) leaves {what} unassigned (x)",
            (place(call, self._sm), place(call.subroutine, self._sm)),
            fix=f"assign '{formal.name}' and every local on every path of {call.subroutineName}",
            kind="unassigned",
        )

    def _declared(self, node: Any) -> None:
        init = getattr(node, "initializer", None)
        if init is not None:
            if node_kind(node) == "Net":
                self.continuous.add(id(init))  # ``wire w = ...``: a continuous assignment
            self._add([(node, 0, width(node))], init)

    def _unknown_module(self, node: Any) -> None:
        for conn in node.portConnections:
            part = getattr(conn, "expr", conn)
            if part is not None and hasattr(part, "visit"):
                self._add(pieces(part, self.root), xd.cell_port(node, part, self._sm))
