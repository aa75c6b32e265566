"""A build's setting of a parameter of a top above the target (``iverilog -Ptb.WIDE=1``)
selects the top's generate branches: both the configurations of the target
(``evaluate/_foreign_params.py`` through ``_param_mentions.top_parameters``) and the inputs
fed x (``evaluate/_tb_x_params.py``) are read from the top elaborated under that setting,
not at its defaults; a value rtlopt cannot read feeds every input x (fail closed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import foreign_parameterizations
from rtlopt.evaluate._param_tops import read_outside_delays
from rtlopt.evaluate._tb_x_params import other_parameters, param_x_inputs
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations
from rtlopt.frontend.model import Design

INV = "module inv #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  assign y = ~a;\nendmodule\n"
MUX = (
    "module mux(input s, input [3:0] a, input [3:0] b, output [3:0] y);\n"
    "  assign y = s ? a : b;\nendmodule\n"
)
TB_WIDE = """module tb;
  parameter WIDE = 0;
  if (WIDE) begin : g_w
    reg [20:0] a = 0; wire [20:0] y;
    inv #(.W(21)) dut(.a(a), .y(y));
  end%s
endmodule
"""
ELSE = """ else begin : g_n
    reg [7:0] a = 0; wire [7:0] y;
    inv dut(.a(a), .y(y));
  end"""
TB_X = """module tb; reg s = 0; reg [3:0] a = 4'b1010, b = 4'b0101; wire [3:0] y;
  parameter XSTIM = 0, MORE = 0;
  mux dut(.s(s), .a(a), .b(b), .y(y));
%s
  initial begin #10 $display("y=%%b", y); $finish; end
endmodule
"""
GENERATE = "  if (XSTIM) begin : g_x\n    initial #1 s = 1'bx;\n  end"
PROCEDURAL = "  initial #1 if (XSTIM && MORE) s = 1'bx;"


def _design(tmp: Path, target: str, files: dict[str, str]) -> Design:
    for name, text in files.items():
        (tmp / name).write_text(text)
    return load_design(tmp / f"{target}.v", target, ProjectConfig(), root=tmp)


@pytest.mark.parametrize("other", [ELSE, ""], ids=["else-at-defaults", "none-at-defaults"])
def test_a_generate_branch_a_build_turns_on_holds_a_configuration(
    tmp_path: Path, other: str
) -> None:
    make = "sim:\n\tiverilog -Ptb.WIDE=1 -o sim.vvp inv.v tb.v\n"
    files = {"inv.v": INV, "tb.v": TB_WIDE % other, "Makefile": make}
    design = _design(tmp_path, "inv", files)
    extra, why = foreign_parameterizations(design, INV, parameterizations(design), {})
    assert why == ""
    assert [dict(p.values) for p in extra] == [{"W": "21"}]
    assert "-Ptb.WIDE=1" in extra[0].where[0]


@pytest.mark.parametrize(
    ("body", "make"),
    [
        (GENERATE, "iverilog -Ptb.XSTIM=1 -o sim.vvp mux.v tb.v"),
        (GENERATE, "verilator --binary -GXSTIM=1 mux.v tb.v"),
        (PROCEDURAL, "iverilog -Ptb.XSTIM=1 -Ptb.MORE=1 -o sim.vvp mux.v tb.v"),
    ],
    ids=["generate-P", "generate-G", "procedural-two-settings"],
)
def test_x_a_build_setting_turns_on_feeds_the_input(tmp_path: Path, body: str, make: str) -> None:
    design = _design(tmp_path, "mux", {"mux.v": MUX, "tb.v": TB_X % body, "Makefile": make})
    got = param_x_inputs(design)
    assert got.ports == ("s",), got
    assert "XSTIM=1" in got.source and "tb.v, line" in got.source


def test_no_setting_feeds_nothing(tmp_path: Path) -> None:
    make = "iverilog -Ptb.MORE=1 -o sim.vvp mux.v tb.v"  # MORE alone keeps XSTIM's x off
    files = {"mux.v": MUX, "tb.v": TB_X % PROCEDURAL, "Makefile": make}
    assert param_x_inputs(_design(tmp_path, "mux", files)).ports == ()


@pytest.mark.parametrize("value", ["$(XS)", "`cat x.txt`"])
def test_a_setting_rtlopt_cannot_read_feeds_every_input(tmp_path: Path, value: str) -> None:
    make = f"iverilog -Ptb.XSTIM={value} -o sim.vvp mux.v tb.v"
    design = _design(tmp_path, "mux", {"mux.v": MUX, "tb.v": TB_X % GENERATE, "Makefile": make})
    got = param_x_inputs(design)
    assert got.ports == ("s", "a", "b") and got.z, got
    assert "feeding every input x" in got.source


def test_a_structural_setting_rtlopt_cannot_read_leaves_the_configurations_unchecked(
    tmp_path: Path,
) -> None:
    make = "WIDE ?= 1\nsim:\n\tiverilog -Ptb.WIDE=$(WIDE) -o sim.vvp inv.v tb.v\n"
    files = {"inv.v": INV, "tb.v": TB_WIDE % ELSE, "Makefile": make}
    design = _design(tmp_path, "inv", files)
    _, why = foreign_parameterizations(design, INV, parameterizations(design), {})
    assert why.startswith("Makefile:3 sets parameter WIDE=? of tb"), why


def test_a_parameter_read_only_in_delays_is_not_watched() -> None:
    body = (
        "  localparam HALF = CLK / 2, ON = WIDE;\n  always #(HALF) clk = ~clk;\n"
        "  initial begin #SETTLE a = 1; x <= ##CYC 1; end\n"
        "  inv #(.W(TW)) u(.a(a), .y(y));\n  if (ON) begin : g end\n"
    )
    got = read_outside_delays(body, ["CLK", "SETTLE", "CYC", "WIDE", "TW", "UNUSED"])
    assert got == ["WIDE", "TW"]


WRAP = """module wrap #(parameter MODE = 0) (input [7:0] a, output [7:0] y);
  if (MODE) begin : g_w
    wire [20:0] yy;
    inv #(.W(21)) u(.a({13'd0, a}), .y(yy));
    assign y = yy[7:0];
  end else begin : g_n
    inv u(.a(a), .y(y));
  end
endmodule
"""
TB_WRAP = "module tb;\n  reg [7:0] a = 0; wire [7:0] y;\n  wrap w(.a(a), .y(y));\nendmodule\n"
TB_BOTH = TB_WIDE.replace("parameter WIDE = 0;", "parameter A = 0, B = 0;").replace(
    "if (WIDE)", "if (A && B)"
)


@pytest.mark.parametrize(
    ("files", "make"),
    [
        (
            {"wrap.v": WRAP, "tb.v": TB_WRAP},
            "verilator --binary --top-module wrap -GMODE=1 inv.v wrap.v",
        ),
        ({"tb.v": TB_BOTH % ELSE}, "iverilog -Ptb.A=1 -Ptb.B=1 -o sim.vvp inv.v tb.v"),
    ],
    ids=["unit-between-made-top", "two-settings-together"],
)
def test_settings_of_a_unit_above_select_a_configuration(
    tmp_path: Path, files: dict[str, str], make: str
) -> None:
    design = _design(tmp_path, "inv", {"inv.v": INV, **files, "Makefile": make})
    extra, why = foreign_parameterizations(design, INV, parameterizations(design), {})
    assert why == ""
    assert {"W": "21"} in [dict(p.values) for p in extra]


def test_a_setting_through_a_hierarchical_path_leaves_the_change_unchecked(tmp_path: Path) -> None:
    make = "xrun -defparam tb.w.MODE=1 inv.v wrap.v tb.v"
    files = {"inv.v": INV, "wrap.v": WRAP, "tb.v": TB_WRAP, "Makefile": make}
    design = _design(tmp_path, "inv", files)
    _, why = foreign_parameterizations(design, INV, parameterizations(design), {})
    assert "sets parameter MODE of wrap or of an instance below a top" in why, why


def test_a_name_of_a_top_and_of_a_unit_between_is_set_on_each(tmp_path: Path) -> None:
    """``MEM`` is the top's own (read there, not handed on) and the wrapper's: a build
    making the wrapper its top (``-GMEM=256``) selects the wrapper's branch."""
    wrap = WRAP.replace("parameter MODE = 0", "parameter MEM = 4").replace("(MODE)", "(MEM > 100)")
    tb = TB_WRAP.replace(
        "module tb;", "module tb;\n  parameter MEM = 4;\n  initial if (MEM) a = 1;"
    )
    make = "verilator --binary --top-module wrap -GMEM=256 inv.v wrap.v"
    files = {"inv.v": INV, "wrap.v": wrap, "tb.v": tb, "Makefile": make}
    design = _design(tmp_path, "inv", files)
    extra, why = foreign_parameterizations(design, INV, parameterizations(design), {})
    assert why == ""
    assert {"W": "21"} in [dict(p.values) for p in extra]


@pytest.mark.parametrize("width", ["21", "8"])
def test_an_instance_fed_x_under_a_build_setting_is_judged_by_its_parameters(
    tmp_path: Path, width: str
) -> None:
    tb = (
        "module tb;\n  parameter XSTIM = 0;\n  reg [7:0] a = 0; wire [7:0] y;\n"
        "  inv dut(.a(a), .y(y));\n  if (XSTIM) begin : g\n"
        f"    reg [{width}-1:0] b = 'x; wire [{width}-1:0] z;\n"
        f"    inv #(.W({width})) d2(.a(b), .y(z));\n  end\nendmodule\n"
    )
    make = "iverilog -Ptb.XSTIM=1 -o sim.vvp inv.v tb.v"
    design = _design(tmp_path, "inv", {"inv.v": INV, "tb.v": tb, "Makefile": make})
    assert param_x_inputs(design).ports == ("a",)
    why = other_parameters(design)
    if width == "8":
        assert why == ""
    else:
        assert "instance tb.g.d2 of inv" in why and "W=21" in why, why
