"""End to end: the reference's translate_off ``$error`` (the repository's regression fails on
an ERROR in its log) must be kept by a candidate; kept with what it reads, the rewrite beside it
is judged as any (class: a reference's simulation-only check dropped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

REF = """module ctr(input clk, input rst, output [3:0] q);
  reg [3:0] cnt;
  always @(posedge clk) if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;
  assign q = cnt;
  // synopsys translate_off
  always @(posedge clk) if (!rst && cnt == 4'hf) $error("%m: counter wrapped");
  // synopsys translate_on
endmodule
"""


@pytest.mark.tools
def test_a_dropped_check_is_refused_and_a_kept_one_passes(tmp_path: Path) -> None:
    dropped = REF.split("  // synopsys translate_off")[0] + "endmodule\n"
    res = _evaluate(tmp_path / "a", {"ctr.v": REF}, "ctr.v", dropped)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason
    assert "ctr.v:6" in res.reason, res.reason
    kept = REF.replace("assign q = cnt;", "assign q = cnt | 4'd0;")
    res = _evaluate(tmp_path / "b", {"ctr.v": REF}, "ctr.v", kept)
    assert res.accepted, res.reason
