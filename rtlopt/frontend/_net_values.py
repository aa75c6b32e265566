"""What the drivers of a net give it, for :class:`rtlopt.frontend._net_drivers.Drivers`:
whether defined values drive every bit, or which bits an x/z value or nothing drives (a
port of a module the repository defines by what its body drives it with, a register before
its first write, an x one driver assigns and another masks)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rtlopt.frontend import _x_drivers as xd
from rtlopt.frontend._loops import Loops
from rtlopt.frontend._net_bits import key, width
from rtlopt.frontend._partial import left_x
from rtlopt.frontend._powerup import Registers
from rtlopt.frontend._run_x import MayBeX, place, run_x, text_of, x_value
from rtlopt.frontend._two_drivers import conflict

__all__ = ["DriverValues", "Entry", "Port", "PortState"]

# nets that read a value with no driver: no z
_PULLED = {"Supply0", "Supply1", "Tri0", "Tri1"}
# how to make an x assignment that other drivers mask defined
_MASKED_FIX = (
    "assign a defined value where it assigns x/z (a default of 0, or the value another "
    "branch assigns)"
)


@dataclass(frozen=True)
class Port:
    """An output or inout port of an instance of a module the repository defines that a
    connection drives a net from: it drives what the module's body drives the port with."""

    instance: Any
    port: str
    path: str  # the instance's hierarchical name
    inout: bool


# one driver: first bit, one past the last (None: bits not known), and its value (None: a
# port of a module the repository does not define, a task's output; else an expression, or
# a port of a module it defines)
Entry = tuple[int | None, int | None, "Any | Port | None"]
# what a port of a module drives: None a defined value, "" nothing (or only some bits), else
# an x/z value
PortState = Callable[[Port], "str | None"]


class DriverValues:
    """:meth:`undriven` over the drivers a :class:`~rtlopt.frontend._net_drivers.Drivers`
    walk collected."""

    root: Any
    _sm: Any
    _of: dict[str, list[tuple[Entry, str]]]
    registers: Registers
    _looped: dict[int, Loops]

    def undriven(
        self,
        sym: Any,
        bits: tuple[int | None, int | None] = (None, None),
        port_state: PortState | None = None,
        exclude: str = "",
    ) -> tuple[str, list[tuple[int, int]]] | None:
        """None when defined values (or ports) drive every bit of ``bits`` of ``sym``
        (all of them when None); else the value that drives the bits that are not (""
        nothing, else an x/z value) and those bits. A driver whose bits are not known
        (``w[i] = ...``) drives none for sure; a port of a module the repository defines
        drives what ``port_state`` says (a defined value when None); an inout connection of
        the instance ``exclude`` names drives nothing (the instance's own input is judged)."""
        net_kind = getattr(getattr(getattr(sym, "netType", None), "netKind", None), "name", "")
        if net_kind in ("Supply0", "Supply1"):
            return None
        if not getattr(getattr(sym, "type", None), "isFourState", True):
            return None  # a two-state variable (bit, int) holds 0 undriven and reads x as 0
        size = width(sym)
        lo, hi = (bits[0], bits[1]) if bits[0] is not None and bits[1] is not None else (0, size)
        first = self.registers.powers_up_x(sym)
        if first is not None:
            return self._powerup(sym, first), [(lo, hi)]
        first = self.registers.first_late(sym)
        if first is not None:
            return xd.late_write(sym, first, self._sm), [(lo, hi)]
        if getattr(sym, "delay", None) is not None and self._of.get(key(sym)):
            return xd.delayed(sym, self._sm), [(lo, hi)]  # a net with a delay and a driver
        if self._of.get(key(sym)) and (weak := xd.high_impedance(sym, self._sm)) is not None:
            return weak, [(lo, hi)]  # ``wire (highz0, weak1) w = s``
        counted = [
            (first, last, value, self._value(value, port_state))
            for (first, last, value), source in self._of.get(key(sym), [])
            if not (isinstance(value, Port) and value.inout and exclude and source == exclude)
        ]
        for first, last, _, x in counted:
            if isinstance(x, MayBeX) and not x.cover:  # x at run time: whatever else drives
                first, last = (lo, hi) if first is None or last is None else (first, last)
                if first < hi and lo < last:
                    return x, [(max(lo, first), min(hi, last))]
        two = conflict(sym, (lo, hi), [(f, t, v) for f, t, v, _ in counted], self._sm)
        if two is not None:
            return two
        masked = self._masked(lo, hi, counted, pulled=net_kind in _PULLED)
        if net_kind in _PULLED:
            return masked  # a pulled net reads its pull where nothing drives it
        found = xd.gaps(size, lo, hi, [(f, t, x) for f, t, _, x in counted]) or masked
        indexed = [v for f, t, v, x in counted if (f is None or t is None) and not x]
        if found is not None and found[0] == "" and indexed:
            return self._indexed(sym, indexed[0]), found[1]
        left = self.registers.left_x(sym) if found is None else None
        if left is not None:  # every bit driven, but a block may leave it x
            return left_x(sym, *left, self._sm), [(lo, hi)]
        return found

    def _powerup(self, sym: Any, first: Any) -> MayBeX:
        """Why the register ``sym`` powers up x (``first``: a write of it)."""
        return MayBeX.make(
            f"register '{sym.name}' ({{0}}) powers up x: every write of it is in a clocked "
            "block (the first at {1}), no reset branch writes it and it has no initial value, "
            "so a simulation reads x until its first write",
            (place(sym, self._sm), place(first, self._sm)),
            fix=f"give '{sym.name}' a reset branch or an initial value",
            kind="powerup",
        )

    def _indexed(self, sym: Any, write: Any) -> MayBeX:
        """Why bits of ``sym`` that only writes at run-time indices drive read x (a memory's
        words, ``ram[wr_ptr] <= d``): not "nothing drives" (held-out trial 49: a FIFO's
        memory in biriscv was called undriven)."""
        where = write if not isinstance(write, Port) else write.instance
        return MayBeX.make(
            f"'{sym.name}' ({{0}}) is written only at indices known at run time (the first "
            "at {1}): a bit reads x until a write reaches it",
            (place(sym, self._sm), place(where, self._sm)),
            fix=f"give '{sym.name}' a reset or an initial value",
            kind="powerup",
        )

    def _masked(
        self,
        lo: int,
        hi: int,
        counted: list[tuple[int | None, int | None, Any, str | None]],
        *,
        pulled: bool = False,
    ) -> tuple[MayBeX, list[tuple[int, int]]] | None:
        """The first driver of bits of ``[lo, hi)`` whose value has x/z bits, though defined
        drivers write the same bits too: a simulation reads x until (or unless) one of them
        overwrites it (a ``default: y = 'x;``, an initial ``y = 'x;``). On a ``pulled`` net
        (``tri0``) a z reads the pull: only a value whose text holds an x letter counts."""
        for first, last, value, x in counted:
            if not x or isinstance(x, MayBeX):
                continue
            shown = x if value is None or isinstance(value, Port) else text_of(value)
            if pulled and "x" not in shown.lower():
                continue
            first, last = (lo, hi) if first is None or last is None else (first, last)
            if not (first < hi and lo < last):
                continue
            if isinstance(value, Port):
                what = f"output '{value.port}' of {value.path} ({{0}}) drives"
                where = place(value.instance, self._sm)
            else:
                what = f"the assignment of {text_of(value)} ({{0}}) writes"
                where = place(value, self._sm)
            why = MayBeX.make(
                f"{what} a value with x/z bits ({x}); a simulation reads x wherever no other "
                "assignment overwrites it",
                (where,),
                fix=_MASKED_FIX,
                z="z" in x.lower(),
            )
            return why, [(max(lo, first), min(hi, last))]
        return None

    def _value(self, value: Any, port_state: PortState | None) -> str | None:
        if value is None:
            return None
        if isinstance(value, Port):
            state = port_state(value) if port_state is not None else None
            if isinstance(state, MayBeX) and state.cover:  # what the port drives is x there
                return MayBeX.make(
                    str(state), state.places, fix=state.fix, kind=state.kind, z=state.z
                )
            return state
        if isinstance(value, MayBeX):
            return value
        if isinstance(value, xd.Gate):  # x where an input is: a constant, or made at run time
            for arg in value.inputs:
                if got := x_value(arg, self.root) or run_x(arg, self.root, self._sm):
                    return got
            return None
        loops = self._looped.get(id(value))
        return x_value(value, self.root) or run_x(value, self.root, self._sm, None, loops) or None
