"""Ties within the PPA flow's noise floor (train.ppa_tie, issue 32)."""

from __future__ import annotations

import dataclasses

import pytest

from rtlopt.config import LN2, Config, TrainConfig
from rtlopt.errors import ConfigError
from rtlopt.train import batch_advantages
from rtlopt.train._ties import tie_rewards

CFG = TrainConfig(ppa_tie=0.01)  # 1 %


def test_answers_within_the_floor_share_their_mean_reward() -> None:
    # metrics 100 and 100.5 tie (0.5 % < 1 %); 103 does not; unmeasured answers keep theirs
    rewards = [12.0, 11.95, 11.7, 0.4, None, -0.03]
    metrics = [100.0, 100.5, 103.0, None, 99.0, None]
    out, tied = tie_rewards(rewards, metrics, 0.01)
    assert out[:2] == [pytest.approx(11.975)] * 2 and tied == 2
    assert out[2:] == [11.7, 0.4, None, -0.03]
    assert tie_rewards(rewards, metrics, 0.0) == (rewards, 0)  # off


def test_a_chain_of_small_steps_is_not_one_tie() -> None:
    # 100 -> 100.8 -> 101.6 -> 102.4: each step is under 1 %, the whole chain is not
    out, tied = tie_rewards([4.0, 3.0, 2.0, 1.0], [100.0, 100.8, 101.6, 102.4], 0.01)
    assert out == [3.5, 3.5, 1.5, 1.5] and tied == 4


def test_a_group_that_differs_only_by_noise_gives_no_gradient() -> None:
    groups = [[11.10, 11.12, 11.11, 11.09], [11.1, 12.1, 11.1, 0.5]]
    metrics = [[100.0, 99.8, 99.9, 100.1], [100.0, 90.0, 100.0, None]]
    tied = batch_advantages(groups, LN2, CFG, metrics=metrics)
    assert tied.groups[0].degenerate and tied.groups[0].advantages == (0.0,) * 4
    assert not tied.groups[1].degenerate and tied.tied == 6
    assert tied.const_frac == 0.5
    exact = batch_advantages(groups, LN2, CFG)  # without figures of merit: ranked as before
    assert not exact.groups[0].degenerate and exact.tied == 0


def test_tied_winners_are_rewarded_alike() -> None:
    rewards = [12.0, 11.99, 11.0, 10.0]
    metrics = [90.0, 90.05, 100.0, 110.0]
    g = batch_advantages([rewards], LN2, CFG, metrics=[metrics]).groups[0]
    assert g.advantages[0] == pytest.approx(g.advantages[1]) and g.advantages[0] > 0
    assert not g.capped  # two winners: no lone-winner budget cap
    raw = batch_advantages([rewards], LN2, CFG).groups[0]
    assert raw.advantages[0] > raw.advantages[1]


def test_pooled_groups_are_tied_across_their_members() -> None:
    # single-rollout groups (IGR): the pool ties what the groups could not
    groups = [[12.0], [11.99], [11.0]]
    metrics = [[90.0], [90.05], [100.0]]
    b = batch_advantages(groups, LN2, CFG, pool=True, metrics=metrics)
    adv = [g.advantages[0] for g in b.trained]
    assert adv[0] == pytest.approx(adv[1]) and adv[0] > 0 > adv[2]


def test_the_setting_is_checked() -> None:
    assert TrainConfig().ppa_tie > 0
    with pytest.raises(ConfigError, match="ppa_tie"):
        dataclasses.replace(Config(), train=TrainConfig(ppa_tie=-0.1))
