"""A hierarchical name whose first segment a module declares as its own instance of another
module than the target (``dut`` of ``chacha_core`` in one testbench, of ``chacha`` in the
other) does not start at the target (``evaluate/_reach_scope.py``); where that module
declares an instance of the target under that name too, or one not read plainly, it still
counts. Real frontend, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.frontend import load_design

M = """module m (input clk, input [7:0] a, output [7:0] y);
  reg [7:0] c;
  reg [7:0] mem [0:3];
  always @(posedge clk) begin : upd
    reg [7:0] t;
    t = c + a;
    c <= t;
  end
  assign y = c;
endmodule
"""


def _reach(tmp: Path, body: str) -> str:
    (tmp / "m.v").write_text(M)
    (tmp / "tb.v").write_text(
        "module tb;\n  reg clk = 0;\n  reg [7:0] a = 0;\n  wire [7:0] y;\n"
        f"  m dut(.clk(clk), .a(a), .y(y));\n{body}endmodule\n"
    )
    return repository_reach(load_design(tmp / "m.v", "m", ProjectConfig()))


OTHER = """module other (input clk, output [7:0] q);
  reg [7:0] c;
  always @(posedge clk) c <= c + 8'd1;
  assign q = c;
endmodule
"""


def _two_benches(tmp: Path, second: str) -> str:
    """``dut`` is an instance of m in one testbench and of another module in the second."""
    (tmp / "other.v").write_text(OTHER)
    (tmp / "tb2.v").write_text(second)
    return _reach(tmp, "")


@pytest.mark.parametrize(
    "decl",
    [
        "other dut(.clk(clk), .q(q));",
        "other #() dut (.clk(clk), .q(q));",
        "other dut [1:0] (clk, q);",
    ],
)
def test_a_name_into_another_modules_instance_of_the_same_name_is_no_reach(
    tmp_path: Path, decl: str
) -> None:
    second = (
        f"module tb2;\n  reg clk = 0;\n  wire [7:0] q;\n  {decl}\n"
        "  initial dut.c = 8'h5a;\n  always @(posedge dut.c[0]) clk = ~clk;\nendmodule\n"
    )
    assert _two_benches(tmp_path, second) == ""


@pytest.mark.parametrize(
    "decl",
    [
        # an instance of the target under that name too (another branch), or one declared
        # where it is not read plainly: the name may start at the target
        "other dut(.clk(clk), .q(q));\n  m dut(.clk(clk), .a(q), .y());",
        "other u(.clk(clk), .q(q)), dut(.clk(clk), .q());",
        "`OTHER dut(.clk(clk), .q(q));",
        "",
        # round 68: declared only in a generate scope, the name outside it resolves upward
        "generate if (1) begin : g\n    other dut(.clk(clk), .q(q));\n  end endgenerate",
        "if (1) other dut(.clk(clk), .q(q));",
    ],
)
def test_a_name_the_holding_module_does_not_declare_otherwise_is_still_a_reach(
    tmp_path: Path, decl: str
) -> None:
    second = (
        f"`define OTHER other\nmodule tb2;\n  reg clk = 0;\n  wire [7:0] q;\n  {decl}\n"
        "  initial dut.c = 8'h5a;\nendmodule\n"
    )
    assert "(dut.c)" in _two_benches(tmp_path, second)
