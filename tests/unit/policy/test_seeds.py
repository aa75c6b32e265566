"""Per-rollout seeds: distinct across prompts, repeats and steps; reproducible; in range."""

from __future__ import annotations

import pytest

from rtlopt.policy import _seeds
from rtlopt.policy._seeds import SEED_LIMIT, rollout_seeds


def test_every_rollout_of_a_step_has_its_own_seed() -> None:
    seeds = rollout_seeds(4_200_003, 4, 8)
    flat = [s for row in seeds for s in row]
    assert [len(r) for r in seeds] == [8] * 4 and len(set(flat)) == 32
    assert all(0 <= s < SEED_LIMIT for s in flat)
    # The scheme it replaces: seed + i + j collides across prompts (11 distinct of 32).
    assert len({4_200_003 + i + j for i in range(4) for j in range(8)}) == 11
    # Reproducible, and consecutive steps do not share seeds.
    assert rollout_seeds(4_200_003, 4, 8) == seeds
    assert not set(flat) & {s for row in rollout_seeds(4_200_004, 4, 8) for s in row}


def test_a_hash_collision_is_redrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _seeds.rollout_seed
    # Force every unsalted seed to the same value: distinctness must still hold.
    monkeypatch.setattr(
        _seeds,
        "rollout_seed",
        lambda seed, i, j, salt=0: 7 if salt == 0 else real(seed, i, j, salt),
    )
    flat = [s for row in rollout_seeds(1, 3, 3) for s in row]
    assert len(set(flat)) == 9 and flat[0] == 7
