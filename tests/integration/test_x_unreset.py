"""Outputs the reference leaves x through un-reset state: a proof must not rest on the X policy
there. An un-reset counter, LFSR, toggle flop, state machine or twisted ring drives an output
that is x in simulation and in the x power-up miter forever, although every real power-up
value gives it a behaviour; each candidate in ``tests/data/x_unreset/`` changes that behaviour
for every power-up value (a frozen toggle, another period) and was accepted before. The
simulation records the outputs still x in the stimulus's second half
(``SimResult.x_outputs``); the formal check proves them again from a shared power-up state or
the candidate is rejected as unchecked. Legit rewrites stay accepted: the same counter kept or
rewritten under another name (paired by next-state function), and a pipeline whose un-reset
data registers clear once the inputs load them (no x output, nothing added)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, FormalResult, Stage, Status, Verdict

pytestmark = pytest.mark.tools

CASES = Path(__file__).resolve().parents[1] / "data" / "x_unreset"


def _evaluate(tmp_path: Path, case: str, **formal: bool) -> EvalResult:
    """Evaluate the case's candidate (no synthesis); ``formal``: FormalConfig overrides, plus
    ``strict_x`` for the harness."""
    src = tmp_path / "s.v"
    src.write_text((CASES / case / "ref.v").read_text())
    base = Config()
    strict = formal.pop("strict_x", False)
    cfg = dataclasses.replace(
        base,
        formal=dataclasses.replace(base.formal, timeout_s=60.0, **formal),
        harness=dataclasses.replace(base.harness, strict_x=strict),
        eval=EvalConfig(workers=1, cache=False, netlist_check="never"),
    )
    design = load_design(src, "s", cfg.project)
    with Evaluator(design, cfg, tmp_path / "eval", None) as ev:
        return ev.evaluate((CASES / case / "cand.v").read_text())


@pytest.mark.parametrize(
    "case",
    [
        "counter_step",
        "counter_gated",
        "lfsr_rotation",
        "toggle_frozen",
        "fsm_period",
        # reference register bits left unpaired (Yosys drops the frozen ring's unobservable
        # bits; the counter or LFSR is gone; a rename beside a register of the same width):
        # a difference from a partially paired power-up state is no verdict, so unchecked
        "johnson_frozen",
        "counter_deleted",
        "counter_renamed_by_two",
        "lfsr_replaced",
    ],
)
def test_a_changed_unreset_output_is_not_accepted_on_the_strength_of_x(
    tmp_path: Path, case: str
) -> None:
    r = _evaluate(tmp_path, case)
    assert r.status is Status.INVALID and r.stage is Stage.FORMAL, (r.status, r.stage, r.reason)
    assert r.sim is not None and r.sim.x_outputs == ("z",), r.sim
    assert r.reason.startswith("unchecked: output z is still x in the reference"), r.reason
    assert r.formal is not None and r.formal.unchecked == r.reason


@pytest.mark.parametrize(
    "knobs",
    [
        {"strict_x": True},  # x must meet x: both sides are x, so the X policy hid it too
        {"require_proof": False},  # an undecided check would leave it to the X policy
        {"enabled": False},  # simulation alone compares with the X policy
    ],
    ids=["strict_x", "no_require_proof", "formal_off"],
)
def test_the_other_settings_do_not_accept_it_either(tmp_path: Path, knobs: dict[str, bool]) -> None:
    r = _evaluate(tmp_path, "counter_step", **knobs)
    assert r.status is Status.INVALID and r.stage is Stage.FORMAL, (r.status, r.stage, r.reason)
    assert r.reason.startswith("unchecked: output z"), r.reason


@pytest.mark.parametrize("knobs", [{"enabled": False}, {"require_proof": False}])
def test_a_deleted_counter_is_not_accepted_with_formal_off_either(
    tmp_path: Path, knobs: dict[str, bool]
) -> None:
    """With reference register bits unpaired, the x-output check alone (formal off) or after
    an undecided check does not leave the outputs to the X policy either."""
    r = _evaluate(tmp_path, "counter_deleted", **knobs)
    assert r.status is Status.INVALID and r.stage is Stage.FORMAL, (r.status, r.stage, r.reason)
    assert r.reason.startswith("unchecked: output z"), r.reason


def test_with_formal_off_a_kept_counter_is_still_accepted(tmp_path: Path) -> None:
    r = _evaluate(tmp_path, "ok_counter_renamed", enabled=False)
    assert r.status is Status.OK, (r.stage, r.reason)


def test_the_counterexample_starts_both_sides_in_the_same_power_up_state(tmp_path: Path) -> None:
    r = _evaluate(tmp_path, "counter_step")
    assert r.formal is not None
    cex = r.formal.counterexample
    assert "differs from the reference powered up in the same state" in r.reason, r.reason
    assert any(k.startswith("<init>") for k in cex), cex
    assert cex.get("expected z") != cex.get("got z"), cex


@pytest.mark.parametrize("case", ["ok_counter_kept", "ok_counter_renamed"])
def test_a_rewrite_keeping_the_unreset_behaviour_is_proven_from_a_shared_power_up(
    tmp_path: Path, case: str
) -> None:
    r = _evaluate(tmp_path, case)
    assert r.status is Status.OK, (r.stage, r.reason)
    assert r.sim is not None and r.sim.x_outputs == ("z",), r.sim
    assert r.formal is not None and "from a shared power-up state" in r.formal.method, r.formal


def test_a_pipeline_whose_unreset_registers_clear_is_accepted_as_before(tmp_path: Path) -> None:
    r = _evaluate(tmp_path, "ok_pipeline")
    assert r.status is Status.OK, (r.stage, r.reason)
    assert r.sim is not None and r.sim.x_outputs == (), r.sim
    assert r.formal is not None and "shared power-up" not in r.formal.method, r.formal


def test_a_power_up_proof_its_own_checks_turn_down_leaves_the_output_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault injected into the shared power-up path only: its proof is found, then its own
    checks (the AIG witness, structure, drivers) make it UNKNOWN. The x output is then
    unchecked and the candidate rejected, never taken as proven on the main proof's word."""
    import rtlopt.formal.engines.powerup as powerup

    def turned_down(job: object, miter: object, result: FormalResult) -> FormalResult:
        del job, miter
        return FormalResult(Verdict.UNKNOWN, result.method, "no proof: injected", {}, 0.0)

    monkeypatch.setattr(powerup, "proven", turned_down)
    r = _evaluate(tmp_path, "ok_counter_kept")
    assert r.status is Status.INVALID and r.stage is Stage.FORMAL, (r.status, r.stage, r.reason)
    assert r.reason.startswith("unchecked: output z"), r.reason
