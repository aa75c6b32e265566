"""A write that exists only in a configuration a build of the repository uses (class E:
``ifdef XSTIM`` with a Makefile's ``-DXSTIM``) is judged by the instance analysis
elaborated under that configuration, whatever spells the x: a macro whose value is
``1'bx``, an undriven variable, the ``else`` of a configured ``SYNTHESIS``, an ``elsif``
branch, a macro another build's define sets (``evaluate/_tb_x.py``, ``_tb_x_defines.entering``).
What such a configuration finds beyond rtlopt's own is what it feeds; a body no instance
above the target reaches feeds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate import _tb_x_defines as td
from rtlopt.evaluate._tb_x import _merged, tb_x_inputs
from rtlopt.frontend import load_design

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
MAKE = "sim:\n\tiverilog -DXSTIM -DREGRESSION -o s.vvp mux.v tb.v\n"
HEAD = "module tb; reg s = 0; reg [3:0] a = 0; wire [3:0] y;\n  mux dut(.s(s), .a(a), .y(y));\n"
TAIL = "  initial #5 $finish;\nendmodule\n"


def _fed(tmp: Path, files: dict[str, str]) -> tuple[tuple[str, ...], str]:
    for name, text in {"mux.v": MUX, "Makefile": MAKE, **files}.items():
        (tmp / name).write_text(text)
    got = tb_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig(), root=tmp))
    return got.ports, got.source


SPELLINGS = {
    "macro value": {
        "stim.vh": "`define SEL_UNKNOWN 1'bx\n`ifdef XSTIM\n  initial s = `SEL_UNKNOWN;\n`endif\n",
        "tb.v": HEAD + '`include "stim.vh"\n' + TAIL,
    },
    "undriven reg": {
        "tb.v": HEAD + "`ifdef XSTIM\n  reg u;\n  initial s = u;\n`endif\n" + TAIL,
    },
    "one line": {"tb.v": HEAD + "  reg u;\n`ifdef XSTIM initial s = u; `endif\n" + TAIL},
    "elsif branch": {
        "tb.v": HEAD + "`ifdef FAST\n  initial s = 1;\n`elsif XSTIM\n  reg u;\n  initial s = u;\n"
        "`endif\n" + TAIL,
    },
    "macro set under another define": {
        "defs.vh": "`ifdef REGRESSION\n  `define SEL u\n`else\n  `define SEL 1'b0\n`endif\n",
        "tb.v": '`include "defs.vh"\n' + HEAD + "  reg u;\n  initial s = `SEL;\n" + TAIL,
    },
}


@pytest.mark.parametrize("files", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_a_write_only_a_builds_configuration_holds_feeds_what_it_reaches(
    tmp_path: Path, files: dict[str, str]
) -> None:
    ports, source = _fed(tmp_path, files)
    assert ports == ("s",)  # 'a' is written 0 in every configuration
    assert "elaborated so" in source and ("`XSTIM" in source or "`REGRESSION" in source)


def test_the_else_of_a_configured_synthesis_is_a_simulation_builds(tmp_path: Path) -> None:
    """rtlopt defines SYNTHESIS; a simulation build leaves it undefined and enters ``else``."""
    tb = HEAD.replace("reg s = 0;", "wire s;") + (
        "  wire u;\n`ifdef SYNTHESIS\n  assign s = 1'b0;\n`else\n  assign s = u;\n`endif\n" + TAIL
    )
    ports, source = _fed(tmp_path, {"tb.v": tb})
    assert ports == ("s",) and "leave it undefined" in source and "tb.v:7" in source


def test_each_branch_is_judged_alone_too(tmp_path: Path) -> None:
    """Another build's branch may drive what this one leaves undriven: both joined read no x,
    the build defining XSTIM alone does."""
    tb = HEAD + "  reg u;\n`ifdef XSTIM\n  initial s = u;\n`endif\n`ifdef FILLU\n  initial u = 1;\n"
    tb += "`endif\n" + TAIL
    make = "sim:\n\tiverilog -DXSTIM -o s.vvp *.v\nfull:\n\tiverilog -DXSTIM -DFILLU *.v\n"
    assert _fed(tmp_path, {"tb.v": tb, "Makefile": make})[0] == ("s",)


def test_no_build_or_no_instance_or_a_defined_value_feeds_nothing(tmp_path: Path) -> None:
    undriven = HEAD + "`ifdef XSTIM\n  reg u;\n  initial s = u;\n`endif\n" + TAIL
    assert _fed(tmp_path, {"tb.v": undriven, "Makefile": "sim:\n\tiverilog *.v\n"}) == ((), "")
    defined = HEAD + "`ifdef XSTIM\n  reg u = 1;\n  initial s = u;\n`endif\n" + TAIL
    assert _fed(tmp_path, {"tb.v": defined}) == ((), "")
    # a stimulus module no body instantiates, writing an 's' of its own (names collide)
    stim = (
        "module stim(output reg s);\n`ifdef XSTIM\n  reg u;\n  initial s = u;\n`endif\nendmodule\n"
    )
    assert _fed(tmp_path, {"tb.v": HEAD + TAIL, "stim.v": stim}) == ((), "")


def test_entering_names_what_each_branch_needs() -> None:
    code = "`ifdef A\na\n`elsif B\nb\n`else\nc\n`endif\n`ifndef S\nd\n`endif\n`ifdef A\n`elsif A\ne\n`endif\n"
    got = td.entering(code, ["S"])
    assert got[2] == ({"A"}, set()) and got[4] == ({"B"}, {"A"})
    assert 6 not in got and got[9] == (set(), {"S"})  # the `else is taken: read already
    assert got[13] is None  # `elsif A after `ifdef A: no build enters it


def test_merged_configurations_join_what_does_not_contradict() -> None:
    a, b, not_a = (
        (frozenset({"A"}), frozenset()),
        (frozenset({"B"}), frozenset()),
        (frozenset(), frozenset({"A", "S"})),
    )
    got = _merged({a: "1", b: "2", not_a: "3"}, {"S"})
    assert sorted(e for e, _ in got) == sorted(
        [(frozenset({"A", "B"}), frozenset()), (frozenset(), frozenset({"S"}))]
    )
