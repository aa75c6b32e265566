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


def test_an_overridable_default_is_no_include_guard() -> None:
    guard = "`ifndef H_VH\n`define H_VH\n`define W 4\n`endif\n"
    assert _configs.include_guard(guard) == "H_VH"
    assert _configs.include_guard("`ifndef B\n`define B 4'd0\n`endif\n") == ""
    assert _configs.include_guard("`ifndef B\n`define B 4'd0\n`endif\nmodule m; endmodule\n") == ""


def test_the_conditionals_that_select_a_used_macro_are_configurations() -> None:
    from pathlib import Path

    ops = "`ifdef FAST\n`define OP &\n`else\n`define OP ^\n`endif\n"
    fast = "`ifdef ASIC\n`define FAST\n`endif\n"
    dflt = "`ifndef BIAS\n`define BIAS 4'd0\n`endif\n"
    src = [(Path("a.vh"), ops), (Path("b.vh"), fast), (Path("c.v"), dflt)]
    found, defaults = _configs.selecting_macros(src, {"OP"})
    assert found == {"FAST", "ASIC"} and not defaults
    found, defaults = _configs.selecting_macros(src, {"BIAS"})
    assert found == {"BIAS"} and defaults == {"BIAS": Path("c.v")}
    assert _configs.used_macros("assign y = a `OP b; `ifdef X `endif") == {"OP"}
    assert _configs.valued_macros(src) == {"OP", "BIAS"}


def test_switched_off_tokens_hold_the_other_branches_and_the_conditionals() -> None:
    code = "a\n`ifdef SYNTHESIS\nb\n`else\nc\n`endif\n"
    assert _configs.switched_off_tokens(code, {"SYNTHESIS"}) == [
        "`ifdef SYNTHESIS",
        "`else",
        "c",
        "`endif",
    ]
    assert _configs.switched_off_tokens(code.replace("c\n", "d\n"), {"SYNTHESIS"}) != (
        _configs.switched_off_tokens(code, {"SYNTHESIS"})
    )


def test_a_header_change_in_another_configuration_is_named() -> None:
    ops = "`ifdef FAST\n`define OP &\n`else\n`define OP ^\n`endif\n"
    other = ops.replace("OP &", "OP |")
    assert "FAST defined" in _configs.text_change_elsewhere(ops, other, set(), True)
    here = ops.replace("OP ^", "OP ~^")
    assert _configs.text_change_elsewhere(ops, here, set(), True) == ""
    # where this configuration is not known, every one counts
    assert _configs.text_change_elsewhere(ops, here, set(), False) != ""
    guarded = "`ifndef G\n`define G\n`define W 4\n`endif\n"
    assert _configs.text_change_elsewhere(guarded, guarded.replace("4", "5"), set(), True) == ""
