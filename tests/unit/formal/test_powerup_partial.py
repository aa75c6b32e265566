"""A difference from a partially paired power-up state, and which proofs start from free
power-up values."""

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


def test_a_proof_from_free_power_up_values_is_said_by_a_field_not_by_its_name() -> None:
    """Which proofs start from free power-up values is a field the engine sets: a method
    name that merely reads like one (a candidate cannot choose it, but a renamed engine
    could) does not exempt a proof on the x power-up model from the x-output check."""
    from rtlopt.config import FormalConfig
    from rtlopt.formal.check import _rests_on_x
    from rtlopt.results import FormalResult, Verdict

    cfg = FormalConfig()
    named = FormalResult(Verdict.PROVEN, "abc dprove (registers paired) (free power-up state)")
    assert _rests_on_x(named, cfg)
    assert not _rests_on_x(FormalResult(Verdict.PROVEN, "abc dprove", free_power_up=True), cfg)
