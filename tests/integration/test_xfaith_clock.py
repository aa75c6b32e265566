"""A clock the repository feeds x (a vendor clock buffer's or a PLL's output: x until it
runs) is no reason to leave a change unchecked where it is only the clock of every register,
on one edge, on both sides (``formal/xfaith_clock.py``); read otherwise it still is, and a
wrong change is still refuted. Real git, the real CLI, iverilog and Yosys."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = pytest.mark.tools

M = """module m(input clk, input rst, input en, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;
endmodule
"""
#: The clock through a vendor buffer the repository does not define (USTC-RVSoC's BUFG).
TOP = """module top(input clk_in, input rst, input en, output [3:0] q);
  wire clk;
  BUFG bufg_clk (.O(clk), .I(clk_in));
  m u(.clk(clk), .rst(rst), .en(en), .q(q));
endmodule
"""
EQUAL = """module m(input clk, input rst, input en, output reg [3:0] q);
  wire [3:0] nxt = en ? q + 4'd1 : q;
  always @(posedge clk) q <= rst ? 4'd0 : nxt;
endmodule
"""
#: Equal on a 0/1 clock; at an edge into x (0 -> x) ``clk == clk`` is x and q holds.
AS_DATA = """module m(input clk, input rst, input en, output reg [3:0] q);
  wire go = en & (clk == clk);
  always @(posedge clk) if (rst) q <= 4'd0; else if (go) q <= q + 4'd1;
endmodule
"""
#: The other edge: a different design (and x edges fall elsewhere).
NEGEDGE = M.replace("posedge", "negedge")


def _evaluate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: str) -> dict[str, object]:
    files = {"rtlopt.toml": "[check]\nppa = false\n", "m.v": M, "top.v": TOP}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out: dict[str, object] = evaluate_text(repo, "m.v", cand, tmp_path / "cand")[1]["candidate"]
    return out


def test_a_clock_fed_x_that_is_only_a_clock_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _evaluate(tmp_path, monkeypatch, EQUAL)
    formal = out["formal"]
    assert out["status"] == "ok" and isinstance(formal, dict), out["reason"]
    assert formal["x_inputs"] == ["clk"], formal
    assert "also where the repository feeds x into clk" in str(formal["reason"]), formal


@pytest.mark.parametrize("cand", [AS_DATA, NEGEDGE], ids=["read-as-data", "other-edge"])
def test_a_clock_fed_x_read_otherwise_is_not_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: str
) -> None:
    out = _evaluate(tmp_path, monkeypatch, cand)
    assert out["status"] != "ok", out
