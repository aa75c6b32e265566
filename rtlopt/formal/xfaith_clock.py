"""An x-fed clock that is only a clock, for the x-faithfulness proof
(:mod:`rtlopt.formal.xfaith`).

A repository may feed a target's clock x: a PLL's or a vendor clock buffer's output (x until it
runs, in every simulator), a testbench's clock register without an initial value. iverilog
takes an edge from or to x as an edge (``posedge`` on 0->x and x->1), so an x clock gives a
register edges the 0/1 clock does not. Where the clock is read only as the clock of
registers, the same edge of one clock for every register of the design, on both sides, each
side's registers take those edges alike: the proof's model (a clock edge every step, Yosys's
``async2sync``, inputs changing or not between two steps) holds every sequence of them, so the
clock's x changes nothing the proof does not cover. Anything else refuses the proof as before
(:func:`rtlopt.formal.xfaith_model.cone_refusal`): the clock read as data, by a latch, a memory
or a clock gate, a register on another clock or a derived one, both edges (``clk2fflogic``),
the two sides on different edges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["clock_only"]

#: Register cells (after ``proc -ifx; flatten``) whose ``CLK`` pin the clock may drive.
_CLOCKED = frozenset({"$dff", "$adff"})


def _polarity(cell: Mapping[str, Any]) -> str:
    value = str(cell.get("parameters", {}).get("CLK_POLARITY", "1"))
    return "pos" if value.lstrip("0") == "1" else "neg"


def _edge(mod: Mapping[str, Any], port: str) -> str | None:
    """The edge ("pos"/"neg") every register of the flattened module ``mod`` takes of input
    ``port``, where that input is read only by their ``CLK`` pins and every register (and
    every other cell with a clock pin) is clocked by it; "" where nothing reads it and no
    register is clocked; None otherwise."""
    info = mod.get("ports", {}).get(port)
    if not isinstance(info, Mapping) or info.get("direction") != "input":
        return None
    bits = {b for b in info.get("bits", []) if isinstance(b, int)}
    edges: set[str] = set()
    for cell in mod.get("cells", {}).values():
        kind = str(cell.get("type", ""))
        dirs = cell.get("port_directions", {})
        conns = cell.get("connections", {})
        for pin, conn in conns.items():
            if dirs.get(pin) == "output":
                continue
            reads = bits & {b for b in conn if isinstance(b, int)}
            clocked = kind in _CLOCKED and pin == "CLK"
            if reads and not clocked:
                return None  # read otherwise than as a register's clock
            if "CLK" in pin and not (clocked and reads == set(conn) and len(conn) == 1):
                return None  # a clock pin fed by anything else (another clock, a derived one)
        if kind in _CLOCKED:
            edges.add(_polarity(cell))
    if len(edges) > 1:
        return None
    return next(iter(edges), "")


def clock_only(mods: Mapping[str, Any], modules: Sequence[str], port: str) -> bool:
    """Whether the x-fed input ``port`` is only the clock of every register, on one edge, in
    each of ``modules`` (the reference and the candidate, flattened) alike (see the module's
    doc)."""
    edges = set()
    for name in modules:
        mod = mods.get(name.lstrip("\\"))
        if not isinstance(mod, Mapping):
            return False
        edge = _edge(mod, port)
        if edge is None:
            return False
        edges.add(edge)
    return len(edges - {""}) <= 1
