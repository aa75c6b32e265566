"""Round 105 (held out, `/work/notes/rt105/`): five more ways a width parameter's value reached
code no check read, each wrong only at W = 100.

``{a | ~a} >> (k * k + k * 2)`` with ``wire [7:0] k = 9`` (a shift by 99 computed through a
constant net: nets with one constant initializer are now folded as constants, and a probe goes
to the first width holding what only the candidate reaches as well as past it); a procedural
``for (i = 0; i < W; ...)`` loop's variable read as a value (procedural loops count as generate
loops do); a top's *type* parameter reaching ``W`` through ``$bits(T)`` (type parameters are
followed to the top); ``W`` in a replication count assigned to a helper's parameter
(``.K({W{1'b1}})``: any mention counts), and a value computed from ``W`` by a width shifted by
such a folded amount; an overridable macro written ``(8)`` (a constant of digits and
parentheses is nudged).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict, repo_verdict

pytestmark = pytest.mark.tools

REF = (
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
    "  assign y = a + 1'b1;\nendmodule\n"
)
LOOP = (
    "module m #(parameter W = 8) (input [W-1:0] a, output reg [W-1:0] y);\n  integer i;\n"
    "  always @* begin\n    y = 0;\n    for (i = 0; i < W; i = i + 1) y[i] = ~a[i];\n  end\n"
    "endmodule\n"
)
CASES = {
    "a-shift-through-a-constant-net": (
        REF,
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  wire [7:0] k = 9;\n"
        "  assign y = ((({a | ~a} >> (k*k + k*2)) == 1'b1) && a[0]) ? a : a + 1'b1;\nendmodule\n",
    ),
    "a-procedural-loop-variable": (
        LOOP,
        LOOP.replace("y[i] = ~a[i];", "y[i] = ~a[i] ^ (i * i == 9801 && a[0]);"),
    ),
    "a-replication-count-to-a-helper": (
        REF,
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  wire hit;\n"
        "  m_chk #(.K({W{1'b1}})) u_chk (.b(a[0]), .hit(hit));\n"
        "  assign y = hit ? a : a + 1'b1;\nendmodule\n"
        "module m_chk #(parameter K = 1) (input b, output hit);\n  wire [7:0] s = 9;\n"
        "  assign hit = b && ((K >> (s * s + s * 2)) == 1);\nendmodule\n",
    ),
    # round 106: a range a parameter bounds is W-wide data (`ones[W-1:0]` into 256 bits)
    "a-parameter-bounded-select-into-a-fixed-net": (
        REF,
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  wire [W-1:0] ones = ~(a & ~a);\n  wire [255:0] x = ones[W-1:0];\n"
        "  wire [255:0] c = 256'd1024;\n"
        "  wire hit = (x + 1'b1) == c * c * c * c * c * c * c * c * c * c;\n"
        "  assign y = (hit & a[0]) ? a : a + 1'b1;\nendmodule\n",
    ),
    # round 106: a count that sizes only through $clog2 is read as a value past 65536 too
    "a-count-truncated-past-2-to-the-20": (
        "module m #(parameter [31:0] N = 10) (input clk, input [31:0] a, output [31:0] y, output reg [$clog2(N+1)-1:0] z);\n"
        "  assign y = a + N;\n  always @(posedge clk) z <= a[0];\nendmodule\n",
        "module m #(parameter [31:0] N = 10) (input clk, input [31:0] a, output [31:0] y, output reg [$clog2(N+1)-1:0] z);\n"
        "  wire [20:0] nn = N;\n  assign y = a + {{11{nn[20]}}, nn};\n  always @(posedge clk) z <= a[0];\nendmodule\n",
    ),
    "a-value-computed-by-a-width": (
        REF,
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  localparam [W-1:0] ONES = {W{1'b1}};\n  wire [7:0] s = 9;\n"
        "  assign y = (((ONES >> (s * s + s * 2)) == 1) && a[0]) ? a : a + 1'b1;\nendmodule\n",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_width_value_reaching_code_no_check_read_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref, cand = CASES[case]
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, cand)
    assert rc == 1 and ("not equivalent" in reason or "unchecked" in reason), reason


AT_100 = (
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
    "  wire [31:0] n = a - a + W;\n  assign y = (n == 10 * 10 && a[0]) ? a : a + 1'b1;\nendmodule\n"
)
PARENTS = {
    "a-tops-type-parameter": ("top.sv", "module top #(parameter type T = logic [7:0]) (input T a, output T y);\n  m #(.W($bits(T))) u_m (.a(a), .y(y));\nendmodule\n"),
    "a-macro-in-parentheses": ("top.v", "`ifndef WIDTH\n`define WIDTH (8)\n`endif\nmodule top (input [`WIDTH-1:0] a, output [`WIDTH-1:0] y);\n  m #(.W(`WIDTH)) u_m (.a(a), .y(y));\nendmodule\n"),
}  # fmt: skip


@pytest.mark.parametrize("parent", list(PARENTS))
def test_an_open_value_by_a_type_or_a_bracketed_macro_is_an_interface(
    parent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, text = PARENTS[parent]
    files = {"m.v": REF, name: text}
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "m.v", AT_100)
    assert rc == 1 and ("unchecked" in reason or "not equivalent" in reason), reason


def test_a_reference_value_computed_by_a_width_kept_as_it_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = (
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  localparam [W-1:0] ONES = {W{1'b1}};\n  assign y = a ^ ONES;\nendmodule\n"
    )
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, ref.replace("a ^ ONES", "ONES ^ a"))
    assert rc == 0, reason
