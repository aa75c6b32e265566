"""The X-policy proof's register trigger (formal/xpolicy_regs.py) on hand-made Yosys JSON
(the shapes ``proc -ifx -noopt; flatten`` writes): which register bits may stay x until the
first reset, and which of the candidate's are new."""

from __future__ import annotations

from typing import Any

from rtlopt.formal.xpolicy_regs import held_by_output, new_held_registers

_OUT = {"direction": "output"}
_IN = {"direction": "input"}


def _cell(kind: str, **conn: list[Any]) -> dict[str, Any]:
    dirs = {p: ("output" if p in ("Y", "Q") else "input") for p in conn}
    return {"type": kind, "connections": conn, "port_directions": dirs}


def _module(held_writes_reset_only: bool, *, y_reads_v: bool) -> dict[str, Any]:
    """Bits: 2 clk, 3 rst, 4 d, 5 y, 6 q, 7 v, 10..13 internal. q <= rst ? 0 : d;
    v <= rst ? 1 : (v or d); y = q & v (or q)."""
    cells = {
        "eq_q": _cell("$eqx", A=[3], B=["1"], Y=[10]),
        "mux_q": _cell("$mux", A=[4], B=["0"], S=[10], Y=[11]),
        "q": _cell("$dff", CLK=[2], D=[11], Q=[6]),
        "eq_v": _cell("$eqx", A=[3], B=["1"], Y=[12]),
        "mux_v": _cell("$mux", A=[7 if held_writes_reset_only else 4], B=["1"], S=[12], Y=[13]),
        "v": _cell("$dff", CLK=[2], D=[13], Q=[7]),
        "and": _cell("$and", A=[6], B=[7 if y_reads_v else 6], Y=[5]),
    }
    ports = {
        "clk": {**_IN, "bits": [2]},
        "rst": {**_IN, "bits": [3]},
        "d": {**_IN, "bits": [4]},
        "y": {**_OUT, "bits": [5]},
    }
    names = {n: {"bits": [b], "hide_name": 0} for n, b in (("q", 6), ("v", 7), ("y", 5))}
    return {"ports": ports, "cells": cells, "netnames": names}


def test_a_register_only_the_reset_writes_is_held_and_new() -> None:
    ref = _module(True, y_reads_v=False)
    cand = _module(True, y_reads_v=True)
    assert held_by_output(cand, {"rst": 1}) == {"y": {"v[0]"}}
    assert held_by_output(ref, {"rst": 1}) == {"y": set()}
    assert new_held_registers(ref, cand, {"rst": 1}) == ["v[0]"]


def test_a_register_data_writes_is_not_held() -> None:
    cand = _module(False, y_reads_v=True)
    assert held_by_output(cand, {"rst": 1}) == {"y": set()}


def test_the_reference_s_own_held_register_in_the_same_cone_is_not_new() -> None:
    both = _module(True, y_reads_v=True)
    assert new_held_registers(both, both, {"rst": 1}) == []


def test_an_active_low_reset_and_no_reset() -> None:
    cand = _module(True, y_reads_v=True)
    # with rst active low, "inactive" is 1: the mux takes B (the reset value): not held
    assert held_by_output(cand, {"rst": 0}) == {"y": set()}
    assert new_held_registers(cand, cand, {}) == []
