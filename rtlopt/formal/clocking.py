"""Clock and reset structure of a design, read from a Yosys JSON netlist (after proc/flatten).

The SAT miter steps every register on one implicit global clock: it cannot see that a register
is clocked by ``clk & en`` or by the other edge. So before any verdict the formal check reads
which primary input (and which edge) clocks each register, and which primary inputs drive the
asynchronous set/reset/load pins, for the reference and for the candidate. A candidate register
whose clock or asynchronous pin is not one the reference uses in the same way, a register
clocked by a derived signal, a latch the reference does not have, a black box, or a
verification cell (assume/assert, $anyseq, ...), or a combinational loop (which a SAT model
can make vacuous) is a structural difference: the candidate is rejected with that reason. When
the reference itself has derived clocks, the miter cannot model it, and the verdict can only be
unknown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Clocking",
    "analyze_clocking",
    "clocking_problem",
    "one_clock_reason",
    "read_clocking",
]

#: Coarse register cells: clock pin and the asynchronous pins with their polarity parameter.
_FF_ASYNC: dict[str, tuple[tuple[str, str], ...]] = {
    "$dff": (),
    "$dffe": (),
    "$sdff": (),
    "$sdffe": (),
    "$sdffce": (),
    "$adff": (("ARST", "ARST_POLARITY"),),
    "$adffe": (("ARST", "ARST_POLARITY"),),
    "$dffsr": (("SET", "SET_POLARITY"), ("CLR", "CLR_POLARITY")),
    "$dffsre": (("SET", "SET_POLARITY"), ("CLR", "CLR_POLARITY")),
    "$aldff": (("ALOAD", "ALOAD_POLARITY"),),
    "$aldffe": (("ALOAD", "ALOAD_POLARITY"),),
}
_LATCHES = frozenset({"$dlatch", "$adlatch", "$dlatchsr", "$sr"})
#: Cells that constrain or fake the formal check; a candidate never needs them.
_VERIFICATION = frozenset(
    {
        "$assert",
        "$assume",
        "$cover",
        "$live",
        "$fair",
        "$anyconst",
        "$anyseq",
        "$allconst",
        "$allseq",
        "$anyinit",
        "$initstate",
        "$equiv",
        "$ff",
        "$_FF_",
        "$print",
        "$check",
        "$specify2",
        "$specify3",
        "$specrule",
    }
)
#: Cells a clock or reset may pass through: (input port, output port, inverts).
_PASS: dict[str, tuple[str, str, bool]] = {
    "$not": ("A", "Y", True),
    "$pos": ("A", "Y", False),
    "$_NOT_": ("A", "Y", True),
    "$_BUF_": ("A", "Y", False),
    "$logic_not": ("A", "Y", True),
    "$reduce_or": ("A", "Y", False),
    "$reduce_and": ("A", "Y", False),
    "$reduce_bool": ("A", "Y", False),
    "$reduce_xor": ("A", "Y", False),
    "$reduce_xnor": ("A", "Y", True),
}


@dataclass(frozen=True)
class Clocking:
    """How one module's registers are clocked and reset.

    Attributes:
        clocks: ``(input bit, edge)`` pairs used by registers, e.g. ``("clk", "posedge")``.
        asyncs: ``(input bit, active level)`` pairs driving asynchronous set/reset/load pins.
        registers: Register cells (each may be many bits wide).
        latches: Latch cells.
        problems: Structures the miter cannot model or a candidate may not use (derived
            clocks, constant clocks, black boxes, verification cells), each as one phrase.
        examples: For each clock/async pair, the name of one register that uses it.
        register_names: ``(name, width)`` of every register cell, sorted (the nets they drive).
        reset_registers: Register cells whose only asynchronous pin is a reset to a constant
            (``$adff``, ``$adffe``) driven by an input.
    """

    clocks: frozenset[tuple[str, str]] = frozenset()
    asyncs: frozenset[tuple[str, int]] = frozenset()
    registers: int = 0
    latches: int = 0
    problems: tuple[str, ...] = ()
    examples: Mapping[tuple[str, Any], str] = field(default_factory=dict)
    register_names: tuple[tuple[str, int], ...] = ()
    reset_registers: int = 0


def _param(cell: Mapping[str, Any], name: str, default: int = 1) -> int:
    v = cell.get("parameters", {}).get(name)
    if v is None:
        return default
    if isinstance(v, int):
        return v
    s = str(v)
    try:
        return int(s, 2) if set(s) <= {"0", "1"} else int(s)
    except ValueError:
        return default


class _Module:
    """Bit-level view of one JSON module: who drives each bit, what each bit is called."""

    def __init__(self, mod: Mapping[str, Any]) -> None:
        self.mod = mod
        self.inputs: dict[Any, str] = {}
        for pname, port in mod.get("ports", {}).items():
            if port.get("direction") != "input":
                continue
            bits = port.get("bits", [])
            for i, b in enumerate(bits):
                self.inputs[b] = pname if len(bits) == 1 else f"{pname}[{i}]"
        self.driver: dict[Any, tuple[str, str, int]] = {}
        for cname, cell in mod.get("cells", {}).items():
            dirs = cell.get("port_directions", {})
            for pin, bits in cell.get("connections", {}).items():
                if dirs.get(pin) == "output":
                    for i, b in enumerate(bits):
                        if isinstance(b, int):
                            self.driver[b] = (cname, pin, i)
        self.names: dict[Any, str] = {}
        self.whole: dict[tuple[Any, ...], str] = {}
        for nname, net in mod.get("netnames", {}).items():
            hidden = net.get("hide_name", 0) or nname.startswith("$")
            bits = net.get("bits", [])
            if not hidden:
                self.whole.setdefault(tuple(bits), nname)
            for i, b in enumerate(bits):
                label = nname if len(bits) == 1 else f"{nname}[{i}]"
                if b not in self.names or (not hidden and self.names[b].startswith("$")):
                    self.names[b] = label if not hidden else "$" + label.lstrip("$")

    def trace(self, bit: Any, depth: int = 0) -> tuple[str, str, bool]:
        """Follow a bit back through buffers and inverters.

        Returns:
            ``("input", name, inverted)``, ``("const", value, False)`` or
            ``("derived", description, False)``.
        """
        if isinstance(bit, str):
            return "const", bit, False
        if bit in self.inputs:
            return "input", self.inputs[bit], False
        drv = self.driver.get(bit)
        if drv is None:
            return "derived", f"undriven net {self.name(bit)}", False
        cname, pin, idx = drv
        cell = self.mod["cells"][cname]
        kind = cell.get("type", "")
        through = _PASS.get(kind)
        if through is not None and depth < 64 and pin == through[1]:
            src = cell.get("connections", {}).get(through[0], [])
            # reductions and logic_not pass a bit through only when their input is one bit
            if kind.startswith(("$reduce", "$logic")) and len(src) != 1:
                src = []
            if kind in ("$not", "$pos", "$_NOT_", "$_BUF_") and idx < len(src):
                src = [src[idx]]
            if len(src) == 1:
                how, name, inv = self.trace(src[0], depth + 1)
                return how, name, inv ^ through[2]
        return "derived", f"{self.name(bit)} (driven by a {kind} cell)", False

    def register(self, bits: Sequence[Any]) -> str:
        """The name of the net a register drives (its first bit's name when it is split)."""
        return self.whole.get(tuple(bits)) or (self.name(bits[0]) if bits else "?")

    def name(self, bit: Any) -> str:
        n = self.names.get(bit)
        return n.lstrip("$") if n else f"net {bit}"


def _loop(view: _Module) -> str:
    """A combinational loop (through cells other than registers and latches), or ""."""
    cells = view.mod.get("cells", {})
    stateful = set(_FF_ASYNC) | _LATCHES
    succ: dict[str, set[str]] = {}
    for cname, cell in cells.items():
        if cell.get("type") in stateful:
            continue
        dirs = cell.get("port_directions", {})
        for pin, bits in cell.get("connections", {}).items():
            if dirs.get(pin) != "input":
                continue
            for b in bits:
                drv = view.driver.get(b)
                if drv is not None and cells[drv[0]].get("type") not in stateful:
                    succ.setdefault(drv[0], set()).add(cname)
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    for root in succ:
        if state.get(root):
            continue
        stack: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(succ.get(root, ()))))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                out = cells[nxt].get("connections", {}).get("Y", [])
                where = view.name(out[0]) if out else nxt
                return f"combinational loop through {where}"
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(sorted(succ.get(nxt, ())))))
    return ""


def analyze_clocking(mod: Mapping[str, Any]) -> Clocking:
    """The :class:`Clocking` of one module of a Yosys JSON netlist (``write_json``)."""
    view = _Module(mod)
    clocks: set[tuple[str, str]] = set()
    asyncs: set[tuple[str, int]] = set()
    problems: list[str] = []
    examples: dict[tuple[str, Any], str] = {}
    registers = latches = resets = 0
    named: list[tuple[str, int]] = []
    for cell in mod.get("cells", {}).values():
        kind = str(cell.get("type", ""))
        conns = cell.get("connections", {})
        reg = view.register(conns.get("Q", []))
        if not kind.startswith("$"):
            problems.append(
                f"instance of '{kind}' stays a black box (its module is not "
                "flattened into the design)"
            )
            continue
        if kind in _VERIFICATION:
            problems.append(
                f"uses a {kind} cell (verification and global-clock constructs are not allowed)"
            )
            continue
        if kind in _LATCHES:
            latches += 1
            continue
        if kind.startswith("$_") and any(k in kind for k in ("DFF", "LATCH", "SR", "FF")):
            problems.append(f"instantiates the register primitive {kind} directly")
            continue
        if kind not in _FF_ASYNC:
            continue
        registers += 1
        named.append((reg, len(conns.get("Q", []))))
        clk_bits = conns.get("CLK", [])
        edge_pol = _param(cell, "CLK_POLARITY")
        how, name, inv = view.trace(clk_bits[0]) if clk_bits else ("derived", "nothing", False)
        if how == "input":
            edge = "posedge" if (edge_pol == 1) ^ inv else "negedge"
            clocks.add((name, edge))
            examples.setdefault((name, edge), reg)
        elif how == "const":
            problems.append(f"register '{reg}' is clocked by the constant {name}")
        else:
            problems.append(f"register '{reg}' is clocked by {name}, not by a primary input")
        for pin, pol_name in _FF_ASYNC[kind]:
            pol = _param(cell, pol_name)
            for b in dict.fromkeys(conns.get(pin, [])):
                how, name, inv = view.trace(b)
                if how == "input":
                    level = int((pol == 1) ^ inv)
                    asyncs.add((name, level))
                    examples.setdefault((name, level), reg)
                    resets += kind in ("$adff", "$adffe")
                elif how == "derived":
                    problems.append(
                        f"register '{reg}' has its asynchronous {pin} pin driven "
                        f"by {name}, not by a primary input"
                    )
    loop = _loop(view)
    if loop:
        problems.append(loop)
    return Clocking(
        frozenset(clocks),
        frozenset(asyncs),
        registers,
        latches,
        tuple(dict.fromkeys(problems)),
        examples,
        tuple(sorted(named)),
        resets,
    )


def read_clocking(json_text: str, modules: Sequence[str]) -> dict[str, Clocking]:
    """Parse ``write_json`` output and analyze the named modules (missing ones are skipped).

    Raises:
        ValueError: the text is not a Yosys JSON netlist.
    """
    data = json.loads(json_text)
    mods = data.get("modules")
    if not isinstance(mods, dict):
        raise ValueError("not a Yosys JSON netlist")
    out: dict[str, Clocking] = {}
    for name in modules:
        mod = mods.get(name) or mods.get("\\" + name)
        if mod is not None:
            out[name] = analyze_clocking(mod)
    return out


def _edges(pairs: frozenset[tuple[str, str]]) -> str:
    return ", ".join(f"{edge} {name}" for name, edge in sorted(pairs)) or "nothing"


def _levels(pairs: frozenset[tuple[str, int]]) -> str:
    text = ", ".join(f"{name} (active {'high' if lvl else 'low'})" for name, lvl in sorted(pairs))
    return text or "none"


def clocking_problem(ref: Clocking, cand: Clocking) -> str:
    """Why the candidate's clocking differs from the reference's, or "" when it does not.

    Every candidate register must be clocked by a primary input and edge the reference uses,
    and every asynchronous pin must be driven by a primary input (and level) the reference uses
    for its asynchronous pins. Latches are allowed only when the reference has some.
    """
    if cand.problems:
        return cand.problems[0]
    for pair in sorted(cand.clocks - ref.clocks):
        reg = cand.examples.get(pair, "?")
        if not ref.registers:
            return (
                f"register '{reg}' is clocked by {pair[1]} {pair[0]}, but the reference has "
                "no registers"
            )
        return (
            f"register '{reg}' is clocked by {pair[1]} {pair[0]}; the reference clocks its "
            f"registers by {_edges(ref.clocks)}"
        )
    for apair in sorted(cand.asyncs - ref.asyncs):
        reg = cand.examples.get(apair, "?")
        level = "high" if apair[1] else "low"
        return (
            f"register '{reg}' has an asynchronous set/reset on {apair[0]} (active {level}); "
            f"the reference's asynchronous pins use {_levels(ref.asyncs)}"
        )
    if cand.latches and not ref.latches:
        return f"the candidate has {cand.latches} latch(es); the reference has none"
    return ""


def one_clock_reason(side: Clocking) -> str:
    """Why the one-implicit-clock model (``async2sync``: every step one edge of one clock,
    asynchronous pins sampled at it) is not this design's behaviour, or "" when it is.

    Registers on two edges (the same clock's rising and falling edge, through a submodule's
    port or an alias wire alike) or on two clock inputs move at different instants; a
    register with an asynchronous set, reset or load driven by an input changes without a
    clock edge (a pulse between two edges, a reset while the clock is stopped), which that
    model cannot express. Either needs Yosys's ``clk2fflogic`` model, where every clock and
    asynchronous input is level-sensitive at any step."""
    if len(side.clocks) > 1:
        return f"registers on {_edges(side.clocks)}"
    if side.asyncs:
        pair = sorted(side.asyncs)[0]
        reg = side.examples.get(pair, "?")
        return (
            f"register '{reg}' has an asynchronous pin on {_levels(frozenset({pair}))}"
            " (it acts without a clock edge)"
        )
    return ""
