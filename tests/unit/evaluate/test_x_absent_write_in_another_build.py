"""A value a testbench leaves unassigned in one configuration of the build macros (round 83
case 11: ```ifdef FAST`` left empty, ``s = 1'b0`` in its ```else``, a Makefile's ``-DFAST``)
is an x source like an x literal there: the configuration entering an empty branch, or the
missing ```else`` of a chain whose taken branch writes, drops what rtlopt's reading writes,
and the instance analysis elaborated under it finds the input read before any write
(``evaluate/_tb_x_defines.left_branches``). A write both configurations make, or a branch
no build enters, feeds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate import _tb_x_defines as td
from rtlopt.evaluate._tb_x import tb_x_inputs
from rtlopt.frontend import load_design

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
MAKE = "sim:\n\tiverilog -DFAST -o s.vvp mux.v tb.v\n"
HEAD = "module tb; reg s; reg [3:0] a = 0; wire [3:0] y;\n  mux dut(.s(s), .a(a), .y(y));\n"
TAIL = "  initial #5 $finish;\nendmodule\n"


def _fed(tmp: Path, tb: str, make: str = MAKE) -> tuple[tuple[str, ...], str]:
    for name, text in {"mux.v": MUX, "Makefile": make, "tb.v": HEAD + tb + TAIL}.items():
        (tmp / name).write_text(text)
    got = tb_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig(), root=tmp))
    return got.ports, got.source


FORMS = {
    "empty ifdef": "`ifdef FAST\n  // s left as it powers up\n`else\n  initial s = 1'b0;\n`endif\n",
    "under a tool macro": "initial begin\n`ifdef __ICARUS__\n `ifdef FAST\n  // as it powers up\n"
    " `else\n  s = 1'b0;\n `endif\n`else\n  s = 1'b0;\n`endif\nend\n",
    "no else": "`ifndef FAST\n  initial s = 1'b0;\n`endif\n",
    "one line": "initial begin `ifndef FAST s = 1'b0; `endif end\n",
    "written later": "`ifdef FAST\n  initial #3 s = 1'b0;\n`else\n  initial s = 1'b0;\n`endif\n",
    "initializer": "`ifdef FAST\n  reg u;\n`else\n  reg u = 1'b0;\n`endif\n  initial s = u;\n",
    "through a define": "`ifndef FAST\n  `define INIT\n`endif\n`ifdef INIT\n"
    "  initial s = 1'b0;\n`endif\n",
    "elsif": "`ifdef SLOW\n  initial s = 1'b1;\n`elsif FAST\n`else\n  initial s = 1'b0;\n`endif\n",
}


@pytest.mark.parametrize("tb", FORMS.values(), ids=FORMS.keys())
def test_a_write_another_build_drops_leaves_the_input_x(tmp_path: Path, tb: str) -> None:
    make = MAKE.replace("-DFAST", "-DFAST -DSLOW")
    ports, source = _fed(tmp_path, tb, make)
    assert ports == ("s",)
    assert "elaborated so" in source and "`FAST" in source


def test_the_else_a_configured_macro_leaves_is_another_builds(tmp_path: Path) -> None:
    """rtlopt defines SYNTHESIS; a simulation build leaves it undefined: the write under it
    is gone there."""
    tb = "`ifdef SYNTHESIS\n  initial s = 1'b0;\n`endif\n"
    ports, source = _fed(tmp_path, tb)
    assert ports == ("s",) and "leave it undefined" in source


def test_a_write_every_configuration_makes_or_no_build_enters_feeds_nothing(
    tmp_path: Path,
) -> None:
    both = "  initial s = 1'b1;\n`ifdef FAST\n`else\n  initial a = 4'd1;\n`endif\n"
    assert _fed(tmp_path, both) == ((), "")
    unbuilt = "`ifdef NOBODY\n`else\n  initial s = 1'b0;\n`endif\n"
    assert _fed(tmp_path, unbuilt) == ((), "")


def test_left_branches_names_the_empty_branches_a_build_enters() -> None:
    code = (
        "`ifdef A\n`else\nx\n`endif\n"  # 1-4: the empty `ifdef A
        "`ifndef B\ny\n`endif\n"  # 5-7: the missing `else of `ifndef B
        "`ifdef C\nz\n`endif\n"  # 8-10: C undefined, its missing `else is taken
        "`ifdef D\n`endif\n"  # 11-12: nothing to drop
    )
    got = {line: e for line, e in td.left_branches(code, [])}
    assert got == {1: ({"A"}, set()), 5: ({"B"}, set())}
    assert dict(td.left_branches(code, ["C"]))[8] == (set(), {"C"})
