"""Make's values read by the build readers (:mod:`rtlopt.evaluate.make_values`): a variable
is evaluated only where its texts give it one value."""

from __future__ import annotations

from rtlopt.evaluate.make_values import assignments, evaluated


def test_a_variable_given_one_value_is_evaluated_through_functions() -> None:
    values = assignments("B := stim\nF := $(addsuffix .vh,$(B))\n")
    assert evaluated("touch $(F)", values) == "touch stim.vh"


def test_a_variable_given_two_values_stays_computed() -> None:
    values = assignments("C := cat\nC := uniq\n")
    assert "C" not in values
    assert evaluated("$(C) x", values) == "$(C) x"


def test_a_variable_added_to_stays_computed() -> None:
    # `touch $(F)` writes a.vh and b.vh: reading it as `touch a.vh` missed b.vh
    values = assignments("F := a.vh\nF += b.vh\n")
    assert "F" not in values
    assert evaluated("touch $(F)", values) == "touch $(F)"


def test_a_variable_only_added_to_has_that_value() -> None:
    assert assignments("F += b.vh\n")["F"] == "b.vh"
