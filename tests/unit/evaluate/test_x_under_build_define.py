"""An x/z value written under a conditional directive whose macro some build of the
repository defines (``-DXSTIM`` in a Makefile, ``+define+`` in a ``.f`` file, a macro name
built at run time) feeds every input of the target, in any Verilog text: a header without a
unit, a design-like wrapper, a stimulus module naming neither the target nor a module above
it (``evaluate/_tb_x_defines.py``). A macro no text defines keeps the testbench-only rule; a
branch active under the configured defines and the target's own body are the elaboration's."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate import _tb_x_defines as td
from rtlopt.evaluate._tb_x import tb_x_inputs
from rtlopt.frontend import load_design

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
TB = (
    "module tb; reg s = 0; reg [3:0] a = 0; wire [3:0] y;\n"
    "  mux dut(.s(s), .a(a), .y(y));\n  initial #5 $finish;\nendmodule\n"
)
WRAP = (
    "module top(input sel, input [3:0] a, output [3:0] y);\n"
    "`ifdef XINJECT\n  wire s_i = 1'bx;\n`else\n  wire s_i = sel;\n`endif\n"
    "  mux u(.s(s_i), .a(a), .y(y));\nendmodule\n"
)
STIM = "module stim(output reg s);\n  initial begin\n`ifdef XSTIM\n  #2 s = 1'bx;\n`endif\n  end\nendmodule\n"
HEADER = "`ifdef XSTIM\ninitial s = 1'bx;\n`endif\n"


def _fed(tmp: Path, files: dict[str, str]) -> tuple[tuple[str, ...], str]:
    for name, text in {"mux.v": MUX, **files}.items():
        (tmp / name).write_text(text)
    got = tb_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig(), root=tmp))
    return got.ports, got.source


@pytest.mark.parametrize(
    "build",
    [
        "sim:\n\tiverilog -DXSTIM -DXINJECT -o s.vvp *.v\n",
        "+define+XSTIM+XINJECT\nmux.v\n",
        "defines:\n  - XSTIM\n  - XINJECT\n",
        "sim:\n\tiverilog -D$(MACRO) *.v\n",
    ],
)
@pytest.mark.parametrize(("name", "text"), [("stim.vh", HEADER), ("top.v", WRAP), ("stim.v", STIM)])
def test_x_under_a_build_define_feeds_every_input(
    tmp_path: Path, build: str, name: str, text: str
) -> None:
    ports, source = _fed(tmp_path, {"tb.v": TB, name: text, "build.mk": build})
    assert ports == ("s", "a")
    assert source.startswith(f"{name}:") and "x/z value written under `X" in source


@pytest.mark.parametrize(("name", "text"), [("top.v", WRAP), ("stim.v", STIM)])
def test_x_under_a_macro_no_build_defines_feeds_nothing(
    tmp_path: Path, name: str, text: str
) -> None:
    assert _fed(tmp_path, {name: text, "Makefile": "sim:\n\tiverilog -o s.vvp *.v\n"}) == (
        (),
        "",
    )


def test_compared_x_and_active_branch_feed_nothing(tmp_path: Path) -> None:
    wrap = (
        "module top(input sel, input [3:0] a, output [3:0] y);\n"
        "`ifdef XCHK\n  wire bad = (sel === 1'bx);\n`endif\n"
        "`ifndef XCHK\n  wire s_i = sel;\n`else\n  wire s_i = sel;\n`endif\n"
        "  mux u(.s(s_i), .a(a), .y(y));\nendmodule\n"
    )
    assert _fed(tmp_path, {"top.v": wrap, "Makefile": "x:\n\tvcs -DXCHK\n"}) == ((), "")


def test_governed_levels_need_every_inactive_level_defined() -> None:
    code = "`ifdef A\n`ifdef B\nq = 1'bx;\n`endif\n`endif\n`ifndef C\nr = 'x;\n`else\nt = 'z;\n`endif\n"
    got = td.governed_macros(code)
    assert got[3] == [{"A"}, {"B"}]
    assert 7 not in got and got[9] == [{"C"}]
    assert td.written_x(code, {"A"}, False, []) is None
    assert td.written_x(code, {"A", "B"}, False, []) == (3, "A")
    assert td.written_x(code, {"C"}, False, []) == (9, "C")
    assert td.written_x(code, set(), False, [], configured=["C"]) == (7, "C")


def test_own_body_is_read_under_the_configured_defines() -> None:
    code = "module mux;\n`ifdef X\nq = 1'bx;\n`endif\nendmodule\nmodule w;\n`ifdef X\nr = 'x;\n`endif\nendmodule\n"
    assert td.written_x(code, {"X"}, False, td.own_spans(code, {"mux"})) == (8, "X")
    assert td.written_x(code, {"X"}, False, td.own_spans(code, {"mux", "w"})) is None


def test_build_macros_and_runtime_names() -> None:
    got = td.build_macros(["iverilog -DFOO +define+BAR+BAZ=1 x.v\n"], ["`define QUX\n"])
    assert {"FOO", "BAR", "BAZ"} <= got and "QUX" not in got
    assert "QUX" in td.build_macros(["module t; endmodule\n`define QUX\n"])
    assert td.runtime_defines(['cmd += [f"-D{m}" for m in ms]']) is not None
    assert td.runtime_defines(["abc -D $clk_period"]) is None
