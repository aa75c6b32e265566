"""Red team w27: what another build or a reached repository statement holds (real slang, no
tool run).

- F1: a power-up value in a branch no reading takes, in a form the first pattern missed (a
  macro assembled from another, an attribute before the declaration): tool macros are now
  readings of their own, and the pattern of what a skipped branch may state is wider
  (``test_redteam_w26.py::test_what_a_skipped_branch_may_state``).
- F2: a ``unique case`` in a repository module the candidate newly instantiates, or in a
  package function it calls, was never judged: a reached statement whose claim is not shown
  to hold leaves the candidate unchecked.
- F3: an assertion whose action writes, under a macro no reading defines: the reference's
  reading fails closed (a tool's own macro is read).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness import claim_problems
from rtlopt.harness._powered import unit_texts
from tests.unit.harness.test_qualified_claims import _design

SEL = """module sel(input [1:0] s, input [7:0] a, b, output reg [7:0] y);
  always @* begin
    y = 8'h33;
    unique case (s) 2'd0: y = a; 2'd1: y = b; endcase
  end
endmodule
"""
REF = """module m(input [1:0] s, input [7:0] a, b, output [7:0] y);
  assign y = s[1] ? 8'h33 : (s[0] ? b : a);
endmodule
"""
TOP = """module top(input x, input [7:0] a, b, output [7:0] y, z);
  sel u (.s({1'b0, x}), .a(a), .b(b), .y(y));
  m t (.s({1'b0, x}), .a(a), .b(b), .y(z));
endmodule
"""


def test_a_repository_statement_the_candidate_reaches_is_judged(tmp_path: Path) -> None:
    d = _design(tmp_path, {"m.sv": REF, "sel.sv": SEL, "top.sv": TOP})
    assert claim_problems(REF, d) == []  # the reference's own text
    cand = REF.replace(
        "  assign y = s[1] ? 8'h33 : (s[0] ? b : a);\n", "  sel u (.s(s), .a(a), .b(b), .y(y));\n"
    )
    found = claim_problems(cand, d)
    assert [line for line, _ in found] == [1], found
    assert "sel.sv:4" in found[0][1] and "cannot drop its qualifier" in found[0][1]


def test_a_package_function_the_candidate_calls_is_judged(tmp_path: Path) -> None:
    pkg = """package p_pkg;
  function automatic logic [7:0] pick(input logic [1:0] s, input logic [7:0] a, b);
    pick = 8'h33;
    unique case (s) 2'd0: pick = a; 2'd1: pick = b; endcase
  endfunction
endpackage
"""
    d = _design(tmp_path, {"p_pkg.sv": pkg, "m.sv": REF, "top.sv": TOP.replace("  sel u", "//")})
    cand = REF.replace("s[1] ? 8'h33 : (s[0] ? b : a)", "p_pkg::pick(s, a, b)")
    assert [line for line, _ in claim_problems(cand, d)] == [1]
    # a design whose elaboration reaches no open claim: a plain candidate reads nothing
    (tmp_path / "plain").mkdir()
    d2 = _design(tmp_path / "plain", {"m.sv": REF})
    assert claim_problems(REF.replace("8'h33", "8'h34"), d2) == []


@pytest.mark.parametrize(("macro", "read"), [("USER_BUILD", False), ("YOSYS", True)])
def test_a_writing_assertion_behind_another_builds_macro(
    tmp_path: Path, macro: str, read: bool
) -> None:
    ref = (
        f"`ifdef {macro}\n`define CHK assert (a != 8'h5a) else y = 8'h00;\n`else\n"
        "`define CHK\n`endif\n"
        "module m(input [7:0] a, output logic [7:0] y);\n"
        "  always_comb begin y = a; `CHK end\nendmodule\n"
    )
    d = _design(tmp_path, {"m.sv": ref})
    if read:
        assert any("y = 8'h00" in " ".join(t.split()) for t in unit_texts(d))
    else:
        with pytest.raises(RuntimeError, match="may hold an assertion"):
            unit_texts(d)


def test_a_tool_reading_takes_the_tools_branch_in_a_header_of_any_name(tmp_path: Path) -> None:
    """Red team w28: a tool's reading kept the prelude's ```undef __ICARUS__`` (so it never
    took the branch), the scan for tested tool macros skipped a ``.vinc`` header, and the
    pattern missed a further declarator of a list (``pad, r = 8'd0``)."""
    from rtlopt.harness._powered import unit_power_up

    header = (
        "`ifdef __ICARUS__\n`define DECL(r) logic [7:0] pad, r = 8'd0;\n`else\n"
        "`define DECL(r) logic [7:0] r;\n`endif\n"
    )
    ref = (
        '`include "decl.vinc"\nmodule m(input clk, output [7:0] y);\n  `DECL(c)\n'
        "  always @(posedge clk) c <= c + 8'd1;\n  assign y = c;\nendmodule\n"
    )
    d = _design(tmp_path, {"decl.vinc": header, "m.sv": ref})
    # iverilog's reading states it, the synthesis reading does not: closed, naming both
    with pytest.raises(RuntimeError, match=r"c in m differs .*__ICARUS__ defined"):
        unit_power_up(d)
    (tmp_path / "b").mkdir()
    d2 = _design(tmp_path / "b", {"decl.vinc": header.replace("__ICARUS__", "B"), "m.sv": ref})
    with pytest.raises(RuntimeError, match="branch these readings do not take"):
        unit_power_up(d2)


@pytest.mark.parametrize(
    ("block", "inert"),
    [
        # cv32e40p's CV32E40P_ASSERT_ON blocks: module-level assertions that only report
        ("  assert property (@(posedge clk) a |-> ##1 !a);\n", True),
        ('  assert property (@(posedge clk) a |-> ##1 !a) else $error("twice");\n', True),
        # an action that writes is logic in the build that reads it
        ("  assert property (@(posedge clk) a |-> ##1 !a) else y2 = 1'b1;\n", False),
    ],
)
def test_a_skipped_branch_of_assertions_is_judged_by_what_they_do(
    tmp_path: Path, block: str, inert: bool
) -> None:
    ref = (
        "module m(input clk, input a, output y);\n  logic y2;\n  assign y = a;\n"
        f"`ifdef USER_ASSERT_ON\n{block}`endif\nendmodule\n"
    )
    d = _design(tmp_path, {"m.sv": ref})
    if inert:
        assert unit_texts(d)
    else:
        with pytest.raises(RuntimeError, match="may hold an assertion"):
            unit_texts(d)
