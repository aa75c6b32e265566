"""A power whose exponent reads a signal is screened (round 94): iverilog's run time reads a
negative exponent otherwise than IEEE 1800 and both proofs; a constant exponent is folded at
elaboration (a parameter's value is compared with iverilog's by the compile stage)."""

from __future__ import annotations

import pytest

from rtlopt.harness._power import power_problems


@pytest.mark.parametrize(
    ("code", "refused"),
    [
        ("assign y = a ** k;", True),
        ("assign y = a ** $signed(b);", True),
        ("assign y = a ** (k + 1);", True),
        ("assign y = a ** 2;", False),
        ("localparam AW = 4; localparam D = 2 ** AW;", False),
        ("parameter W = 3; assign y = x + 2 ** (W - 1);", False),
    ],
)
def test_a_power_with_a_run_time_exponent_is_screened(code: str, refused: bool) -> None:
    assert bool(power_problems(code, lambda: [])) is refused
    assert bool(power_problems(code, lambda: [code])) is refused  # no spelling exempts


@pytest.mark.parametrize(
    ("code", "refused"),
    [
        # a generate block's localparam k does not make the signal k a constant
        (
            "wire signed [3:0] k = -4'sd7; if (1) begin : g localparam k = 0; end "
            "assign y = 64'sd1 ** k;",
            True,
        ),
        ("localparam signed [3:0] K = -4'sd8; assign y = a >> ($clog2(K) - 3);", True),
        ("assign y = a >> $clog2(-4'sd8);", True),
        ("assign y = a >> $clog2($signed(b));", True),
        ("parameter DEPTH = 16; wire [$clog2(DEPTH)-1:0] p;", False),
        ("parameter integer N = 4; localparam L = $clog2(N + 1);", False),
        ("module m #(parameter integer N = 4) (input [3:0] k); assign y = 2 ** N;", False),
        ("module m #(parameter W = 1) (input signed [3:0] k); assign y = 2 ** k;", True),
        # a parameter read in a port's range or a net's initializer is declared by neither
        # (cv32e40p_ff_one's `2 ** $clog2(LEN)` beside `input logic [LEN-1:0] in_i`)
        ("module m #(parameter L = 8) (input [L-1:0] a); assign y = 2 ** $clog2(L);", False),
        ("parameter L = 8; wire [7:0] n = L, k; assign y = 2 ** L;", False),
        ("parameter L = 8; wire [7:0] n = L, k; assign y = 2 ** k;", True),
        ("parameter L = 8; logic m [L]; assign y = 2 ** L;", False),
        # red-team round 107: an escaped name opening a group hid a declarator, and an
        # implicit net (a continuous assignment's target, a connection, a gate's output)
        # beside a generate block's localparam of its name
        (
            "wire [7:0] \\x( = 8'd0, kk = 8'hFF; if (1) begin : g localparam kk = 0; end "
            "assign y = 64'sd1 ** $signed(kk);",
            True,
        ),
        (
            "if (1) begin : g localparam kk = 0; end assign kk = 1'b1; "
            "assign y = 64'sd1 ** $signed({kk, kk});",
            True,
        ),
        ("if (1) begin : g localparam k = 0; end buf (k, a); assign y = 64'sd1 ** k;", True),
        ("if (1) begin : g localparam k = 0; end s u (.o(k)); assign y = 64'sd1 ** k;", True),
        ("parameter W = 4; s #(.W(W)) u (.o(z)); assign y = 2 ** W;", False),
    ],
)
def test_names_and_clog2_arguments_read_by_their_declarations(code: str, refused: bool) -> None:
    assert bool(power_problems(code, lambda: [])) is refused
