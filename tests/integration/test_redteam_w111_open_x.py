"""Red-team round 111: an input of the target the repository feeds x only under a value it
leaves open (a top's parameter, a macro a build may define) is fed x for the proofs too
(``evaluate/_open_x.py``). Each candidate reads ``b = x`` otherwise than the reference
(``y = a & {8{b}}`` for ``if (b) y = a; else y = 0;``) and was accepted; an x-faithful rewrite
still is. Real git, the real CLI, iverilog and Yosys."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = [pytest.mark.tools, pytest.mark.slow]

SUB = """module sub (input [7:0] a, input b, output reg [7:0] y);
  always @* if (b) y = a; else y = 8'd0;
endmodule
"""
OTHER_X = """module sub (input [7:0] a, input b, output reg [7:0] y);
  always @* y = a & {8{b}};
endmodule
"""
SAME_X = """module sub (input [7:0] a, input b, output reg [7:0] y);
  always @* begin
    y = 8'd0;
    if (b) y = a;
  end
endmodule
"""
TOPS = {
    # a top's parameter chooses the branch whose instance leaves b unconnected
    "top-parameter": """module top #(parameter P = 0) (input [7:0] a, input b, output [7:0] y);
  generate if (P == 0) begin : g
    sub u (.a(a), .b(b), .y(y));
  end else begin : g
    sub u (.a(a), .b(), .y(y));
  end endgenerate
endmodule
""",
    # a macro a build may define otherwise selects past the net's range
    "macro-select": """`ifndef BSEL
`define BSEL 0
`endif
module top (input [7:0] a, input b, output [7:0] y);
  wire [1:0] en = {b, b};
  sub u (.a(a), .b(en[`BSEL]), .y(y));
endmodule
""",
    # a directive no build's macro sets, inside the port list
    "ifdef-in-ports": """module top (input [7:0] a, input b, output [7:0] y);
  sub u (.a(a),
`ifdef OPEN_B
    .b(),
`else
    .b(b),
`endif
    .y(y));
endmodule
""",
}


def _evaluate(tmp: Path, mp: pytest.MonkeyPatch, top: str, cand: str) -> dict[str, object]:
    repo = committed_repo(tmp / "repo", {"sub.v": SUB, "top.v": top}, mp, tmp / "cache")
    out: dict[str, object] = evaluate_text(repo, "sub.v", cand, tmp / "cand")[1]["candidate"]
    return out


@pytest.mark.parametrize("top", sorted(TOPS))
def test_x_fed_only_under_an_open_value_is_fed_x(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top: str
) -> None:
    out = _evaluate(tmp_path, monkeypatch, TOPS[top], OTHER_X)
    assert out["status"] != "ok", out
    assert "feeds x into b" in str(out["reason"]), out["reason"]


def test_an_x_faithful_rewrite_is_still_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _evaluate(tmp_path, monkeypatch, TOPS["top-parameter"], SAME_X)
    assert out["status"] == "ok", out["reason"]
