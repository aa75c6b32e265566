"""A qualifier the reference does not carry is judged by its claim (harness/_claims.py) where
the claims are read under every setting the guarantee covers; for a module with parameters
that nothing in the repository instantiates (its probes are the guarantee; claims are read at
the defaults only) the reference must carry it alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

pytestmark = pytest.mark.tools

M = """module m #(parameter W = 2) (input [W-1:0] s, input [7:0] a, b, output reg [7:0] y);
  always @* begin
    unique case (s)
      2'd0: y = a;
      2'd1: y = b;
      2'd2: y = a ^ b;
      2'd3: y = 8'h00;
    endcase
  end
endmodule
"""
#: the reference's qualified case on a renamed expression: full and parallel at W = 2 only (at
#: W = 3 the values 4..7 match no item)
CAND = M.replace("  always @* begin", "  wire [W-1:0] t = s;\n  always @* begin").replace(
    "unique case (s)", "unique case (t)"
)
TOP = "module top(input [1:0] s, input [7:0] a, b, output [7:0] y);\n  m u(.s(s), .a(a), .b(b), .y(y));\nendmodule\n"


def test_a_new_qualifier_of_a_module_nothing_instantiates_needs_the_references(
    tmp_path: Path,
) -> None:
    res = _evaluate(tmp_path, {"m.v": M}, "m.v", CAND)
    assert not res.accepted and "qualifies alike" in res.reason, res.reason


def test_a_new_qualifier_whose_claim_holds_in_every_configuration_is_kept(
    tmp_path: Path,
) -> None:
    res = _evaluate(tmp_path, {"m.v": M, "top.v": TOP}, "m.v", CAND)
    assert res.accepted, res.reason
