"""What a kept ``unique``/``unique0``/``priority`` qualifier claims, read from slang's
elaboration (``harness/_claims.py``): a claim true for every value of the expression is kept,
another one only where the reference makes the same claim (same expression type, same label
values, packages and parameterizations included). Real slang (pyslang), no tool run."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.harness import claim_problems

#: A full unique case over a 2-bit expression (red team w24 F3's reference).
FULL = """module m(input [1:0] s, input x, input [7:0] a, b, c, d, output reg [7:0] y);
  wire [1:0] t = s;
  always @* begin
    y = s[1] ? (s[0] ? d : c) : (s[0] ? b : a);
    unique case (t)
      2'd0: y = a;
      2'd1: y = b;
      2'd2: y = c;
      2'd3: y = d;
    endcase
  end
endmodule
"""


def _design(tmp: Path, files: dict[str, str], target: str = "m.sv") -> Design:
    for name, text in files.items():
        (tmp / name).write_text(text)
    return load_design(tmp / target, "m", ProjectConfig())


def _lines(code: str, design: Design) -> list[int]:
    return [line for line, _ in claim_problems(code, design)]


def test_a_widened_expression_makes_the_same_text_claim_more(tmp_path: Path) -> None:
    d = _design(tmp_path, {"m.sv": FULL})
    assert claim_problems(FULL, d) == []
    # same expression text and labels: the 3-bit t leaves 4..7 unmatched (Yosys: y = a)
    widened = FULL.replace("wire [1:0] t = s;", "wire [2:0] t = {x, s};")
    assert _lines(widened, d) == [5]
    why = claim_problems(widened, d)[0][1]
    assert "drop the qualifier" in why and "claim" in why


def test_a_package_constant_the_labels_name_changes_the_claim(tmp_path: Path) -> None:
    # the gate's judging tree (check/_packages.py): the base's package renamed beside the
    # change's; the reference reads the base's, the unchanged module text the change's
    pkgs = (
        "package k_pkg;\n  localparam logic [1:0] A = 2'd0, B = 2'd1, C = 2'd2, D = 2'd2;\n"
        "endpackage\npackage k_pkg__rtlopt_base;\n"
        "  localparam logic [1:0] A = 2'd0, B = 2'd1, C = 2'd2, D = 2'd3;\nendpackage\n"
    )
    body = """(input logic [1:0] s, input logic [7:0] a, b, c, output logic [7:0] y);
  always_comb begin
    y = 8'h00;
    unique case (s)
      A: y = a;
      B: y = b;
      C: y = c;
      D: y = 8'h00;
    endcase
  end
endmodule
"""
    ref = "module m import k_pkg__rtlopt_base::*; " + body
    d = _design(tmp_path, {"k_pkg.sv": pkgs, "m.sv": ref})
    assert claim_problems(ref, d) == []
    assert _lines("module m import k_pkg::*; " + body, d) == [4]  # C and D overlap, 3 unmatched


def test_a_claim_true_for_every_value_is_kept_without_the_reference(tmp_path: Path) -> None:
    plain = FULL.replace("unique case", "case")
    d = _design(tmp_path, {"m.sv": plain})
    assert claim_problems(FULL, d) == []  # full and disjoint: nothing left open
    with_default = FULL.replace("2'd3: y = d;", "default: y = d;")
    assert claim_problems(with_default, d) == []
    partial = FULL.replace("      2'd3: y = d;\n", "")
    assert _lines(partial, d) == [5]
    assert claim_problems(partial.replace("unique case", "unique0 case"), d) == []
    wild = FULL.replace("unique case (t)", "priority casez (t)").replace("2'd3:", "2'b1?:")
    assert claim_problems(wild, d) == []  # covered; priority claims no uniqueness
    assert _lines(wild.replace("priority casez", "unique casez"), d) == [5]  # 2'b1? overlaps
    overlap = FULL.replace("2'd3: y = d;", "2'd2: y = d;\n      default: ;")
    assert _lines(overlap, d) == [5]
    signed = (
        FULL.replace("wire [1:0] t = s;", "wire signed [1:0] t = s;")
        .replace("2'd0:", "2'sd0:")
        .replace("2'd1:", "2'sd1:")
        .replace("2'd2:", "-3'sd2:")
    )
    assert claim_problems(signed.replace("2'd3:", "-3'sd1:"), d) == []  # sign-extended
    assert _lines(signed.replace("2'd3:", "3'sd3:"), d) == [5]  # t = -1 (3'b111) unmatched
    assert _lines(signed.replace("2'd3:", "-3'sd1:").replace("2'sd1:", "2'd1:"), d) == [5]
    conditions = """module m(input [1:0] s, input [7:0] a, b, output reg [7:0] y);
  always @* begin
    priority if (s == 2'd0) y = a;
    else if (s[1]) y = b;
    else y = 8'h00;
  end
endmodule
"""
    assert claim_problems(conditions, d) == []  # a final else: some branch always runs
    assert _lines(conditions.replace("priority if", "unique if"), d) == [3]


def test_a_claim_that_leaves_a_value_open_is_never_taken_from_the_reference(
    tmp_path: Path,
) -> None:
    # the reference's partial case reads an input only; the same claim, kept, would let
    # synthesis give any y at s = 3 wherever the candidate's statement runs (more often than
    # the reference's, or seen at an output the reference only registers): refused, even
    # for a text that only rewords an item
    partial = FULL.replace("      2'd3: y = d;\n", "").replace("unique case (t)", "unique case (s)")
    d = _design(tmp_path, {"m.sv": partial})
    assert claim_problems(partial, d) == []  # the reference's own text: the same design
    assert _lines(partial.replace("2'd2: y = c;", "2'd2: y = c ^ 8'h00;"), d) == [5]
    assert _lines(partial.replace("2'd2: y = c;", "2'd3: y = c;"), d) == [5]  # another label
    # a statement the elaboration does not reach (an unknown label) is refused
    assert _lines(partial.replace("2'd0: y = a;", "NOPE: y = a;"), d) == [5]
    # dropping the qualifier is always allowed: the plain statement is what was proven
    assert (
        claim_problems(
            partial.replace("unique case", "case").replace("2'd2: y = c;", "2'd2: y = c ^ 8'h00;"),
            d,
        )
        == []
    )
    # on an internal net too: the reference's t never is 3, the candidate's is
    own = FULL.replace("      2'd3: y = d;\n", "").replace("= s;", "= (s == 2'd3) ? 2'd0 : s;")
    (tmp_path / "own").mkdir()
    d2 = _design(tmp_path / "own", {"m.sv": own})
    assert claim_problems(own, d2) == []
    assert _lines(own.replace("(s == 2'd3) ? 2'd0 : s", "s"), d2) == [5]


def test_every_parameterization_of_the_repository_is_read(tmp_path: Path) -> None:
    ref = FULL.replace("module m(", "module m #(parameter W = 2) (")
    top = """module top(input [1:0] s, input x, input [7:0] a, b, c, d, output [7:0] y);
  m #(.W(3)) u (.s(s), .x(x), .a(a), .b(b), .c(c), .d(d), .y(y));
endmodule
"""
    d = _design(tmp_path, {"m.sv": ref, "top.sv": top})
    assert claim_problems(ref, d) == []
    # full under the defaults, partial where the parent sets W = 3
    cand = ref.replace("wire [1:0] t = s;", "wire [W-1:0] t = {x, s};")
    assert _lines(cand, d) == [5]
    # a qualified statement no parameterization elaborates runs nowhere: not read
    dead = ref.replace(
        "  always @* begin\n",
        "  if (W == 7) begin : g\n    always @* unique case (s) 2'd0: y = a; endcase\n  end\n"
        "  always @* begin\n",
        1,
    )
    assert claim_problems(dead, d) == []


PARTIAL = (
    "module {name}(input [1:0] s, input [7:0] a, output reg [7:0] y);\n"
    "  always @* begin y = 8'd0; unique case (s) 2'd0: y = a; 2'd1: y = ~a; endcase end\n"
    "endmodule\n"
)


def test_a_partial_claim_only_in_a_module_nothing_instantiates_is_not_reached(
    tmp_path: Path,
) -> None:
    # slang elaborates every definition to report its errors (cv32e40p's RVFI tracer, a class
    # in a module no top instantiates): its statements are no part of the target's design
    ref = "module m(input [1:0] s, input [7:0] a, output [7:0] y);\n  assign y = a;\nendmodule\n"
    d = _design(tmp_path, {"m.sv": ref, "other.sv": PARTIAL.format(name="other")})
    assert claim_problems(ref.replace("= a;", "= a ^ 8'd0;"), d) == []
    # the same module instantiated by the target is reached
    used = ref.replace("assign y = a;", "other u(.s(s), .a(a), .y(y));")
    (tmp_path / "used").mkdir()
    d = _design(tmp_path / "used", {"m.sv": used, "other.sv": PARTIAL.format(name="other")})
    found = claim_problems(used.replace("u(", "u0("), d)
    assert found and "the design reaches" in found[0][1]
