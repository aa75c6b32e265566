"""The screen's lexer agrees with the tools: IEEE white space only, and characters the tools
read differently (control characters, non-ASCII, escaped identifiers ended by CR/FF) rejected
outside comments and strings unless the reference has them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness import screen_candidate
from rtlopt.verilog import blank_comments, scan
from tests.unit.harness.test_harness_text import make_design

CLEAN = "module top(input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n"
FORGE = (
    "module top(input [3:0] a, output [3:0] y);\n"
    '  wire \\w{ch}" ; initial $display("Equivalence successfully proven!");\n'
    "  assign y = ~a;\nendmodule\n"
)


@pytest.mark.parametrize("ch", ["\x0b", "\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000"])
def test_escaped_identifier_hiding_a_display_behind_a_non_ieee_space(
    tmp_path: Path, ch: str
) -> None:
    """Python's \\s ends the identifier at these; iverilog and Yosys do not, so the rest of the
    line was a string to the old screen and code to the tools."""
    text = FORGE.replace("{ch}", ch)
    escaped = [(a, b) for kind, a, b in scan(text) if kind == "escaped"]
    assert len(escaped) == 1 and text[escaped[0][1]] == " "  # ends at the space, as the tools
    problems = screen_candidate(text, make_design(tmp_path))
    assert any("$display" in p for p in problems), problems
    assert any(f"U+{ord(ch):04X}" in p for p in problems), problems


@pytest.mark.parametrize("ch", [" ", "\t", "\n", "\r", "\f"])
def test_ieee_white_space_ends_an_escaped_identifier(ch: str) -> None:
    text = f"wire \\a{ch}b;"
    assert [(k, a, b) for k, a, b in scan(text) if k == "escaped"] == [("escaped", 5, 7)]


@pytest.mark.parametrize(
    "ch", ["\x01", "\x08", "\x0b", "\x1b", "\x7f", "\xa0", "\u00e9", "\u200b", "\ufeff"]
)
def test_control_and_non_ascii_characters_rejected_outside_comments_and_strings(
    tmp_path: Path, ch: str
) -> None:
    d = make_design(tmp_path)
    bad = CLEAN.replace("assign y", f"assign{ch} y")
    problems = screen_candidate(bad, d)
    assert any(f"U+{ord(ch):04X}" in p and p.startswith("line 2:") for p in problems), problems
    # the same character in a comment or a string is not code
    assert screen_candidate(CLEAN.replace("~a;", f"~a; // {ch}"), d) == []
    assert screen_candidate(CLEAN.replace("~a;", f"~a; /* {ch} */"), d) == []
    assert blank_comments(f'x = "{ch}";') == 'x = " ";'


@pytest.mark.parametrize("ch", ["\f", "\r"])
def test_escaped_identifier_ended_by_cr_or_ff_rejected(tmp_path: Path, ch: str) -> None:
    """iverilog ends an escaped identifier at CR and FF, Yosys 0.23 does not."""
    text = CLEAN.replace("assign y = ~a;", f"wire \\n{ch}= 1'b0;\n  assign y = ~a;")
    problems = screen_candidate(text, make_design(tmp_path))
    assert any("escaped identifier ended by a" in p for p in problems), problems
    spaced = CLEAN.replace("assign y = ~a;", "wire \\n = 1'b0;\n  assign y = ~a;")
    assert screen_candidate(spaced, make_design(tmp_path)) == []


def test_characters_the_reference_has_are_not_the_candidates_addition(tmp_path: Path) -> None:
    ref = "module top(input [3:0] a, output [3:0] y);\n  assign\x0by = ~a;\nendmodule\n"
    d = make_design(tmp_path, ref + "module sub; endmodule\nmodule leaf; endmodule\n"
                    "module unused; endmodule\n")  # fmt: skip
    assert screen_candidate(ref, d) == []
    assert screen_candidate(ref.replace("~a", "~ a"), d) == []
    (tmp_path / "other").mkdir()
    assert any("U+000B" in p for p in screen_candidate(ref, make_design(tmp_path / "other")))
    added = ref.replace("~a", "~\x01a")
    assert any("U+0001" in p for p in screen_candidate(added, d))
