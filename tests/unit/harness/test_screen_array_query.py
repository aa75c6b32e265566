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
