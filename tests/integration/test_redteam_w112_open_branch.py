"""Red-team round 112: a parent of the target holding, in a branch that a value the repository
leaves open may take, an x/z value or an input of the target left unconnected (a value no
nudge reaches, a string parameter, macros defined one way and not another): the target's
inputs are fed x for the proofs (``evaluate/_open_x.py``, ``branch_x``). Each candidate reads
``b = x`` otherwise than the reference and was accepted. Real git, the real CLI and tools."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = [pytest.mark.tools, pytest.mark.slow]

TGT = "module tgt (input a, input b, output reg y);\n  always @* if (b) y = a; else y = 1'b0;\nendmodule\n"
OTHER_X = "module tgt (input a, input b, output reg y);\n  always @* y = a & b;\nendmodule\n"
READ = "  always @* case (y) 1'b0: o = 2'd0; 1'b1: o = 2'd1; default: o = 2'd2; endcase\n"
TOPS = {
    "a-value-no-nudge-reaches": (
        "module top #(parameter P = 4) (input a, input s, output reg [1:0] o);\n  wire y;\n"
        "  generate if (P == 7) begin : g_open\n    tgt t (.a(a), .b(), .y(y));\n"
        "  end else begin : g_norm\n    tgt t (.a(a), .b(s), .y(y));\n  end endgenerate\n"
        + READ
        + "endmodule\n"
    ),
    "a-string-parameter": (
        'module top #(parameter STYLE = "FULL") (input a, input s, output reg [1:0] o);\n'
        '  wire y;\n  generate if (STYLE == "LITE") begin : g_open\n'
        "    tgt t (.a(a), .b(), .y(y));\n  end else begin : g_norm\n"
        "    tgt t (.a(a), .b(s), .y(y));\n  end endgenerate\n" + READ + "endmodule\n"
    ),
    "one-macro-defined-one-not": (
        "module top (input a, input s, output reg [1:0] o);\n  wire y;\n  wire bb;\n"
        "`ifdef USE_OPEN\n `ifndef SAFE_TIE\n  assign bb = 1'bz;\n `else\n  assign bb = s;\n"
        " `endif\n`else\n  assign bb = s;\n`endif\n  tgt t (.a(a), .b(bb), .y(y));\n"
        + READ
        + "endmodule\n"
    ),
}


@pytest.mark.parametrize("top", sorted(TOPS))
def test_x_in_a_branch_an_open_value_may_take_feeds_the_target_x(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top: str
) -> None:
    files = {"tgt.v": TGT, "top.v": TOPS[top]}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "tgt.v", OTHER_X, tmp_path / "cand")
    reason = str(out["candidate"]["reason"])
    assert rc == 1 and "feeds x into" in reason and "b" in reason, reason
