"""Counterexamples of rejected candidates, with every value labelled by width and radix.

The harness and the formal check report values as bit strings (``01110``); a reader cannot tell
a 5-bit binary value from a decimal number. Here each is written as a Verilog literal
(``5'b01110``), with the hexadecimal form beside wide values (``12'b0000_1111_0000 = 12'h0f0``).
"""

from __future__ import annotations

import re

from rtlopt.results import EvalResult

__all__ = ["counterexample_lines", "literal"]

_BITS = re.compile(r"[01xzXZ]+")


def literal(value: str) -> str:
    """A bit string as a sized binary literal; anything else (already labelled, a number the
    tool printed in another radix) unchanged.

    >>> literal("01110")
    "5'b01110"
    >>> literal("000011110000")
    "12'b0000_1111_0000 = 12'h0f0"
    """
    v = value.strip()
    if not _BITS.fullmatch(v):
        return v
    width = len(v)
    if width <= 8:
        return f"{width}'b{v}"
    grouped = "_".join(v[max(0, i - 4) : i] for i in range(width, 0, -4)[::-1])
    if re.fullmatch(r"[01]+", v):
        return f"{width}'b{grouped} = {width}'h{int(v, 2):0{(width + 3) // 4}x}"
    return f"{width}'b{grouped}"


def _sim_lines(res: EvalResult) -> list[str]:
    sim, what = res.sim, "simulation"
    if (sim is None or sim.first_mismatch is None) and res.netlist is not None:
        sim, what = res.netlist, "netlist check (the synthesized netlist)"
    if sim is None or sim.first_mismatch is None:
        return []
    m = sim.first_mismatch
    ins = ", ".join(f"{k} = {literal(v)}" for k, v in m.inputs.items())
    return [
        f"{what}, first of {sim.mismatches} mismatching vectors, at {m.time}:",
        f"inputs {ins}" if ins else "inputs: (none recorded)",
        f"output {m.output}: expected {literal(m.expected)}, got {literal(m.got)}",
    ]


def _formal_lines(res: EvalResult) -> list[str]:
    f = res.formal
    if f is None or not f.counterexample:
        return []
    cex = dict(f.counterexample)
    cycle = cex.pop("cycle", None)
    outs = [(k, v) for k, v in cex.items() if k.startswith(("expected ", "got "))]
    ins = [(k, v) for k, v in cex.items() if not k.startswith(("expected ", "got "))]
    head = f"formal ({f.method})" + (f", outputs differ at cycle {cycle}" if cycle else "")
    lines = [head + ":"]
    if ins:
        lines.append("inputs " + ", ".join(f"{k} = {literal(v)}" for k, v in ins))
    by_port: dict[str, dict[str, str]] = {}
    for k, v in outs:
        kind, _, port = k.partition(" ")
        by_port.setdefault(port, {})[kind] = v
    for port, vals in by_port.items():
        lines.append(
            f"output {port}: expected {literal(vals.get('expected', '?'))}, "
            f"got {literal(vals.get('got', '?'))}"
        )
    return lines


def counterexample_lines(res: EvalResult) -> list[str]:
    """Why a rejected candidate is not equivalent, as lines of text (empty when no
    counterexample was recorded: a syntax error, an interface change, an undecided proof)."""
    return _formal_lines(res) or _sim_lines(res)
