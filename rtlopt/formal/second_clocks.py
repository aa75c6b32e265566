"""Registers the second proof's single-clock model cannot step: clocked by a net that is no
clock input (a gated or derived clock), or latches.

The second proof writes its miter as AIGER (:mod:`rtlopt.formal.second`), where every register
steps on one implicit clock: ``write_aiger`` drops a register's clock net. That is the design's
behaviour only when every register is clocked by one of the target's clock inputs. A register
on a gated clock (C910's ``gated_clk_cell``: a latch open on the low phase ANDed with the
clock) would load in every cycle instead of the cycles its gate lets through, so the proof
would compare a different design: a rewrite that moves the gate's enable into the register
reads as a difference, and a change to a gate's enable goes unseen. Such designs, and designs
with a latch whose enable depends on a clock (a phase latch), are proven in Yosys's
``clk2fflogic`` model instead (every clock an input, every register and latch stepped by its
own clock or enable). A register clocked through buffers of a clock input (a flattened
submodule's clock port) is on that clock; a latch on data alone is stepped per cycle, as
before and as the first proof reads it.

:func:`unmodelled_clocking` reads both designs after ``proc -noopt; flatten`` (the JSON the
second proof writes for its high-impedance check) and names the first such register or latch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["one_async_reset", "unmodelled_clocking"]

#: Asynchronous pins of coarse and of fine register cells (a constant leaves them unused).
_ASYNC_PINS = ("ARST", "SET", "CLR", "ALOAD")
_FINE_ASYNC_PINS = ("R", "S", "L")

#: Latches (level-sensitive state).
_LATCHES = ("$dlatch", "$adlatch", "$dlatchsr", "$_DLATCH")
#: Cells that hold state: a clock's combinational cone stops at them.
_STATEFUL: tuple[str, ...] = (
    *("$dff", "$adff", "$sdff", "$aldff", "$ff", "$sr", "$mem"),
    *("$_DFF", "$_SDFF", "$_ALDFF", "$_SR_", "$_FF_", *_LATCHES),
)
#: Fine-grained registers name their clock pin ``C``, fine-grained latches their enable ``E``.
_FINE_CLOCKED = ("$_DFF", "$_SDFF", "$_ALDFF")
_BUFFERS = frozenset({"$buf", "$pos", "$_BUF_"})


def unmodelled_clocking(sides_json: str, modules: Sequence[str], clocks: Iterable[str]) -> str:
    """The first register of ``modules`` (in the netlist ``sides_json``) not clocked by one of
    the input ports ``clocks`` (through buffers), or latch whose enable depends on one of them
    (a clock-phase latch, as in a clock gate), described ("register data_q in m clocked by
    data_clk"); "" when there is none (a latch on data alone steps per cycle as the first
    proof reads it); also registers on two edges of the clocks, or one with an asynchronous
    pin on a net. A netlist that cannot be read names its registers (the edge-by-edge
    model, faithful for any clocking, is then used)."""
    try:
        netlist = json.loads(sides_json)
    except ValueError:
        netlist = None
    if not isinstance(netlist, dict):
        return "registers whose clocks cannot be read (no netlist)"
    names = set(clocks)
    edges: dict[tuple[object, int], str] = {}
    for name in modules:
        module = netlist.get("modules", {}).get(name)
        if isinstance(module, dict):
            found = _in_module(name, module, names) or _edges_and_asyncs(name, module, edges)
            if found:
                return found
    if len(edges) > 1:
        first, second = sorted(edges.values())[:2]
        return f"registers on two clock edges ({first}; {second})"
    return ""


def _in_module(name: str, module: Mapping[str, Any], clocks: set[str]) -> str:
    ports = module.get("ports", {})
    clock_bits = {
        b
        for p, info in ports.items()
        if p in clocks and info.get("direction") == "input"
        for b in info.get("bits", [])
    }
    cells: Mapping[str, Any] = module.get("cells", {})
    nets = _net_names(module)
    source = _buffered(cells)
    cone: set[object] | None = None
    for cell_name, cell in cells.items():
        kind = str(cell.get("type", ""))
        conns = cell.get("connections", {})
        what = _label(cell_name, cell, nets)
        if kind.startswith(_LATCHES):
            cone = _clock_cone(cells, clock_bits) if cone is None else cone
            enable = conns.get("E" if kind.startswith("$_") else "EN", [])
            if any(b in cone for b in enable):
                return f"latch {what} in {name} enabled by the clock"
            continue
        pin = "C" if kind.startswith(_FINE_CLOCKED) else "CLK"
        if pin not in conns or not _clock_enabled(cell):
            continue
        bits = conns[pin]
        if not all(_root(b, source) in clock_bits for b in bits):
            by = " ".join(nets.get(b, str(b)) for b in bits)
            return f"register {what} in {name} clocked by {by}"
    return ""


def _buffered(cells: Mapping[str, Any]) -> dict[object, object]:
    """Bit -> the bit a buffer copies into it."""
    source: dict[object, object] = {}
    for cell in cells.values():
        conns = cell.get("connections", {})
        a, y = conns.get("A", []), conns.get("Y", [])
        if cell.get("type") in _BUFFERS and len(a) == len(y):
            source.update((o, i) for o, i in zip(y, a, strict=True) if isinstance(o, int))
    return source


def _root(bit: object, source: Mapping[object, object]) -> object:
    seen = set()
    while bit in source and bit not in seen:
        seen.add(bit)
        bit = source[bit]
    return bit


def _clock_cone(cells: Mapping[str, Any], clock_bits: set[object]) -> set[object]:
    """Every bit a clock input reaches through combinational cells."""
    readers: dict[object, list[list[object]]] = {}
    for cell in cells.values():
        if str(cell.get("type", "")).startswith(_STATEFUL):
            continue
        dirs = cell.get("port_directions", {})
        conns = cell.get("connections", {})
        outs = [b for p, bits in conns.items() if dirs.get(p) == "output" for b in bits]
        for p, bits in conns.items():
            if dirs.get(p) == "input":
                for b in bits:
                    readers.setdefault(b, []).append(outs)
    cone = set(clock_bits)
    todo = list(clock_bits)
    while todo:
        for outs in readers.get(todo.pop(), []):
            for b in outs:
                if isinstance(b, int) and b not in cone:
                    cone.add(b)
                    todo.append(b)
    return cone


def _clock_enabled(cell: Mapping[str, Any]) -> bool:
    """A memory port's ``CLK`` counts only when ``CLK_ENABLE`` is set (asynchronous ports
    leave it unconnected)."""
    value = cell.get("parameters", {}).get("CLK_ENABLE")
    if value is None:
        return True
    text = str(value)
    return not set(text) <= {"0"} if set(text) <= {"0", "1"} else True


def _net_names(module: Mapping[str, Any]) -> dict[object, str]:
    """Bit -> the shortest public net name holding it (for messages)."""
    names: dict[object, str] = {}
    for net, info in module.get("netnames", {}).items():
        if net.startswith("$") or info.get("hide_name"):
            continue
        for b in info.get("bits", []):
            if b not in names or len(net) < len(names[b]):
                names[b] = net
    return names


def _label(cell_name: str, cell: Mapping[str, Any], nets: Mapping[object, str]) -> str:
    q = cell.get("connections", {}).get("Q", [])
    held = [nets[b] for b in q if b in nets]
    return held[0] if held else cell_name


def _polarity(kind: str, cell: Mapping[str, Any]) -> int:
    """The active clock edge of a register cell: 1 rising, 0 falling (``CLK_POLARITY``, or
    the first letter after a fine cell's name: ``$_DFF_N_``, ``$_SDFFE_NP0P_``)."""
    if kind.startswith("$_"):
        parts = kind.split("_")
        return 0 if len(parts) > 2 and parts[2][:1] == "N" else 1
    value = str(cell.get("parameters", {}).get("CLK_POLARITY", "1"))
    bits = value.strip("'\"")
    if set(bits) <= {"0", "1"} and bits:
        return int(bits[-1])
    try:
        return 1 if int(bits) else 0
    except ValueError:
        return 1


def _edges_and_asyncs(
    name: str, module: Mapping[str, Any], edges: dict[tuple[object, int], str]
) -> str:
    """A register with an asynchronous pin driven by a net (no constant) in ``module``,
    described; otherwise "" and every register's ``(clock root, edge)`` added to ``edges``
    (with a description of one register on it). A reset pulse between two clock edges, and
    a register on the other edge, are steps the one-clock model does not have."""
    cells: Mapping[str, Any] = module.get("cells", {})
    nets = _net_names(module)
    source = _buffered(cells)
    # a clock by its input port's name: the two sides number their bits each on their own
    ports = {
        b: f"{p}[{i}]" if len(info.get("bits", [])) > 1 else p
        for p, info in module.get("ports", {}).items()
        if info.get("direction") == "input"
        for i, b in enumerate(info.get("bits", []))
    }
    for cell_name, cell in cells.items():
        kind = str(cell.get("type", ""))
        if kind.startswith(_LATCHES) or not kind.startswith("$"):
            continue
        conns = cell.get("connections", {})
        fine = kind.startswith(_FINE_CLOCKED) or kind.startswith("$_DFFSR")
        pin = "C" if fine else "CLK"
        if pin not in conns or not _clock_enabled(cell):
            continue
        what = _label(cell_name, cell, nets)
        for apin in _FINE_ASYNC_PINS if fine else _ASYNC_PINS:
            bits = [b for b in conns.get(apin, []) if isinstance(b, int)]
            if bits:
                return (
                    f"register {what} in {name} has an asynchronous {apin} pin on "
                    f"{nets.get(bits[0], str(bits[0]))} (it acts without a clock edge)"
                )
        pol = _polarity(kind, cell)
        for b in conns[pin]:
            edge = "posedge" if pol else "negedge"
            root = _root(b, source)
            edges.setdefault(
                (ports.get(root, root), pol), f"{what} in {name} on {edge} {nets.get(b, str(b))}"
            )
    return ""


#: Register cells that reset asynchronously to a constant: the pin, and the constant's pin.
_RESETS = {"$adff": ("ARST", ""), "$adffe": ("ARST", ""), "$aldff": ("ALOAD", "AD")}
_RESETS["$aldffe"] = _RESETS["$aldff"]


def one_async_reset(sides_json: str, modules: Sequence[str]) -> bool:
    """Whether every register of ``modules`` (in the netlist ``sides_json``) is on one edge of
    one clock input and resets asynchronously to a constant from one input at one level, the
    same for all (an asynchronous load of a constant is such a reset), with no latch: after
    any reset the design is in its reset state (:mod:`rtlopt.formal.engines.stated`)."""
    try:
        netlist = json.loads(sides_json)
    except ValueError:
        return False
    mods = netlist.get("modules", {}) if isinstance(netlist, dict) else {}
    seen: set[tuple[str, str, int]] = set()
    for name in modules:
        module = mods.get(name) or mods.get("\\" + name)
        if not isinstance(module, dict):
            return False
        found = _reset_pins(module)
        if found is None:
            return False
        seen |= found
    return (
        len({k for k in seen if k[0] == "clock"}) == 1
        and len({k for k in seen if k[0] == "reset"}) == 1
    )


def _reset_pins(module: Mapping[str, Any]) -> set[tuple[str, str, int]] | None:
    """``("clock", port, edge)`` and ``("reset", port, level)`` of every register of
    ``module``; None when one is no such register (or a latch, or a pin on no input)."""
    ports = {
        b: f"{p}[{i}]" if len(info.get("bits", [])) > 1 else p
        for p, info in module.get("ports", {}).items()
        if info.get("direction") == "input"
        for i, b in enumerate(info.get("bits", []))
    }
    cells: Mapping[str, Any] = module.get("cells", {})
    source = _buffered(cells)
    out: set[tuple[str, str, int]] = set()
    for cell in cells.values():
        kind = str(cell.get("type", ""))
        if not kind.startswith(_STATEFUL) and not kind.startswith(_LATCHES):
            continue
        if kind not in _RESETS:
            return None
        conns = cell.get("connections", {})
        params = cell.get("parameters", {})
        pin, value = _RESETS[kind]
        if value and any(isinstance(b, int) for b in conns.get(value, [])):
            return None  # an asynchronous load of data, not of a constant
        for role, bits, pol in (
            ("clock", conns.get("CLK", []), params.get("CLK_POLARITY", 1)),
            ("reset", conns.get(pin, []), params.get(f"{pin}_POLARITY", 1)),
        ):
            port = ports.get(_root(bits[0], source)) if len(bits) == 1 else None
            if port is None:
                return None
            out.add((role, port, int(str(pol), 2) if isinstance(pol, str) else int(pol)))
    return out
