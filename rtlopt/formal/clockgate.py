"""Clock-gate cells modelled as enables: found by structure in a Yosys JSON netlist.

A latch-based clock gate (C910's ``gated_clk_cell``, an integrated clock-gating cell) is a
latch transparent while the clock is low whose output is ANDed with the clock::

    always @(clk or en) if (!clk) en_l <= en;   assign gclk = clk & en_l;

The latch closes at the rising edge, so ``gclk`` rises exactly at the rising edges of ``clk``
where ``en`` (sampled just before the edge) is 1, and never glitches. Per cycle, a register on
``posedge gclk`` is therefore a register on ``posedge clk`` with clock enable ``en``. The SAT
miter steps every register on one implicit clock and cannot see a gated clock, so the formal
scripts rewrite every such register into its enable form before any check (the clock/reset
structure check included): ``$dff``/``$adff``/``$dffsr``/``$aldff`` on ``posedge gclk``
becomes ``$dffe``/``$adffe``/``$dffsre``/``$aldffe`` on ``posedge clk`` with ``EN = en``. The
latch and the AND then drive nothing and ``opt_clean`` removes them.

Matched by structure only, never by name: a 1-bit AND (``$and``, ``$logic_and``, ``$_AND_``,
2-bit ``$reduce_and``) of a primary input ``clk`` (through buffers) and the output of a
``$dlatch`` whose enable is that same input, transparent while it is low; the latch's data
cone must not depend on the latch, the clock or the gated clock (the latch samples it while
the clock is low: an enable that reads the clock is not that enable per cycle); the gated
clock must drive only clock pins of rising-edge registers without their own enable and output
ports, and the latch only gates. Anything else (an AND without a latch, a latch open on the
high phase, a gated clock used as data) is left alone, so the structure check still rejects
it. A gated clock that
reaches an output port (a module exporting its gated clock) keeps its AND, and its 1-bit latch
becomes a wire from its data input (see :func:`find_output_gates`).

The formal scripts run this file as a program between Yosys commands (``write_json``, then
``python _clockgate.py in.json out.ys``, then ``script out.ys``); it imports nothing outside
the standard library so it starts fast in an isolated interpreter.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "GatedRegister",
    "find_gated_registers",
    "find_output_gates",
    "rewrite_script",
    "script_lines",
]

_AND = frozenset({"$and", "$logic_and", "$_AND_"})
_BUF = frozenset({"$pos", "$_BUF_"})
_NOT = frozenset({"$not", "$_NOT_", "$logic_not"})
#: Register cell without enable -> the same cell with a clock enable.
_WITH_ENABLE = {"$dff": "$dffe", "$adff": "$adffe", "$dffsr": "$dffsre", "$aldff": "$aldffe"}
_STATEFUL_PREFIXES = ("$dff", "$adff", "$sdff", "$aldff", "$dlatch", "$adlatch", "$sr", "$ff")
#: This file, run by the Yosys scripts.
PROGRAM = Path(__file__).resolve()


@dataclass(frozen=True)
class GatedRegister:
    """One register cell on a clock-gate's output, and what replaces its clock.

    Attributes:
        module: Module name as in the JSON.
        cell: Register cell name as in the JSON.
        kind: Its cell type (``$dff``, ``$adff``, ...).
        clock: ``(net, index, width)`` of the free-running clock bit (at the gate's input).
        enable: ``(net, index, width)`` of the gate's enable bit (the latch's data input), or
            ``(constant, 0, 0)``.
    """

    module: str
    cell: str
    kind: str
    clock: tuple[str, int, int]
    enable: tuple[str, int, int]


def _param(cell: Mapping[str, Any], name: str) -> int:
    v = cell.get("parameters", {}).get(name, 1)
    if isinstance(v, int):
        return v
    s = str(v)
    try:
        return int(s, 2) if s and set(s) <= {"0", "1"} else int(s)
    except ValueError:
        return 1


class _View:
    def __init__(self, mod: Mapping[str, Any]) -> None:
        self.cells: Mapping[str, Any] = mod.get("cells", {})
        self.inputs: set[Any] = set()
        for port in mod.get("ports", {}).values():
            if port.get("direction") == "input":
                self.inputs.update(port.get("bits", []))
        self.driver: dict[Any, tuple[str, str, int]] = {}
        self.loads: dict[Any, list[tuple[str, str]]] = {}
        for cname, cell in self.cells.items():
            dirs = cell.get("port_directions", {})
            for pin, bits in cell.get("connections", {}).items():
                for i, b in enumerate(bits):
                    if not isinstance(b, int):
                        continue
                    if dirs.get(pin) == "output":
                        self.driver[b] = (cname, pin, i)
                    else:
                        self.loads.setdefault(b, []).append((cname, pin))
        self.outputs: set[Any] = set()
        for port in mod.get("ports", {}).values():
            if port.get("direction") != "input":
                self.outputs.update(port.get("bits", []))
        # bit -> (net name, index, width); names a sigspec can hold are preferred
        self.names: dict[Any, tuple[str, int, int]] = {}
        for nname, net in mod.get("netnames", {}).items():
            bits = net.get("bits", [])
            for i, b in enumerate(bits):
                if b not in self.names or _rank(nname) < _rank(self.names[b][0]):
                    self.names[b] = (nname, i, len(bits))

    def source(self, bit: Any, depth: int = 0) -> tuple[Any, bool]:
        """The bit behind buffers and inverters, and whether an odd number of them invert."""
        drv = self.driver.get(bit)
        if drv is None or depth > 32:
            return bit, False
        cname, pin, idx = drv
        cell = self.cells[cname]
        kind = cell.get("type", "")
        if pin != "Y" or (kind not in _BUF and kind not in _NOT):
            return bit, False
        src = cell.get("connections", {}).get("A", [])
        if kind == "$logic_not" and len(src) != 1:
            return bit, False
        if idx >= len(src) and len(src) != 1:
            return bit, False
        nxt = src[0] if len(src) == 1 else src[idx]
        inner, inv = self.source(nxt, depth + 1)
        return inner, inv ^ (kind in _NOT)

    def cone_has(self, start: Sequence[Any], bad: set[Any]) -> bool:
        """Whether the combinational fan-in of ``start`` reaches a bit in ``bad``."""
        seen: set[Any] = set()
        stack = [b for b in start if isinstance(b, int)]
        while stack:
            b = stack.pop()
            if b in bad:
                return True
            if b in seen:
                continue
            seen.add(b)
            drv = self.driver.get(b)
            if drv is None:
                continue
            cell = self.cells[drv[0]]
            if str(cell.get("type", "")).startswith(_STATEFUL_PREFIXES):
                continue
            dirs = cell.get("port_directions", {})
            for pin, bits in cell.get("connections", {}).items():
                if dirs.get(pin) == "input":
                    stack.extend(x for x in bits if isinstance(x, int))
        return False


def _rank(name: str) -> int:
    """0: a plain public name; 1: a plain internal name; 2: a name a sigspec cannot hold."""
    if any(c in name for c in "[]{} \t:'"):
        return 2
    return 1 if name.startswith("$") else 0


def _safe(name: str) -> bool:
    """Whether a name can go into a Yosys script as one word and nothing else: candidate
    names reach the script, so a separator (``;``), a comment, a quote or a space would let
    a candidate add commands; such a gate is left alone (the structure check rejects it)."""
    return (
        bool(name)
        and all(c.isprintable() and not c.isspace() for c in name)
        and not any(c in name for c in ';#"')
    )


def _ident(name: str) -> str:
    """A JSON net or cell name as a Yosys identifier (public names take a backslash)."""
    return name if name.startswith("$") else "\\" + name


def _gate_inputs(cell: Mapping[str, Any]) -> tuple[Any, Any] | None:
    kind = cell.get("type", "")
    conns = cell.get("connections", {})
    if kind in _AND:
        a, b, y = conns.get("A", []), conns.get("B", []), conns.get("Y", [])
        if len(a) == 1 and len(b) == 1 and len(y) == 1:
            return a[0], b[0]
    if kind == "$reduce_and":
        a, y = conns.get("A", []), conns.get("Y", [])
        if len(a) == 2 and len(y) == 1:
            return a[0], a[1]
    return None


def _latch_for(view: _View, bit: Any) -> tuple[str, int] | None:
    """``(latch cell, bit index)`` when ``bit`` is a plain ``$dlatch`` output (through buffers)."""
    src, inv = view.source(bit)
    if inv:
        return None
    drv = view.driver.get(src)
    if drv is None or drv[1] != "Q":
        return None
    cell = view.cells[drv[0]]
    return (drv[0], drv[2]) if cell.get("type") == "$dlatch" else None


def _module_gates(name: str, mod: Mapping[str, Any]) -> tuple[list[GatedRegister], list[str]]:
    """The registers behind this module's clock gates, and the latches of gates whose gated
    clock reaches an output port."""
    view = _View(mod)
    found: list[GatedRegister] = []
    bypass: list[str] = []
    for gname, gate in view.cells.items():
        pins = _gate_inputs(gate)
        if pins is None:
            continue
        gclk = gate["connections"]["Y"][0]
        for clk_pin, en_pin in (pins, pins[::-1]):
            clk_src, clk_inv = view.source(clk_pin)
            latch = _latch_for(view, en_pin)
            if clk_inv or clk_src not in view.inputs or latch is None:
                continue
            lname, lbit = latch
            lcell = view.cells[lname]
            lconn = lcell.get("connections", {})
            en_src, en_inv = view.source(lconn.get("EN", [None])[0])
            # transparent while the clock is low: EN is clk at polarity 0, or ~clk at 1
            if en_src != clk_src or (_param(lcell, "EN_POLARITY") == 1) != en_inv:
                continue
            d_bit = lconn.get("D", [])[lbit] if lbit < len(lconn.get("D", [])) else None
            q_bit = lconn.get("Q", [])[lbit]
            if d_bit is None:
                continue
            # the latch output only gates; the enable does not depend on the latch or the clock
            if any(c != gname for c, _ in view.loads.get(q_bit, [])) or q_bit in view.outputs:
                continue
            if isinstance(d_bit, int) and view.cone_has([d_bit], {q_bit, gclk, clk_src}):
                continue
            fanout = _gated_registers(view, gclk)
            if fanout is None:
                continue
            regs, to_output = fanout
            if to_output:
                if len(lconn.get("Q", [])) != 1:
                    continue  # opening a wider latch would open its other bits too
                bypass.append(lname)
            for rname in regs:
                found.append(
                    GatedRegister(
                        name,
                        rname,
                        str(view.cells[rname]["type"]),
                        view.names.get(clk_pin, ("", 0, 0)),
                        view.names.get(d_bit, ("", 0, 0))
                        if isinstance(d_bit, int)
                        else (f"1'b{d_bit}", 0, 0),
                    )
                )
            break
    safe = [g for g in found if all(_safe(n) for n in (g.module, g.cell, g.clock[0], g.enable[0]))]
    return safe, [n for n in bypass if _safe(name) and _safe(n)]


def _gated_registers(view: _View, gclk: Any) -> tuple[list[str], bool] | None:
    """Rising-edge registers without an enable clocked by ``gclk`` (through buffers), and
    whether ``gclk`` also reaches an output port; None when it drives anything else (a gated
    clock used as data is not a gate)."""
    regs: list[str] = []
    to_output = False
    frontier = [gclk]
    seen: set[Any] = set()
    while frontier:
        bit = frontier.pop()
        if bit in seen:
            continue
        seen.add(bit)
        to_output = to_output or bit in view.outputs
        for cname, pin in view.loads.get(bit, []):
            cell = view.cells[cname]
            kind = cell.get("type", "")
            if kind in _BUF and pin == "A":
                frontier.extend(cell.get("connections", {}).get("Y", []))
            elif kind in _WITH_ENABLE and pin == "CLK" and _param(cell, "CLK_POLARITY") == 1:
                regs.append(cname)
            else:
                return None
    return regs, to_output


def find_gated_registers(netlist: Mapping[str, Any]) -> list[GatedRegister]:
    """Every register behind a latch-based clock gate, in every module of a JSON netlist."""
    out: list[GatedRegister] = []
    for name, mod in netlist.get("modules", {}).items():
        out += _module_gates(name, mod)[0]
    return out


def find_output_gates(netlist: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(module, latch cell)`` of every clock gate whose gated clock reaches an output port
    (a module that exports a gated clock, such as a core's sleep unit).

    Per cycle such an output pulses at the clock's rising edge exactly when the enable, as
    the latch holds it just before the edge, is 1: in the cycle model of the miter (one step
    per cycle) the latch holds the enable's value of the same step, so the latch is replaced
    by a wire from its data input (:func:`script_lines`). The output is then compared as
    ``clk & en`` with ``clk`` a free input of every step, which is at least as strict as
    comparing the enables."""
    out: list[tuple[str, str]] = []
    for name, mod in netlist.get("modules", {}).items():
        out += [(name, latch) for latch in _module_gates(name, mod)[1]]
    return out


def script_lines(
    gated: Sequence[GatedRegister], tag: str = "", latches: Sequence[tuple[str, str]] = ()
) -> list[str]:
    """Yosys commands that turn each gated register into an enabled one on the free clock,
    and each latch of ``latches`` into a wire (an always-open latch, which ``opt_dff``
    replaces by a connection).

    Args:
        gated: From :func:`find_gated_registers`.
        tag: Added to the new cell and wire names (random per run: a candidate cannot name
            a signal so that a rename collides).
        latches: From :func:`find_output_gates`.
    """
    tag = tag or secrets.token_hex(4)
    lines: list[str] = []
    renamed: dict[tuple[str, str], str] = {}

    def sig(module: str, net: tuple[str, int, int]) -> str:
        name, idx, width = net
        if width == 0:  # a constant
            return name
        if _rank(name) == 2:
            # a name a sigspec would misread (``$0\\q[0:0]``): give the wire a plain one
            key = (module, name)
            if key not in renamed:
                renamed[key] = f"\\rtlopt_clock_gate_{tag}_net_{len(renamed)}"
                lines.append(f"rename {_ident(name)} {renamed[key]}")
            name = renamed[key][1:]
        return _ident(name) + (f" [{idx}]" if width > 1 else "")

    for i, g in enumerate(gated):
        tmp = f"\\rtlopt_clock_gate_{tag}_{i}"
        lines.append(f"cd {_ident(g.module)}")
        clock, enable = sig(g.module, g.clock), sig(g.module, g.enable)
        lines += [
            f"rename {_ident(g.cell)} {tmp}",
            # through a user cell type: Yosys checks internal cells after every command, and
            # the register is a valid $..e cell only once the parameter and pin are both set
            f"chtype -set \\rtlopt_clock_gate_cell {tmp[1:]}",
            f"setparam -set EN_POLARITY 1 {tmp[1:]}",
            f"connect -port {tmp} \\CLK {clock}",
            f"connect -port {tmp} \\EN {enable}",
            f"chtype -set {_WITH_ENABLE[g.kind]} {tmp[1:]}",
            "cd",
        ]
    opened: list[str] = []
    for i, (module, latch) in enumerate(latches):
        if module.startswith("$"):
            continue  # a selection names public modules only
        tmp = f"rtlopt_clock_gate_{tag}_latch_{i}"
        lines += [
            f"cd {_ident(module)}",
            f"rename {_ident(latch)} \\{tmp}",
            f"setparam -set EN_POLARITY 1 {tmp}",
            f"connect -port \\{tmp} \\EN 1'1",
            "cd",
        ]
        opened.append(f"{module}/{tmp}")
    if opened:
        lines.append("opt_dff -nodffe -nosdff " + " ".join(opened))
    return lines


def rewrite_script(json_text: str) -> str:
    """The script for a ``write_json`` text (a comment line when nothing is gated)."""
    netlist = json.loads(json_text)
    gated = find_gated_registers(netlist)
    latches = find_output_gates(netlist)
    head = (
        f"# rtlopt: {len(gated)} register(s) behind clock gates modelled as enables, "
        f"{len(latches)} gated clock output(s) as clock AND enable"
    )
    return "\n".join([head, *script_lines(gated, latches=latches)]) + "\n"


def main(argv: Sequence[str]) -> int:
    """``_clockgate.py IN.json OUT.ys``: write the rewrite script (empty when nothing matches)."""
    if len(argv) != 2:
        print("usage: _clockgate.py IN.json OUT.ys", file=sys.stderr)
        return 2
    Path(argv[1]).write_text(rewrite_script(Path(argv[0]).read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
