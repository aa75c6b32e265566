"""Bits of the design's nets that hold one value whatever 0/1 values the rest takes, for
:mod:`rtlopt.frontend._open_inputs`: a selector such a bit decides picks one arm of a ``?:``,
and the walk of the fan-in cone reads only that arm
(``raddr[5] ? mem_fp[...] : mem[...]`` with ``raddr[5]`` tied to 0 through two ports, a
``mem_fp`` nothing drives never reaches the output).

A value is computed the way a simulation computes it with every unknown operand x (slang's
constant evaluation, four-state): a net or variable whose value is not followed is x, and
a bit that comes out 0 or 1 is that bit for every 0/1 value of the unknowns (Verilog's
operators propagate x that way), except through ``===``, ``!==``, ``==?``, ``!=?`` and
``inside``, which read x as a value: an expression using one is x. Followed are: a
parameter; an input port (its parent's connection); a net or variable whose one driver
writes every bit (a continuous assignment, an initializer, an output port of a submodule:
the port inside); a variable every driver of which writes every bit (its value is one of
theirs: the bits on which they all agree, ``y = {1'b0, a}`` and ``y = {1'b0, b}`` give a
known 0 on top; an ``if`` no value of its condition takes is no driver). Each value is
computed once, at most :data:`DEPTH` steps deep; a value being computed reads x (a loop).
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._net_bits import key, width
from rtlopt.frontend._reach import decided, evaluate, unknown

__all__ = ["DEPTH", "KnownBits"]

#: How many drivers, ports and assignments deep a value is followed.
DEPTH = 24


class KnownBits:
    """The values of the design's nets and variables as far as :mod:`_known_bits` follows
    them, over one walk (``walk``: :class:`rtlopt.frontend._open_inputs._Walk`)."""

    def __init__(self, walk: Any) -> None:
        self.walk = walk
        self.memo: dict[str, Any] = {}

    def decide(self, expr: Any) -> bool | None:
        """:func:`decided` with the nets' values followed."""
        return decided(expr, self.walk.root, self.value)

    def value(self, sym: Any, depth: int = 0) -> Any:
        name = key(sym)
        if name in self.memo:
            return self.memo[name]
        self.memo[name] = unknown(sym)  # a loop reads x
        got = self._value(sym, depth)
        if got is not None and int(got.value.bitWidth) != max(width(sym), 1):
            got = None
        self.memo[name] = got if got is not None else unknown(sym)
        return self.memo[name]

    def _value(self, sym: Any, depth: int) -> Any:
        import pyslang

        from rtlopt.frontend._net_drivers import Port
        from rtlopt.frontend._run_x import MayBeX
        from rtlopt.frontend._x_drivers import Gate

        walk = self.walk
        if depth > DEPTH or sym.kind.name not in ("Net", "Variable"):
            return None
        parent = walk._parent_input(sym)
        if parent is not None:
            inst, port = parent
            for conn in inst.portConnections:
                if str(conn.port.name) == port and conn.expression is not None:
                    return self._eval(conn.expression, depth)
            return None
        scope = walk._scope(sym)
        if not scope:
            return None
        size = width(sym)
        entries = [e for e, _ in walk._local(scope)._of.get(key(sym), [])]
        if not entries or any(
            not (lo == 0 and hi == size) or v is None or isinstance(v, (MayBeX, Gate))
            for lo, hi, v in entries
        ):
            return None
        if len(entries) == 1 and isinstance(entries[0][2], Port):
            port = entries[0][2]
            for p in port.instance.body.portList:
                inner = getattr(p, "internalSymbol", None)
                if str(getattr(p, "name", "")) == port.port and inner is not None:
                    return self.value(inner, depth + 1)
            return None
        if any(isinstance(v, Port) for _, _, v in entries):
            return None
        merged = None
        for _, _, v in entries:  # it holds what one of them wrote: their bits that agree
            got = self._eval(v, depth)
            if got is None or not isinstance(got.value, pyslang.SVInt):
                return None
            if merged is not None:
                if int(got.value.bitWidth) != int(merged.value.bitWidth):
                    return None
                pick = pyslang.SVInt.createFillX(1, False)
                got = pyslang.ConstantValue(
                    pyslang.SVInt.conditional(pick, merged.value, got.value)
                )
            merged = got
        return merged

    def _eval(self, expr: Any, depth: int) -> Any:
        if depth >= DEPTH:  # constants only: every operand x
            return evaluate(expr, self.walk.root, unknown)
        return evaluate(expr, self.walk.root, lambda s: self.value(s, depth + 1))
