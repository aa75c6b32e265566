"""The macros a tool predefines are a build's (round 79 cases 17, 18): the x analysis reads
``ifdef __ICARUS__`` / ``VERILATOR`` / ``YOSYS`` branches as entered by some build with no
text naming the macro (``evaluate/_tb_x_defines.py``)."""

from __future__ import annotations

from rtlopt.evaluate._tb_x_defines import PREDEFINED, TOOL_PREDEFINED, build_macros, written_x

MAKE = "sim:\n\tiverilog -o sim.vvp tb.v\n"
STIM = "`ifdef __ICARUS__\n  initial s = 1'bx;\n`endif\n`ifdef VERILATOR\n  initial t = 1'bz;\n`endif\n"


def test_every_tools_predefined_macros_count_as_a_builds() -> None:
    got = build_macros([MAKE])
    assert {"__ICARUS__", "VERILATOR", "YOSYS", "SYNTHESIS"} <= got
    assert PREDEFINED["iverilog"] == {"__ICARUS__"}  # measured: iverilog -E, Icarus 11
    assert TOOL_PREDEFINED - build_macros([MAKE], predefined=False) == TOOL_PREDEFINED


def test_an_x_under_a_tools_macro_is_found_with_no_text_defining_it() -> None:
    defined = build_macros([MAKE])
    assert written_x(STIM, defined, False, [], {"SYNTHESIS"}) == (2, "__ICARUS__")
    assert written_x(STIM, build_macros([MAKE], predefined=False), False, [], ()) is None
