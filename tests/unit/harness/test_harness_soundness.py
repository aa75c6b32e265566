"""Unit tests: directive comments and attributes in screening, the X policy in the testbench,
the byte-identical shortcut (no tools)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import HarnessConfig
from rtlopt.formal import identical_source
from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import build_testbench, screen_candidate
from rtlopt.harness._screen import attributes, tool_pragmas
from rtlopt.verilog import blank_comments, comments

REF = "module m(input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n"


def _design(tmp_path: Path, text: str = REF, name: str = "m") -> Design:
    f = tmp_path / f"{name}.v"
    f.write_text(text)
    start = text.index("module")
    end = text.index("endmodule") + len("endmodule")
    m = Module(name, f, 1, start, end, (Port("a", "input", 4, 3, 0), Port("y", "output", 4, 3, 0)))
    return Design(tmp_path, m, SourceSet(tmp_path, (f,)), {name: m}, (f,))


def test_comments_lists_every_comment_with_its_offset() -> None:
    text = 'a // one\n"not // a comment" /* two\n */ \\esc//aped b'
    found = comments(text)
    assert [c for _, c in found] == ["// one", "/* two\n */"]
    assert all(text[o : o + len(c)] == c for o, c in found)


@pytest.mark.parametrize(
    "comment",
    [
        "// synopsys translate_off",
        "//synopsys translate_on",
        "/* synthesis translate_off */",
        "// pragma translate_off",
        "// cadence translate_off",
        "// ambit synthesis off",
        "// synopsys full_case parallel_case",
        "/* synthesis syn_black_box */",
        "// my synthesis_off marker",
        "// a full_case here",
        "// Synopsys Translate_Off",
        "// exemplar translate_off",
        "// synplify syn_keep",
    ],
)
def test_tool_pragmas_recognised(comment: str) -> None:
    assert tool_pragmas(f"wire w; {comment}\nassign w = 1;")


@pytest.mark.parametrize(
    "comment",
    [
        "// Synthesis-friendly rewrite",
        "// synthesis: fewer gates",
        "// uses a pragma-free style",
        "// translate the index",
        "/* case split */",
    ],
)
def test_ordinary_comments_are_not_pragmas(comment: str) -> None:
    assert not tool_pragmas(f"wire w; {comment}\n")


def test_attributes_but_not_event_star() -> None:
    code = blank_comments(
        "always @(*) x = 1; always @( * ) y = 2; (* keep = 1 *) wire w;\n(*full_case*) case (s)"
    )
    assert [k for _, k in attributes(code)] == ["keep = 1", "full_case"]


def test_screening_rejects_pragmas_and_attributes_unless_the_reference_has_them(
    tmp_path: Path,
) -> None:
    d = _design(tmp_path)
    cand = REF.replace("~a;", "// synopsys translate_off\n ~a;\n// synopsys translate_on")
    problems = screen_candidate(cand, d)
    assert any("translate_off" in p for p in problems) and any("line 2" in p for p in problems)
    assert any(
        "attribute" in p
        for p in screen_candidate(REF.replace("assign", "(* keep *) wire k; assign"), d)
    )
    # the reference carries the same directives: a region of its content is allowed; other
    # content in such a region is not (Yosys drops it, simulation reads it)
    carried = REF.replace(
        "endmodule", "// synopsys translate_off\n// synopsys translate_on\nendmodule"
    )
    (tmp_path / "b").mkdir()
    assert (
        screen_candidate(carried.replace("~a", "a ^ 4'hf"), _design(tmp_path / "b", carried)) == []
    )
    assert any(
        "translate_off region is not allowed" in p
        for p in screen_candidate(cand, _design(tmp_path / "b", carried))
    )
    assert screen_candidate(REF.replace("~a;", "~a; // plain note"), d) == []


@pytest.mark.parametrize(
    "snippet, needle",
    [
        ("always @(*) assume (a != 0);", "assumptions"),
        ("always @(*) assert (a != 0);", "assertions"),
        ("wire p, q; tran t(p, q);", "tran"),
        ("pullup (w);", "pullup"),
        ("real r;", "real"),
        ("defparam u.W = 3;", "defparam"),
        ("specify (a => y) = 1; endspecify", "specify"),
    ],
)
def test_screening_rejects_constructs_that_mislead_a_tool(
    tmp_path: Path, snippet: str, needle: str
) -> None:
    d = _design(tmp_path)
    cand = REF.replace("endmodule", snippet + "\nendmodule")
    assert any(needle in p for p in screen_candidate(cand, d)), screen_candidate(cand, d)


def test_screening_rejects_modules_named_like_yosys_cells(tmp_path: Path) -> None:
    d = _design(tmp_path)
    cand = REF + "module \\$_AND_ (input A, input B, output Y); assign Y = A | B; endmodule\n"
    assert any("Yosys" in p for p in screen_candidate(cand, d))


def test_testbench_x_policy(tmp_path: Path) -> None:
    d = _design(tmp_path)
    refine = build_testbench(d, HarnessConfig(), "s3cr3t").text
    assert "(strict_ || ref_y[k_] !== 1'bx) && ref_y[k_] !== cand_y[k_]" in refine
    strict = build_testbench(d, HarnessConfig(strict_x=True), "s3cr3t").text
    assert "1'bx" not in strict and "diff_ = 1;" in strict
    assert (
        build_testbench(d, HarnessConfig(strict_x=True), "s").digest
        != build_testbench(d, HarnessConfig(), "s").digest
    )


def test_identical_source_is_byte_identical_only(tmp_path: Path) -> None:
    d = _design(tmp_path)
    assert identical_source(d, REF)
    assert identical_source(d, REF.replace("\n", "\r\n"))
    assert identical_source(d, "`timescale 1ns/1ps\n// header\n" + REF)
    assert not identical_source(d, REF.replace("~a", "~ a"))
    assert not identical_source(d, REF.replace("~a;", "~a; // note"))
    assert not identical_source(d, REF + REF)
    assert not identical_source(d, REF + "module extra; endmodule\n")
    assert not identical_source(
        d, "// synopsys translate_off\n" + REF + "// synopsys translate_on\n"
    )
    assert not identical_source(d, "`default_nettype wand\n" + REF)


FILE = (
    "`timescale 1ns/1ps\n`define W 4\n// synopsys translate_off\n"
    "module other(input a, output y); assign y = a; endmodule\n// synopsys translate_on\n"
    + REF.replace("[3:0]", "[`W-1:0]")
    + "`ifdef FORMAL\nmodule checker_m; endmodule\n`endif\n"
)


def test_identical_source_accepts_a_copy_of_the_whole_file(tmp_path: Path) -> None:
    """The target's whole file (other modules, defines, pragmas the repository has) is the
    reference byte for byte; any difference the tools read is not."""
    d = _design(tmp_path, FILE)
    assert identical_source(d, FILE)
    assert identical_source(d, FILE.replace("\n", "\r\n"))
    assert not identical_source(d, FILE.replace("`define W 4", "`define W 5"))
    assert not identical_source(d, FILE.replace("assign y = a;", "assign y = ~a;"))
    assert not identical_source(d, FILE.replace("translate_on", "translate_on "))
    assert not identical_source(d, FILE + "\n")
    assert not identical_source(d, "`define FORMAL\n" + FILE)
    assert not identical_source(d, "")


def test_identical_source_whole_file_compares_bytes(tmp_path: Path) -> None:
    """A file that is not UTF-8 is never matched through replaced characters."""
    d = _design(tmp_path, REF)
    d.target.file.write_bytes(b"// \xff\n" + REF.encode())
    assert not identical_source(d, "// \ufffd\n" + REF)
    assert not identical_source(d, "// \udcff\n" + REF)
