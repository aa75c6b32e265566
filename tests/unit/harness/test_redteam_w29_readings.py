"""Red team w29: power-up values a simulator reads that no reading of rtlopt's saw (real slang,
no tool run; the end-to-end verdicts are in tests/integration/test_redteam_w29.py).

- F1: a header an ```ifndef SYNTHESIS`` branch includes (in a subfolder) states a value: every
  design's defines hold ``SYNTHESIS``, so the "without SYNTHESIS" reading never ran.
- F2: a declaration over two lines, a struct's braces, a declaration after a generate block's
  label, an ``always`` that runs at time 0: the skipped-branch pattern read one line.
- F3: nested conditionals: one reading skips the outer branch, another the inner one, and the
  intersection of skipped branches (keyed by the directive's line) was empty.
- F6: ``initial $display(c++);`` passed as a report that writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness._dormant import POWER_UP_TEXT, never_taken, skipped
from rtlopt.harness._powered import unit_power_up
from rtlopt.harness._semantics import REPORT_ONLY, UNTIMED_ALWAYS, power_up_values
from tests.unit.harness.test_qualified_claims import _design

COUNTER = "  always @(posedge clk) c <= c + 8'd1;\n  assign y = c;\nendmodule\n"


def _module(body: str) -> str:
    return f"module m(input clk, output [7:0] y);\n  reg [7:0] c;\n{body}{COUNTER}"


def test_a_header_a_simulator_branch_includes_is_read(tmp_path: Path) -> None:
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "pu.vh").write_text("initial c = 8'h5a;\n")
    ref = _module('`ifndef SYNTHESIS\n`include "sim/pu.vh"\n`endif\n')
    d = _design(tmp_path, {"m.sv": ref})
    # the synthesis reading (the proof's) states none, a simulator's states 8'h5a: closed
    with pytest.raises(RuntimeError, match=r"c in m differs .*SYNTHESIS undefined"):
        unit_power_up(d)


def test_a_value_every_reading_states_is_read(tmp_path: Path) -> None:
    d = _design(tmp_path, {"m.sv": _module("  initial c = 8'h5a;\n")})
    assert unit_power_up(d)["m"] == {"c": ("\0".join(["8", "'h", "5a"]),)}


@pytest.mark.parametrize(
    "body",
    [
        "  reg [7:0] c2\n    = 8'h5a;\n",  # over two lines
        "  reg [7:0]\n  c2 = 8'h5a;\n",
        "  struct packed {logic [7:0] a;} s = 8'h5a;\n",
        "  if (1) begin : g reg [7:0] c2 = 8'h5a; end\n",  # after a block's label
        "  always begin : pu c = 8'h5a; @(negedge clk); end\n",  # runs at time 0
        "  initial $display(c++);\n",  # a report that writes
    ],
)
def test_a_branch_no_reading_takes_is_judged_over_its_lines(tmp_path: Path, body: str) -> None:
    ref = _module(f"`ifdef OTHER_BUILD\n{body}`endif\n")
    d = _design(tmp_path, {"m.sv": ref})
    with pytest.raises(RuntimeError, match="branch these readings do not take"):
        unit_power_up(d)


def test_a_branch_of_assignments_alone_stays_open(tmp_path: Path) -> None:
    """What states no power-up value in a branch no reading takes: assignments, processes."""
    body = "  always @(posedge clk) begin\n    c <= 8'd1;\n  end\n  assign q = c;\n"
    ref = _module(f"`ifdef OTHER_BUILD\n{body}`endif\n")
    assert unit_power_up(_design(tmp_path, {"m.sv": ref}))["m"] == {}


def test_nested_branches_are_intersected_by_line(tmp_path: Path) -> None:
    """A branch a reading skips at its outer directive and another at the inner one: the line
    is skipped by both. iverilog (``__ICARUS__``, no ``SYNTHESIS``) takes both branches: the
    value is read there and differs from the synthesis reading (closed)."""
    nested = "`ifdef __ICARUS__\n`ifndef SYNTHESIS\n  initial c = 8'h5a;\n`endif\n`endif\n"
    d = _design(tmp_path, {"m.sv": _module(nested)})
    with pytest.raises(RuntimeError, match=r"c in m differs .*__ICARUS__ defined"):
        unit_power_up(d)
    # the same nesting under build macros no reading defines: skipped by every reading
    (tmp_path / "b").mkdir()
    other = nested.replace("__ICARUS__", "BUILD_A").replace("SYNTHESIS", "BUILD_B")
    with pytest.raises(RuntimeError, match="branch these readings do not take"):
        unit_power_up(_design(tmp_path / "b", {"m.sv": _module(other)}))


def test_never_taken_keeps_a_line_one_reading_takes(tmp_path: Path) -> None:
    from pyslang import syntax

    from rtlopt.frontend._slang import preprocessor

    text = _module("`ifdef A\n  initial c = 8'h5a;\n`endif\n")
    (tmp_path / "m.sv").write_text(text)
    readings = []
    for defines in ({}, {"A": ""}):
        sm, popts = preprocessor([tmp_path], defines)
        import pyslang

        tree = syntax.SyntaxTree.fromFiles([str(tmp_path / "m.sv")], sm, pyslang.Bag([popts]))
        readings.append(skipped(tree, sm))
    assert never_taken(readings[:1], POWER_UP_TEXT)  # the reading without A skips it
    assert not never_taken(readings, POWER_UP_TEXT)  # the reading with A takes it


def test_report_tasks_that_write_are_no_reports() -> None:
    assert REPORT_ONLY.fullmatch('initial $display("x");')
    for writes in ("initial $display(c++);", "initial $display(--c);", "initial $display(c + +1);"):
        assert not REPORT_ONLY.fullmatch(writes), writes
        assert POWER_UP_TEXT.search(writes), writes


def test_an_always_that_starts_untimed_states_a_power_up_value() -> None:
    at_zero = power_up_values(_module("  always begin c = 8'h5a; @(negedge clk); end\n"))
    assert UNTIMED_ALWAYS in at_zero["m"]
    # a delay or a wait may pass before the first clock edge (red team w30 F1)
    for early in ("  always #0 begin c = 8'h5a; wait (1'b0); end\n", "  always wait (1) c = 1;\n"):
        assert UNTIMED_ALWAYS in power_up_values(_module(early))["m"], early
    for timed in (
        "  always @(posedge clk) c = 8'h5a;\n",
        "  always @* c = 8'h5a;\n",
        "  always begin @(negedge clk); c = 8'h5a; end\n",
    ):
        assert UNTIMED_ALWAYS not in power_up_values(_module(timed))["m"], timed


def test_a_skipped_branch_in_another_module_of_the_file_is_not_the_targets(
    tmp_path: Path,
) -> None:
    # picorv32.v: the core's `ifdef` initializers beside the adapter modules of the same file
    other = (
        "module core(input clk);\n`ifdef OTHER_BUILD\n  reg [7:0] r = 8'h5a;\n`endif\nendmodule\n"
    )
    d = _design(tmp_path, {"m.sv": _module("") + other})
    assert unit_power_up(d) is not None
    # the same branch inside the target is judged
    (tmp_path / "own").mkdir()
    own = _design(
        tmp_path / "own", {"m.sv": _module("`ifdef OTHER_BUILD\n  reg [7:0] r = 8'h5a;\n`endif\n")}
    )
    with pytest.raises(RuntimeError, match="branch these readings do not take"):
        unit_power_up(own)


def test_a_macro_a_skipped_branch_of_another_module_defines_stays_judged(
    tmp_path: Path,
) -> None:
    # a `define is the unit's from where it stands: another module's branch can set the
    # target's power-up value through it
    other = "module core(input clk);\n`ifdef OTHER_BUILD\n`define PU = 8'h5a\n`endif\nendmodule\n"
    d = _design(tmp_path, {"m.sv": other + _module("")})
    with pytest.raises(RuntimeError, match="branch these readings do not take"):
        unit_power_up(d)


@pytest.mark.parametrize(
    ("body", "states"),
    [
        # cv32e40p_alu_div's parameter check under CV32E40P_ASSERT_ON: no power-up value
        ('  initial begin : p_chk\n    assert (8 > 1) else $error("w");\n  end\n', False),
        ("  initial begin assert (1) else $error(); c = 8'h5a; end\n", True),
        ("  initial assert (1) else c = 8'h5a;\n", True),
    ],
)
def test_a_skipped_initial_block_of_assertions_states_nothing(
    tmp_path: Path, body: str, states: bool
) -> None:
    d = _design(tmp_path, {"m.sv": _module(f"`ifdef USER_ASSERT_ON\n{body}`endif\n")})
    if states:
        with pytest.raises(RuntimeError, match="branch these readings do not take"):
            unit_power_up(d)
    else:
        assert unit_power_up(d) is not None
