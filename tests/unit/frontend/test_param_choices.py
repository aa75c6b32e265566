"""A string parameter that only chooses (``RESET_STRATEGY == "NONE"``): one probe per class
of its values (rtlopt/frontend/_param_choices.py), and the parameters an ``initial`` block
reads, which no proof can take as inputs (rtlopt/frontend/_param_free.py)."""

from __future__ import annotations

import pytest

from rtlopt.frontend._param_choices import string_choices
from rtlopt.frontend._param_free import constant_reads

REF = (
    'module m #(parameter MODE = "MINI", parameter K = 3) (input clk, input a, output reg y);\n'
    '  initial if (MODE == "NONE") y = 1\'b0;\n'
    '  always @(posedge clk) y <= (MODE != "NONE") ? a : ~a;\nendmodule\n'
)


def _value(s: str) -> str:
    return f"{8 * len(s)}'d{int.from_bytes(s.encode(), 'big')}"


def test_a_compared_string_parameter_has_one_probe_per_literal_and_one_for_the_rest() -> None:
    assert string_choices([REF], "m", "MODE") == [_value("NONE"), _value("MINI")]


def test_a_literal_only_the_candidate_compares_with_is_a_class_too() -> None:
    cand = REF.replace('(MODE != "NONE")', '(MODE != "NONE" && MODE != "FULL")')
    assert string_choices([REF, cand], "m", "MODE") == [
        _value("NONE"),
        _value("FULL"),
        _value("MINI"),
    ]


def test_a_default_among_the_literals_gets_another_value_for_the_rest() -> None:
    got = string_choices([REF.replace('"MINI"', '"NONE"')], "m", "MODE")
    assert got is not None and got[0] == _value("NONE") and len(got) == 2 and got[1] != got[0]


@pytest.mark.parametrize(
    "change",
    [
        ('(MODE != "NONE") ? a : ~a', '(MODE != "NONE") ? a ^ MODE[0] : ~a'),  # a select
        ('(MODE != "NONE") ? a : ~a', '(MODE > "NONE") ? a : ~a'),  # an ordering
        ('(MODE != "NONE") ? a : ~a', "(MODE != K) ? a : ~a"),  # not a literal
        ("parameter MODE", "parameter string MODE"),  # a string type compares otherwise
        ('"MINI"', "3"),  # no string default
        ("module m", "`define M MODE\nmodule m"),  # a macro may hide a use
        ('(MODE != "NONE")', '((MODE) != "NONE")'),  # not read as a plain comparison
        ('"NONE") ?', '"NO\\n") ?'),  # an escape
    ],
)
def test_any_other_use_leaves_the_parameter_out(change: tuple[str, str]) -> None:
    text = REF.replace(*change)
    assert text != REF
    assert string_choices([text], "m", "MODE") is None


def test_a_use_only_the_candidate_makes_leaves_it_out() -> None:
    cand = REF.replace("? a : ~a", "? a : ~a ^ (MODE == 1)")
    assert string_choices([REF, cand], "m", "MODE") is None


def test_a_parameter_an_initial_block_reads_cannot_be_an_input() -> None:
    text = REF.replace("parameter K = 3)", "parameter K = 3, parameter [0:0] V = K)")
    text = text.replace("y = 1'b0;", "y = L;\n  localparam L = V;")
    assert constant_reads(REF, "m", ["MODE", "K"]) == ["MODE"]
    assert constant_reads(text, "m", ["MODE", "K"]) == ["MODE", "K"]  # K -> V -> L


@pytest.mark.parametrize(
    "use",
    [
        "wire [(P || K) ? 1 : 0 : 0] w = a;",
        "generate if (P || K) begin : g end endgenerate",
        "wire [7:0] w = {(P || K){a}};",
        "wire [7:0] w = (P || K)'(a);",
        "wire [1:0] w = a[0 +: (P || K) + 1];",
        "localparam L = P || K; wire [L:0] w = a;",
    ],
    ids=["range", "generate-if", "replication", "size-cast", "part-width", "through-a-localparam"],
)
def test_a_parameter_read_where_a_constant_is_needed_is_not_freed(use: str) -> None:
    # red-team round 113: freed at P = 1, `P || K` folds and K's read built
    text = f"module m #(parameter P = 1, parameter K = 1) (input [7:0] a);\n  {use}\nendmodule\n"
    assert constant_reads(text, "m", ["K"]) == ["K"]
    value = "module m #(parameter K = 1) (input [7:0] a, output [7:0] y);\n"
    value += "  assign y = a[K] ? 8'(K) : {2{a[3:0]}};\nendmodule\n"
    assert constant_reads(value, "m", ["K"]) == []  # an index, a cast's operand: values
