"""Parameters of an instantiated target that an open value reaches (round 103): a top's
parameter, a macro a parent defines under a condition; a literal override or an
unconditional macro keeps the target's configurations closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate._param_open import open_parameters
from rtlopt.frontend import load_design

M = "module m #(parameter W = 8, parameter D = 2) (input [W-1:0] a, output [W-1:0] y);\n  assign y = a;\nendmodule\n"
PARENTS = {
    "tops-parameter": ("module top #(parameter P = 8) (input [P-1:0] a, output [P-1:0] y);\n  m #(.W(P)) u (.a(a), .y(y));\nendmodule\n", {"W"}),
    "tops-parameter-through-a-localparam": ("module top #(parameter P = 8) (input [P:0] a, output [P:0] y);\n  localparam integer Q = P + 1;\n  m #(.W(Q), .D(3)) u (.a(a), .y(y));\nendmodule\n", {"W"}),
    "overridable-macro": ("`ifndef WIDTH\n`define WIDTH 8\n`endif\nmodule top (input [`WIDTH-1:0] a, output [`WIDTH-1:0] y);\n  m #(.W(`WIDTH)) u (.a(a), .y(y));\nendmodule\n", {"W"}),
    # moves under one nudge only (9 / 2 is 8 / 2)
    "half-a-tops-parameter": ("module top #(parameter P = 8) (input [3:0] a, output [3:0] y);\n  m #(.W(P / 2)) u (.a(a), .y(y));\nendmodule\n", {"W"}),
    # no nudge builds the instance: every parameter open (fail closed)
    "an-instance-only-at-the-default": ("module top #(parameter P = 8) (input [7:0] a, output [7:0] y);\n  if (P == 8) begin : g\n    m u (.a(a), .y(y));\n  end\nendmodule\n", {"W", "D"}),
    # read from the texts: no small nudge moves a step (round 104), nor a loop's value
    "a-step-of-a-tops-parameter": ("module top #(parameter P = 8) (input [3:0] a, output [3:0] y);\n  localparam integer Q = P / 64 * 96 + 4;\n  m #(.W(Q)) u (.a(a), .y(y));\nendmodule\n", {"W"}),
    "a-loop-to-a-tops-parameter": ("module top #(parameter P = 2) (input [7:0] a, output [7:0] y);\n  for (genvar i = 0; i < P; i = i + 1) begin : l\n    m #(.W(i + 8)) u (.a(a), .y());\n  end\nendmodule\n", {"W"}),
    "a-macro-written-with-a-base": ("`ifndef WIDTH\n`define WIDTH 'd8\n`endif\nmodule top (input [7:0] a, output [7:0] y);\n  m #(.W(`WIDTH)) u (.a(a), .y(y));\nendmodule\n", {"W"}),
    "testbench-parameter": ("module tb #(parameter P = 8);\n  wire [P-1:0] a, y;\n  m #(.W(P)) u (.a(a), .y(y));\nendmodule\n", set()),
    "literal": ("module top #(parameter P = 8) (input [7:0] a, output [7:0] y);\n  m #(.W(8)) u (.a(a), .y(y));\nendmodule\n", set()),
    "unconditional-macro": ("`define WIDTH 8\nmodule top (input [`WIDTH-1:0] a, output [`WIDTH-1:0] y);\n  m #(.W(`WIDTH)) u (.a(a), .y(y));\nendmodule\n", set()),
}  # fmt: skip


@pytest.mark.parametrize("parent", list(PARENTS))
def test_the_parameters_an_open_value_reaches(tmp_path: Path, parent: str) -> None:
    text, opened = PARENTS[parent]
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.v").write_text(text)
    design = load_design(tmp_path / "m.v", "m", Config().project)
    assert set(open_parameters(design)) == opened
