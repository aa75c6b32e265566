"""A define is compared by its whole body, continuation lines joined and comments read as
the preprocessor reads them (a value on the line after ``\\`` changed is a changed define)."""

from rtlopt.check._foreign_units import define_changes, foreign_findings

OLD = "`define INV_MASK \\\n  4'b0000\n`define OTHER 1\n"


def test_continuation_line_change() -> None:
    assert define_changes(OLD, OLD.replace("4'b0000", "4'b0111")) == {"INV_MASK"}


def test_comment_and_spacing_change_nothing() -> None:
    new = "`define INV_MASK \\\n  4'b0000   // the mask\n`define OTHER /* one */ 1\n"
    assert define_changes(OLD, new) == set()


def test_block_comment_spanning_lines_hides_no_body() -> None:
    old = "`define A 1 /* x\n y */ + 2\n"
    assert define_changes(old, old.replace("+ 2", "+ 3")) == {"A"}


def test_foreign_file_finding() -> None:
    new = OLD.replace("4'b0000", "4'b0111")
    found = foreign_findings(
        {"tb/sim_defs.v": "M"}, ["inv.v"], lambda rel: (OLD, new), [], {"INV_MASK": "inv.v"}
    )
    assert found and "define of INV_MASK" in found[0][1]
