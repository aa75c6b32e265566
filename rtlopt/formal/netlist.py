"""One module of a Yosys gate-level JSON netlist, and the one walk of its fan-in cones.

:mod:`rtlopt.formal.miter` (the AIG miter), :mod:`rtlopt.formal.regcorr` (register
correspondence by next-state function) and :mod:`rtlopt.formal.regpair` (register pairing by
simulation) read this model: its ports, gate drivers and registers (:class:`Netlist`), the bits
of a fan-in cone in evaluation order (:func:`fanin_order`), the input port bits given values
(:func:`input_leaves`) and the user's register names (:func:`user_name`). It imports none
of them.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rtlopt.formal.aig import Aig, Tern

__all__ = [
    "GATES",
    "GLOBAL_FFS",
    "STEP_FFS",
    "Bit",
    "CombinationalLoop",
    "Driver",
    "MiterSpec",
    "NeedsGlobalClock",
    "Netlist",
    "NotModelled",
    "fanin_order",
    "input_leaves",
    "user_name",
]


class NotModelled(Exception):
    """The netlist holds something this miter cannot model soundly (the reason is the text)."""


class NeedsGlobalClock(NotModelled):
    """Latches (or their global-clock model): build again with ``global_clock``."""


class CombinationalLoop(NotModelled):
    """A gate's fan-in cone reaches the gate itself."""


#: Single-bit gates: input pins in order, and the function over ternary inputs.
GATES: dict[str, tuple[tuple[str, ...], Callable[[Aig, Sequence[Tern]], Tern]]] = {
    "$_BUF_": (("A",), lambda g, i: i[0]),
    "$_NOT_": (("A",), lambda g, i: g.t_not(i[0])),
    "$_AND_": (("A", "B"), lambda g, i: g.t_and(i[0], i[1])),
    "$_NAND_": (("A", "B"), lambda g, i: g.t_not(g.t_and(i[0], i[1]))),
    "$_OR_": (("A", "B"), lambda g, i: g.t_or(i[0], i[1])),
    "$_NOR_": (("A", "B"), lambda g, i: g.t_not(g.t_or(i[0], i[1]))),
    "$_XOR_": (("A", "B"), lambda g, i: g.t_xor(i[0], i[1])),
    "$_XNOR_": (("A", "B"), lambda g, i: g.t_not(g.t_xor(i[0], i[1]))),
    "$_ANDNOT_": (("A", "B"), lambda g, i: g.t_and(i[0], g.t_not(i[1]))),
    "$_ORNOT_": (("A", "B"), lambda g, i: g.t_or(i[0], g.t_not(i[1]))),
    "$_MUX_": (("A", "B", "S"), lambda g, i: g.t_mux(i[2], i[0], i[1])),
    "$_NMUX_": (("A", "B", "S"), lambda g, i: g.t_not(g.t_mux(i[2], i[0], i[1]))),
    "$_AOI3_": (("A", "B", "C"), lambda g, i: g.t_not(g.t_or(g.t_and(i[0], i[1]), i[2]))),
    "$_OAI3_": (("A", "B", "C"), lambda g, i: g.t_not(g.t_and(g.t_or(i[0], i[1]), i[2]))),
    "$_AOI4_": (
        ("A", "B", "C", "D"),
        lambda g, i: g.t_not(g.t_or(g.t_and(i[0], i[1]), g.t_and(i[2], i[3]))),
    ),
    "$_OAI4_": (
        ("A", "B", "C", "D"),
        lambda g, i: g.t_not(g.t_and(g.t_or(i[0], i[1]), g.t_or(i[2], i[3]))),
    ),
}
STEP_FFS = {"$_DFF_P_", "$_DFF_N_"}
GLOBAL_FFS = {"$_FF_"}

Bit = int | str
#: What drives a net: the gate's cell type and its input bits in the pin order of ``GATES``.
Driver = tuple[str, list[Bit]]
V = TypeVar("V")


@dataclass(frozen=True)
class MiterSpec:
    """What to compare and how time runs.

    Attributes:
        gold: The reference module's name in the netlist.
        gate: The candidate module's name.
        sequential: Registers step once per miter step; False: no registers allowed.
        global_clock: Registers are ``$_FF_`` (``clk2fflogic``); clocks are data inputs.
        clocks: Clock input ports (step mode: they may clock registers only).
        resets: Reset input port -> active level, forced for ``reset_steps`` steps.
        reset_steps: Steps from power-up during which the resets are forced.
        strict_x: A reference x must be matched by a candidate x.
        free_init: Every register starts from a free defined value instead of x; a
            reference and a candidate register bit of the same (user-given) name share it,
            and so do bits that behave alike in simulation (:mod:`rtlopt.formal.regpair`).
        x_first: With ``free_init``: the outputs of the power-up step are compared with every
            register x (the exact ternary check of that step), only the state it leaves is
            built from the free values (designs with a reset: a register the reset sets
            shows an undefined value before the first clock edge).
        pair_deadline: ``time.monotonic()`` after which pairing by simulation stops (0: none).
        by_function: With ``free_init``: pair registers by their next-state functions first
            (:mod:`rtlopt.formal.regcorr`); false: by name and by simulation only (a pairing
            by function can take a register that simulation would pair with another one).
        constants: Values input slices are compared against, ``(port, lsb, width, value,
            care)``: pairing by simulation puts them on about half of its patterns.
        outputs: Compare only these output ports (empty: all of them).
        stated_init: Registers start from the power-up values the sources state (the
            netlist keeps Yosys's ``init`` attributes), every other register from x; a net
            no gate drives that has a stated value holds it (``reg c = 5;`` never assigned).
    """

    gold: str
    gate: str
    sequential: bool
    global_clock: bool = False
    clocks: tuple[str, ...] = ()
    resets: Mapping[str, int] = field(default_factory=dict)
    reset_steps: int = 1
    strict_x: bool = False
    free_init: bool = False
    x_first: bool = False
    pair_deadline: float = 0.0
    by_function: bool = True
    constants: tuple[tuple[str, int, int, int, int], ...] = ()
    #: Compare only these output ports (empty: every output).
    outputs: tuple[str, ...] = ()
    stated_init: bool = False


class Netlist:
    """One module of the JSON netlist: ports, gate drivers, registers."""

    def __init__(self, mod: Mapping[str, Any], name: str, spec: MiterSpec) -> None:
        self.name = name
        self.inputs: dict[str, list[Bit]] = {}
        self.outputs: dict[str, list[Bit]] = {}
        for pname, port in mod.get("ports", {}).items():
            d = port.get("direction")
            if d == "input":
                self.inputs[pname] = list(port.get("bits", []))
            elif d == "output":
                self.outputs[pname] = list(port.get("bits", []))
            else:
                raise NotModelled(f"{name}: port '{pname}' is {d}")
        self.driver: dict[Bit, tuple[str, list[Bit]]] = {}
        self.ffs: list[tuple[Bit, Bit]] = []  # (D bit, Q bit)
        clock_bits = {b for c in spec.clocks for b in self.inputs.get(c, [])}
        for cname, cell in mod.get("cells", {}).items():
            kind = str(cell.get("type", ""))
            conns = cell.get("connections", {})
            gate = GATES.get(kind)
            if gate is not None:
                ins: list[Bit] = []
                for pin in gate[0]:
                    bits = conns.get(pin, [])
                    if len(bits) != 1:
                        raise NotModelled(f"{name}: cell {cname} has a malformed pin {pin}")
                    ins.append(bits[0])
                    if bits[0] in clock_bits and spec.sequential and not spec.global_clock:
                        raise NotModelled(f"{name}: a clock is used as data")
                out = conns.get("Y", [])
                if len(out) != 1:
                    raise NotModelled(f"{name}: cell {cname} has a malformed output")
                if out[0] in self.driver or isinstance(out[0], str):
                    raise NotModelled(f"{name}: net {out[0]} has more than one driver")
                self.driver[out[0]] = (kind, ins)
                continue
            if kind in STEP_FFS or kind in GLOBAL_FFS:
                if not spec.sequential:
                    raise NotModelled(f"{name}: registers in a combinational check")
                if (kind in GLOBAL_FFS) != spec.global_clock:
                    if kind in GLOBAL_FFS:
                        raise NeedsGlobalClock(f"{name}: a latch needs the global-clock model")
                    raise NotModelled(f"{name}: {kind} does not fit the clock model")
                if kind in STEP_FFS:
                    c = conns.get("C", [None])[0]
                    if c not in clock_bits:
                        raise NotModelled(f"{name}: a register is not clocked by a clock input")
                d, q = conns.get("D", []), conns.get("Q", [])
                if len(d) != 1 or len(q) != 1:
                    raise NotModelled(f"{name}: register {cname} is malformed")
                self.ffs.append((d[0], q[0]))
                continue
            if "LATCH" in kind and not spec.global_clock:
                raise NeedsGlobalClock(f"{name}: a latch needs the global-clock model")
            raise NotModelled(f"{name}: {kind} cells are not modelled")
        if spec.sequential and not spec.global_clock:
            kinds = {str(c.get("type")) for c in mod.get("cells", {}).values()} & STEP_FFS
            if len(kinds) > 1:
                raise NotModelled(f"{name}: registers on both clock edges")
        for bits in self.outputs.values():
            for b in bits:
                if b in clock_bits and spec.sequential and not spec.global_clock:
                    raise NotModelled(f"{name}: a clock drives an output")
        self.input_bits = {b for bits in self.inputs.values() for b in bits}
        self.q_bits = {q for _, q in self.ffs}
        self._single_drivers()
        self.names: dict[Bit, str] = {}
        #: With ``spec.stated_init``: the stated power-up value of each bit that has one.
        self.init: dict[Bit, str] = {}
        for nname, net in mod.get("netnames", {}).items():
            hidden = net.get("hide_name", 0)
            bits = net.get("bits", [])
            if spec.stated_init:
                self._stated(nname, bits, net.get("attributes", {}).get("init"))
            for i, b in enumerate(bits):
                if isinstance(b, str):
                    continue
                label = nname if len(bits) == 1 else f"{nname}[{i}]"
                if b not in self.names or (not hidden and self.names[b].startswith("$")):
                    self.names[b] = label if not hidden else "$" + label.lstrip("$")

    def _stated(self, nname: str, bits: Sequence[Bit], init: Any) -> None:
        """Record the ``init`` attribute of the net ``nname`` (Yosys JSON: a string of 0/1/x
        digits, most significant first, or a number) per bit; x digits state nothing."""
        if init is None:
            return
        if isinstance(init, int):
            digits = format(init % (1 << max(1, len(bits))), f"0{len(bits)}b")
        elif isinstance(init, str) and init and set(init) <= set("01xz"):
            digits = init
        else:
            raise NotModelled(f"{self.name}: net {nname} has an unreadable initial value")
        values = digits[::-1]
        if len(values) != len(bits):
            raise NotModelled(f"{self.name}: net {nname} has an initial value of another width")
        for b, v in zip(bits, values, strict=True):
            if v not in "01" or isinstance(b, str):
                continue
            if self.init.get(b, v) != v:
                raise NotModelled(f"{self.name}: a net has two initial values")
            self.init[b] = v

    def stated_leaves(self) -> dict[Bit, str]:
        """With ``stated_init``: the nets no register, gate or input drives that have a stated
        value (they hold it forever).

        Raises:
            NotModelled: a stated value on a net a gate drives (no register holds it: what
                the sources mean there is not modelled).
        """
        out: dict[Bit, str] = {}
        for b, v in self.init.items():
            if b in self.q_bits:
                continue
            if b in self.driver or b in self.input_bits:
                raise NotModelled(f"{self.name}: an initial value on a net no register holds")
            out[b] = v
        return out

    def _single_drivers(self) -> None:
        """Every net has one driver: a gate, a register or an input port (a second one would
        make the model contradictory where the two disagree: a vacuous proof)."""
        inputs = [b for bits in self.inputs.values() for b in bits if not isinstance(b, str)]
        qs = [q for _, q in self.ffs]
        if (
            len(set(inputs)) != len(inputs)
            or len(set(qs)) != len(qs)
            or any(isinstance(q, str) for q in qs)
            or self.q_bits & self.input_bits
            or (self.q_bits | self.input_bits) & self.driver.keys()
        ):
            raise NotModelled(f"{self.name}: a net has more than one driver")


def fanin_order(
    driver: Mapping[Bit, Driver],
    roots: Iterable[Bit],
    known: Container[Bit],
    *,
    name: str = "",
    loops_undriven: bool = False,
) -> Iterator[tuple[Bit, Driver | None]]:
    """The bits of the fan-in cones of ``roots`` that are not ``known``, each after its inputs.

    A depth-first walk from each root in turn (constant bits and known bits stop it), yielding
    ``(bit, its driver)``, or ``(bit, None)`` for a bit that no gate drives. The caller
    evaluates each bit as it comes and adds it to ``known`` (a value in its memo) before it
    asks for the next one: every value a gate reads is then computed, and no bit comes twice.

    Raises:
        CombinationalLoop: a gate reaches itself (``"<name>: combinational loop"``); with
            ``loops_undriven`` the gate where the walk finds the loop is yielded as undriven
            instead.
    """
    for root in roots:
        if isinstance(root, str) or root in known:
            continue
        stack: list[Bit] = [root]
        visiting: set[Bit] = set()
        while stack:
            b = stack[-1]
            if b in known:
                stack.pop()
                continue
            drv = driver.get(b)
            if drv is not None:
                pending = [i for i in drv[1] if not isinstance(i, str) and i not in known]
                if pending and b not in visiting:
                    visiting.add(b)
                    stack.extend(pending)
                    continue
                if pending:
                    if not loops_undriven:
                        raise CombinationalLoop(f"{name}: combinational loop")
                    drv = None
            stack.pop()
            yield b, drv


def input_leaves(
    inputs: Mapping[str, Sequence[Bit]],
    values: Mapping[str, Sequence[V]],
    *,
    missing: V | None = None,
) -> dict[Bit, V]:
    """Input port bits -> the values given for their port (constant bits left out).

    A port without values is left out, or gets ``missing`` on every bit when it is given; a
    shorter value list covers the low bits only.
    """
    out: dict[Bit, V] = {}
    for pname, bits in inputs.items():
        vals = values.get(pname)
        if vals is None:
            if missing is None:
                continue
            vals = [missing] * len(bits)
        for b, v in zip(bits, vals, strict=False):
            if not isinstance(b, str):
                out[b] = v
    return out


def user_name(names: Mapping[Bit, str], bit: Bit) -> str:
    """The name the user gave ``bit`` (``Netlist.names``), or "" for a hidden or nameless one."""
    name = names.get(bit, "")
    return "" if name.startswith("$") else name
