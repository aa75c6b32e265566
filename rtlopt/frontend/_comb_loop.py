"""Inputs of the target in a combinational loop, for :mod:`rtlopt.frontend._open_inputs`.

A net in a combinational loop may hold x for good: a simulation starts it x and the loop
passes the x round (``assign w = w | en;`` stays x while ``en`` is 0), or settles where the
design's reading of x decides (``wire bw = y;`` with ``y`` the target's output and ``if (b)
y = a; else y = 0;``: the reference settles at 0, a candidate taking the other branch on x
at ``a``). The proofs never see the loop (they judge the target alone), so such an input is
an x source (:attr:`rtlopt.frontend._run_x.MayBeX.kind` "loop"):

- a loop through the target: what the repository connects to an input reaches, through
  continuous assignments, combinational blocks, gates and instances' ports (the target's own
  included: into its body through an output, out through an input), that input again,
  without passing a register (a variable a clocked block writes,
  :mod:`rtlopt.frontend._powerup`: what it holds changes on the clock only);
- a net that a continuous assignment or a gate drives with a value reading the same bits
  (``assign w = w | en;``, ``wire w = en ? 1'b1 : w;``).

A loop through other nets only and not through the target (``assign p = q; assign q = p |
en;``), or through an inout port, is not looked for. Past :data:`LIMIT` signals one
question fails closed (a loop).
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._net_bits import Piece, key, pieces, width
from rtlopt.frontend._run_x import MayBeX, place
from rtlopt.frontend._slang import CONSTANT_KINDS, input_connections, node_kind

__all__ = ["LIMIT", "CombLoops"]

#: The signals one question walks at most.
LIMIT = 10_000
_FIX = (
    "break the loop with a register (or drive the input from what does not depend on the "
    "target's outputs combinationally)"
)


class CombLoops:
    """The questions over one walk (``walk``: :class:`rtlopt.frontend._open_inputs._Walk`)."""

    def __init__(self, walk: Any) -> None:
        self.walk = walk

    def input(self, inst: Any, port: str) -> MayBeX | None:
        """Why input ``port`` of the instance ``inst`` is in a combinational loop, or None."""
        walk = self.walk
        start = None
        for p in inst.body.portList:
            if str(getattr(p, "name", "")) == port:
                start = getattr(p, "internalSymbol", None)
        if start is None or node_kind(start) not in ("Net", "Variable"):
            return None
        goal = key(start)
        stack: list[Piece] = self._connection(inst, port)
        seen: set[tuple[str, Any, Any]] = set()
        while stack:
            s, lo, hi = stack.pop()
            memo = (key(s), lo, hi)
            if memo in seen or node_kind(s) in CONSTANT_KINDS:
                continue
            seen.add(memo)
            if len(seen) > LIMIT:
                return self._why(inst, port, None, too_many=True)
            if key(s) == goal:
                return self._why(inst, port, None)
            parent = walk._parent_input(s)
            if parent is not None:
                stack += self._connection(*parent)
                continue
            found = self._preds(s, (lo, hi))
            if found is None:
                return self._why(inst, port, s)  # a net driving itself
            stack += found
        return None

    def _connection(self, inst: Any, port: str) -> list[Piece]:
        if "." not in str(inst.hierarchicalPath):
            return []  # a top's input: the environment's
        out: list[Piece] = []
        for p, expr in input_connections(inst):
            if str(p.name) == port and expr is not None:
                out += pieces(expr, self.walk.root, reading=True, decide=self.walk.known.decide)
        return out

    def _preds(self, sym: Any, bits: tuple[int | None, int | None]) -> list[Piece] | None:
        """What the drivers of ``bits`` of ``sym`` read combinationally (nothing for a
        register; a submodule's output port's own symbol for a port), or None when a
        continuous assignment or gate drives the bits with a value reading them."""
        from rtlopt.frontend._net_drivers import Port
        from rtlopt.frontend._x_drivers import Gate

        walk = self.walk
        scope = walk._scope(sym)
        if not scope:
            return []
        drivers = walk.drivers or walk._local(scope)
        name = key(sym)
        regs = drivers.registers
        if name in regs.clocked:
            return []  # a register (an initial value too): changes on its clock only
        out: list[Piece] = []
        size = width(sym)
        lo, hi = (bits[0], bits[1]) if bits[0] is not None and bits[1] is not None else (0, size)
        for (first, last, value), _ in drivers._of.get(name, []):
            if first is not None and last is not None and size and not (first < hi and lo < last):
                continue
            if isinstance(value, Port):
                if value.inout:
                    continue  # a bidirectional port: judged by the drivers' rules
                for p in value.instance.body.portList:
                    inner = getattr(p, "internalSymbol", None)
                    if str(getattr(p, "name", "")) == value.port and inner is not None:
                        out.append((inner, None, None))
                continue
            if (
                value is not None
                and not isinstance(value, MayBeX)
                and (isinstance(value, Gate) or id(value) in drivers.continuous)
            ):
                reads = value.inputs if isinstance(value, Gate) else (value,)
                for arg in reads:
                    for s, a, b in pieces(arg, walk.root, reading=True):
                        if key(s) == name and _same(a, b, first, last, size):
                            return None
        out += drivers.reads(sym, bits, walk.known.decide)
        return out

    def _why(self, inst: Any, port: str, net: Any, *, too_many: bool = False) -> MayBeX:
        sm = self.walk.sm
        where = f"input '{port}' of {inst.hierarchicalPath}"
        if too_many:
            return MayBeX.make(
                f"the combinational fan-in of {where} ({{0}}) holds more than {LIMIT} nets "
                "and variables: not known to be free of a loop through it",
                (place(inst, sm),),
                fix="the walk's bound is reached: this design is not checked",
                kind="loop",
            )
        if net is not None:
            return MayBeX.make(
                f"'{net.name}' ({{0}}) is driven by a continuous assignment or gate reading "
                "itself (a combinational loop: it may hold x for good)",
                (place(net, sm),),
                fix=_FIX,
                kind="loop",
            )
        return MayBeX.make(
            f"what the repository connects to {where} ({{0}}) depends on that input "
            "combinationally (a loop through its outputs: it may hold x, or settle where "
            "the design's reading of x decides)",
            (place(inst, sm),),
            fix=_FIX,
            kind="loop",
        )


def _same(a: int | None, b: int | None, first: int | None, last: int | None, size: int) -> bool:
    """Whether a read of bits ``[a, b)`` reads exactly the bits ``[first, last)`` a driver
    drives (None: every bit); a shifted read (``{w[6:0], a}``, a chain) is not a loop."""
    read = (0, size) if a is None or b is None else (a, b)
    driven = (0, size) if first is None or last is None else (first, last)
    return read == driven
