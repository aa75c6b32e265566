"""Pass-through directives are tokens, read anywhere on their line: after code
(``endmodule `default_nettype none``) as well as on a line of their own. The state a
candidate leaves and the state it is read in come from those tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._build_modes import modes_named
from rtlopt.evaluate._placement import state_left
from rtlopt.frontend._unit import directive_skeleton
from rtlopt.harness._screen import _trailing_pass_through
from rtlopt.verilog import PASS_THROUGH_TOKEN, blank_comments

MUX = (
    "module mux(input s, input [3:0] a, input [3:0] b, output [3:0] y);\n"
    "  assign y = s ? a : b;\nendmodule"
)


def _left(cand: str, file_text: str = MUX + "\n") -> str:
    start = file_text.index("module mux")
    end = file_text.index("endmodule") + len("endmodule")
    return state_left(cand, file_text, (start, end), [], "mux")


@pytest.mark.parametrize(
    "tail",
    [
        " `default_nettype none",
        " /* c */ `celldefine",
        "\nwire w; `unconnected_drive pull1",
        " `resetall `default_nettype none",
    ],
)
def test_a_directive_after_code_on_its_line_changes_the_state_left(tail: str) -> None:
    assert _left(MUX + tail + "\n")


def test_the_same_directives_on_the_same_lines_leave_the_same_state() -> None:
    text = MUX + " `default_nettype none\n"
    assert not _left(text, text)


def test_a_directive_in_a_comment_or_a_word_is_no_token() -> None:
    code = blank_comments("// `default_nettype none\nwire `default_nettype_x;\n", strings=False)
    assert not list(PASS_THROUGH_TOKEN.finditer(code))
    m = next(PASS_THROUGH_TOKEN.finditer("end `timescale 1 ns / 1 ps module m;"))
    assert m.group(0) == "`timescale 1 ns / 1 ps"


def test_a_conditional_tail_on_one_line_is_read_token_by_token() -> None:
    # `endif on the `ifndef's line closes it; code after the directives is no pass-through
    code = "module m; endmodule\n`ifndef YOSYS `default_nettype wire `endif\n"
    assert _trailing_pass_through(code, code.index("`ifndef"))
    code = "module m; endmodule\n`ifndef YOSYS wire x; `endif\n"
    assert not _trailing_pass_through(code, code.index("`ifndef"))


def test_the_macro_state_of_a_file_keeps_a_define_after_code(tmp_path: Path) -> None:
    text = 'module a; endmodule `define W 4\nwire [1:0] s = "`ifdef X";\n'
    skel = directive_skeleton(text, tmp_path / "a.v")
    assert "`define W 4" in skel and "endmodule" not in skel and "`ifdef" not in skel


def test_build_modes_read_a_nettype_after_code() -> None:
    assert modes_named(["module a; endmodule `default_nettype none\n"])[1] == {"none"}


@pytest.mark.tools
@pytest.mark.parametrize(
    ("use", "made"),
    [("`NONE", True), ("`PS", True), ("", False), ("`W", False)],
)
def test_a_directive_a_macro_writes_inside_the_module_is_unchecked(
    tmp_path: Path, use: str, made: bool
) -> None:
    from rtlopt.config import Config
    from rtlopt.evaluate._placement import macro_made_state
    from rtlopt.evaluate._preprocess import UnitText
    from rtlopt.frontend import load_design

    f = tmp_path / "top.v"
    f.write_text(
        "`define NONE `default_nettype none\n`define PS `timescale 1ns/1fs\n`define W 4\n"
        "module top (input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n"
    )
    unit = UnitText(load_design(f, "top", Config().project), tmp_path / "unit")
    cand = f"module top (input [3:0] a, output [3:0] y);\n  assign y = ~a;\n{use}\nendmodule\n"
    pp = unit.candidate(cand, tmp_path / "c")
    assert bool(macro_made_state(cand, pp.text, pp.lines)) is made, pp.text


def test_the_verilog_view_of_another_file_keeps_a_directive_after_code() -> None:
    from rtlopt.check._closure import verilog_view

    view = verilog_view("Notes.\nmodule m; endmodule `default_nettype none\nprose `define X 1\n")
    assert "`default_nettype none" in view and "`define X 1" in view and "prose" not in view


@pytest.mark.tools
@pytest.mark.parametrize(("use", "made"), [("`NONE", True), ("`W", False), ("", False)])
def test_the_view_path_reads_a_directive_a_macro_writes(
    tmp_path: Path, use: str, made: bool
) -> None:
    from rtlopt.config import Config
    from rtlopt.evaluate._placement import macro_made_in
    from rtlopt.frontend import load_design
    from rtlopt.harness._expanded import expanded

    head = "module top (input logic [3:0] a, output logic [3:0] y);\n"
    f = tmp_path / "top.sv"
    f.write_text("`define NONE `default_nettype none\n`define W 4\n" + head + "endmodule\n")
    design = load_design(f, "top", Config().project)
    cand = f"{head}{use}\n  assign y = ~a;\nendmodule\n"
    body = expanded(cand, design, directives=True)
    context = expanded("", design, directives=True)
    assert bool(macro_made_in(cand, body, context)) is made, body
