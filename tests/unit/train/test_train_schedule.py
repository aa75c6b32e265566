"""KL-budget schedules and the adaptive controller's rules."""

from __future__ import annotations

import dataclasses

import pytest

from rtlopt.config import LN2, AdaptiveKLConfig, TrainConfig
from rtlopt.errors import PluginError, RtloptError
from rtlopt.train import (
    DELTA_SCHEDULES,
    AdaptiveSchedule,
    StepSignals,
    cosine_delta,
    make_schedule,
)

A = AdaptiveKLConfig()
CFG = TrainConfig(delta="adaptive")

# Neutral signals: no rule fires (moderate eff-n, some constant groups, no saturation).
NEUTRAL = StepSignals(
    kl_ref=0.01, eff_n=4.5, const_frac=0.5, beta_max_rate=0.0, batch_max_reward=5.0
)


def _past_warmup(
    cfg: TrainConfig = CFG, reward: float = 5.0, sig: StepSignals = NEUTRAL
) -> AdaptiveSchedule:
    """A controller after its warm-up, fed ``sig`` (EMAs converge) with rising rewards: the
    budgets of steps 1..t_warm are delta0, so the t_warm - 1 decisions after the first
    t_warm - 1 batches are warm-up and the next one is the ladder's."""
    sched = AdaptiveSchedule(cfg)
    for i in range(cfg.adaptive.t_warm - 1):
        d = sched.observe(dataclasses.replace(sig, batch_max_reward=reward * 1.05**i))
        assert d.rule == "warmup" and d.delta == cfg.adaptive.delta0
    return sched


def _feed(sched: AdaptiveSchedule, sig: StepSignals, times: int) -> list[str]:
    return [sched.observe(sig).rule for _ in range(times)]


def test_fixed_and_cosine_endpoints() -> None:
    fixed = make_schedule(TrainConfig())
    assert fixed.delta(0, 100) == fixed.delta(99, 100) == pytest.approx(LN2)
    assert fixed.observe(NEUTRAL).rule == "fixed"
    cos = make_schedule(TrainConfig(delta="cosine"))
    assert cos.delta(0, 100) == pytest.approx(1.1)
    assert cos.delta(99, 100) == pytest.approx(0.3)
    assert cos.delta(49, 99) == pytest.approx(0.7)
    rev = make_schedule(TrainConfig(delta="cosine-reverse"))
    assert rev.delta(0, 100) == pytest.approx(0.3)
    assert rev.delta(99, 100) == pytest.approx(1.1)
    values = [cos.delta(s, 100) for s in range(100)]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    # observe() answers the next step's value.
    cos.delta(10, 100)
    d = cos.observe(NEUTRAL)
    assert d.delta == pytest.approx(cosine_delta(11, 100, 1.1, 0.3)) and d.rule == "cosine"
    assert cosine_delta(0, 1, 1.1, 0.3) == 1.1


def test_warmup_holds_delta0_and_p1_fires_during_warmup() -> None:
    sched = AdaptiveSchedule(CFG)
    assert sched.delta(0, 100) == A.delta0
    hot = dataclasses.replace(NEUTRAL, kl_ref=A.tau_kl * 2)
    d = sched.observe(hot)
    assert d == sched.observe(hot)
    assert d.rule == "P1" and d.delta == A.delta0
    # Over-exploring signals do not move delta during the warm-up.
    sched = AdaptiveSchedule(CFG)
    grow = StepSignals(0.0, A.tau_n + 1, 0.0, 0.0, 1.0)
    for i in range(A.t_warm - 1):
        d = sched.observe(dataclasses.replace(grow, batch_max_reward=1.0 + i))
        assert (d.rule, d.delta) == ("warmup", A.delta0)
    # after t_warm = 20 batches the ladder sets the budget of step 21 (1-based), as the paper
    # (issue 25, finding 7: the ladder started at step 22)
    d = sched.observe(dataclasses.replace(grow, batch_max_reward=100.0))
    assert d.rule == "P4" and sched.t == A.t_warm


def test_p4_grows_to_delta_max() -> None:
    grow = StepSignals(0.0, A.tau_n + 2, 0.0, 0.0, None)
    sched = _past_warmup(sig=grow)
    deltas = []
    for i in range(30):
        d = sched.observe(dataclasses.replace(grow, batch_max_reward=1000.0 * (i + 1)))
        assert d.rule == "P4"
        deltas.append(d.delta)
    assert deltas[0] == pytest.approx(A.rho_plus * A.delta0)
    assert max(deltas) == pytest.approx(A.delta_max)
    assert all(d <= A.delta_max for d in deltas)
    assert sched.delta(50, 100) == pytest.approx(A.delta_max)


def test_p4_needs_recent_improvement() -> None:
    grow = StepSignals(0.0, A.tau_n + 2, 0.0, 0.0, 1.0)  # batch max far below the peak
    sched = _past_warmup(reward=100.0, sig=grow)
    rules = _feed(sched, grow, A.t_plat + 2)
    assert rules[: A.t_plat - 1] == ["P4"] * (A.t_plat - 1)
    assert rules[-1] == "hold"


def test_p2_shrinks_to_delta_min() -> None:
    wta = StepSignals(0.0, A.tau_n_wta - 1, 0.0, 1.0, None)
    sched = _past_warmup(sig=wta)
    deltas = [sched.observe(wta) for _ in range(30)]
    assert all(d.rule == "P2" for d in deltas)
    assert deltas[0].delta == pytest.approx(A.rho_minus * A.delta0)
    assert deltas[-1].delta == pytest.approx(A.delta_min)
    assert min(d.delta for d in deltas) >= A.delta_min


def test_p2_gated_by_eff_n() -> None:
    sched = _past_warmup()
    flat = StepSignals(0.0, A.tau_n_wta + 0.4, 0.5, 1.0, None)
    assert sched.observe(flat).rule != "P2"


def test_p3_stagnation() -> None:
    sched = _past_warmup(reward=10.0)
    # The peak tracker (an EMA of the warm-up maxima) is above 5: stagnant batches below it.
    stag = StepSignals(0.0, A.tau_n_stag - 1, A.tau_const - 0.2, 0.0, 5.0)
    rules = _feed(sched, stag, A.t_stag + 3)
    assert "P3" not in rules[: A.t_stag - 1]
    assert rules[A.t_stag - 1 :] == ["P3"] * 4
    assert sched.delta(0, 1) == pytest.approx(A.delta0 * A.rho_minus**4)
    # A new peak (>= 2 % above the tracker) resets the counter.
    d = sched.observe(dataclasses.replace(stag, batch_max_reward=1000.0))
    assert d.rule == "hold" and sched.n_noimp == 0


def test_p3_guarded_by_const_frac() -> None:
    sched = _past_warmup(reward=10.0)
    stag = StepSignals(0.0, A.tau_n_stag - 1, A.tau_const + 0.2, 0.0, 1.0)
    assert "P3" not in _feed(sched, stag, A.t_stag + 3)


def test_p1_brake_resets_and_has_priority() -> None:
    sched = _past_warmup()
    wta = StepSignals(0.0, 1.0, 0.0, 1.0, None)
    _feed(sched, wta, 5)
    assert sched.delta(0, 1) < A.delta0
    # The KL EMA needs a few steps above tau_kl (alpha = 0.3) before the brake fires.
    brake = dataclasses.replace(wta, kl_ref=1.0)
    # EMA of KL: ~0.002 -> 0.30 (below tau_kl 0.4, P2 still) -> 0.51 (brake).
    assert _feed(sched, brake, 3) == ["P2", "P1", "P1"]
    assert sched.delta(0, 1) == A.delta0


def test_ema_mixing() -> None:
    sched = _past_warmup()
    before = sched.ema.eff_n
    assert before == pytest.approx(4.5)
    sched.observe(dataclasses.replace(NEUTRAL, eff_n=8.0, kl_ref=None))
    assert sched.ema.eff_n == pytest.approx((1 - A.alpha) * 4.5 + A.alpha * 8.0)
    assert sched.ema.kl == pytest.approx(0.01)  # a missing signal keeps its EMA


def test_peak_tracker() -> None:
    sched = AdaptiveSchedule(CFG)
    sched.observe(dataclasses.replace(NEUTRAL, batch_max_reward=10.0))
    assert (sched.peak, sched.n_noimp) == (10.0, 0)
    sched.observe(dataclasses.replace(NEUTRAL, batch_max_reward=10.1))  # +1 %: not a peak
    assert sched.n_noimp == 1 and sched.peak == pytest.approx(10.1)  # the best so far
    sched.observe(dataclasses.replace(NEUTRAL, batch_max_reward=5.0))  # a weak batch
    assert sched.n_noimp == 2 and sched.peak == pytest.approx(10.1)  # does not dip
    # back to the old best after a weak batch is no new peak (an EMA would have dipped)
    sched.observe(dataclasses.replace(NEUTRAL, batch_max_reward=10.1))
    assert sched.n_noimp == 3
    sched.observe(dataclasses.replace(NEUTRAL, batch_max_reward=11.0))  # +9 %: a new peak
    assert sched.n_noimp == 0 and sched.peak == pytest.approx(11.0)


def test_constants_come_from_config() -> None:
    custom = dataclasses.replace(
        CFG, adaptive=AdaptiveKLConfig(t_warm=0, rho_plus=2.0, delta_max=1.0)
    )
    sched = AdaptiveSchedule(custom)
    d = sched.observe(StepSignals(0.0, 9.0, 0.0, 0.0, 1.0))
    assert d.rule == "P4" and d.delta == pytest.approx(1.0)


def test_resume_round_trip() -> None:
    sched = _past_warmup()
    _feed(sched, StepSignals(0.1, 2.0, 0.1, 0.9, 3.0), 4)
    state = sched.to_json()
    again = make_schedule(CFG, state)
    assert isinstance(again, AdaptiveSchedule)
    assert again.to_json() == state
    nxt = StepSignals(0.2, 1.5, 0.1, 0.95, 2.0)
    assert again.observe(nxt) == sched.observe(nxt)
    with pytest.raises(RtloptError):
        make_schedule(TrainConfig(delta="cosine"), state)
    cos = make_schedule(TrainConfig(delta="cosine"))
    cos.delta(7, 100)
    assert make_schedule(TrainConfig(delta="cosine"), cos.to_json()).observe(
        NEUTRAL
    ) == cos.observe(NEUTRAL)


def test_registry_unknown_name() -> None:
    assert DELTA_SCHEDULES.names() == ["adaptive", "cosine", "cosine-reverse", "fixed"]
    with pytest.raises(PluginError, match="known: adaptive"):
        DELTA_SCHEDULES.get("linear")
