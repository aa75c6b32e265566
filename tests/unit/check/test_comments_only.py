"""A change of comments only (``rtlopt.check._comments``): nothing to prove where no tool
reads the two texts differently, and judged wherever one might."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._comments import comment_only_files, comments_only

MOD = (
    "// a register\n"
    "module r (input clk, input [3:0] d, output reg [3:0] q);\n"
    "  always @(posedge clk) q <= d; // the update\n"
    "endmodule\n"
)


@pytest.mark.parametrize(
    ("new", "same"),
    [
        (MOD.replace("// a register", "// a 4-bit register"), True),
        (MOD.replace("// the update", "/* the\n update */"), False),  # code lines moved
        (MOD + "// trailing note\n", True),
        (MOD.replace("q <= d; // the update", "q <= d;"), True),
        (MOD.replace("  always", "\talways"), True),  # white space only
        # a comment that separated two tokens, removed: `- -d` reads `--d` in SystemVerilog
        (MOD.replace("<= d", "<= -/**/-d"), False),
        # a tool directive added, moved or edited is code
        (MOD.replace("// the update", "// synopsys translate_off"), False),
        (MOD.replace("// the update", "/* verilator lint_off WIDTH */"), False),
        (MOD.replace("// the update", "/* ivl_synthesis_off */"), False),
        (MOD.replace("// a register", "// a register\n`define W 4 // width"), False),
        (MOD.replace("d; // the update", "d + 1'b1;"), False),
        # a line break is a token boundary for a directive: the define ends at it
        (MOD.replace("// a register", "`define A 1 /* x */"), False),
    ],
)
def test_comments_only_tells_a_comment_from_code(new: str, same: bool) -> None:
    assert comments_only(MOD, new) is same


def test_a_comment_in_a_macro_body_counts_as_code() -> None:
    old = "`define ADD(a, b) \\\n  (a) + (b) // sum\nmodule m; endmodule\n"
    assert not comments_only(old, old.replace("// sum", "// the sum"))
    assert comments_only(old, old.replace("endmodule", "endmodule // top"))
    # a comment that swallows code is no comment-only change
    assert not comments_only(old, old.replace("module m;", "module m; // top"))


def test_a_moved_line_is_nothing_to_prove_only_without_line_macros(tmp_path: Path) -> None:
    base, new = tmp_path / "base", tmp_path / "new"
    for tree in (base, new):
        (tree / "rtl").mkdir(parents=True)
    (base / "rtl" / "r.v").write_text(MOD)
    (new / "rtl" / "r.v").write_text("// Copyright\n// License: MIT\n" + MOD)
    (base / "rtl" / "s.v").write_text(MOD.replace("module r", "module s"))
    (new / "rtl" / "s.v").write_text(MOD.replace("module r", "module s") + "// end\n")
    changes = {"rtl/r.v": "M", "rtl/s.v": "M"}
    assert comment_only_files(changes, base, new, elsewhere=()) == ["rtl/r.v", "rtl/s.v"]
    # a file that expands `__LINE__: lines that moved may change a value
    (new / "rtl" / "t.v").write_text(
        "module t (output [15:0] y); assign y = `__LINE__; endmodule\n"
    )
    assert comment_only_files(changes, base, new, elsewhere=()) == ["rtl/s.v"]
    # bytes that are not UTF-8 are never read as text
    (new / "rtl" / "s.v").write_bytes(MOD.encode() + b"// \xff\n")
    assert comment_only_files(changes, base, new, elsewhere=()) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # white space inside a string is data (red team w17)
        ('localparam [31:0] K = "a  b";\n', 'localparam [31:0] K = "a b";\n'),
        # a blank line ends a macro body: deleting it moves the next line into the macro
        ("`define EXTRA \\\n\nassign z = ~a;\n", "`define EXTRA \\\nassign z = ~a;\n"),
        # blanks after the backslash end the macro in Yosys, not in iverilog
        ("`define EXTRA \\   \nassign z = ~a;\n", "`define EXTRA \\\nassign z = ~a;\n"),
        # a no-break space is no white space to any tool (a syntax error)
        ("  assign y = ~a;\n", "\u00a0 assign y = ~a;\n"),
        # a carriage return after a continuation's backslash
        ("`define E \\\r\n  1\n", "`define E \\\n  1\n"),
    ],
)
def test_what_reads_as_white_space_only_to_python_is_code_to_a_tool(old: str, new: str) -> None:
    assert not comments_only(old, new)


def test_white_space_between_tokens_and_blank_lines_outside_macros_stay_free() -> None:
    old = "module m;\n\n  assign y = ~a;   \nendmodule\n"
    assert comments_only(old, "module m;\n\tassign y = ~a;\nendmodule\n", lines_matter=False)
    assert comments_only(old, old.replace("~a;", '~a; /* "quoted" */'))


#: A stringified macro argument over two lines (red team w20 F7): Yosys 0.23 keeps the
#: argument's blanks and comments in the string, so they are part of the value.
STRINGIFY = (
    '`define S(x) `"x`"\n'
    "module tgt (input [63:0] a, output [63:0] y);\n"
    "  localparam [63:0] K = `S(p\n"
    "  q);\n"
    "  assign y = a ^ K; // the key\n"
    "endmodule\n"
)


@pytest.mark.parametrize(
    "old",
    [
        STRINGIFY,
        STRINGIFY.replace("`S(p", "`S /* a */ (p"),  # blanks and comments before the list
        # a macro body that opens the list: where it ends is not known from this text
        STRINGIFY.replace("`S(p", "`OPEN p"),
    ],
)
@pytest.mark.parametrize("edit", ["      q);", "  /*22*/q);"])
def test_a_macro_calls_argument_list_is_compared_byte_for_byte(old: str, edit: str) -> None:
    # the argument's second line re-indented or given a comment
    assert not comments_only(old, old.replace("  q);", edit))


def test_comments_around_a_macro_call_stay_free() -> None:
    assert comments_only(STRINGIFY, STRINGIFY.replace("// the key", "// the secret key"))
    assert comments_only(STRINGIFY, STRINGIFY.replace("  assign", "    assign"))


@pytest.mark.parametrize("blank", ["\v", "\f", "\x1c", "\x85", "\u2028"])
def test_only_blank_tab_and_line_ends_are_white_space(blank: str) -> None:
    # red team w20 F9: iverilog 11 refuses a vertical tab, Yosys 0.23 also a form feed
    old = "module m (input a, output y);\n  assign y = ~a;\nendmodule\n"
    assert not comments_only(old, old.replace("  assign", blank + "  assign"))
    assert not comments_only(old, old.replace("~a;", "~a;" + blank), lines_matter=False)
    assert comments_only(old, old.replace("  assign", "\t assign"))


def _moved_line(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    base, new = tmp_path / "base", tmp_path / "new"
    for tree in (base, new):
        (tree / "rtl").mkdir(parents=True)
    text = '`include "here.vh"\nmodule t (input [7:0] a, output [7:0] y);\n  assign y = a;\n'
    (base / "rtl" / "t.v").write_text(text + "endmodule\n")
    (new / "rtl" / "t.v").write_text(
        text.replace("  assign", "  // moved\n  assign") + "endmodule\n"
    )
    return base, new, {"rtl/t.v": "M"}


def test_line_macros_are_searched_outside_the_checkouts_too(tmp_path: Path) -> None:
    # red team w20 F8: a header in a shared include folder outside the repository
    base, new, changes = _moved_line(tmp_path)
    ext = tmp_path / "ext" / "inc"
    ext.mkdir(parents=True)
    (ext / "here.vh").write_text("`define HERE 3\n")
    assert comment_only_files(changes, base, new, elsewhere=[ext]) == ["rtl/t.v"]
    (ext / "sub").mkdir()
    (ext / "sub" / "here.vh").write_text("`define HERE `__LINE__\n")
    assert comment_only_files(changes, base, new, elsewhere=[ext]) == []
    # a listed file outside: it and the headers beside it
    assert comment_only_files(changes, base, new, elsewhere=[ext / "lib.v"]) == []
    # what the design reads is not known: no line moves
    assert comment_only_files(changes, base, new, elsewhere=None) == []


@pytest.mark.parametrize(
    "include",
    ['`include "/abs/here.vh"', '`include "../up/here.vh"', "`include `HEADER"],
)
def test_an_include_the_search_cannot_follow_keeps_lines_in_place(
    tmp_path: Path, include: str
) -> None:
    base, new, changes = _moved_line(tmp_path)
    assert comment_only_files(changes, base, new, elsewhere=()) == ["rtl/t.v"]
    (new / "rtl" / "u.vh").write_text(include + "\n")
    assert comment_only_files(changes, base, new, elsewhere=()) == []


def test_a_macro_that_builds_an_argument_list_keeps_every_file_judged(tmp_path: Path) -> None:
    # a macro body that opens an argument list (`OPEN p  q `CLOSE): the blanks between its uses
    # are a stringified argument, on lines no backtick marks
    base, new = tmp_path / "base", tmp_path / "new"
    for tree in (base, new):
        (tree / "rtl").mkdir(parents=True)
    text = "module t (output [63:0] y);\n  assign y = `OPEN p\n  q\n  `CLOSE;\nendmodule\n"
    (base / "rtl" / "t.v").write_text(text)
    (new / "rtl" / "t.v").write_text(text.replace("\n  q\n", "\n      q\n"))
    changes = {"rtl/t.v": "M"}
    ext = tmp_path / "ext"
    ext.mkdir()
    (ext / "m.vh").write_text('`define S(x) `"x`"\n`define OPEN `S(\n`define CLOSE )\n')
    assert comment_only_files(changes, base, new, elsewhere=[ext]) == []
    (ext / "m.vh").write_text('`define S(x) `"x`"\n`define OPEN (\n`define CLOSE )\n')
    assert comment_only_files(changes, base, new, elsewhere=[ext]) == []
    (ext / "m.vh").write_text("`define OPEN (8'd1 + \n`define CLOSE 8'd2) // ( balanced\n")
    assert comment_only_files(changes, base, new, elsewhere=[ext]) == []
    (ext / "m.vh").write_text("`define OPEN (8'd1)\n`define CLOSE 8'd2 // (\n")
    assert comment_only_files(changes, base, new, elsewhere=[ext]) == ["rtl/t.v"]
