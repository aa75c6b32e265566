"""Red team wave 16 (held out, on 424c5db), findings 1, 2 and 4: state simulation keeps in
combinational code while synthesis and the proofs read a wire or a fresh frame. Each change was
accepted as "proven" (exit 0); iverilog showed the difference by hand (findings.md):

1. a combinational block reads ``t`` before it writes it: after a=5, a=b0bc1cd3 the
   candidate's y is 00000005 (t from the previous run), the reference's b0bc1cd3;
2. a function reads module input ``b`` besides its argument, called from ``always @*``: when b
   alone changes, y keeps its old value in simulation (IEEE 1364-2005 9.7.5);
4. the reference's static function reads its local ``t`` before writing it (Yosys: x, which
   the proof lets the candidate refine; iverilog: the previous call's argument).

A candidate holding one is screened; a reference holding one leaves every changed candidate
unchecked. The ordinary forms (defaults written first, temporaries, loops, automatic
functions, parameters) are the controls of tests/unit/harness/test_screen_carried_state.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = [pytest.mark.tools]  # ~1.5 s each (5-7 s at load 6): the screen rejects first

PASS = "module tgt(input [31:0] a, output reg [31:0] y);\n  always @* y = a;\nendmodule\n"
READ_FIRST = """module tgt(input [31:0] a, output reg [31:0] y);
  reg [31:0] t;
  always @* begin
    if (a * 32'd3 == 32'h12345679) y = t; else y = a;
    t = a;
  end
endmodule
"""
XOR = "module tgt(input [7:0] a, input [7:0] b, output [7:0] y);\n  assign y = a ^ b;\nendmodule\n"
F_READS_B = """module tgt(input [7:0] a, input [7:0] b, output reg [7:0] y);
  function [7:0] f; input [7:0] x; f = x ^ b; endfunction
  always @* y = f(a);
endmodule
"""
STATIC_REF = """module tgt(input [31:0] a, output [31:0] y);
  function [31:0] f;
    input [31:0] x;
    reg [31:0] t;
    begin
      if (x * 32'd3 == 32'h12345679) f = t; else f = x;
      t = x;
    end
  endfunction
  assign y = f(a);
endmodule
"""
ASSIGN_PASS = "module tgt(input [31:0] a, output [31:0] y);\n  assign y = a;\nendmodule\n"


@pytest.mark.parametrize(
    ("ref", "cand", "why"),
    [
        (PASS, READ_FIRST, "before the block writes it"),
        (XOR, F_READS_B, "not one of its arguments"),
        (STATIC_REF, ASSIGN_PASS, "unchecked: the reference"),
    ],
    ids=["1_block_reads_first", "2_function_reads_module_signal", "4_reference_static_local"],
)
def test_state_kept_in_combinational_code_is_not_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str, why: str
) -> None:
    # ~2-5 s each: the screen rejects before any tool runs
    repo = committed_repo(tmp_path / "repo", {"rtl/top.v": ref}, monkeypatch, tmp_path / "cache")
    code, out = evaluate_text(repo, "rtl/top.v", cand)
    assert code == 1 and not out["accepted"], out["candidate"]
    assert why in str(out), out


def test_a_read_first_only_under_the_parent_parameters_is_not_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ~5 s. The screen places bits at the parameters' defaults (P=0: t[1] is written first);
    # the parent's P=1 leaves t[1] read before written, which the screen of the candidate
    # specialized to the repository's parameterization (par.u) must find
    files = {
        "rtl/top.v": "module tgt #(parameter P = 0) (input [7:0] a, output reg [7:0] y);\n"
        "  always @* y = a;\nendmodule\n",
        "rtl/par.v": "module par (input [7:0] a, output [7:0] y);\n"
        "  tgt #(.P(1)) u (.a(a), .y(y));\nendmodule\n",
    }
    cand = """module tgt #(parameter P = 0) (input [7:0] a, output reg [7:0] y);
  reg [7:0] t;
  always @* begin
    t[1 - P] = a[1];
    y = {a[7:2], t[1], a[0]};
    t = a;
  end
endmodule
"""
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    code, out = evaluate_text(repo, "rtl/top.v", cand)
    assert code == 1 and not out["accepted"], out["candidate"]
    assert "under parameters P=1" in str(out) and "before the block writes it" in str(out), out
