"""Red team w30, end to end: the repository reaching into the target where the proof does not
look is unchecked, through ``evaluate`` (the screen stage: no proof runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

pytestmark = pytest.mark.tools

M = """module m(input clk, output [7:0] y);
  reg [7:0] c;
  always @(posedge clk) c <= c + 8'd1;
  assign y = c;
endmodule
"""
#: The candidate keeps ``c`` (dead) and counts in ``n``: equivalent at the ports.
CAND = M.replace(
    "  assign y = c;", "  reg [7:0] n;\n  always @(posedge clk) n <= n + 8'd1;\n  assign y = n;"
)
TOP = """module top(input clk, output [7:0] y);
  m u(.clk(clk), .y(y));
`ifndef SYNTHESIS
  initial u.c = 8'h5a;
`endif
endmodule
"""


def test_a_preload_through_a_hierarchical_name_leaves_the_change_unchecked(
    tmp_path: Path,
) -> None:
    res = _evaluate(tmp_path, {"m.v": M, "top.v": TOP}, "m.v", CAND)
    assert not res.accepted and res.reason.startswith("unchecked: top.v:4:"), res.reason
    assert "hierarchical name (u.c)" in res.reason
    # the reference's own text is no change: nothing to judge
    (tmp_path / "self").mkdir()
    same = _evaluate(tmp_path / "self", {"m.v": M, "top.v": TOP}, "m.v", M)
    assert "hierarchical name" not in same.reason, same.reason
