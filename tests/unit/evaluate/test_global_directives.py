"""A directive whose effect reaches the whole simulation (the global time precision, the cell
marking, a legacy or keyword directive) that the candidate writes and the repository's file
does not, or a module of the candidate read in another time scale than the repository's
module, is unchecked (``evaluate/_global_directives.py``, through ``_placement.state_left``)."""

from __future__ import annotations

import pytest

from rtlopt.evaluate._placement import state_left

MUX = (
    "module mux(input s, input [3:0] a, input [3:0] b, output [3:0] y);\n"
    "  assign y = s ? a : b;\nendmodule\n"
)
FILE = "`timescale 1ns/1ps\n" + MUX


def _why(cand: str, file_text: str = FILE, copy: bool = False, before: tuple = ()) -> str:
    start = file_text.index("module mux")
    end = file_text.index("endmodule", start) + len("endmodule")
    return state_left(cand, file_text, (start, end), list(before), "mux", copy_of_file=copy)


@pytest.mark.parametrize(
    "cand",
    [
        "`timescale 1ns/1fs\n" + MUX + "`timescale 1ns/1ps\n",  # the precision, restored after
        "`timescale 1ns/1fs " + MUX.replace("\n", " ") + " `timescale 1ns/1ps\n",
        "`celldefine\n" + MUX + "`endcelldefine\n",
        "`resetall\n`timescale 1ns/1ps\n" + MUX,
        MUX + "`timescale 1ns/1fs\nmodule h(input a); endmodule\n`timescale 1ns/1ps\n",
        "`pragma protect begin\n" + MUX,  # a directive the screen's vocabulary knows
    ],
)
def test_a_global_directive_the_repository_does_not_have_is_unchecked(cand: str) -> None:
    assert "directives read otherwise" in _why(cand)


def test_a_module_read_in_another_time_scale_of_the_file_is_unchecked() -> None:
    # the file has both scales; the candidate reads its module in the other one
    file_text = "`timescale 1ns/1fs\nmodule a; endmodule\n`timescale 1ns/1ps\n" + MUX
    cand = "`timescale 1ns/1fs\n" + MUX + "`timescale 1ns/1ps\n"
    assert "another `timescale" in _why(cand, file_text)


@pytest.mark.parametrize(
    ("cand", "copy"),
    [
        (MUX, False),
        ("`timescale 1ns / 1ps\n" + MUX, False),  # the scale it is read in, restated
        (FILE, True),
        ("`timescale 1ns/1fs\nmodule a; endmodule\n`timescale 1ns/1ps\n" + MUX, True),
    ],
)
def test_the_repositorys_own_directives_are_kept(cand: str, copy: bool) -> None:
    file_text = FILE if not copy or cand == FILE else cand
    assert not _why(cand, file_text, copy)


def test_the_scale_before_the_file_may_be_restated() -> None:
    assert not _why("`timescale 1ns/1ps\n" + MUX, MUX, before=("`timescale 1ns/1ps",))
    assert _why("`timescale 1ns/1fs\n" + MUX, MUX, before=("`timescale 1ns/1ps",))


@pytest.mark.parametrize(
    ("ref_decl", "cand_decl", "refused"),
    [
        ("", "  timeprecision 1fs;\n", True),
        ("", "  timeunit 1ns / 1fs;\n", True),
        ("  timeprecision 1ps;\n", "", True),
        ("  timeprecision 1ps;\n", "  timeprecision 1ps ;\n", False),
    ],
)
def test_a_module_declaring_another_time_precision_is_unchecked(
    ref_decl: str, cand_decl: str, refused: bool
) -> None:
    head = "module mux(input s, input [3:0] a, input [3:0] b, output [3:0] y);\n"
    body = "  assign y = s ? a : b;\nendmodule\n"
    file_text = "`timescale 1ns/1ps\n" + head + ref_decl + body
    assert bool(_why(head + cand_decl + body, file_text)) is refused


def test_a_keyword_set_of_another_version_is_unchecked() -> None:
    file_text = '`begin_keywords "1800-2017"\n' + MUX + "`end_keywords\n"
    assert _why('`begin_keywords "1364-1995"\n' + MUX + "`end_keywords\n", file_text)
    assert not _why('`begin_keywords "1800-2017"\n' + MUX + "`end_keywords\n", file_text)
