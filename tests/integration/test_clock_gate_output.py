"""A module that exports a gated clock (a core's sleep unit): the gate's latch drives the
gated clock output, not registers of the module. The formal check compares the output as
clock AND enable per cycle (the latch opened), so an equivalent enable is proven and a
different one refuted; before, both were unknown ("latch cells")."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design
from rtlopt.results import Verdict

pytestmark = pytest.mark.tools

CELL = """
module cg_cell (input clk_i, input en_i, input scan_i, output clk_o);
  reg en_l;
  always @(clk_i or en_i or scan_i) if (!clk_i) en_l <= en_i | scan_i;
  assign clk_o = clk_i & en_l;
endmodule
"""

SLEEP = """
module sleep (input clk, input rst_n, input wake, input busy, input scan, output gclk,
              output reg asleep);
  always @(posedge clk or negedge rst_n)
    if (!rst_n) asleep <= 1'b0;
    else asleep <= {next};
  cg_cell u_cg (.clk_i(clk), .en_i({enable}), .scan_i(scan), .clk_o(gclk));
endmodule
"""

REFERENCE = SLEEP.format(next="(asleep | ~busy) & ~wake", enable="~asleep | wake")
EQUIVALENT = SLEEP.format(next="~(wake | (~asleep & busy))", enable="~(asleep & ~wake)")
BROKEN = SLEEP.format(next="~(wake | (~asleep & busy))", enable="~asleep")


def _check(tmp_path: Path, text: str) -> Verdict:
    repo = tmp_path / "repo"
    repo.mkdir(exist_ok=True)
    (repo / "cg_cell.v").write_text(CELL)
    (repo / "sleep.v").write_text(REFERENCE)
    design = load_design(repo / "sleep.v", "sleep", ProjectConfig())
    work = tmp_path / f"work_{abs(hash(text)) % 10**8}"
    work.mkdir()
    cand = work / "sleep.v"
    cand.write_text(text)
    res = check_equivalence(
        design, [repo / "cg_cell.v", cand], work / "formal", FormalConfig(timeout_s=60)
    )
    assert "latch" not in res.reason, res
    return res.verdict


def test_an_exported_gated_clock_with_an_equivalent_enable_is_proven(tmp_path: Path) -> None:
    assert _check(tmp_path, EQUIVALENT) is Verdict.PROVEN


def test_an_exported_gated_clock_with_another_enable_is_refuted(tmp_path: Path) -> None:
    assert _check(tmp_path, BROKEN) is Verdict.REFUTED
