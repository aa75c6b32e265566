"""Other configurations of a module with conditional compilation (evaluate/_configs.py)."""

from __future__ import annotations

import pytest

from rtlopt.evaluate import _configs
from rtlopt.evaluate._configs import active_tokens, other_configuration_change

REF = """module m (input [3:0] a, b, output reg [3:0] y);
always @* begin
  y = a ^ b;
`ifdef NARROW
  y = y & 4'h7;
`endif
end
endmodule"""


def test_active_tokens_follow_the_branches_and_the_modules_own_defines() -> None:
    code = "`define W 2\n`ifdef W x `else y `endif\n`undef W\n`ifdef W p `elsif V q `else r `endif"
    assert active_tokens(code, set()) == ["`define W 2", "x", "`undef W", "r"]
    assert active_tokens(code, {"V"}) == ["`define W 2", "x", "`undef W", "q"]
    assert _configs.tested_macros(code) == {"W", "V"}
    with pytest.raises(ValueError):
        active_tokens("`ifdef A x", set())


def test_a_statement_moved_across_a_branch_reads_differently_in_the_other_configuration() -> None:
    moved = REF.replace("  y = a ^ b;\n`ifdef", "`ifdef").replace(
        "`endif\nend", "`endif\n  y = a ^ b;\nend"
    )
    why = other_configuration_change(REF, moved, frozenset())
    assert "NARROW defined" in why


def test_a_change_in_shared_code_is_named_and_one_confined_to_this_branch_passes() -> None:
    ref = "module m; `ifdef A\nassign y = a + b;\n`else\nassign y = a - b;\n`endif\nendmodule"
    here = ref.replace("a + b", "b + a")  # only the branch A selects, A defined here
    assert other_configuration_change(ref, here, frozenset({"A"})) == ""
    # the same edit is shared code when A is undefined here: the other branch is proven
    assert other_configuration_change(ref, here, frozenset()) != ""
    # white space and line breaks are not a change
    assert other_configuration_change(ref, ref.replace(" + ", "+"), frozenset()) == ""


def test_the_flows_own_macros_are_not_configurations() -> None:
    ref = "module m; assign y = a ^ b;\n`ifndef SYNTHESIS\ninitial $display(y);\n`endif\nendmodule"
    cand = ref.replace("a ^ b", "b ^ a")
    assert other_configuration_change(ref, cand, frozenset({"SYNTHESIS"})) == ""
