"""Asynchronous reset branches at the other level, normalised before read_slang."""

from __future__ import annotations

import pytest

from rtlopt.eda._aload import normalise_async_polarity

HEAD = "module m(input clk, input rst_n, input rst, input d, output logic q);\n"


@pytest.mark.parametrize(
    "body, want",
    [
        # else branch = reset: swapped, canonical condition
        (
            "always_ff @(posedge clk or negedge rst_n) if (rst_n) q <= d; else q <= 0;",
            "if (!rst_n) begin q <= 0; end else begin q <= d; end",
        ),
        (
            "always @(negedge rst_n, posedge clk) if (rst_n == 1'b1) q <= d; else q <= 0;",
            "if (!rst_n) begin q <= 0; end else begin q <= d; end",
        ),
        (
            "always @(posedge clk or posedge rst) if (!rst) q <= d; else q <= 1;",
            "if (rst) begin q <= 1; end else begin q <= d; end",
        ),
        (
            "always @(posedge clk or posedge rst) if (rst != 1'b1) q <= d; else q <= 1;",
            "if (rst) begin q <= 1; end else begin q <= d; end",
        ),
        # the moved branch ends in an if without else: wrapped so it cannot take the else
        (
            "always @(posedge clk or negedge rst_n) begin if (~rst_n) q <= 0; else q <= d; end",
            None,
        ),
    ],
)
def test_branches_are_swapped_only_when_the_level_is_the_other(body: str, want: str | None) -> None:
    text = HEAD + "  " + body + "\nendmodule\n"
    out, n = normalise_async_polarity(text)
    if want is None:
        assert (out, n) == (text, 0)
    else:
        assert n == 1 and want in out, out


def test_dangling_else_and_nested_blocks() -> None:
    text = (
        HEAD
        + "  always_ff @(negedge rst_n or posedge clk) begin\n"
        + "    if (rst_n) begin\n      if (d) q <= 1;\n    end else q <= 0;\n  end\n"
        + "  always @(posedge clk) if (rst_n) q <= d; else q <= 0;\n"  # one edge: not a reset
        + "endmodule\n"
    )
    out, n = normalise_async_polarity(text)
    assert n == 1
    assert (
        "if (!rst_n) begin q <= 0; end else begin begin\n      if (d) q <= 1;\n    end end" in out
    )
    assert "always @(posedge clk) if (rst_n) q <= d; else q <= 0;" in out


def test_two_asynchronous_signals_and_macros_are_left_alone_where_unsure() -> None:
    text = (
        HEAD
        + "  always @(posedge clk or negedge rst_n or posedge rst)\n"
        + "    if (rst_n) begin if (rst) q <= 1; else q <= d; end else q <= 0;\n"
        + "  always @(posedge clk or negedge rst_n) if (`ACTIVE(rst_n)) q <= d; else q <= 0;\n"
        + "endmodule\n"
    )
    out, n = normalise_async_polarity(text)
    assert n == 1
    assert (
        "if (!rst_n) begin q <= 0; end else begin begin if (rst) q <= 1; else q <= d; end end"
        in out
    )
    assert "if (`ACTIVE(rst_n)) q <= d; else q <= 0;" in out
