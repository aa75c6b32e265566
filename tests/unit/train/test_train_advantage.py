"""Entropic and expected-reward advantages."""

from __future__ import annotations

import math

import pytest

from rtlopt.config import LN2, TrainConfig
from rtlopt.errors import PluginError
from rtlopt.train import (
    ADVANTAGES,
    batch_advantages,
    group_advantages,
    kl_to_uniform,
    solve_beta,
)

CFG = TrainConfig()


@pytest.mark.parametrize(
    ("rewards", "delta"),
    [
        ([0.1, 0.5, 11.1, 12.0], LN2),
        ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], LN2),
        ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], 4 * LN2 * 0.45),
        ([11.1, 11.10001, 11.10002, 11.10003], 0.25 * LN2),  # tiny spread, huge beta
        ([25.0, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05], 0.01),
        ([1.0, 2.0], 0.3),
    ],
)
def test_beta_meets_delta(rewards: list[float], delta: float) -> None:
    beta, saturated = solve_beta(rewards, delta, CFG)
    assert not saturated
    assert CFG.beta_lo <= beta <= CFG.beta_hi
    assert abs(kl_to_uniform(rewards, beta) - delta) < 1e-6
    stats = group_advantages(rewards, delta, CFG)
    assert stats.kl is not None and abs(stats.kl - delta) < 1e-6


def test_kl_to_uniform_hand_computed() -> None:
    # k = 2, beta = ln 3: q = (1/4, 3/4); KL = 1/4 ln(1/2) + 3/4 ln(3/2).
    expected = 0.25 * math.log(0.5) + 0.75 * math.log(1.5)
    assert kl_to_uniform([0.0, 1.0], math.log(3.0)) == pytest.approx(expected, abs=1e-15)
    # Large beta does not overflow: q -> one-hot, KL -> ln k.
    assert kl_to_uniform([0.0, 1000.0, 3.0], 1e6) == pytest.approx(math.log(3.0))


def test_saturation_when_delta_unreachable() -> None:
    # Two of four tied at the top: KL is at most ln(4/2) = ln 2 < 2 ln 2.
    rewards = [1.0, 1.0, 0.0, 0.0]
    beta, saturated = solve_beta(rewards, 2 * LN2, CFG)
    assert saturated and beta == CFG.beta_hi
    stats = group_advantages(rewards, 2 * LN2, CFG)
    assert stats.saturated and stats.beta == CFG.beta_hi
    # A = w_i / mean_{j!=i} w_j - 1 with w = (1, 1, 0, 0): 1/(1/3) - 1 = 2 and 0 - 1 = -1.
    assert stats.advantages == pytest.approx((2.0, 2.0, -1.0, -1.0))
    # k = 2 with delta = 2 ln 2 > ln 2 (the limit) saturates; the lone winner's budget is
    # capped, so its advantage is finite and moderate, never inf.
    huge = group_advantages([0.0, 10.0], 2 * LN2, CFG)
    assert huge.saturated and huge.capped and all(math.isfinite(a) for a in huge.advantages)
    assert -1.0 < huge.advantages[0] < -0.9 and 1.0 < huge.advantages[1] < 100.0


def _lone_winner_advantage(k: int, delta: float, cfg: TrainConfig = CFG) -> float:
    return group_advantages([1.0] + [0.0] * (k - 1), delta, cfg).advantages[0]


def test_lone_winner_budget_capped_at_fraction_of_ln_k() -> None:
    # The adaptive controller's upper bound 4 ln 2 = ln 16 is beyond ln 8: without the cap
    # beta* hits beta_hi and the lone winner's advantage was ~1e6.
    stats = group_advantages([1.0] + [0.0] * 7, 4 * LN2, CFG)
    assert stats.saturated and stats.capped
    cap = CFG.budget_cap * math.log(8)
    assert stats.kl == pytest.approx(cap, rel=1e-6)  # the group sits exactly at the cap
    assert 10.0 < stats.advantages[0] < 100.0  # ~62, not ~1e6
    assert stats.advantages[1:] == pytest.approx([stats.advantages[1]] * 7)
    assert -1.0 < stats.advantages[1] < -0.8
    # Any budget above the cap gives the same advantages; below it they grow with the budget.
    assert _lone_winner_advantage(8, 10.0) == pytest.approx(stats.advantages[0])
    assert _lone_winner_advantage(8, 0.99 * math.log(8)) == pytest.approx(stats.advantages[0])
    assert _lone_winner_advantage(8, 0.7 * math.log(8)) < stats.advantages[0]
    # Without the cap (a cap fraction near 1) the winner's advantage explodes again.
    loose = TrainConfig(budget_cap=0.999999)
    assert _lone_winner_advantage(8, 4 * LN2, loose) > 1e4
    # 0 turns the cap off: the paper has none (issue 25, finding 7)
    off = group_advantages([1.0] + [0.0] * 7, 4 * LN2, TrainConfig(budget_cap=0.0))
    assert not off.capped and off.saturated and off.advantages[0] > 1e4


def test_budget_cap_leaves_the_canonical_budget_and_ties_alone() -> None:
    for k in (4, 8, 16):
        stats = group_advantages([1.0] + [0.0] * (k - 1), LN2, CFG)
        assert not stats.capped and stats.kl == pytest.approx(LN2, rel=1e-6)
    # Two winners: bounded without any cap ((k-1)/(m-1) - 1 = 6 for k = 8, m = 2).
    tied = group_advantages([1.0, 1.0] + [0.0] * 6, 4 * LN2, CFG)
    assert tied.saturated and not tied.capped
    assert tied.advantages == pytest.approx([6.0, 6.0] + [-1.0] * 6)


def test_leave_one_out_hand_computed() -> None:
    # k = 3, rewards (0, 1, 2). Choose delta so that beta* = ln 2 exactly: w = (1, 2, 4).
    rewards = [0.0, 1.0, 2.0]
    delta = kl_to_uniform(rewards, math.log(2.0))
    stats = group_advantages(rewards, delta, CFG)
    assert stats.beta == pytest.approx(math.log(2.0), rel=1e-9)
    # A_0 = 1 / ((2 + 4) / 2) - 1 = -2/3; A_1 = 2 / ((1 + 4) / 2) - 1 = -1/5;
    # A_2 = 4 / ((1 + 2) / 2) - 1 = 5/3.
    assert stats.advantages == pytest.approx((-2 / 3, -1 / 5, 5 / 3), rel=1e-8)
    # q = (1, 2, 4) / 7: eff-n = 1 / sum q^2 = 49 / 21.
    assert stats.eff_n == pytest.approx(49 / 21, rel=1e-8)
    assert stats.used == (True, True, True) and not stats.degenerate and not stats.saturated


def test_shift_invariance_and_no_overflow() -> None:
    base = [0.1, 0.5, 3.0, 11.1]
    a = group_advantages(base, LN2, CFG)
    b = group_advantages([r + 1000.0 for r in base], LN2, CFG)
    assert a.advantages == pytest.approx(b.advantages, rel=1e-6)


def test_degenerate_groups_are_zero() -> None:
    for rewards in ([11.1, 11.1, 11.1, 11.1], [2.0, 2.0 + 1e-13], [5.0], [5.0, None, None]):
        for name in ("entropic", "expected"):
            stats = group_advantages(rewards, LN2, TrainConfig(advantage=name))
            assert stats.degenerate
            assert stats.advantages == (0.0,) * len(rewards)
            assert not any(stats.used)
            assert stats.beta is None


def test_infrastructure_errors_are_excluded() -> None:
    with_none = group_advantages([0.0, None, 1.0, 2.0], LN2, CFG)
    without = group_advantages([0.0, 1.0, 2.0], LN2, CFG)
    assert with_none.used == (True, False, True, True)
    assert with_none.advantages[1] == 0.0
    assert [with_none.advantages[i] for i in (0, 2, 3)] == pytest.approx(list(without.advantages))
    empty = group_advantages([None, None], LN2, CFG)
    assert empty.degenerate and empty.n_rewarded == 0 and empty.eff_n is None


def test_expected_reward_grpo() -> None:
    stats = group_advantages([1.0, 2.0, 3.0, 6.0], LN2, TrainConfig(advantage="expected"))
    mean = 3.0
    std = math.sqrt((4 + 1 + 0 + 9) / 3)
    assert stats.advantages == pytest.approx(tuple((r - mean) / std for r in (1, 2, 3, 6)))
    assert sum(stats.advantages) == pytest.approx(0.0, abs=1e-12)
    assert stats.beta is None


def test_batch_signals() -> None:
    groups: list[list[float | None]] = [
        [0.0, 1.0, 2.0, 3.0],  # sharp
        [11.1, 11.1, 11.1, 11.1],  # constant
        [1.0, 1.0, 0.0, 0.0],  # saturates at 2 ln 2
        [None, None, None, None],  # infrastructure only: ignored by the signals
    ]
    batch = batch_advantages(groups, 2 * LN2, CFG)
    assert len(batch.groups) == 4
    assert batch.const_frac == pytest.approx(1 / 3)
    assert batch.beta_max_rate == pytest.approx(1 / 3)  # over every group with a reward
    sharp = [g for g in batch.groups if g.beta is not None]
    assert batch.beta_mean == pytest.approx(sum(g.beta for g in sharp if g.beta) / 2)
    effs = [g.eff_n for g in batch.groups[:3]]
    assert effs[1] == 4.0  # constant group: uniform q
    assert batch.eff_n == pytest.approx(sum(e for e in effs if e is not None) / 3)
    assert batch.max_reward == 11.1
    assert batch.mean_reward == pytest.approx((6.0 + 44.4 + 2.0) / 12)
    assert batch.n_used == 8
    sig = batch.signals(kl_ref=0.05)
    assert (sig.kl_ref, sig.eff_n, sig.const_frac, sig.beta_max_rate, sig.batch_max_reward) == (
        0.05,
        batch.eff_n,
        batch.const_frac,
        batch.beta_max_rate,
        11.1,
    )


def test_beta_max_rate_counts_every_group() -> None:
    """Three constant groups and one saturated group: 0.25, not 1.0 (issue 32)."""
    groups: list[list[float | None]] = [[0.5] * 4, [0.2] * 4, [1.0] * 4, [1.0, 1.0, 1.0, 0.0]]
    batch = batch_advantages(groups, LN2, CFG)
    assert batch.groups[3].saturated
    assert batch.beta_max_rate == pytest.approx(0.25)
    assert batch.group_size == pytest.approx(4.0)


def test_pooling_trains_single_rollout_groups() -> None:
    """IGR's one child per chain: four groups of one rollout train only when pooled."""
    groups: list[list[float | None]] = [[0.1], [3.0], [None], [0.05]]
    plain = batch_advantages(groups, LN2, CFG)
    assert plain.n_used == 0 and plain.pooled == 0
    pooled = batch_advantages(groups, LN2, CFG, pool=True)
    assert pooled.n_used == 3 and pooled.pooled == 3
    adv = [g.advantages[0] for g in pooled.trained]
    assert adv[1] > 0 > adv[0] and adv[2] == 0.0 and not pooled.trained[2].used[0]
    # the controller still sees the groups as sampled
    assert pooled.const_frac == plain.const_frac == 1.0
    # sharp groups keep their own advantages; a constant pool stays degenerate
    mixed = batch_advantages([[0.0, 1.0], [2.0, 2.0], [2.0]], LN2, CFG, pool=True)
    assert mixed.trained[0] == mixed.groups[0] and mixed.n_used == 2 and mixed.pooled == 0


def test_unknown_estimator() -> None:
    assert set(ADVANTAGES.names()) >= {"entropic", "expected"}
    with pytest.raises(PluginError, match="known: entropic, expected"):
        ADVANTAGES.get("entropy")
