"""Decisions on an undriven or constant-x net or variable (no tool runs): simulation picks a
branch on x where the proofs read any value. Data that is x, nets something drives (an
assignment, an instance, a gate) and x reaching a value only are let through."""

from __future__ import annotations

import pytest

from rtlopt.harness._readings import reading_problems, reference_problems
from rtlopt.verilog import blank_comments


def _found(decls: str, body: str) -> list[str]:
    text = (
        "module m (input clk, input [31:0] a, output reg [31:0] y);\n"
        f"  {decls}\n  always @* begin\n    {body}\n  end\nendmodule\n"
        "module known (input i, output o);\n  assign o = ~i;\nendmodule\n"
    )
    return [m for _, m in reading_problems(blank_comments(text)) if "x in simulation" in m]


@pytest.mark.parametrize(
    ("decls", "body"),
    [
        # the red team's: an x compare takes `else` in simulation for every a
        ("wire [3:0] u;", "if (a == {28'h1234567, u}) y = 0; else y = a;"),
        ("reg r;", "if (r) y = 0; else y = a;"),  # a variable nothing writes
        ("wire [3:0] u;", "case (u) 4'd1: y = 0; default: y = a; endcase"),
        ("wire [3:0] u;", "case (a[3:0]) u: y = 0; default: y = a; endcase"),
        ("wire [3:0] v = 4'bx;", "if (v === a[3:0]) y = 0; else y = a;"),
        ("wire [3:0] v;\n  assign v = 'x;", "if (v != a[3:0]) y = 0; else y = a;"),
        ("localparam P = 4'b1x00;\n  wire [3:0] v = P;", "if (v == a[3:0]) y = 0; else y = a;"),
        # through a continuous assignment, an instance's port and an unconditional write
        ("wire u;\n  wire c;\n  assign c = u & a[0];", "if (c) y = 0; else y = a;"),
        ("wire u, w;\n  known k (.i(u), .o(w));", "if (w) y = 0; else y = a;"),
        ("wire u;\n  reg t;\n  always @* t = u;", "if (t) y = 0; else y = a;"),
        ("wire u;", "y = a;\n    while (u) y = 0;"),
    ],
)
def test_an_x_that_decides_is_found(decls: str, body: str) -> None:
    found = _found(decls, body)
    assert found and "decides" in found[0], found


@pytest.mark.parametrize(
    ("decls", "body"),
    [
        ("wire [3:0] u;\n  assign u = a[7:4];", "if (a == {28'h1234567, u}) y = 0; else y = a;"),
        ("wire u;", "y = a ^ {31'd0, u};"),  # x in a value only: the proof's X policy
        ("wire u;", "y = u ? a : 32'd0;"),  # ?: merges x in both readings
        ("reg r = 1'b0;", "if (r) y = 0; else y = a;"),
        ("reg r;\n  always @(posedge clk) r <= a[0];", "if (r) y = 0; else y = a;"),
        ("wire w;\n  sub s (.x(a[0]), .y(w));", "if (w) y = 0; else y = a;"),  # not in the text
        ("wire w;\n  sub s (.w);", "if (w) y = 0; else y = a;"),
        ("wire w;\n  known k (.i(a[0]), .o(w));", "if (w) y = 0; else y = a;"),
        ("wire w;\n  and g (w, a[0], a[1]);", "if (w) y = 0; else y = a;"),
        # a default x assignment under a condition: the x may never reach the decision
        ("reg [3:0] n;\n  always @* begin n = 'x; if (a[0]) n = a[3:0]; end", "if (n[0]) y = 0;"),
        (
            "wire [3:0] x;\n  reg [3:0] t;\n  always @* if (a[1]) t = x; else t = a[3:0];",
            "if (t[0]) y = 0; else y = a;",
        ),
        ("", "begin : b\n    reg k;\n    k = a[0];\n    if (k) y = 0; else y = a;\n    end"),
    ],
)
def test_driven_nets_and_x_values_are_let_through(decls: str, body: str) -> None:
    assert not _found(decls, body)


def test_a_reference_whose_decision_reads_an_undriven_net_leaves_changes_unchecked() -> None:
    ref = (
        "module tgt(input [31:0] a, output reg [31:0] y);\n  wire [3:0] u;\n"
        "  always @* begin\n    if (a == {28'h1234567, u}) y = 32'd0; else y = a;\n  end\n"
        "endmodule\n"
    )
    found = reference_problems([ref], "the reference module")
    assert found and found[0][1].startswith("unchecked: the reference module, line 4:"), found
    assert "'u' is never driven" in found[0][1]


def test_a_net_of_a_generate_block_the_parameters_do_not_build_is_no_x_source() -> None:
    """Held-out trial 43 (ZipCPU's axilempty): a net driven by an instance inside a generate
    branch the defaults do not build was "never driven" (the instance of an unbuilt block is
    not bound), and every candidate was refused; where the block is built, it is driven."""
    from rtlopt.harness._readings import reading_problems
    from rtlopt.verilog import blank_comments

    text = (
        "module sub(input i, output o); assign o = i; endmodule\n"
        "module top #(parameter P = 1'b0) (input clk, input a, output reg y);\n"
        "  generate if (P) begin : g\n    wire w;\n    sub u(.i(a), .o(w));\n"
        "    always @(posedge clk) if (w) y <= 1; else y <= 0;\n"
        "  end else begin : h\n    always @(posedge clk) y <= a;\n  end endgenerate\n"
        "endmodule\n"
    )
    assert not reading_problems(blank_comments(text))
    built = text.replace("P = 1'b0", "P = 1'b1").replace("sub u(.i(a), .o(w));", "")
    assert any("never driven" in m for _, m in reading_problems(blank_comments(built)))
