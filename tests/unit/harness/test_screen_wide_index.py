"""Round 69 (held out): iverilog reads a variable index at 32 bits (``2**32 + 3`` selects
element 3), synthesis and the proofs read it whole (out of range: no write). A candidate
writing ``mem[a]`` for a guarded ``mem[a[2:0]]`` was proven and simulated alike. An index wider
than 32 bits, or an unsigned 32-bit one in a dimension with a negative bound, is a reading
difference (``rtlopt.harness._wide_index``; no tool runs)."""

from __future__ import annotations

import pytest

from rtlopt.harness._readings import reading_problems, reference_problems
from rtlopt.verilog import blank_comments


def _found(body: str, decls: str = "") -> list[str]:
    text = (
        "module m (input clk, input [39:0] a, input [31:0] u, input signed [31:0] s,\n"
        "  input [2:0] n, input [7:0] d, output [7:0] q);\n"
        f"  reg [7:0] mem [0:7];\n  reg [7:0] r;\n{decls}{body}\n"
        "  assign q = mem[n] ^ r;\nendmodule\n"
    )
    return [m for _, m in reading_problems(blank_comments(text)) if "the index of" in m]


@pytest.mark.parametrize(
    "body",
    [
        "  always @(posedge clk) mem[a] <= d;",  # a word of an array, written
        "  always @(posedge clk) r[a] <= d[0];",  # a bit, written
        "  always @(posedge clk) r[a +: 2] <= d[1:0];",  # an indexed part-select's base
        "  always @(posedge clk) r[a -: 2] <= d[1:0];",
        "  always @(posedge clk) r <= mem[a ^ 40'h1_0000_0000];",  # read, an expression
        "  always @(posedge clk) r[{a[32:0]}] <= d[0];",  # 33 bits
        "  wire [63:0] w = {24'd0, a};\n  always @* r = {7'd0, d[w]};",
    ],
    ids=["word", "bit", "up", "down", "read", "33", "wire"],
)
def test_an_index_wider_than_32_bits_is_a_reading_difference(body: str) -> None:
    found = _found(body)
    assert found and "bits wide" in found[0], found


def test_an_unsigned_32_bit_index_in_a_negative_range_is_a_reading_difference() -> None:
    decls = "  reg [7:0] neg [-4:3];\n"
    found = _found("  always @(posedge clk) neg[u] <= d;", decls)
    assert found and "negative bound" in found[0], found
    assert not _found("  always @(posedge clk) neg[s] <= d;", decls)  # signed: read alike


@pytest.mark.parametrize(
    "body",
    [
        "  always @(posedge clk) if (a < 40'd8) mem[a[2:0]] <= d;",  # the reference's form
        "  always @(posedge clk) r[u] <= d[0];",  # 32 bits, a positive range
        "  always @(posedge clk) r[n +: 2] <= d[1:0];",
        "  always @(posedge clk) mem[3] <= d;",  # constants
        "  always @(posedge clk) r <= {a[39:36], a[3:0]};",  # constant part-selects of a
        "  localparam [39:0] K = 40'd5;\n  always @(posedge clk) r[K] <= d[0];",
    ],
)
def test_indices_read_alike_are_not_judged(body: str) -> None:
    assert not _found(body)


def test_a_wide_index_in_the_reference_leaves_every_candidate_unchecked() -> None:
    ref = (
        "module m (input clk, input [39:0] a, input [7:0] d, output [7:0] q);\n"
        "  reg [7:0] mem [0:7];\n  always @(posedge clk) mem[a] <= d;\n  assign q = mem[0];\n"
        "endmodule\n"
    )
    found = reference_problems([ref], "the reference module")
    assert found and found[0][1].startswith("unchecked: the reference module, line 3"), found
