"""Case items Yosys evaluates at their own width while simulation uses the statement's (no tool
runs): an arithmetic, negated or shifted item narrower than the case statement is judged;
names, constants, concatenations and items as wide as the statement are not."""

from __future__ import annotations

import pytest

from rtlopt.harness._readings import reading_problems, reference_problems
from rtlopt.verilog import blank_comments


def _found(item: str, kind: str = "case", sel: str = "[31:0] s") -> list[str]:
    text = (
        f"module m (input {sel}, input [3:0] a, output reg [7:0] y);\n"
        "  localparam W = 6;\n"
        f"  always @* {kind} (s)\n    {item}: y = 8'd1;\n    default: y = s[7:0];\n  endcase\n"
        "endmodule\n"
    )
    return [m for _, m in reading_problems(blank_comments(text)) if "case item" in m]


@pytest.mark.parametrize(
    "item",
    [
        "16'hF123 + 16'h2345",  # the carry: 32'h11468 in simulation, 16'h1468 in Yosys
        "-16'sh8000",
        "~16'h0F0F",
        "16'h8000 << 1",
        "(16'h8000 <<< 1)",
        "16'd300 * 16'd300",
        "16'd1 - 16'd2",
        "a + 4'd15",
        "(a + 4'd1) & 4'hF",
        "a[0] ? 16'd1 + 16'hFFFF : 16'd0",
        "16'sh8123 >>> 1",  # red team w18: unsigned at 32 bits shifts in 0, Yosys the sign
        "$signed(16'h8123) >>> 1",
    ],
)
def test_a_width_dependent_item_narrower_than_the_statement_is_found(item: str) -> None:
    found = _found(item)
    assert found and "32-bit case statement" in found[0], found
    assert _found(item, "casez"), "casez items are read the same way"


@pytest.mark.parametrize(
    "item",
    [
        "16'h1468",  # a constant
        "a",  # a name
        "{a + 4'd1}",  # a concatenation is self-determined in both readings
        "32'hF123 + 32'h2345",  # as wide as the statement
        "W - 1",  # an unsized parameter: 32 bits
        "a + 1",  # the unsized 1 makes it 32 bits
        "16'hF0F0 & 16'h0FF0",  # bitwise: zero extension commutes
        "16'h8000 >> 1",
        "a == 4'd3",
    ],
)
def test_items_both_tools_read_alike_are_let_through(item: str) -> None:
    assert not _found(item)


def test_the_case_expression_itself_is_read_alike() -> None:
    # Yosys keeps the carry of the case expression (measured): only the items are misread
    text = (
        "module m (input [7:0] s, input [7:0] b, output reg y);\n"
        "  always @* case (s + b) 9'h100: y = 1; default: y = 0; endcase\nendmodule\n"
    )
    assert not reading_problems(blank_comments(text))


def test_an_item_of_the_statement_width_is_let_through() -> None:
    assert not _found("16'hF123 + 16'h2345", sel="[15:0] s")
    assert _found("8'hF1 + 8'h23", sel="[15:0] s")


def test_a_reference_with_a_narrow_item_leaves_changes_unchecked() -> None:
    ref = (
        "module m (input [31:0] s, output reg y);\n"
        "  always @* case (s) 16'hF123 + 16'h2345: y = 1; default: y = 0; endcase\nendmodule\n"
    )
    found = reference_problems([ref], "the reference module")
    assert found and found[0][1].startswith("unchecked: the reference module, line 2:"), found


def _parameterized(item: str, decl: str = "input [W-1:0] s") -> list[str]:
    text = (
        f"module m #(parameter W = 8, parameter DEPTH = 5) ({decl}, output reg y);\n"
        "  reg [$clog2(DEPTH)-1:0] cnt = 0;\n"
        f"  always @* case (s) {item}: y = 1; default: y = 0; endcase\n"
        "  always @* case (cnt) DEPTH - 1: y = 1; default: y = 0; endcase\nendmodule\n"
    )
    return [m for _, m in reading_problems(blank_comments(text)) if "case item" in m]


def test_a_narrow_operand_in_a_statement_a_parent_may_widen_is_found() -> None:
    # as wide as `s` under W = 8, narrower under a parent's W = 16
    found = _parameterized("8'hF0 + 8'h20")
    assert len(found) == 1 and "depends on W" in found[0], found
    # `DEPTH - 1` is 32 bits for any DEPTH; a fixed-width statement does not change
    assert not _parameterized("8'hF0")
    assert not _parameterized("8'hF0 + 8'h20", decl="input [7:0] s")


def test_any_operator_on_a_narrow_item_of_a_signed_statement_is_found() -> None:
    # red team w18: `>>` of a signed item in a signed statement: simulation extends the sign
    # to 32 bits first (32'h7FFFC091), Yosys shifts at 16 bits (16'h4091)
    assert _found("16'sh8123 >> 1", sel="signed [31:0] s")
    assert _found("16'sh8123 & 16'shFFFF", sel="signed [31:0] s")
    assert not _found("16'h8123 >> 1")  # unsigned throughout: read alike
