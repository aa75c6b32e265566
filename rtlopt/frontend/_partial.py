"""Variables a procedural block leaves x although what it writes is defined, for
:class:`rtlopt.frontend._net_drivers.Drivers`.

A variable without an initial value reads x until its first write. The walk counts every
assignment as a driver; these blocks may never make that first write (the
:attr:`rtlopt.frontend._run_x.MayBeX.kind` in brackets):

- a combinational block (``always @*``, ``always @(a or b)``, ``always_comb``) that writes a
  variable on some paths only (``always @* if (en) bw = 1;``, a ``case`` without ``default``
  whose items do not name every value): an inferred latch, which holds x until a path
  writing it runs ("latch");
- an ``always`` block waiting on an event list that reads nothing that changes (``always @*
  bw = 1;``: ``@*`` finds no net or variable to wait on, or only what the block writes
  itself; ``always @(1)``): it never runs, so what it writes stays x ("never");
- an ``always @*`` or ``always @(a or b)`` block every name of which it waits for gets no
  event at time 0 (``reg p = 1'b1; always @* bw = p;``, :mod:`rtlopt.frontend._no_wake`): what
  it writes is x until one of them changes, as a register is until its first write (kind
  "powerup");
- an ``initial`` block that writes a variable on some paths only before its first delay,
  event or ``wait`` (``initial if (c) r = 1;``, a ``case`` not naming every value): x where
  the path taken does not write it ("initial"; a write after a timing control is
  :func:`rtlopt.frontend._x_drivers.late_write`'s).

Paths are followed as :func:`rtlopt.frontend._assigned.surely` follows them (an ``if``
without ``else``, a ``case`` without ``default``, a ``for`` loop by its bounds). A variable
with an initializer holds a defined value until the first write: none of these apply to it.
A variable wider than :data:`WIDE` bits (a large memory) is not judged here.

An ``always_latch`` block is judged as a combinational one ("latch": ``always_latch if (en)
q = d;`` holds x while ``en`` is 0 from power-up), a clock-gating cell's too: its latch is x
until the clock's first low phase, and ``clk & q`` passes that x on while the clock is 1 (a
clock starting or held at 1), to whatever reads the gated clock as data, and ``q`` to any
reader (round 49). A gated clock feeding a target's clock input makes it x-fed.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._assigned import surely
from rtlopt.frontend._loops import Loops, enter
from rtlopt.frontend._net_bits import key, named, pieces, width
from rtlopt.frontend._no_wake import event_names, held
from rtlopt.frontend._run_x import MayBeX, case_selector_x, place, text_of
from rtlopt.frontend._self_read import read_first

__all__ = ["WIDE", "Partials", "left_x", "partial_writes", "subroutine_writes"]

#: Variables wider than this are not judged (a memory's bits are counted one by one).
WIDE = 1 << 16
_COMBINATIONAL = frozenset({"AlwaysComb", "AlwaysLatch"})
_SIGNALS = frozenset({"Net", "Variable"})


def _kind(node: Any, root: Any, writers: dict[int, Any] | None = None) -> str:
    """ "latch" for a combinational block, "never" for an ``always`` that never wakes up,
    "initial" for an ``initial``, else "" (a clocked block, an ``always`` with a delay, a
    ``final``)."""
    proc = node.procedureKind.name
    if proc in _COMBINATIONAL:
        return "latch"
    if proc == "Initial":
        return "initial"
    body = node.body
    if proc != "Always" or body.kind.name != "Timed":
        return ""
    timing = body.timing
    kind = timing.kind.name
    if kind == "ImplicitEvent":
        written = _written(body.stmt, root)
        if not _wakes(body.stmt, written):
            return "never"
        waits = _read(body.stmt, written)
    else:
        events = list(timing.events) if kind == "EventList" else [timing]
        if any(e.kind.name != "SignalEvent" for e in events):
            return ""
        if any(e.edge.name != "None_" for e in events):
            return ""  # a clocked block: a register's (:mod:`rtlopt.frontend._powerup`)
        waits = [s for e in events for s in event_names(e.expr)]
        if not waits:
            return "never"
    # a variable is told apart at once; a net's drivers are looked for in its scope
    waits.sort(key=lambda s: s.kind.name != "Variable")
    if all(held(s, root, writers=writers) for s in waits):
        return "nowake"
    return "latch"


def _signals(expr: Any) -> list[Any]:
    return [s for s in named(expr) if s.kind.name in _SIGNALS]


def _read(stmt: Any, written: dict[str, Any]) -> list[Any]:
    """The nets and variables ``stmt`` reads and does not write (what ``@*`` waits for)."""
    from pyslang import ast

    found: dict[str, Any] = {}

    def each(node: Any) -> Any:
        sym = node.symbol
        if sym.kind.name in _SIGNALS and key(sym) not in written:
            found.setdefault(key(sym), sym)
        return ast.VisitAction.Advance

    stmt.visit(
        lookup_table={
            ast.ExpressionKind.NamedValue: each,
            ast.ExpressionKind.HierarchicalValue: each,
        }
    )
    return list(found.values())


def _wakes(stmt: Any, written: dict[str, Any]) -> bool:
    """Whether ``@*`` around ``stmt`` waits on a net or variable ``stmt`` does not write
    itself (else nothing ever wakes it up)."""
    from pyslang import ast

    found: list[bool] = []

    def each(node: Any) -> Any:
        if found:
            return ast.VisitAction.Interrupt
        sym = node.symbol
        if sym.kind.name in _SIGNALS and key(sym) not in written:
            found.append(True)
        return ast.VisitAction.Advance

    stmt.visit(
        lookup_table={
            ast.ExpressionKind.NamedValue: each,
            ast.ExpressionKind.HierarchicalValue: each,
        }
    )
    return bool(found)


def _written(stmt: Any, root: Any) -> dict[str, Any]:
    """The variables ``stmt`` assigns, each with its first assignment (its bits: which the
    assignments may write, :func:`_maybe`), by key."""
    from pyslang import ast

    out: dict[str, Any] = {}

    def each(node: Any) -> None:
        for sym, _, _ in pieces(node.left, root):
            out.setdefault(key(sym), (sym, node))

    stmt.visit(lookup_table={ast.ExpressionKind.Assignment: each})
    return out


def _maybe(stmt: Any, root: Any) -> dict[str, set[int]]:
    """The bits each variable some path through ``stmt`` may assign (a select whose index
    is not constant: every bit; one indexed by a ``for`` loop's variable: each iteration's)."""
    from pyslang import ast

    out: dict[str, set[int]] = {}
    open_loops: list[Loops | None] = [None]

    def assignment(node: Any) -> None:
        for sym, lo, hi in pieces(node.left, root, loops=open_loops[-1]):
            size = width(sym)
            if node_kind(sym) != "Variable" or not 0 < size <= WIDE:
                continue
            bits = range(0, size) if lo is None or hi is None else range(lo, hi)
            out.setdefault(key(sym), set()).update(bits)

    def loop(node: Any) -> Any:
        for init in node.initializers:
            init.visit(lookup_table=table)
        try:
            inner = enter(node, root, open_loops[-1])
        except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
            inner = None
        open_loops.append(inner)
        try:
            node.body.visit(lookup_table=table)
        finally:
            open_loops.pop()
        return ast.VisitAction.Skip

    table = {ast.ExpressionKind.Assignment: assignment, ast.StatementKind.ForLoop: loop}
    stmt.visit(lookup_table=table)
    return out


def node_kind(sym: Any) -> str:
    return str(getattr(getattr(sym, "kind", None), "name", ""))


def subroutine_writes(node: Any, root: Any) -> dict[str, tuple[Any, Any, str]]:
    """The variables outside the task or function ``node`` that its body writes on some
    paths only (a caller leaves them x on the others, an ``initial``'s call as well as an
    ``always_comb``'s), as :func:`partial_writes` gives them (kind "initial")."""
    inside = key(node) + "."
    body = node.body
    out: dict[str, tuple[Any, Any, str]] = {}
    for name, (sym, first) in _written(body, root).items():
        if name.startswith(inside) or node_kind(sym) != "Variable":
            continue
        if getattr(sym, "initializer", None) is not None:
            continue
        if not getattr(getattr(sym, "type", None), "isFourState", True):
            continue
        if not frozenset(range(width(sym))) <= surely(body, sym, root, selector_x=case_selector_x):
            out[name] = (sym, first, "initial")
    return out


class Partials:
    """:func:`partial_writes` once per procedural block of one elaboration (each block kept
    alive: its ``id`` names it), the questions sharing the scopes' writer indexes."""

    def __init__(self) -> None:
        self._found: dict[int, tuple[Any, dict[str, tuple[Any, Any, str]]]] = {}
        self._writers: dict[int, Any] = {}

    def __call__(self, node: Any, root: Any) -> dict[str, tuple[Any, Any, str]]:
        hit = self._found.get(id(node))
        if hit is None or hit[0] is not node:
            hit = self._found[id(node)] = (node, partial_writes(node, root, self._writers))
        return hit[1]


def partial_writes(
    node: Any, root: Any, writers: dict[int, Any] | None = None
) -> dict[str, tuple[Any, Any, str]]:
    """The variables the procedural block ``node`` may leave x (:mod:`this module
    <rtlopt.frontend._partial>`), by key: (the variable, its first assignment in the block,
    the kind: "latch", "never", "nowake", "self" or "initial"; :data:`_KINDS` maps the last
    ones to the kind of x); ``writers``: the scopes' writer indexes of the elaboration
    (:func:`rtlopt.frontend._no_wake.held`)."""
    kind = _kind(node, root, writers)
    if not kind:
        return {}
    body = node.body.stmt if node.body.kind.name == "Timed" and kind != "initial" else node.body
    written = _written(body, root)
    out: dict[str, tuple[Any, Any, str]] = {}
    if kind in ("never", "nowake"):
        for name, (sym, first) in written.items():
            if node_kind(sym) == "Variable" and getattr(sym, "initializer", None) is None:
                out[name] = (sym, first, kind)
        return out
    maybe = _maybe(body, root)
    assigned: dict[int, tuple[Any, frozenset[str]]] = {}  # shared by the variables' questions
    for name, (sym, first) in written.items():
        bits = maybe.get(name)
        if not bits or getattr(sym, "initializer", None) is not None:
            continue
        if not getattr(getattr(sym, "type", None), "isFourState", True):
            continue  # a two-state variable holds 0 unwritten
        if not bits <= surely(
            body, sym, root, selector_x=case_selector_x, stop_at_timing=kind == "initial"
        ):
            out[name] = (sym, first, kind)
        elif kind == "latch":
            read = read_first(body, sym, root, selector_x=case_selector_x, assigned=assigned)
            if read is not None:
                out[name] = (sym, read, "self")
    return out


_WHY = {
    "latch": (
        "is written by a combinational block on some paths only (a latch: {what} holds x "
        "until a path writing it runs)",
        "write '{name}' on every path of its block (a default assignment first, an else, a "
        "case default)",
    ),
    "never": (
        "is written only by an always block whose event control waits on nothing that "
        "changes (a simulation never runs it: {what} stays x)",
        "make the block always_comb, or assign '{name}' with a continuous assignment",
    ),
    "self": (
        "is read by its combinational block before the block writes it on some path (it "
        "holds its previous value there: a latch or a loop through itself, x from power-up "
        "until a path defining it runs)",
        "assign '{name}' a value not reading itself first in its block (a default "
        "assignment before the read)",
    ),
    "nowake": (
        "is written only by an always block waiting for nets and variables none of which "
        "gets an event at time 0 (an initializer's value, a two-state default, a net "
        "driven from those: {what} stays x until one of them changes)",
        "make the block always_comb, or assign '{name}' with a continuous assignment",
    ),
    "initial": (
        "is written by an initial block on some paths only ({what} stays x where the path "
        "taken does not write it)",
        "write '{name}' on every path of the initial block (or give it an initializer)",
    ),
}


def left_x(sym: Any, first: Any, kind: str, sm: Any) -> MayBeX:
    """Why the variable ``sym`` may stay x (``first``: its first write in the block that
    leaves it so; ``kind``: :func:`partial_writes`'s)."""
    why, fix = _WHY[kind]
    what = "the read" if kind == "self" else "its first write"
    return MayBeX.make(
        f"'{sym.name}' ({{0}}) {why.format(what='it')}, {what} {text_of(first)} ({{1}})",
        (place(sym, sm), place(first, sm)),
        fix=fix.format(name=sym.name),
        kind=_KINDS.get(kind, kind),
    )


# the kind of x (:attr:`MayBeX.kind`) each reason makes: a block nothing wakes at time 0
# is x until the first event of what it waits for, as a register until its first write
_KINDS = {"self": "latch", "nowake": "powerup"}
