"""The reference's own text claims what the reference claims: the qualifier rules leave it
alone (ibex_dummy_instr's ``unique case`` over named labels, with a submodule declaring its
own constants, left the self-evaluation unchecked). Real slang (pyslang), no tool run."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._qualifier_rules import qualifier_claims
from rtlopt.frontend import load_design

#: A target with a parameter no instance sets, a unique case over named labels, a submodule.
M = """module m #(parameter int W = 8) (input [1:0] s, input [W-1:0] a, b, output reg [W-1:0] y);
  localparam logic [1:0] A = 2'd0, B = 2'd1, C = 2'd2, D = 2'd3;
  wire [W-1:0] z;
  sub #(.W(W)) u(.a(a), .z(z));
  always @* begin
    unique case (s)
      A: y = a;
      B: y = b;
      C: y = z;
      D: y = ~a;
    endcase
  end
endmodule
"""
SUB = """module sub #(parameter int W = 8) (input [W-1:0] a, output [W-1:0] z);
  localparam int K = 3;
  assign z = a + K;
endmodule
"""


def test_the_reference_text_is_no_moved_qualifier(tmp_path: Path) -> None:
    (tmp_path / "m.sv").write_text(M)
    (tmp_path / "sub.sv").write_text(SUB)
    d = load_design(tmp_path / "m.sv", "m", ProjectConfig())
    assert qualifier_claims(M, d) == ""
    # a qualifier moved to another statement is still judged
    moved = M.replace("unique case (s)", "case (s)").replace(
        "always @* begin", "always @* begin\n    unique if (s[0]) y = a; else y = b;"
    )
    assert "qualifier" in qualifier_claims(moved, d)
