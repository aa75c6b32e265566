"""A candidate's array query (``$bits``, ``$size``...) in a statement the reference does not
have is refused at the screen: iverilog 11 reads ``$bits`` of a net or variable in a constant
expression as 0 while both proofs (Yosys, slang) read its width (red team 36, F2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.harness import screen_candidate

REF = """module s(input [23:0] a, input [23:0] b, output y);
  assign y = !((((a * 24'd12345) ^ 24'd1) == b) && (a[7:0] == 8'hc3));
endmodule
"""


@pytest.mark.parametrize(
    "decl",
    [
        "localparam [23:0] ONE = $bits(a) - 23;",
        "localparam [23:0] ONE = $size(a) - 23;",
        "localparam [23:0] ONE = $left(a) - 22;",
        "wire [$bits(a)-24:0] one = 1'b1;\n  localparam [23:0] ONE = 24'd1;",
    ],
)
def test_an_added_array_query_is_refused(tmp_path: Path, decl: str) -> None:
    (tmp_path / "s.v").write_text(REF)
    design = load_design(tmp_path / "s.v", "s", ProjectConfig())
    cand = REF.replace("  assign", f"  {decl}\n  assign").replace("24'd1)", "ONE)")
    found = screen_candidate(cand, design)
    assert any("in a statement the reference does not have" in f for f in found), found


def test_the_references_own_array_query_is_kept(tmp_path: Path) -> None:
    ref = REF.replace("  assign", "  localparam [23:0] ONE = $bits(a) - 23;\n  assign")
    (tmp_path / "s.v").write_text(ref)
    design = load_design(tmp_path / "s.v", "s", ProjectConfig())
    cand = ref.replace("a[7:0] == 8'hc3", "8'hc3 == a[7:0]")
    assert screen_candidate(cand, design) == []


SEL_REF = """module d(input [7:0] a, input c, output [7:0] y, output t);
  reg [7:0] q;
  always @(*) q = a ^ 8'h0f;
  assign y = {c, q[7:1]};
  assign t = a[7];
endmodule
"""


def _query_problems(tmp_path: Path, cand: str) -> list[str]:
    (tmp_path / "d.v").write_text(SEL_REF)
    design = load_design(tmp_path / "d.v", "d", ProjectConfig())
    found = screen_candidate(cand, design)
    return [f for f in found if "in a statement the reference does not have" in f]


@pytest.mark.parametrize(
    "edit",
    [
        ("q[7:1]", "q[$high(q):1]"),  # cv32e40p_alu_div's BReg_DP[$high(BReg_DP):1], renamed
        ("a[7]", "a[$high(a)]"),  # a port
        ("q[7:1]", "q[$size(q)-1:$low(q)+1]"),
        ("q[7:1]", "q[$bits(q)-1 -: 7]"),
    ],
)
def test_a_query_indexing_a_select_of_a_packed_vector_is_kept(
    tmp_path: Path, edit: tuple[str, str]
) -> None:
    """iverilog 11 reads an array query of a plain packed vector in a select's index as slang
    and Yosys do (measured for every query and packed shape in assignments, procedural and
    generate blocks): a statement holding one is no constant the simulator reads otherwise."""
    assert _query_problems(tmp_path, SEL_REF.replace(*edit)) == []


@pytest.mark.parametrize(
    "edit",
    [
        # an unpacked array: iverilog misreads $left, $right, $bits of one
        ("  reg [7:0] q;", "  reg [7:0] q;\n  reg [7:0] m [4];\n  wire u = a[$left(m)];"),
        # a scalar: iverilog reads its queries as x
        ("assign t = a[7];", "assign t = a[$high(c) + 7];"),
        # a parameter's value and a generate condition: constants
        (
            "  reg [7:0] q;",
            "  reg [7:0] q;\n  localparam [7:0] P = 8'hff;\n  wire u = P[$high(q)];"
            "\n  localparam L = P[$bits(q) - 1];",
        ),
        ("  assign t = a[7];", "  if (a[$high(q)] | 1'b1) begin : g assign t = a[7]; end"),
        # a variable's initializer, a function's body: not judged, refused
        ("  reg [7:0] q;", "  reg [7:0] q;\n  reg u = a[$high(a)];"),
        (
            "  assign t = a[7];",
            "  function f(input [7:0] x); f = x[$high(x)]; endfunction\n  assign t = f(a);",
        ),
    ],
)
def test_other_added_queries_are_still_refused(tmp_path: Path, edit: tuple[str, str]) -> None:
    assert _query_problems(tmp_path, SEL_REF.replace(*edit)), edit
