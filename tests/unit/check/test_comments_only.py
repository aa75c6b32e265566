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
    assert comment_only_files(changes, base, new) == ["rtl/r.v", "rtl/s.v"]
    # a file that expands `__LINE__: lines that moved may change a value
    (new / "rtl" / "t.v").write_text(
        "module t (output [15:0] y); assign y = `__LINE__; endmodule\n"
    )
    assert comment_only_files(changes, base, new) == ["rtl/s.v"]
    # bytes that are not UTF-8 are never read as text
    (new / "rtl" / "s.v").write_bytes(MOD.encode() + b"// \xff\n")
    assert comment_only_files(changes, base, new) == []


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
