"""End to end: a check kept word for word keeps its context (class: a kept check whose meaning
changes because its context changed): what a function it calls reads is proven equal, and a
check moved under a generate condition that never elaborates is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

REF = """module acc(input clk, input rst, input [3:0] d, output reg [3:0] q);
  reg [3:0] peak;
  always @(posedge clk) if (rst) q <= 4'd0; else q <= q + d;
  always @(posedge clk) if (rst) peak <= 4'd0; else if (q > peak) peak <= q;
  function over(input dummy); over = (peak > 4'd12); endfunction
  // synopsys translate_off
  always @(posedge clk) if (!rst && over(1'b0)) $error("acc peak above 12");
  // synopsys translate_on
endmodule
"""


@pytest.mark.tools
def test_a_kept_check_keeps_what_its_function_reads_and_where_it_stands(tmp_path: Path) -> None:
    frozen = REF.replace("if (rst) peak <= 4'd0; else if (q > peak) peak <= q;", "peak <= 4'd0;")
    res = _evaluate(tmp_path / "a", {"acc.v": REF}, "acc.v", frozen)
    assert not res.accepted and "peak" in res.reason, res.reason
    dead = REF.replace(
        "  // synopsys translate_off", "  if (1'b0) begin : g_off\n  // synopsys translate_off"
    )
    dead = dead.replace("translate_on\n", "translate_on\n  end\n")
    res = _evaluate(tmp_path / "b", {"acc.v": REF}, "acc.v", dead)
    assert not res.accepted and "another context" in res.reason, res.reason
