"""The SEARCH/REPLACE edit format: apply, conflict, partial overlap, ambiguity, whitespace."""

from __future__ import annotations

import pytest

from rtlopt.policy._edits import (
    EditBlock,
    EditError,
    apply_edits,
    changed_lines,
    has_edit_blocks,
    parse_edit_blocks,
)

PARENT = """module m(input [3:0] a, b, output [3:0] y, output z);
  wire [3:0] t;
  assign t = a & b;
  assign y = t | a;
  // same line twice below
  assign z = ^t;
  assign z2 = ^t;
endmodule
"""


def block(search: str, replace: str) -> str:
    return f"<<<<<<< SEARCH\n{search}\n=======\n{replace}\n>>>>>>> REPLACE\n"


def apply(answer: str, parent: str = PARENT) -> str:
    return apply_edits(parent, parse_edit_blocks(answer)).text


def test_apply_changes_only_the_matched_lines() -> None:
    answer = "```verilog\n" + block("  assign y = t | a;", "  assign y = a;") + "```"
    out = apply(answer)
    assert out == PARENT.replace("  assign y = t | a;", "  assign y = a;")
    res = apply_edits(PARENT, parse_edit_blocks(answer))
    assert res.spans == ((3, 4),) and res.notes == ()
    assert changed_lines(PARENT, out) == (3,)


def test_blocks_are_located_in_the_parent_in_any_order() -> None:
    answer = block("  assign y = t | a;", "  assign y = a;") + block(
        "  assign t = a & b;", "  assign t = b & a;\n  // swapped"
    )
    out = apply(answer)
    assert "assign t = b & a;\n  // swapped\n  assign y = a;" in out
    # the second block's SEARCH is the parent's text, not the first block's output
    assert apply_edits(PARENT, parse_edit_blocks(answer)).spans == ((2, 3), (3, 4))


def test_not_found_names_the_block_and_the_closest_lines() -> None:
    answer = block("  assign t = a & b;", "  assign t = 0;") + block(
        "  assign y = t | b;", "  assign y = 0;"
    )
    with pytest.raises(EditError) as exc:
        apply(answer)
    assert exc.value.block == 2
    assert "not found" in str(exc.value) and "line 4" in str(exc.value)
    assert str(exc.value).startswith("edit block 2:")


def test_ambiguous_search_names_every_place() -> None:
    parent = PARENT.replace("assign z2 = ^t;", "assign z = ^t;")
    with pytest.raises(EditError, match=r"edit block 1: .*matches 2 places .*lines 6, 7"):
        apply(block("  assign z = ^t;", "  assign z = 1'b0;"), parent)
    # one more line of context makes it unique
    out = apply(
        block("  // same line twice below\n  assign z = ^t;", "  // x\n  assign z = 1'b0;"), parent
    )
    assert out.count("assign z = ^t;") == 1 and "assign z = 1'b0;" in out


def test_partial_overlap_is_a_conflict_naming_both_blocks() -> None:
    answer = block("  assign t = a & b;\n  assign y = t | a;", "  X") + block(
        "  assign y = t | a;\n  // same line twice below", "  Y"
    )
    with pytest.raises(EditError) as exc:
        apply(answer)
    assert exc.value.block == 2
    assert "overlaps block 1" in str(exc.value) and "lines 3-4 and lines 4-5" in str(exc.value)


def test_identical_duplicate_block_is_dropped_not_a_conflict() -> None:
    b = block("  assign y = t | a;", "  assign y = a;")
    res = apply_edits(PARENT, parse_edit_blocks(b + b))
    assert res.text == PARENT.replace("t | a", "a") and "repeats block 1" in res.notes[0]


def test_whitespace_only_differences_match_and_keep_the_parent_indentation() -> None:
    parent = PARENT.replace("  assign y = t | a;", "\t\tassign y = t | a;   ")
    answer = block("assign   y = t | a;", "assign y = a;\nassign w = 0;")
    res = apply_edits(parent, parse_edit_blocks(answer))
    assert "\t\tassign y = a;\n\t\tassign w = 0;\n" in res.text
    assert "whitespace ignored" in res.notes[0]
    # trailing whitespace alone: REPLACE is taken as written
    res2 = apply_edits(parent, parse_edit_blocks(block("\t\tassign y = t | a;", "\t\tassign y=a;")))
    assert "\t\tassign y=a;\n" in res2.text and "trailing whitespace" in res2.notes[0]


def test_empty_search_and_omission_markers_are_rejected() -> None:
    with pytest.raises(EditError, match="edit block 1: its SEARCH part is empty"):
        apply(block("", "  assign q = 1;"))
    with pytest.raises(EditError, match="omission marker"):
        apply(block("  // ... 12 lines omitted (lines 3-14) ...\n  assign z = ^t;", "x"))


def test_malformed_blocks_name_the_block() -> None:
    with pytest.raises(EditError, match=r"edit block 2: .*no ======="):
        parse_edit_blocks(block("a", "b") + "<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n")
    with pytest.raises(EditError, match=r"edit block 1: .*does not end"):
        parse_edit_blocks("<<<<<<< SEARCH\nx\n=======\ny\n```")
    with pytest.raises(EditError, match="no <<<<<<< SEARCH block"):
        parse_edit_blocks("module m; endmodule")
    assert has_edit_blocks("text\n<<<<<<< SEARCH\n") and not has_edit_blocks("module m;")


def test_no_op_block_changes_nothing_and_deletion_is_allowed() -> None:
    res = apply_edits(PARENT, [EditBlock(1, ("  assign z = ^t;",), ("  assign z = ^t;",))])
    assert res.text == PARENT and res.spans == () and "changes nothing" in res.notes[0]
    out = apply(block("  // same line twice below", ""))
    # an empty REPLACE with the block's own blank line is kept as one empty line by the parser
    assert "same line twice" not in out
    assert changed_lines(PARENT, out) != ()


def test_think_text_and_fences_around_blocks_are_ignored() -> None:
    answer = (
        "<think>I will use SEARCH blocks; ======= is the divider</think>\n"
        "```verilog\n" + block("  assign y = t | a;", "  assign y = a;") + "```\n"
    )
    assert apply(answer) == PARENT.replace("t | a", "a")
