"""Whether an input the repository feeds x may be fed z too, for
:mod:`rtlopt.frontend._open_inputs`.

The x-faithfulness proof reads z as x (Yosys has no z), so it refuses ``===``, ``!==`` and
``casez`` where an input may be z (:mod:`rtlopt.formal.xfaith_model`), and
:func:`rtlopt.frontend._open_inputs.fed_ports` says so when a source found may be z. The walk
reports the first x or z source of an input's fan-in cone only; a source that is x only (a
register powering up x, ``1'bx``) says nothing about the rest of the cone, where a z may pass
to the input: a net nothing drives, a value with z bits, a gate with a control or a switch
(:attr:`rtlopt.frontend._run_x.MayBeX.z`). :class:`ZCone` walks the whole cone again for z:
every net and variable whose value an assignment or initializer of the cone passes on (not
the conditions it is under nor the indices of its left side, which never pass a z; not
through a gate, whose output is x for a z input; a ``?:`` arm no value of the condition
picks is not read), through a submodule's output into its body and through an input of a
module to what its parent's instance connects (left unconnected or tied to z bits: z).
Past :data:`LIMIT` signals it answers z (fail closed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rtlopt.frontend._net_bits import Piece, key, pieces
from rtlopt.frontend._run_x import MayBeX, x_value
from rtlopt.frontend._slang import CONSTANT_KINDS, input_connections, node_kind

__all__ = ["LIMIT", "ZCone", "may_be_z"]

#: The signals one question walks at most.
LIMIT = 10_000


def may_be_z(value: Any) -> bool:
    """Whether what a source drives (an x/z constant as slang prints it, "" nothing, a
    :class:`MayBeX`) may be z."""
    if isinstance(value, MayBeX):
        return value.z
    return not value or "z" in str(value).lower()


def passes(
    drivers: Any,
    sym: Any,
    bits: tuple[int | None, int | None],
    decide: Callable[[Any], bool | None] | None = None,
) -> list[Piece]:
    """What the drivers of ``bits`` of ``sym`` in ``drivers`` (a
    :class:`rtlopt.frontend._net_drivers.Drivers`) pass on: the nets and variables their
    values read (``decide``: the truth of a ``?:``'s condition whatever the unknowns are,
    only the arm it picks is read), and a submodule's output port's own symbol."""
    from rtlopt.frontend._net_bits import width
    from rtlopt.frontend._net_drivers import Port
    from rtlopt.frontend._x_drivers import Gate

    size = width(sym)
    lo, hi = (bits[0], bits[1]) if bits[0] is not None and bits[1] is not None else (0, size)
    out: list[Piece] = []
    for (first, last, value), _ in drivers._of.get(key(sym), []):
        if value is None or isinstance(value, (MayBeX, Gate)):
            continue
        if first is not None and last is not None and size and not (first < hi and lo < last):
            continue
        if isinstance(value, Port):
            for p in value.instance.body.portList:
                inner = getattr(p, "internalSymbol", None)
                if str(getattr(p, "name", "")) == value.port and inner is not None:
                    out.append((inner, None, None))
            continue
        loops = drivers._looped.get(id(value))
        out += pieces(value, drivers.root, reading=True, loops=loops, decide=decide)
    return out


class ZCone:
    """The answers over one walk (``walk``: :class:`rtlopt.frontend._open_inputs._Walk`),
    asked once it has found every source (it judges more signals, and a judgement made
    while another is under way would cut the cycle short)."""

    def __init__(self, walk: Any) -> None:
        self.walk = walk
        # signals a question answered "no z" walked all of: no z passes on from them
        self.clean: set[tuple[str, Any, Any]] = set()

    def input(self, inst: Any, port: str) -> bool:
        """Whether a source that may be z is in the part of the fan-in cone of input
        ``port`` of the instance ``inst`` that passes values on (through the parents'
        instances too: an input left unconnected or tied to z bits there is one)."""
        walk = self.walk
        where = str(inst.hierarchicalPath)
        stack: list[tuple[Any, int | None, int | None]] = []
        if self._connection(inst, port, stack):
            return True
        first = {key(s) for s, _, _ in stack}
        seen: set[tuple[str, Any, Any]] = set()
        while stack:
            s, lo, hi = stack.pop()
            memo = (key(s), lo, hi)
            if memo in seen or memo in self.clean or node_kind(s) in CONSTANT_KINDS:
                continue
            seen.add(memo)
            if len(seen) > LIMIT:
                return True
            parent = walk._parent_input(s)
            if parent is not None:
                if self._connection(parent[0], parent[1], stack):
                    return True
                continue
            hit = walk._judge(s, lo, hi, where if key(s) in first else "")
            if hit is not None and may_be_z(hit[0]):
                return True
            scope = walk._scope(s)
            if scope:
                drivers = walk.drivers or walk._local(scope)
                stack += passes(drivers, s, (lo, hi), walk.known.decide)
        self.clean |= {m for m in seen if m[0] not in first}
        return False

    def _connection(self, inst: Any, port: str, stack: list[Piece]) -> bool:
        """Whether ``inst`` leaves input ``port`` unconnected or ties it to z bits; else
        what the connection reads goes on ``stack``."""
        for p, expr in input_connections(inst):
            if str(p.name) != port:
                continue
            if expr is None or "z" in x_value(expr, self.walk.root).lower():
                return True
            stack += pieces(expr, self.walk.root, reading=True, decide=self.walk.known.decide)
        return False
