"""Round 67 (held out, 2 accepts, both closed): an escaped identifier ending in ``*)`` inside
an attribute (``(* keep = \\p*) , parallel_case *)``) ended the attribute early for the
blanking, so ``parallel_case`` reached Yosys; and a late block's variable whose initializer the
candidate dropped (``reg [15:0] t = 16'h1234;``, x instead until the block's first event) was
compared by the block alone."""

from __future__ import annotations

from pathlib import Path

from rtlopt.evaluate._time_zero import time_zero_change
from rtlopt.verilog_plain import plain_case_qualifiers
from tests.unit.evaluate.test_time_zero import _design


def test_an_escaped_name_inside_an_attribute_does_not_end_it() -> None:
    text = "  localparam \\p*) = 1;\n  (* keep = \\p*) , parallel_case *)\n  casez (s)\n"
    plain = plain_case_qualifiers(text)
    assert "parallel_case" not in plain and "localparam \\p*) = 1;" in plain, plain
    assert len(plain) == len(text)
    kept = "  (* keep = \\p*) , \\keep *)\n"
    assert plain_case_qualifiers(kept) == kept


REF = (
    "module m(input [15:0] a, output [15:0] y);\n  reg [15:0] t = 16'h1234;\n"
    "  always @* t = a + 16'd1;\n  assign y = (a == 16'hdead) ? t : a + 16'd1;\nendmodule\n"
)


def test_what_a_late_block_writes_holds_its_declared_value_until_its_first_event(
    tmp_path: Path,
) -> None:
    design = _design(tmp_path, REF)
    cand = REF.replace("reg [15:0] t = 16'h1234;", "reg [15:0] t;")
    why = time_zero_change(design, REF, cand)  # type: ignore[arg-type]
    assert why.startswith("t of m, written by a block that runs only on an event"), why
    same = REF.replace("a + 16'd1;\n  assign", "16'd1 + a;\n  assign")
    assert "declared otherwise" not in time_zero_change(design, REF, same)  # type: ignore[arg-type]
