"""Registers of the repository that power up x, for :class:`rtlopt.frontend._net_drivers.Drivers`.

A register here is a four-state variable every write of which is in a clocked block (an
``always_ff``, an ``always`` whose event control has an edge; not a latch, ``always_latch``,
which a clock gate's enable writes as soon as the clock is low). Until
its first write a simulation reads it x, so it is an x source of the fan-in cone it is in,
unless

- it has an initial value (an initializer, ``reg r = 0;``, or a write in an ``initial``
  block: then not every write is in a clocked block), or
- a reset branch writes it: a write under a condition reading a signal of its block's
  event control other than the one edge alone (``always @(posedge clk or negedge rst_n) if
  (!rst_n) r <= ...``), or a write of a defined constant (``if (rst) r <= 0;``, a
  synchronous reset; any write of a constant counts, reset or not).

The loop variables of procedural ``for`` loops are no registers.

A write outside a clocked block that a delay, an event, a ``wait`` or a task call of its
process comes before (``initial #5 r = 1;``) is no initial value: a variable every write of
which is such or a register's, without an initial value or reset, reads x until its first
write (:func:`rtlopt.frontend._x_drivers.late_write`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Block", "Registers", "block_of"]


@dataclass(frozen=True)
class Block:
    """A procedural block being walked: ``clocked`` (its writes are register writes),
    ``signals`` the nets of its event control when it has more than one (a reset among
    them)."""

    clocked: bool
    signals: frozenset[str] = frozenset()


def block_of(node: Any) -> Block:
    """What the procedural block ``node`` is (:class:`Block`)."""
    from rtlopt.frontend._net_bits import key, named

    kind = node.procedureKind.name
    body = node.body
    if kind not in ("Always", "AlwaysFF") or body.kind.name != "Timed":
        return Block(False)
    timing = body.timing
    events = list(timing.events) if timing.kind.name == "EventList" else [timing]
    edges = [e for e in events if e.kind.name == "SignalEvent" and e.edge.name != "None_"]
    if not edges:
        return Block(False)
    signals = frozenset(key(s) for e in edges for s in named(e.expr))
    return Block(True, signals if len(edges) > 1 else frozenset())


@dataclass
class Registers:
    """What the walk saw of each variable's writes, by its hierarchical name."""

    # where a variable is written outside a clocked block (an initializer included)
    other: set[str] = field(default_factory=set)
    # a clocked write of each variable: (its value, the write's node) of the first seen
    clocked: dict[str, Any] = field(default_factory=dict)
    reset: set[str] = field(default_factory=set)
    loop_vars: set[str] = field(default_factory=set)
    # a write after a delay or event of a process outside a clocked block: the first seen
    late: dict[str, Any] = field(default_factory=dict)
    # the writers outside a clocked block (``id`` of the block walked, 0 for none: a
    # continuous assignment, an initializer, a port)
    writers: dict[str, set[int]] = field(default_factory=dict)
    # what a block leaves x (:mod:`rtlopt.frontend._partial`): (its block's id, the first
    # write, the kind)
    partial: dict[str, tuple[int, Any, str]] = field(default_factory=dict)

    def write(
        self,
        name: str,
        node: Any,
        block: Block | None,
        conds: tuple[Any, ...],
        root: Any,
        *,
        late: bool = False,
    ) -> None:
        """``node`` (an assignment) writes ``name`` in ``block`` under ``conds`` (``late``:
        after a delay or event of its process, outside a clocked block)."""
        from rtlopt.frontend._net_bits import _const, key, named

        if late and (block is None or not block.clocked):
            self.late.setdefault(name, node)
            return
        if block is None or not block.clocked:
            self.other.add(name)
            self.writers.setdefault(name, set()).add(id(block) if block is not None else 0)
            return
        self.clocked.setdefault(name, node)
        if name in self.reset:
            return
        if _const(node.right, root) is not None:
            self.reset.add(name)
        elif block.signals and any(key(s) in block.signals for c in conds for s in named(c)):
            self.reset.add(name)

    def powers_up_x(self, sym: Any) -> Any | None:
        """The first clocked write of ``sym`` when it is a register without reset or
        initial value (:mod:`rtlopt.frontend._powerup`), else None."""
        return self._unstated(sym, self.clocked)

    def left_x(self, sym: Any) -> tuple[Any, str] | None:
        """(The first write, the kind) when a block leaves ``sym`` x on some path
        (:mod:`rtlopt.frontend._partial`) and no other block or assignment outside a
        clocked block writes it, else None."""
        from rtlopt.frontend._net_bits import key

        name = key(sym)
        found = self.partial.get(name)
        if found is None or name in self.loop_vars or getattr(sym, "initializer", None):
            return None
        block, first, kind = found
        # another writer may define what a latch leaves; a read back before the write (bits
        # of the variable another block may derive from this one's) holds x all the same
        if kind != "self" and self.writers.get(name, set()) - {block}:
            return None
        return first, kind

    def first_late(self, sym: Any) -> Any | None:
        """A late write of ``sym`` when every write of it is late or a register's and it
        has no initial value nor reset (it reads x until its first write), else None."""
        return self._unstated(sym, self.late)

    def _unstated(self, sym: Any, writes: dict[str, Any]) -> Any | None:
        """``writes[sym]`` when ``sym`` is a four-state variable with no initial value and
        no reset, written nowhere else (nor as a loop variable), else None."""
        from rtlopt.frontend._net_bits import key

        name = key(sym)
        if (
            name not in writes
            or name in self.other
            or name in self.reset
            or name in self.loop_vars
            or getattr(sym, "initializer", None) is not None
            or sym.kind.name != "Variable"
            or not getattr(getattr(sym, "type", None), "isFourState", True)
        ):
            return None
        return writes[name]
