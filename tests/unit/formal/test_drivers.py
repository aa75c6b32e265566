"""Drivers per net bit, counted by rtlopt in Yosys's design right after ``proc -noopt;
flatten`` (what the proof scripts write): a constant beside a signal, which Yosys's
``check`` reports as 0 problems, is counted; a net driven through a ``case`` is not undriven."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.formal.drivers import extra_drivers, module_drivers, parse_rtlil
from rtlopt.formal.vacuity import NOT_RUN, counted_drivers

pytestmark = pytest.mark.tools

REF = """module ref_m(input [3:0] a, input [3:0] b, input clk, output [3:0] y, output reg [3:0] q);
  assign y = a ^ b;
  always @(posedge clk) q <= a + b;
endmodule
"""

#: The body of the candidate ``m`` (the reference's ports), by case.
BODIES = {
    "copy": "  assign y = a ^ b;\n  always @(posedge clk) q <= a + b;\n",
    # a constant and a one-input-pair signal on one wire (issue 30's hole), comb and seq
    "const_beside_signal": (
        "  wire hit = (a == 4'd5) & (b == 4'd9);\n  wire t;\n  assign t = 1'b0;\n"
        "  assign t = hit;\n  assign y = t ? 4'd0 : a ^ b;\n"
        "  always @(posedge clk) q <= a + b;\n"
    ),
    "const_beside_signal_seq": (
        "  assign y = a ^ b;\n  wire hit = (a == 4'd5) & (b == 4'd9);\n  wire [3:0] t;\n"
        "  assign t = a + b;\n  assign t[2] = 1'b1;\n  assign t[2] = hit;\n"
        "  always @(posedge clk) q <= t;\n"
    ),
    # the constant reaches the net through an alias chain and a concatenation
    "const_through_alias": (
        "  wire u, v, w;\n  assign {u, v} = {1'b1, a[0]};\n  assign w = u;\n"
        "  assign w = a[1] & b[1];\n  assign y = (a ^ b) | {3'b0, w};\n"
        "  always @(posedge clk) q <= a + b;\n"
    ),
    "two_cells": (
        "  wire t;\n  assign t = a[0] & b[0];\n  assign t = a[1] | b[1];\n"
        "  assign y = (a ^ b) & {4{t}};\n  always @(posedge clk) q <= a + b;\n"
    ),
    "input_driven": (
        "  assign a[0] = 1'b0;\n  assign y = a ^ b;\n  always @(posedge clk) q <= a + b;\n"
    ),
    # a function called in one branch of a comb block: its variables are x elsewhere
    # (Yosys writes ``4'x`` for four x bits)
    "function_in_branch": (
        "  function [3:0] inc(input [3:0] v);\n    inc = v + 4'd1;\n  endfunction\n"
        "  reg [3:0] w;\n  always @* if (a[0]) w = inc(b); else w = b;\n"
        "  assign y = w;\n  always @(posedge clk) q <= a + b;\n"
    ),
    # read but never driven
    "undriven": "  wire [1:0] u;\n  assign y = a ^ b ^ {2'b0, u};\n  always @(posedge clk) q <= a + b;\n",
    # driven once, through a case: not undriven and not doubly driven
    "case_rewrite": (
        "  assign y = a ^ b;\n  reg [3:0] v;\n  always @* case (a[1:0])\n"
        "    2'd0: v = 4'd10; 2'd1: v = 4'd13; 2'd2: v = 4'd0; 2'd3: v = 4'd3;\n  endcase\n"
        "  always @(posedge clk) q <= v;\n"
    ),
    # Yosys reads z as x (a constant synthesis may turn into any value): a second driver
    "z_beside_signal": (
        "  wire t;\n  assign t = a[0] ? b[0] : 1'bz;\n  assign t = 1'bz;\n"
        "  assign y = (a ^ b) | {3'b0, t};\n  always @(posedge clk) q <= a + b;\n"
    ),
}

HEADER = "module m(input [3:0] a, input [3:0] b, input clk, output [3:0] y, output reg [3:0] q);\n"


def _rtlil(tmp_path: Path, body: str) -> str:
    (tmp_path / "d.v").write_text(REF + HEADER + body + "endmodule\n")
    script = "read_verilog d.v\nhierarchy\nproc -noopt\nflatten\nwrite_rtlil d.il\n"
    (tmp_path / "d.ys").write_text(script)
    subprocess.run(["yosys", "-q", "-s", "d.ys"], cwd=tmp_path, check=True, capture_output=True)
    return (tmp_path / "d.il").read_text()


@pytest.mark.parametrize(
    "case",
    [
        "const_beside_signal",
        "const_beside_signal_seq",
        "const_through_alias",
        "two_cells",
        "input_driven",
        "z_beside_signal",
    ],
)
def test_a_second_driver_is_counted(tmp_path: Path, case: str) -> None:
    why = counted_drivers(_rtlil(tmp_path, BODIES[case]), "ref_m", "m")
    assert "more drivers than the reference" in why, why


@pytest.mark.parametrize("case", ["copy", "case_rewrite", "function_in_branch"])
def test_one_driver_is_not_a_problem(tmp_path: Path, case: str) -> None:
    assert counted_drivers(_rtlil(tmp_path, BODIES[case]), "ref_m", "m") == ""


def test_the_net_is_named_and_the_reference_sets_the_allowance(tmp_path: Path) -> None:
    mods = parse_rtlil(_rtlil(tmp_path, BODIES["two_cells"]))
    gate = module_drivers(mods, "m")
    ref = module_drivers(mods, "ref_m")
    assert gate is not None and ref is not None
    assert "t[0] (2 drivers, the reference has none)" in extra_drivers(ref, gate)
    # the same net, as doubly driven in the reference: not more
    assert extra_drivers(gate, gate) == ""
    # a net read but never driven is named
    lone = counted_drivers(_rtlil(tmp_path, BODIES["undriven"]), "ref_m", "m")
    assert "2 used nets without a driver (the reference has 0): u[0], u[1]" in lone, lone
    # a dump without the module decides nothing: fail closed
    assert counted_drivers("", "ref_m", "m") == NOT_RUN


def test_a_clocked_case_turned_into_a_rom_is_driven(tmp_path: Path) -> None:
    """Yosys's ``check`` after ``memory`` reports the data wire of a clocked ``case`` that
    ``proc`` made a ROM as "used but has no driver" (an equivalent rewrite of ``10 + sel*3``
    was rejected for it); before the clean-up every bit has its driver."""
    case = "".join(f"      3'd{i}: q <= 4'd{(10 + 3 * i) % 16};\n" for i in range(8))
    body = f"  assign y = a ^ b;\n  always @(posedge clk) begin\n    case (a[2:0])\n{case}"
    body += "    endcase\n  end\n"
    assert counted_drivers(_rtlil(tmp_path, body), "ref_m", "m") == ""


def test_a_bit_select_on_the_left_drives_that_bit_only(tmp_path: Path) -> None:
    """``connect \\t [0] 1'0``: the select belongs to the left side. Split after the wire
    name, every bit of ``t`` would count the constant, and a reference that drives a wire bit
    by bit would allow a second driver on each bit of the candidate's."""
    body = (
        "  wire [1:0] t;\n  assign t[0] = 1'b0;\n  assign t[1] = a[0];\n"
        "  assign y = {2'b0, t};\n  always @(posedge clk) q <= a + b;\n"
    )
    text = _rtlil(tmp_path, body)
    assert "connect \\t [0] 1'0" in text, text
    gate = module_drivers(parse_rtlil(text), "m")
    assert gate is not None
    counts = gate.by_name()
    assert (counts[("\\t", 0)], counts[("\\t", 1)]) == (1, 1), counts
    assert counts[("\\a", 0)] == 1 and counts[("\\a", 1)] == 1, counts
