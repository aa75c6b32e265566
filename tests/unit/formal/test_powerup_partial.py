"""A difference from a partially paired power-up state: what counts as a verdict."""

from __future__ import annotations

from rtlopt.formal.engines.powerup import _undefined_candidate


def test_a_candidate_x_where_the_reference_is_defined_is_a_difference_whatever_the_pairing() -> (
    None
):
    assert _undefined_candidate({"expected z": "01", "got z": "0x", "cycle": "3"})
    assert _undefined_candidate({"expected y": "1", "got y": "z"})


def test_a_difference_of_defined_values_or_of_reference_x_is_not() -> None:
    assert not _undefined_candidate({"expected z": "01", "got z": "00"})  # the pairing's
    assert not _undefined_candidate({"expected z": "x1", "got z": "01"})  # refines x
    assert not _undefined_candidate({"expected z": "01", "got w": "0x"})  # another port
