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
