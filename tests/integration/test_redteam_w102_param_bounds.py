"""Round 102 (held out, `/work/notes/rt102/`): a width parameter's bound computed from small
numbers, and two ways around the split proof.

Each candidate differs only at widths past a number it computes and never writes: a loop bound
``i < W && i < 5 * 8`` (W >= 41), a temporary ``wire [5*8-1:0] t`` (W >= 41), a generate loop
step ``g = g + 1 + (g == 40)`` (W >= 42). A probe now goes one past the value of every constant
the candidate holds and the reference does not, past the width of a new fixed-width net whose
bounds are such products, and past every number the change writes. And the split proof read
no uses of a parameter declared ``unsigned [5:0]`` (no input type) or of a localparam computed
from it inside a generate block: a parameter of such a type is now an input of its range, a
localparam anywhere in the module is read, and a text rtlopt cannot split leaves the change
unchecked instead of skipping the proof.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

CASES = {
    "a-loop-bound-written-as-a-product": (
        "module m #(parameter W = 8) (input [W-1:0] a, input [7:0] b, output reg [W-1:0] y, output [7:0] z);\n  integer i;\n  always @* begin\n    y = {W{1'b0}};\n    for (i = 0; i < W; i = i + 1)\n      y[i] = ~a[i];\n  end\n  assign z = b + 8'd1;\nendmodule\n",
        "module m #(parameter W = 8) (input [W-1:0] a, input [7:0] b, output reg [W-1:0] y, output [7:0] z);\n  integer i;\n  always @* begin\n    y = {W{1'b0}};\n    for (i = 0; i < W && i < 5 * 8; i = i + 1)\n      y[i] = ~a[i];\n  end\n  assign z = b + 8'd1;\nendmodule\n",
    ),
    "a-fixed-width-temporary-as-a-product": (
        "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  assign y = a ^ b;\nendmodule\n",
        "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  wire [5*8-1:0] t = a ^ b;\n  assign y = t;\nendmodule\n",
    ),
    "a-generate-loop-step": (
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  genvar g;\n  for (g = 0; g < W; g = g + 1) begin : L\n    assign y[g] = ~a[g];\n  end\nendmodule\n",
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  genvar g;\n  for (g = 0; g < W; g = g + 1 + (g == 40)) begin : L\n    assign y[g] = ~a[g];\n  end\nendmodule\n",
    ),
    "an-unsigned-ranged-parameter": (
        "module m #(parameter unsigned [5:0] W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  assign y = a + b;\nendmodule\n",
        "module m #(parameter unsigned [5:0] W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  wire [31:0] n = W + (a & 1'b0);\n  assign y = (n == 5 * 8 + 3) ? a - b : a + b;\nendmodule\n",
    ),
    "a-localparam-in-a-generate-block": (
        "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  assign y = a + b;\nendmodule\n",
        "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  if (1) begin : G\n    localparam integer K = W;\n    wire [31:0] n = K + (a & 1'b0);\n    assign y = (n == 5 * 8 + 3) ? a - b : a + b;\n  end\nendmodule\n",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bound_computed_from_small_numbers_is_reached(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref, cand = CASES[case]
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, cand)
    assert rc == 1 and ("not equivalent" in reason or "unchecked" in reason), reason
