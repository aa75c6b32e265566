"""The default CPU run sized to the machine (issue 25, finding 8: the paper's 4 x 4 x 2048-token
step took 451 s on two cores)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt import session as _sizing
from rtlopt.config import Config, PolicyConfig, load_config
from rtlopt.session import size_for_hardware


@pytest.fixture(autouse=True)
def _no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_sizing, "has_nvidia_gpu", lambda: False)


def test_two_cores_get_one_parent_two_rollouts_short_answers() -> None:
    cfg, note = size_for_hardware(Config(), {}, cores=2, load=0.3)
    assert (cfg.search.parents, cfg.run.rollouts) == (1, 2)
    assert (cfg.policy.max_new_tokens, cfg.policy.max_prompt_tokens) == (512, 2048)
    assert (cfg.train.micro_batch, cfg.policy.cpu_threads) == (2, 2)
    assert note is not None and "2 core(s)" in note and "run.rollouts = 2" in note
    big, _ = size_for_hardware(Config(), {}, cores=16, load=0.0)
    assert (big.search.parents, big.run.rollouts) == (4, 4)
    assert (big.train.micro_batch, big.policy.cpu_threads) == (4, 16)


def test_busy_cores_get_fewer_torch_threads() -> None:
    """On cores other jobs keep busy, a second torch thread waits more than it computes."""
    busy, _ = size_for_hardware(Config(), {}, cores=2, load=12.0)
    assert busy.policy.cpu_threads == 1
    half, _ = size_for_hardware(Config(), {}, cores=16, load=6.5)
    assert half.policy.cpu_threads == 10
    mine, _ = size_for_hardware(Config(), {"policy.cpu_threads": "cli"}, cores=2, load=12.0)
    assert mine.policy.cpu_threads == 0  # set by the user: kept


def test_what_the_user_set_is_kept(tmp_path: Path) -> None:
    (tmp_path / "rtlopt.toml").write_text("[run]\nrollouts = 3\n")
    resolved = load_config(tmp_path, overrides={"search.parents": 2})
    cfg, note = size_for_hardware(resolved.config, resolved.sources, cores=2)
    assert (cfg.search.parents, cfg.run.rollouts) == (2, 3)
    assert cfg.policy.max_new_tokens == 512 and note is not None
    assert cfg.train.micro_batch == 4  # the user's 2 x 3 rollouts, capped at 4 per pass
    assert "search.parents" not in note and "run.rollouts" not in note


def test_gpu_and_other_backends_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    for policy in (PolicyConfig(backend="vllm"), PolicyConfig(device="cuda")):
        cfg = Config(policy=policy)
        assert size_for_hardware(cfg, {}, cores=2) == (cfg, None)
    monkeypatch.setattr(_sizing, "has_nvidia_gpu", lambda: True)
    assert size_for_hardware(Config(), {}, cores=2) == (Config(), None)
