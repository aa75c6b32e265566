"""The x analysis under a build's macros reads them as the preprocessor does: a directive
anywhere on its line (class AC: ``initial s = `ifdef XSTIM 1'bx `else 1'b0 `endif;``), a
quoted command-line value and an ```include `F`` whose file rtlopt cannot find (class AD:
fail closed), and a build's value replacing a testbench's ```ifndef`` default (class AE:
``-DSEL_INIT=s_open``, a ```define`` in a file compiled first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate import _tb_x_configs as tc
from rtlopt.evaluate import _tb_x_defines as td
from rtlopt.evaluate._tb_x import tb_x_inputs
from rtlopt.frontend import load_design

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
HEAD = "module tb; reg s = 0; reg [3:0] a = 0; wire [3:0] y;\n  mux dut(.s(s), .a(a), .y(y));\n"
TAIL = "  initial #5 $finish;\nendmodule\n"
MIDLINE = "initial s = `ifdef XSTIM 1'bx `else 1'b0 `endif ;\n"
AFTER_CODE = "reg t = 0; `ifdef XSTIM\ninitial s = 1'bx;\n`endif\n"


def _fed(tmp: Path, files: dict[str, str]) -> tuple[str, ...]:
    for name, text in {"mux.v": MUX, **files}.items():
        (tmp / name).write_text(text)
    return tb_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig(), root=tmp)).ports


@pytest.mark.parametrize("code", [MIDLINE, AFTER_CODE])
def test_a_directive_after_code_governs_its_branch(code: str) -> None:
    assert 2 in td.governed_macros("x\n" + code) or 1 in td.governed_macros(code)
    assert tc.conditions(code) == {"XSTIM"}
    assert td.written_x("\n" + code, {"XSTIM"}, False, []) is not None


def test_a_midline_branch_is_entered() -> None:
    got = td.branch_lines(
        "reg u;\ninitial s = `ifdef XSTIM u `else 1'b0 `endif ;\n", set(), True, []
    )
    assert [(line, macro) for line, macro, _ in got] == [(2, "XSTIM")]


def test_a_midline_define_gives_its_value() -> None:
    assert tc._values("SEL", ["reg r; `define SEL s_open\n"]) == {"s_open"}


@pytest.mark.parametrize(
    ("given", "value"),
    [("-DF='\"x.vh\"'", '"x.vh"'), ('-DF=\\"x.vh\\"', '"x.vh"'), ('+define+F="x.vh"', "x.vh")],
)
def test_a_quoted_command_line_value_is_read(given: str, value: str) -> None:
    assert value in tc._values("F", [f"sim:\n\tiverilog {given} tb.v\n"])


@pytest.mark.parametrize(("define", "fed"), [("'\"xstim.vh\"'", ("s",)), ("$(STIM)", ("s", "a"))])
def test_an_included_macro_file_is_elaborated_or_fails_closed(
    tmp_path: Path, define: str, fed: tuple[str, ...]
) -> None:
    got = _fed(
        tmp_path,
        {
            "Makefile": f"sim:\n\tiverilog -DSTIM_FILE={define} -o s.vvp mux.v tb.v\n",
            "xstim.vh": "reg s_open; initial s = s_open;\n",
            "tb.v": HEAD + "`ifdef STIM_FILE\n`include `STIM_FILE\n`endif\n" + TAIL,
        },
    )
    assert set(fed) <= set(got)


DEFAULT = "`ifndef SEL_INIT\n`define SEL_INIT 1'b0\n`endif\n"
USE = HEAD + "  reg s_open;\n  initial s = `SEL_INIT;\n" + TAIL


@pytest.mark.parametrize(
    "files",
    [
        {"Makefile": "sim:\n\tiverilog -DSEL_INIT=s_open -o s.vvp mux.v tb.v\n"},
        {
            "Makefile": "sim:\n\tiverilog -o s.vvp scenario.vh mux.v tb.v\n",
            "scenario.vh": "`define SEL_INIT s_open\n",
        },
    ],
)
def test_a_build_value_replacing_a_default_is_elaborated(tmp_path: Path, files: dict) -> None:
    assert "s" in _fed(tmp_path, {**files, "tb.v": DEFAULT + USE})


def test_a_default_no_build_sets_feeds_nothing(tmp_path: Path) -> None:
    make = {"Makefile": "sim:\n\tiverilog -o s.vvp mux.v tb.v\n"}
    assert _fed(tmp_path, {**make, "tb.v": DEFAULT + USE}) == ()
