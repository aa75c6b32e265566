"""Reset versus start (issue 31): an input is a reset only when no clocked block reads it as
data. A divider's start input (zipcpu's ``i_wr``) clears the quotient, which looks like a
reset, but it also loads the operands: taken for a reset, the stimulus would hold it released,
no division would ever start, and a broken divider would pass simulation."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FormalConfig, ProjectConfig, SandboxConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import Stage, Status

pytestmark = [pytest.mark.tools]

DIV = """module div (
  input            clk,
  input            i_reset,
  input            i_wr,
  input      [7:0] i_num,
  input      [7:0] i_den,
  output reg       o_busy,
  output reg [7:0] o_quot,
  output reg [7:0] o_rem
);
  reg [7:0] r_den;
  reg [7:0] r_num;
  reg [3:0] r_cnt;
  wire [8:0] trial = {o_rem, r_num[7]};
  always @(posedge clk)
    if (i_reset) o_busy <= 1'b0;
    else if (i_wr) o_busy <= 1'b1;
    else if (r_cnt == 4'd0) o_busy <= 1'b0;
  always @(posedge clk)
    if (i_wr) r_cnt <= 4'd8;
    else if (o_busy && r_cnt != 4'd0) r_cnt <= r_cnt - 4'd1;
  always @(posedge clk)
    if (i_wr) begin
      r_num <= i_num;
      r_den <= i_den;
    end else if (o_busy) r_num <= {r_num[6:0], 1'b0};
  always @(posedge clk)
    if (i_wr) begin
      o_quot <= 8'd0;
      o_rem <= 8'd0;
    end else if (o_busy && r_cnt != 4'd0) begin
      if (trial >= {1'b0, r_den}) begin
        o_rem <= trial - {1'b0, r_den};
        o_quot <= {o_quot[6:0], 1'b1};
      end else begin
        o_rem <= trial[7:0];
        o_quot <= {o_quot[6:0], 1'b0};
      end
    end
endmodule
"""
# a wrong quotient bit: visible only once a division runs
BROKEN = DIV.replace("o_quot <= {o_quot[6:0], 1'b1};", "o_quot <= {o_quot[6:0], 1'b0};")


def _design(root: Path, frontend: str = "pyslang"):  # type: ignore[no-untyped-def]
    (root / "rtl").mkdir(parents=True)
    (root / "rtl" / "div.v").write_text(DIV)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    project = dataclasses.replace(ProjectConfig(), frontend=frontend)
    return load_design(root / "rtl" / "div.v", "div", project)


@pytest.mark.parametrize("frontend", ["pyslang", "pyverilog"])
def test_a_start_input_beside_a_reset_is_not_a_reset(tmp_path: Path, frontend: str) -> None:
    design = _design(tmp_path / "repo", frontend)
    assert design.target.resets == ("i_reset",), design.target.resets
    assert design.target.clocks == ("clk",)


def test_a_broken_divider_is_refuted_by_simulation(tmp_path: Path) -> None:
    design = _design(tmp_path / "repo")
    cfg = dataclasses.replace(
        Config(),
        formal=FormalConfig(enabled=False),
        sandbox=SandboxConfig(timeout_s=30.0, memory_mb=1024),
        eval=EvalConfig(workers=1, cache=False),
    )
    with Evaluator(design, cfg, tmp_path / "s") as ev:
        same = ev.evaluate(DIV.replace("r_cnt - 4'd1", "r_cnt + 4'hf"))
        broken = ev.evaluate(BROKEN)
    assert same.status is Status.OK, same.reason
    assert broken.status is Status.INVALID and broken.stage is Stage.SIMULATION, broken.reason


def test_every_reset_state_is_driven_with_two_resets() -> None:
    """Each reset asserted alone and released alone (the others the other way), under
    random inputs: a design sees every combination of its resets."""
    from rtlopt.config import HarnessConfig
    from rtlopt.harness._stimulus import pack_fields, sequential

    fields = pack_fields([("rst", 1), ("start", 1), ("d", 4)], {"rst": 1, "start": 1})
    vectors = sequential(fields, HarnessConfig()).vectors
    states = {(v & 1, (v >> 1) & 1) for v in vectors}
    assert states == {(0, 0), (0, 1), (1, 0), (1, 1)}
