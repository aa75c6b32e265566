"""An ``initial`` block that only checks (reporting assertions, and scratch variables only
they read) states no power-up value: cv32e40p_alu_div's ```ifdef CV32E40P_ASSERT_ON initial
begin : p_assertions assert (...) else $error(...); end``, prim_lfsr's ```ifndef SYNTHESIS``
``p_perm_check``. A block that writes what the design reads, or ends the simulation, still
does, so a candidate dropping it stays unchecked; a candidate must keep the reference's check
anyway (:mod:`rtlopt.harness._kept_checks`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness._semantics import INITIAL_BLOCK, power_up_values
from tests.integration.test_redteam_w21 import _evaluate

# a parameter check under a project macro, as cv32e40p_alu_div has it
ALU = """module m(input clk, input rst, input [7:0] a, output reg [7:0] y);
  localparam W = 8;
  localparam LW = 4;
  always @(posedge clk or posedge rst) if (rst) y <= 8'd0; else y <= a + 8'd1;
`ifdef USER_ASSERT_ON
  initial begin : p_assertions
    assert (LW == $clog2(W + 1))
    else $error("LW must be $clog2(W+1)");
  end
`endif
endmodule
"""
ALU_REWRITE = ALU.replace("a + 8'd1;", "8'd1 + a;")
ALU_DROPPED = """module m(input clk, input rst, input [7:0] a, output reg [7:0] y);
  always @(posedge clk or posedge rst) if (rst) y <= 8'd0; else y <= 8'd1 + a;
endmodule
"""

# a submodule filling a scratch variable for its check in simulators only (prim_lfsr)
SUB = """module sub(input clk, input [3:0] d, output reg [3:0] q);
  always @(posedge clk) q <= d;
`ifndef SYNTHESIS
  logic [3:0] t;
  initial begin : p_perm_check
    t = '0;
    for (int k = 0; k < 4; k++) begin
      t[k] = 1'b1;
    end
    A_PERM: assert (&t) else begin $error("%0t: [%m] %0s", $time, "A_PERM"); end
  end
`endif
endmodule
"""
TOP = """module top(input clk, input [3:0] d, output [3:0] y);
  wire [3:0] q;
  sub u_sub(.clk(clk), .d(d), .q(q));
  assign y = q ^ 4'b0101;
endmodule
"""
TOP_REWRITE = TOP.replace("q ^ 4'b0101", "4'b0101 ^ q")


def _module(text: str) -> str:
    return (
        f"module m #(parameter W = 1)(input a, output y);\nreg r; integer c;\n{text}\nendmodule\n"
    )


def test_an_initial_block_of_reporting_assertions_states_nothing() -> None:
    # without the rule it was one value of (initial block): a lost power-up statement
    assert power_up_values(_module('initial begin assert (W == 1) else $error("x"); end')) == {
        "m": {}
    }
    scratch = "logic [3:0] t;\ninitial begin t = '0; for (int k = 0; k < 4; k++) t[k] = 1'b1;"
    assert power_up_values(_module(scratch + ' assert (&t) else $error("x"); end')) == {"m": {}}


@pytest.mark.parametrize(
    "block",
    [
        'initial begin assert (W == 1) else $fatal(1, "x"); end',  # ends the simulation
        "initial begin assert (W == 1) else r = 1'b1; end",  # the action writes
        'initial begin assert (c++ == 1) else $error("x"); end',  # the condition writes
        'assign y = r;\ninitial begin r = 1\'b1; assert (W == 1) else $error("x"); end',
        'initial begin assert (W == 1) else $error("x"); $finish; end',
        # a scratch variable the design reads
        "logic [3:0] t;\nassign y = t[0];\n"
        'initial begin t = 4\'d1; assert (&t) else $error("x"); end',
        # a scratch variable filled by a call, or after a delay
        'logic [3:0] t;\ninitial begin t = f(a); assert (&t) else $error("x"); end',
        'logic [3:0] t;\ninitial begin #1 t = 4\'d1; assert (&t) else $error("x"); end',
        # a scratch variable with its own initial value
        "logic [3:0] t = 4'd2;\ninitial begin t = 4'd1; assert (&t) else $error(\"x\"); end",
    ],
)
def test_a_block_that_does_more_still_states_a_value(block: str) -> None:
    values = power_up_values(_module(block))["m"]
    assert INITIAL_BLOCK in values, values


@pytest.mark.tools
@pytest.mark.parametrize("switched", [True, False])
def test_a_kept_parameter_check(tmp_path: Path, switched: bool) -> None:
    # cv32e40p_alu_div: proven in the configuration USER_ASSERT_ON defined too (was unchecked:
    # "(initial block) in m loses its power-up value"); so is a check every build reads
    ref = ALU if switched else ALU.replace("`ifdef USER_ASSERT_ON\n", "").replace("`endif\n", "")
    cand = ALU_REWRITE if switched else ref.replace("a + 8'd1;", "8'd1 + a;")
    res = _evaluate(tmp_path, {"m.sv": ref}, "m.sv", ALU_DROPPED)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason
    # the block kept: read by neither side in the configuration that defines its macro
    res = _evaluate(tmp_path, {"m.sv": ref}, "m.sv", cand)
    assert res.accepted, res.reason


@pytest.mark.tools
def test_a_dropped_check_that_ends_the_simulation_is_unchecked(tmp_path: Path) -> None:
    ref = ALU.replace('$error("LW', '$fatal(1, "LW').replace("`ifdef USER_ASSERT_ON\n", "")
    ref = ref.replace("`endif\n", "")
    res = _evaluate(tmp_path, {"m.sv": ref}, "m.sv", ALU_DROPPED)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason


@pytest.mark.tools
def test_a_broken_rewrite_of_the_checked_module_is_rejected(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.sv": ALU}, "m.sv", ALU_REWRITE.replace("8'd1 + a", "8'd2 + a"))
    assert not res.accepted and "not equivalent" in res.reason, res.reason


@pytest.mark.tools
def test_a_submodule_scratch_check_in_simulators_only(tmp_path: Path) -> None:
    # prim_lfsr in ibex_dummy_instr: was "the power-up value of (initial block) in sub differs
    # between the synthesis reading and a simulator's reading"
    res = _evaluate(tmp_path, {"top.sv": TOP, "sub.sv": SUB}, "top.sv", TOP_REWRITE)
    assert res.accepted, res.reason


@pytest.mark.tools
def test_a_simulator_only_value_the_design_reads_stays_unchecked(tmp_path: Path) -> None:
    sub = SUB.replace("`endif\nendmodule", "`endif\n  wire unused = t[0];\nendmodule")
    sub = sub.replace("logic [3:0] t;\n", "").replace("module sub(", "module sub(")
    sub = sub.replace(
        "  always @(posedge clk) q <= d;\n",
        "  logic [3:0] t;\n  always @(posedge clk) q <= d ^ t;\n",
    )
    res = _evaluate(tmp_path, {"top.sv": TOP, "sub.sv": sub}, "top.sv", TOP_REWRITE)
    assert not res.accepted and "initial block" in res.reason, res.reason


def test_a_scratch_variable_read_from_another_module_states_a_value() -> None:
    scratch = 'logic [3:0] t;\ninitial begin t = 4\'d1; assert (&t) else $error("x"); end'
    text = _module(scratch) + "module top(output y);\n  m u();\n  assign y = u.t[0];\nendmodule\n"
    assert INITIAL_BLOCK in power_up_values(text)["m"]
    # without its assertion (a reading whose assertion macros expand to nothing) it is dead
    dead = "logic [3:0] t;\ninitial begin t = '0; for (int k = 0; k < 4; k++) t[k] = 1'b1; end"
    assert power_up_values(_module(dead)) == {"m": {}}
    assert INITIAL_BLOCK in power_up_values(_module(dead + "\nassign y = t[1];"))["m"]
