"""A switched-off ```ifdef M`` block of assertions that only report may be kept beside a rewrite
(cv32e40p's ```ifdef CV32E40P_ASSERT_ON`` blocks): no build's values depend on it. Dropped,
the build defining ``M`` no longer checks: the candidate must keep the reference's check
(:mod:`rtlopt.harness._kept_checks`). A block with another branch, or whose assertion writes,
stays as the repository has it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._reporting_blocks import without_reporting_blocks, without_reporting_lines
from tests.integration.test_redteam_w21 import _evaluate

M = """module m(input clk, input [7:0] a, output reg [7:0] y);
  always @(posedge clk) y <= a + 8'd1;
`ifdef USER_ASSERT_ON
  // y follows a
  assert property (@(posedge clk) y == $past(a) + 8'd1);
`endif
endmodule
"""
KEPT = M.replace("a + 8'd1;", "8'd1 + a;")
DROPPED = M.replace(
    "`ifdef USER_ASSERT_ON\n  // y follows a\n  assert property (@(posedge clk) y == $past(a) + 8'd1);\n`endif\n",
    "",
).replace("a + 8'd1;", "8'd1 + a;")


def test_the_lines_without_reporting_blocks() -> None:
    lines = ["`ifdef A", "assert property (@(posedge clk) x);", "`endif", "wire w;"]
    assert without_reporting_lines(lines) == ["wire w;"]
    writes = ["`ifdef A", "assert property (@(posedge clk) x) else y = 1'b0;", "`endif"]
    assert without_reporting_lines(writes) == writes
    other = ["`ifdef A", "assert property (@(posedge clk) x);", "`else", "assign y = a;", "`endif"]
    assert without_reporting_lines(other) == other
    code = "`ifdef A\n  assert property (@(posedge c) x);\n`endif\nwire w;\n"
    assert without_reporting_blocks(code, set()).split("\n")[3] == "wire w;"
    assert "assert" not in without_reporting_blocks(code, set())
    assert "assert" in without_reporting_blocks(code, {"A"})  # read in this build


@pytest.mark.tools
@pytest.mark.parametrize("suffix", ["v", "sv"])
def test_a_dropped_block_of_reporting_assertions_is_refused(tmp_path: Path, suffix: str) -> None:
    res = _evaluate(tmp_path, {f"m.{suffix}": M}, f"m.{suffix}", DROPPED)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason


@pytest.mark.tools
def test_a_kept_block_of_reporting_assertions_is_no_change(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.sv": M}, "m.sv", KEPT)
    assert res.accepted, res.reason


@pytest.mark.tools
def test_a_dropped_block_with_another_branch_is_a_change(tmp_path: Path) -> None:
    ref = M.replace("`endif", "`else\n  wire unused = a[0];\n`endif")
    res = _evaluate(tmp_path, {"m.sv": ref}, "m.sv", DROPPED)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason


def test_what_is_no_block_of_reporting_assertions() -> None:
    # red team w35: logic with no assertion, a bare $random (it advances the simulator's
    # shared random state) and an assertion ending the simulation are no reporting block
    for body in [
        "assign y = 8'd0;",
        'assert property (@(posedge clk) x) else $display("%0d", $random);',
        "assert property (@(posedge clk) x) else $fatal(1);",
    ]:
        lines = ["`ifdef A", body, "`endif"]
        assert without_reporting_lines(lines) == lines, body


# cv32e40p_sleep_unit: properties, a generate choice among assertions, and a name above the
# module (only its parent elaborates it) in the switched-off block
SLEEP = """module m #(parameter CLUSTER = 0)(input clk, input rst_n, input [7:0] a, output reg [7:0] y);
  always @(posedge clk or negedge rst_n) if (!rst_n) y <= 8'd0; else y <= a + 8'd1;
`ifdef USER_ASSERT_ON
  property p_follows;
    @(posedge clk) disable iff (!rst_n) (parent_i.state == 2'd1) |-> (y == $past(a) + 8'd1);
  endproperty
  a_follows : assert property (p_follows);
  generate
    if (CLUSTER) begin : g_cluster
      a_c : assert property (@(posedge clk) y != 8'd3);
    end else begin : g_no_cluster
      a_n : assert property (@(posedge clk) y != 8'd4);
    end
  endgenerate
`endif
endmodule
"""
SLEEP_KEPT = SLEEP.replace("a + 8'd1;", "8'd1 + a;", 1)
SLEEP_DROPPED = """module m #(parameter CLUSTER = 0)(input clk, input rst_n, input [7:0] a, output reg [7:0] y);
  always @(posedge clk or negedge rst_n) if (!rst_n) y <= 8'd0; else y <= 8'd1 + a;
endmodule
"""


def test_properties_and_generate_choices_are_reporting_blocks() -> None:
    lines = SLEEP.split("\n")
    start = lines.index("`ifdef USER_ASSERT_ON")
    block = lines[start : lines.index("`endif") + 1]
    assert without_reporting_lines(block) == []  # was kept: a property, a generate block
    # a generate branch that holds logic, a sequence that assigns: no reporting block
    logic = [*block[:-2], "      assign y2 = a;", *block[-2:]]
    assert without_reporting_lines(logic) == logic
    local = ["`ifdef A", "property p; @(posedge c) (a, v = b) |-> x; endproperty", "`endif"]
    assert without_reporting_lines(local) == local


@pytest.mark.tools
def test_a_dropped_block_read_in_its_configuration(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.sv": SLEEP}, "m.sv", SLEEP_DROPPED)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason


@pytest.mark.tools
def test_a_kept_block_read_in_its_configuration(tmp_path: Path) -> None:
    # was unchecked: "the repository's module does not pass against itself in the
    # configuration USER_ASSERT_ON defined (... undeclared identifier 'parent_i')"
    res = _evaluate(tmp_path, {"m.sv": SLEEP}, "m.sv", SLEEP_KEPT)
    assert res.accepted, res.reason


@pytest.mark.tools
def test_a_broken_rewrite_beside_a_reporting_block_is_rejected(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.sv": SLEEP}, "m.sv", SLEEP_KEPT.replace("8'd1 + a", "8'd2 + a"))
    assert not res.accepted and "not equivalent" in res.reason, res.reason


@pytest.mark.tools
def test_a_dropped_block_with_logic_in_a_generate_branch_is_a_change(tmp_path: Path) -> None:
    ref = SLEEP.replace(
        "a_n : assert property (@(posedge clk) y != 8'd4);",
        "a_n : assert property (@(posedge clk) y != 8'd4);\n      wire w = a[0];",
    )
    res = _evaluate(tmp_path, {"m.sv": ref}, "m.sv", SLEEP_DROPPED)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason
