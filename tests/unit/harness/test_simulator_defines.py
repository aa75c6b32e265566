"""A simulator's reading defines neither ``SYNTHESIS`` nor ``YOSYS``, whatever the repository's
synthesis flow defines beside them (ibex's configuration holds both: its ``YOSYS`` branch picks
assertion macros only Yosys parses, so a reading with ``YOSYS`` but without ``SYNTHESIS``,
which no tool takes, made every change of ibex_compressed_decoder unchecked)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rtlopt.evaluate._sim_reading import readings
from rtlopt.harness._powered import _states, unit_texts
from tests.unit.harness.test_qualified_claims import _design

#: As ibex's prim_assert.sv chooses: none under SYNTHESIS, a header whose form only Yosys
#: parses (an implication in an immediate assertion) under YOSYS alone, else a concurrent one.
HEADER = "`define CHECK(p) always @(posedge clk) assert (p);\n"
MODULE = """\
`ifdef SYNTHESIS
`define CHECK(p)
`elsif YOSYS
`include "yosys_macros.svh"
`else
`define CHECK(p) assert property (@(posedge clk) p);
`endif
module m(input clk, input a, input b, output y);
  assign y = a & b;
  `CHECK(a |-> b)
endmodule
"""


def test_readings_drop_the_synthesis_tool_macros() -> None:
    found = dict(readings(frozenset({"SYNTHESIS", "YOSYS", "FOO"}), ["VERILATOR", "YOSYS"]))
    assert set(found.values()) == {frozenset({"FOO"}), frozenset({"FOO", "VERILATOR"})}


def test_a_flow_defining_yosys_reads_as_simulators_do(tmp_path: Path) -> None:
    d = _design(tmp_path, {"yosys_macros.svh": HEADER, "m.sv": MODULE})
    d = dataclasses.replace(d, sources=dataclasses.replace(d.sources, defines={"YOSYS": ""}))
    states = [frozenset(s) for s in _states(d)]
    assert frozenset({"SYNTHESIS", "YOSYS"}) in states and frozenset() in states
    assert all("YOSYS" not in s or "SYNTHESIS" in s for s in states)
    assert len(states) == len(set(states))
    assert any("assert property" in t for t in unit_texts(d))
