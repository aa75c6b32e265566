"""Red team w26: a qualifier or a power-up value the rules did not see (real slang, no tool
run).

- F1: a qualified statement in a generate loop's iteration that builds its block was skipped
  because another iteration leaves the same text out (left-out blocks matched by position):
  now only what no instance builds is excused.
- F2: a power-up value only another tool's macro switches on (``__ICARUS__``, ``YOSYS``, a
  build's ``+define+``): a conditional branch no reading takes that may state one fails the
  reading closed.
- F3: a qualifier written through a macro or a header the candidate includes was never judged
  (the candidate's text holds no qualifier word; the statement starts in another buffer).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness import claim_problems
from rtlopt.harness._dormant import POWER_UP_TEXT
from rtlopt.harness._powered import unit_power_up
from tests.unit.harness.test_qualified_claims import _design

#: A partial unique case in a generate loop whose first iteration builds it (the reference
#: guards it so that it never runs where it would claim wrongly).
LOOP = """module m(input [1:0] s, input [7:0] a, b, output reg [7:0] y);
  for (genvar i = 0; i < 2; i++) begin : g
    if (i == 0) begin : one
      always @* begin
        y = 8'h11;
        if (!s[1]) unique case (s) 2'd0: y = a; 2'd1: y = b; endcase
      end
    end
  end
endmodule
"""


def test_a_claim_in_a_loop_iteration_that_builds_it_is_judged(tmp_path: Path) -> None:
    d = _design(tmp_path, {"m.sv": LOOP})
    assert claim_problems(LOOP, d) == []  # the reference's own text
    unguarded = LOOP.replace("if (!s[1]) unique case", "unique case")
    assert [line for line, _ in claim_problems(unguarded, d)] == [6]
    # a loop none of whose iterations builds the block: nothing runs, nothing is claimed
    never = unguarded.replace("if (i == 0)", "if (i == 5)")
    assert claim_problems(never, d) == []


@pytest.mark.parametrize("where", ["macro", "header"])
def test_a_qualifier_through_a_macro_or_a_header_is_judged(tmp_path: Path, where: str) -> None:
    d = _design(tmp_path, {"m.sv": LOOP})
    if where == "macro":
        cand = "`define UQ unique\n" + LOOP.replace("if (!s[1]) unique case", "`UQ case")
    else:
        (tmp_path / "uq.svh").write_text("unique case (s) 2'd0: y = a; 2'd1: y = b; endcase\n")
        cand = LOOP.replace(
            "if (!s[1]) unique case (s) 2'd0: y = a; 2'd1: y = b; endcase",
            '`include "uq.svh"',
        )
    assert [line for line, _ in claim_problems(cand, d)] == [6 + (where == "macro")]


@pytest.mark.parametrize(
    ("macro", "read"), [("__ICARUS__", True), ("YOSYS", True), ("FPGA_BUILD", False)]
)
def test_a_power_up_value_behind_another_tools_macro_is_read_or_fails_closed(
    tmp_path: Path, macro: str, read: bool
) -> None:
    ref = (
        f"`ifdef {macro}\n`define PU0(r) initial r = 8'd0;\n`define PU(r) `PU0(r)\n`else\n"
        "`define PU(r)\n`endif\n"
        "module m(input clk, output [7:0] y);\n  reg [7:0] c;\n  `PU(c)\n"
        "  always @(posedge clk) c <= c + 8'd1;\n  assign y = c;\nendmodule\n"
    )
    d = _design(tmp_path, {"m.sv": ref})
    if read:  # a tool's own macro is a reading of its own (Yosys: with SYNTHESIS), which
        # states a value the synthesis reading does not: the proof reads one, so closed
        with pytest.raises(RuntimeError, match="differs between the synthesis reading and"):
            unit_power_up(d)
    else:  # a build's macro: closed
        with pytest.raises(RuntimeError, match="branch these readings do not take"):
            unit_power_up(d)
    # a value only the synthesis reading states: a simulator reads none (closed); one every
    # reading states is read
    (tmp_path / "syn").mkdir()
    d2 = _design(tmp_path / "syn", {"m.sv": ref.replace(macro, "SYNTHESIS")})
    with pytest.raises(RuntimeError, match="a simulator's reading .SYNTHESIS undefined"):
        unit_power_up(d2)
    (tmp_path / "all").mkdir()
    plain = "`define PU(r) initial r = 8'd0;\n" + ref[ref.index("module") :]
    d3 = _design(tmp_path / "all", {"m.sv": plain})
    assert unit_power_up(d3)["m"] == {"c": ("8\0'd\0" + "0",)}


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("`define PU(r) initial r = 8'd0;", True),
        ("reg [7:0] c = 8'd0;", True),
        ("output reg [3:0] q = 4'd1,", True),
        ("logic x = 1'b0;", True),
        ("`define INIT(t) logic t = 1'b1;", True),
        ("parameter int W = 8;", False),
        ("localparam logic [1:0] A = 2'd0;", False),
        ("assign a = b;", False),
        ("wire w = a;", False),
        ("always @* for (int i = 0; i < 4; i++) y[i] = a[i];", False),
        ("if (a == b) y = 1;", False),
        ("my_t c = 0;", True),
        ("(* keep *) logic [7:0] r = 8'd0;", True),
        ("`define DECL(r) (* keep *) logic [7:0] r = 8'd0;", True),
        ("`define PU(r) `PU0(r)", True),
        ("reg [W==8 ? 7 : 3:0] c = 0;", True),
        ("y <= a;", False),
    ],
)
def test_what_a_skipped_branch_may_state(text: str, states: bool) -> None:
    assert bool(POWER_UP_TEXT.search(text)) is states
