"""Synthesis pragmas through a macro body (red team w31 F8): Yosys honours the expanded
``/* synthesis translate_off */``, the preprocessed text the proof reads has no comment."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._pragma_macros import pragma_macro_use
from rtlopt.frontend import load_design

INC = "`define OFF /* synthesis translate_off */\n`define ON /* synthesis translate_on */\n"
REF = '`include "inc.vh"\nmodule m(input [7:0] a, output [7:0] y);\n  assign y = a;\nendmodule\n'


def test_a_macro_whose_body_holds_a_pragma_is_found(tmp_path: Path) -> None:
    (tmp_path / "inc.vh").write_text(INC + "`define W 8\n")
    (tmp_path / "m.v").write_text(REF)
    d = load_design(tmp_path / "m.v", "m", ProjectConfig())
    cand = REF.replace(
        "  assign y = a;", "  wire [7:0] t;\n`OFF\n  assign t = a;\n`ON\n  assign y = t;"
    )
    why = pragma_macro_use(d, cand, [REF])
    assert why.startswith("the candidate uses `OFF, whose body (inc.vh:1)"), why
    assert pragma_macro_use(d, REF.replace("[7:0]", "[`W-1:0]"), [REF]) == ""  # a plain macro
    assert "the reference uses `ON" in pragma_macro_use(d, REF, [REF + "`ON\n"])


def test_a_pragma_with_no_space_after_the_word_is_found(tmp_path: Path) -> None:
    """Red team w32 F2: Yosys honours ``/* synthesistranslate_off */``."""
    (tmp_path / "inc.vh").write_text(INC.replace("synthesis translate", "synthesistranslate"))
    (tmp_path / "m.v").write_text(REF)
    d = load_design(tmp_path / "m.v", "m", ProjectConfig())
    assert "uses `OFF" in pragma_macro_use(d, REF + "`OFF\n", [REF])
