"""Module spans, header comments and splicing on raw text."""

from __future__ import annotations

from rtlopt.frontend import find_span, header_comment, module_spans, splice_module

SRC = """// File header line 1
// File header line 2
`timescale 1ns/1ps
/* a comment that says module fake(); endmodule */
// The adder: adds.
module add(input a, output y); // endmodule in a comment
  initial $display("module x endmodule");
  assign y = a;
endmodule

module \\esc-aped (input a);
endmodule
"""


def test_spans_skip_comments_and_strings() -> None:
    spans = module_spans(SRC)
    assert [s.name for s in spans] == ["add", "\\esc-aped"]
    add = spans[0]
    assert SRC[add.start :].startswith("module add(")
    assert SRC[: add.end].endswith("endmodule")
    assert add.line == 6
    assert SRC[spans[1].start : spans[1].end].endswith("endmodule")


def test_find_span_prefers_line() -> None:
    text = "`ifdef A\nmodule m(); endmodule\n`else\nmodule m(); endmodule\n`endif\n"
    first, second = find_span(text, "m", 1), find_span(text, "m", 4)
    assert first is not None and second is not None
    assert (first.line, second.line) == (2, 4)
    assert find_span(text, "nope") is None


def test_header_comment_has_file_header_and_block_above() -> None:
    span = find_span(SRC, "add")
    assert span is not None
    hdr = header_comment(SRC, span.start)
    assert "File header line 1" in hdr and "File header line 2" in hdr
    assert "The adder: adds." in hdr
    assert "timescale" not in hdr


def test_splice_keeps_everything_else() -> None:
    span = find_span(SRC, "add")
    assert span is not None
    new = splice_module(SRC, span, "module add(input a, output y); assign y = ~~a; endmodule\n")
    assert new[: span.start] == SRC[: span.start]
    assert new.endswith(SRC[span.end :])
    assert "~~a" in new and "initial" not in new
