"""The adaptive KL-budget controller driven end to end by scripted rewards (issue 32).

Each script is a sequence of steps' reward groups; every step goes through
``batch_advantages`` at the controller's budget and back into the controller, as the run loop
does. Each of the four rules must fire at 4 and at 8 rollouts per group.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import pytest

from rtlopt.config import AdaptiveKLConfig, TrainConfig
from rtlopt.train import AdaptiveSchedule, batch_advantages

CFG = TrainConfig(delta="adaptive")
Groups = list[list[float | None]]
Script = Callable[[int, int], tuple[Groups, float]]  # (step, k) -> groups, kl_ref


def _run(script: Script, k: int, steps: int, cfg: TrainConfig = CFG) -> list[str]:
    sched = AdaptiveSchedule(cfg)
    rules = []
    for t in range(steps):
        groups, kl = script(t, k)
        batch = batch_advantages(groups, sched.delta(t, steps), cfg)
        rules.append(sched.observe(batch.signals(kl)).rule)
    return rules


def _near_uniform(t: int, k: int, scale: float) -> Groups:
    """All but one rollout tied at the top (over-exploring: eff-n near k), rising rewards."""
    top = scale * 1.05**t
    return [[top] * (k - 1) + [0.0] for _ in range(4)]


def _lone_winner(top: float, k: int) -> Groups:
    return [[top] + [0.0] * (k - 1) for _ in range(4)]


def _p1(t: int, k: int) -> tuple[Groups, float]:
    return _lone_winner(1.0 + t, k), 1.0  # the policy drifted far from the reference


def _p2(t: int, k: int) -> tuple[Groups, float]:
    # grow the budget past ln k (P4), then lone winners: every group saturates (P2)
    if t < 30:
        return _near_uniform(t, k, 1.0), 0.0
    return _lone_winner(10.0 * 1.05**t, k), 0.0


def _p3(t: int, k: int) -> tuple[Groups, float]:
    # a noisy maximum that never beats its best: 1.0, 0.7, 1.0, 0.7, ...
    return _lone_winner(1.0 if t % 2 == 0 else 0.7, k), 0.0


def _p4(t: int, k: int) -> tuple[Groups, float]:
    return _near_uniform(t, k, 1.0), 0.0


@pytest.mark.parametrize("k", [4, 8])
@pytest.mark.parametrize(
    ("rule", "script", "steps"),
    [("P1", _p1, 5), ("P2", _p2, 45), ("P3", _p3, 30), ("P4", _p4, 25)],
)
def test_each_rule_fires_at_4_and_8_rollouts(rule: str, script: Script, steps: int, k: int) -> None:
    rules = _run(script, k, steps)
    assert rule in rules, rules


@pytest.mark.parametrize("rule", ["P1", "P2", "P3", "P4"])
def test_a_rule_switched_off_never_fires(rule: str) -> None:
    scripts: dict[str, tuple[Script, int]] = {
        "P1": (_p1, 5),
        "P2": (_p2, 45),
        "P3": (_p3, 30),
        "P4": (_p4, 25),
    }
    script, steps = scripts[rule]
    off = dataclasses.replace(CFG, adaptive=AdaptiveKLConfig(off=(rule,)))
    assert rule in _run(script, 4, steps)
    assert rule not in _run(script, 4, steps, off)


def test_thresholds_scale_with_group_size() -> None:
    """Unscaled (k_ref = k), eff-n of 3 of 4 tied rollouts never passes tau_n = 5.5."""
    unscaled = dataclasses.replace(CFG, adaptive=AdaptiveKLConfig(k_ref=4))
    assert "P4" not in _run(_p4, 4, 25, unscaled)
    assert "P4" in _run(_p4, 4, 25)


def _history(rules: Sequence[str]) -> str:
    return ",".join(rules)


def test_stagnation_counts_against_the_best_so_far() -> None:
    sched = AdaptiveSchedule(CFG)
    for t in range(20):
        groups, kl = _p3(t, 4)
        sched.observe(batch_advantages(groups, sched.delta(t, 20), CFG).signals(kl))
    assert sched.n_noimp == 19 and sched.peak == 1.0, _history([sched.last_rule])
