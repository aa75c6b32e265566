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


TB_STIM = (
    "module tb; wire s; reg [3:0] a = 0; wire [3:0] y;\n"
    "  stim u_stim(.s(s));\n  mux dut(.s(s), .a(a), .y(y));\n  initial #5 $finish;\nendmodule\n"
)
BUILDS = [
    "sim:\n\tiverilog -DXSTIM -DXINJECT -o s.vvp *.v\n",
    "+define+XSTIM+XINJECT\nmux.v\n",
    "defines:\n  - XSTIM\n  - XINJECT\n",
    "sim:\n\tiverilog -D$(MACRO) *.v\n",
]


@pytest.mark.parametrize("build", BUILDS)
def test_x_under_a_build_define_in_a_header_feeds_every_input(tmp_path: Path, build: str) -> None:
    ports, source = _fed(tmp_path, {"tb.v": TB, "stim.vh": HEADER, "build.mk": build})
    assert ports == ("s", "a")
    assert source.startswith("stim.vh:") and "x/z value written under `XSTIM" in source


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize(("tb", "name", "text"), [(TB, "top.v", WRAP), (TB_STIM, "stim.v", STIM)])
def test_x_under_a_build_define_in_a_compiled_text_feeds_what_the_elaboration_under_it_finds(
    tmp_path: Path, build: str, tb: str, name: str, text: str
) -> None:
    """The instance analysis elaborates the repository with the macro defined: the wrapper's
    x reaches ``s`` alone, and so does a stimulus module a testbench connects to it."""
    ports, source = _fed(tmp_path, {"tb.v": tb, name: text, "build.mk": build})
    assert ports == ("s",)
    assert source.startswith(f"{name}:") and "x/z value written under `X" in source
    assert "elaborated so" in source


def test_x_under_a_build_define_in_a_module_outside_the_targets_hierarchy_feeds_nothing(
    tmp_path: Path,
) -> None:
    """A stimulus module no body above the target instantiates (nor names) reaches it by no
    instance: its x under a build's define feeds nothing (picorv32's core for picorv32_regs)."""
    files = {"tb.v": TB, "stim.vt": STIM, "build.mk": BUILDS[0]}
    assert _fed(tmp_path, files) == ((), "")
    # the testbench holds it, unconnected: its build compiles it, and nothing reaches
    files["tb.v"] = TB.replace("  initial", "  stim u_stim(.s());\n  initial")
    assert _fed(tmp_path, files)[0] == ()
    files["tb.v"] = TB_STIM  # connected: its s is x until written (and x under XSTIM)
    ports, source = _fed(tmp_path, files)
    assert ports == ("s",) and source.startswith("tb.v as its own build: "), source


@pytest.mark.parametrize(
    "wrap",
    [
        WRAP.replace("`ifdef XINJECT", "`ifdef OTHER\n  wire s_i = sel;\n`elsif XINJECT"),
        WRAP.replace(
            "`ifdef XINJECT\n  wire s_i = 1'bx;\n`else\n  wire s_i = sel;",
            "`ifdef XINJECT\n  wire s_i = sel;\n`else\n  wire s_i = 1'bx;",
        ),
    ],
)
def test_a_branch_no_single_definition_enters_feeds_every_input(tmp_path: Path, wrap: str) -> None:
    """An ``elsif`` branch, or one entered by undefining a configured macro: no elaboration
    under added defines reads it (fail closed)."""
    files = {"tb.v": TB, "top.v": wrap, "build.mk": "sim:\n\tiverilog -DOTHER -DXINJECT *.v\n"}
    for name, text in {"mux.v": MUX, **files}.items():
        (tmp_path / name).write_text(text)
    configured = "wire s_i = sel;\n`else" in wrap
    config = ProjectConfig(defines=("XINJECT",)) if configured else ProjectConfig()
    got = tb_x_inputs(load_design(tmp_path / "mux.v", "mux", config, root=tmp_path))
    assert got.ports == ("s", "a") and "feeding every input" in got.source


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
