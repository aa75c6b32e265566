"""The power-up rule compares a declaration initializer by slang's value of it, not by its
tokens (``power_up_difference`` given the two texts): ``'1`` and ``8'hff`` on an 8-bit register
are the same power-up value; ``INIT`` and ``INIT`` are not where one side's ``localparam
INIT`` is ``8'd1`` and the other's ``'1`` (Yosys 0.23's read_verilog reads both as 1)."""

from __future__ import annotations

from rtlopt.harness import power_up_difference

REF = """module m(input clk, output [7:0] y);
  localparam [7:0] INIT = 8'd1;
  reg [7:0] c = INIT;
  reg [7:0] d = 8'hff;
  always @(posedge clk) begin c <= c + 8'd1; d <= d - 8'd1; end
  assign y = c ^ d;
endmodule
"""


def _deferred(cand: str) -> tuple[str, list[str]]:
    deferred: list[str] = []
    why = power_up_difference(cand, REF, hierarchy=["m"], deferred=deferred)
    return why, deferred


def test_the_same_value_in_other_tokens_is_no_difference() -> None:
    assert _deferred(REF.replace("d = 8'hff;", "d = '1;")) == ("", [])
    assert _deferred(REF.replace("d = 8'hff;", "d = 255;")) == ("", [])


def test_the_same_tokens_of_another_value_are_a_difference() -> None:
    why, deferred = _deferred(REF.replace("INIT = 8'd1;", "INIT = '1;"))
    assert why == ""
    assert deferred == [
        "the power-up value of c in m changes from INIT (= 8'd1) to INIT (= 8'd255)"
    ]


def test_another_value_in_other_tokens_is_a_difference() -> None:
    why, deferred = _deferred(REF.replace("d = 8'hff;", "d = 1;"))
    assert why == "" and deferred == ["the power-up value of d in m changes from 8'hff to 1"]


def test_without_the_proof_a_stated_value_stays_unchecked() -> None:
    why = power_up_difference(
        REF.replace("d = 8'hff;", "d = '1;"), REF, hierarchy=["m"], unproven=True
    )
    assert "formal.enabled = false" in why, why
