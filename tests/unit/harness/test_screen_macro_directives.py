"""A candidate calling a repository macro whose body holds a compiler directive (round 79
case 23: `` `define MK_ONEHOT `define MUX_ONEHOT ``) sets what every file after the module is
read with, as a literal `` `define `` would: refused, also through a nested macro; a macro
the reference's module itself uses, or one that expands to plain code, is not."""

from __future__ import annotations

from pathlib import Path

from rtlopt.harness import screen_candidate
from tests.unit.harness.test_harness_text import file_design

DEFS = "`define MK_ONEHOT `define MUX_ONEHOT\n`define MK_TWICE `MK_ONEHOT\n`define ONES 4'hf\n"
TOP = "module top(input [3:0] a, output [3:0] y);\n  assign y = a;\nendmodule\n"


def test_a_macro_expanding_to_a_define_is_refused(tmp_path: Path) -> None:
    d = file_design(tmp_path, DEFS + TOP)
    cand = TOP.replace("endmodule", "  `MK_ONEHOT\nendmodule")
    assert any("expands to the compiler directive `define" in p for p in screen_candidate(cand, d))
    nested = TOP.replace("endmodule", "  `MK_TWICE\nendmodule")
    assert any("`MK_TWICE expands" in p for p in screen_candidate(nested, d))


def test_plain_macros_and_the_references_own_are_no_finding(tmp_path: Path) -> None:
    d = file_design(tmp_path, DEFS + TOP)
    plain = TOP.replace("assign y = a;", "assign y = a & `ONES;")
    assert not [p for p in screen_candidate(plain, d) if "expands" in p]
    own = TOP.replace("endmodule", "  `MK_ONEHOT\nendmodule")
    (tmp_path / "own").mkdir()
    d2 = file_design(tmp_path / "own", DEFS + own)
    assert not [p for p in screen_candidate(own, d2) if "expands" in p]
