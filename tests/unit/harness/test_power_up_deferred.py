"""Which power-up differences the screen leaves to the proof from the stated values
(``power_up_difference(..., deferred=...)``: the formal check runs) and what it says of them."""

from __future__ import annotations

from rtlopt.harness import power_up_difference

REF = """module m(input clk, output [7:0] y, output v);
  reg [7:0] cnt = 8'd3;
  reg on = 1'b1;
  always @(posedge clk) begin cnt <= cnt + 8'd1; on <= ~on; end
  assign y = cnt;
  assign v = on;
endmodule
"""
RENAMED = REF.replace("cnt", "count").replace(" on", " flag").replace("~on", "~flag")


def test_a_renamed_register_is_left_to_the_proof_once() -> None:
    deferred: list[str] = []
    assert power_up_difference(RENAMED, REF, hierarchy=["m"], deferred=deferred) == ""
    assert deferred == [
        "count in m gets the power-up value 8'd3; the reference states that value on cnt instead",
        "flag in m gets the power-up value 1'b1; the reference states that value on on instead",
    ]


def test_a_changed_or_dropped_value_is_left_to_the_proof() -> None:
    deferred: list[str] = []
    cand = REF.replace("8'd3", "8'd4").replace("reg on = 1'b1;", "reg on;")
    assert power_up_difference(cand, REF, hierarchy=["m"], deferred=deferred) == ""
    assert deferred == [
        "the power-up value of cnt in m changes from 8'd3 to 8'd4",
        "on in m loses its power-up value 1'b1",
    ]


def test_without_the_proof_the_name_rule_says_what_differs() -> None:
    why = power_up_difference(RENAMED, REF, hierarchy=["m"], unproven=True)
    assert why.startswith("count in m gets the power-up value 8'd3; the reference states that")
    assert "formal.enabled = false" in why, why
    why = power_up_difference(RENAMED, REF, hierarchy=["m"])  # no deferral asked
    assert "the reference states that value on cnt instead" in why, why
    dropped = REF.replace("reg on = 1'b1;", "reg on;").replace("count", "cnt")
    why = power_up_difference(dropped, REF, hierarchy=["m"])
    assert why.startswith("on in m loses its power-up value 1'b1:"), why


def test_what_the_proof_does_not_read_stays_a_text_rule() -> None:
    # an initial block that does more than assign constants
    more = REF.replace("endmodule", "  initial begin on = 1'b1; $display(on); end\nendmodule")
    deferred: list[str] = []
    why = power_up_difference(more, REF, hierarchy=["m"], deferred=deferred)
    assert "(initial block) in m gets" in why and deferred == [], why
    # a 2-state variable: every simulator starts it at 0, the proof does not model that
    two = REF.replace("reg on = 1'b1;", "bit on;")
    why = power_up_difference(two, REF, hierarchy=["m"], deferred=deferred)
    assert "2-state" in why, why
