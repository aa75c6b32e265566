"""The gate's search from a shared power-up state finds the shortest failing input: on a
register file without reset (steel-core's integer_file) whose change drops a write of one rare
value, the write and the read that shows it (two cycles), not a trace over every cycle of the
search; one SAT call per cycle, each small, where one call over all of them ran past its limit
on the held-out repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.formal.powerup_search import search_shared_powerup
from rtlopt.frontend import load_design

pytestmark = pytest.mark.tools

RF = """module rf(input clk, input [2:0] ra, input [2:0] wa, input we, input [15:0] wd,
          output [15:0] rd);
  reg [15:0] q [0:7];
  always @(posedge clk)
    if (we) q[wa] <= wd;
  assign rd = (we && wa == ra) ? wd : q[ra];
endmodule
"""


def test_the_failing_input_is_the_shortest(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()
    (repo / "rf.v").write_text(RF)
    design = load_design(repo / "rf.v", "rf", ProjectConfig())
    broken = RF.replace("if (we) q[wa] <= wd;", "if (we && wd != 16'hbeef) q[wa] <= wd;")
    found = search_shared_powerup(design, broken, tmp_path / "search", steps=8)
    cycles = [ln for ln in found.lines if ln.startswith("cycle")]
    assert cycles and "wd=0xbeef" in cycles[0], found.lines
    assert cycles[-1].startswith("cycle 1: outputs differ: rd: reference 0xbeef"), found.lines
    assert not any(ln.startswith("cycle 2") for ln in cycles), found.lines


REGS = """module regs(input clk, input rst, input we, input [1:0] addr, input [7:0] wd,
            output reg [7:0] rd);
  reg [7:0] r0, r1;
  always @(posedge clk)
    if (rst) begin
      r0 <= 8'd0;
      r1 <= 8'd0;
    end else if (we) begin
      if (addr == 2'd0) r0 <= wd;
      if (addr == 2'd1) r1 <= wd;
    end
  always @* case (addr) 2'd0: rd = r0; 2'd1: rd = r1; default: rd = 8'd0; endcase
endmodule
"""


def test_a_design_with_a_reset_is_searched_from_reset_first(tmp_path: Path) -> None:
    """A write to an address the change decodes wrongly (chacha's IV range one too long),
    read back: from the power-up state alone another state of the reference follows the
    change; from reset none does, a refutation."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()
    (repo / "regs.v").write_text(REGS)
    design = load_design(repo / "regs.v", "regs", ProjectConfig())
    broken = REGS.replace("if (addr == 2'd0) r0", "if (addr == 2'd0 || addr == 2'd2) r0")
    found = search_shared_powerup(design, broken, tmp_path / "search", steps=8)
    assert found.refuted and found.lines[0].startswith("failing input (a refutation)"), found
    assert found.lines[1].startswith("cycle 0:") and "rst=1" in found.lines[1], found.lines
