"""Inputs of the target that the repository feeds an x made at run time from defined operands
(red team w39 F8): a select or array index past the declared range, a division by a value
that may be 0, a net two drivers may drive apart. The proofs and rtlopt's simulation drive
every input with 0 or 1 only, so the walk of ``frontend/_open_inputs.py`` counts them as x."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend._open_inputs import open_inputs, open_inputs_reason

M = """module m(input [7:0] a, input b, output reg [7:0] y);
  always @* begin if (b) y = a; else y = 8'd0; end
endmodule
"""
SUB = "module sub(input [2:0] s, output o);\n  wire [5:0] v = 6'b101010;\n  assign o = v[s];\nendmodule\n"


def _design(tmp_path: Path, decls: str, conn: str) -> object:
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "sub.v").write_text(SUB)
    top = (
        "module top(input [7:0] a, input [2:0] s, input signed [2:0] ss, output [7:0] y);\n"
        f"{decls}  m u(.a(a), .b({conn}), .y(y));\nendmodule\n"
    )
    (tmp_path / "top.v").write_text(top)
    return load_design(tmp_path / "m.v", "m", ProjectConfig())


def _found(tmp_path: Path, decls: str, conn: str) -> list[tuple[str, str]]:
    design = _design(tmp_path, decls, conn)
    return [(o.instance, o.port) for o in open_inputs(design)]  # type: ignore[arg-type]


FN = "  function f(input {i} i);\n    reg {v};\n    f = v[i];\n  endfunction\n"
V6 = "  wire [5:0] v = 6'b101010;\n"
TBL = "  wire tbl [0:5];\n" + "".join(f"  assign tbl[{i}] = 1'b{i % 2};\n" for i in range(6))


@pytest.mark.parametrize(
    ("decls", "conn"),
    [
        (V6, "v[s]"),  # 6 bits, a 3-bit index: 6 and 7 read x
        (TBL, "tbl[s]"),  # 6 entries, a 3-bit index
        (V6, "|v[s +: 2]"),  # an indexed part past the end
        (V6, "v[7]"),  # a constant index outside the range
        ("  wire [3:0] v = 4'b1010;\n", "v[ss]"),  # a signed index reaches -4
        ("", "|(a / {5'd0, s})"),  # a divisor that may be 0
        ("", "|(a % {5'd0, s})"),
        ("", "|(a / 8'd0)"),  # a constant divisor of 0
        (V6 + "  wire w;\n  assign w = v[s];\n", "w"),  # a net a select drives
        (V6 + "  reg r;\n  always @* begin r = 1'b0; if (a[0]) r = v[s]; end\n", "r"),
        ("  wire w;\n  assign w = s[0];\n  assign w = s[1];\n", "w"),  # two drivers
        ("  wire w = s[0];\n  assign w = s[1];\n", "w"),  # an initializer and a driver
        ("  wire w;\n  and g(w, s[0], s[1]);\n  assign w = s[2];\n", "w"),  # a gate too
        ("  wire [1:0] w;\n  assign w = s[1:0];\n  assign w[1] = s[2];\n", "w[1]"),
        (FN.format(v="[5:0] v = 6'b101010", i="[2:0]"), "f(s)"),  # a function's body
        ("  function g(input i);\n    g = i ? 1'b1 : 1'bx;\n  endfunction\n", "g(s[0])"),
        ("  wire w;\n  sub k(.s(s), .o(w));\n", "w"),  # a submodule's output reads past
        ("  wire w;\n  if (0) begin : g\n    assign w = s[0];\n  end\n", "w"),  # dead branch
    ],
)
def test_an_x_made_at_run_time_is_found(tmp_path: Path, decls: str, conn: str) -> None:
    assert _found(tmp_path, decls, conn) == [("top.u", "b")]


@pytest.mark.parametrize(
    ("decls", "conn"),
    [
        ("  wire [7:0] v = 8'hA5;\n", "v[s]"),  # every index within the range
        (
            "  wire tbl [0:7];\n" + "".join(f"  assign tbl[{i}] = 1'b1;\n" for i in range(8)),
            "tbl[s]",
        ),
        (V6, "v[s[1:0]]"),  # a 2-bit index stays within [5:0]
        (V6, "|v[s[1:0] +: 2]"),
        (V6, "v[3]"),
        (FN.format(v="[7:0] v = 8'hA5", i="[2:0]"), "f(s)"),
        (FN.format(v="[5:0] v = 6'b101010", i="[1:0]"), "f(s[1:0])"),
        ("", "|(a / 8'd3)"),  # constant nonzero divisors
        ("", "|(a % 8'd5)"),
        (V6, "v[s] === 1'b1"),  # x compared as a value
        ("  localparam P = 1;\n", "P ? a[0] : 1'bx"),  # a parameter picks the defined branch
        ("  wand w;\n  assign w = s[0];\n  assign w = s[1];\n", "w"),  # resolved nets
        ("  wor w;\n  assign w = s[0];\n  assign w = s[1];\n", "w"),
        ("  wire [1:0] w;\n  assign w[0] = s[0];\n  assign w[1] = s[1];\n", "w[1]"),
        (
            "  wire w;\n  if (1) begin : g\n    assign w = s[0];\n  end else begin : h\n"
            "    assign w = s[1];\n  end\n",
            "w",
        ),  # one branch is elaborated
        ("  reg r;\n  always @* begin r = s[0]; if (a[0]) r = s[1]; end\n", "r"),  # a variable
    ],
)
def test_defined_values_are_not_found(tmp_path: Path, decls: str, conn: str) -> None:
    assert _found(tmp_path, decls, conn) == []


def test_the_reason_names_the_instance_port_line_and_operator(tmp_path: Path) -> None:
    def reason(name: str, decls: str, conn: str) -> str:
        (tmp_path / name).mkdir()
        return open_inputs_reason(_design(tmp_path / name, decls, conn))  # type: ignore[arg-type]

    sel = reason("s", V6, "v[s]")
    assert "instance top.u of m (top.v, line 3) connects input 'b' to a value that may be x" in sel
    assert (
        "v[s] (top.v, line 3) selects with an index s that can reach 0..7, outside the "
        "declared range [5:0]" in sel
    ), sel
    two = reason("t", "  wire w;\n  assign w = s[0];\n  assign w = s[1];\n", "w")
    assert (
        "connects input 'b' to 'w' (top.v, line 2), which may be x at run time: 2 drivers "
        "(top.v, line 3; top.v, line 4) drive the same bits" in two
    ), two
    div = reason("d", "", "|(a / {5'd0, s})")
    assert "divides by {5'd0, s}, which is not a nonzero constant (x on 0)" in div, div
    assert "make what feeds 'b' of top.u defined" in div, div


def test_a_second_driver_through_a_hierarchical_name_is_found(tmp_path: Path) -> None:
    (tmp_path / "poke.v").write_text("module poke;\n  assign top.w = 1'b1;\nendmodule\n")
    decls = "  wire w;\n  assign w = s[0];\n  poke p();\n"
    assert _found(tmp_path, decls, "w") == [("top.u", "b")]
    (tmp_path / "poke.v").write_text("module poke;\n  wire v = top.w;\nendmodule\n")
    assert _found(tmp_path, decls, "w") == []  # a read is no driver
