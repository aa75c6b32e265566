"""A bug only small operands reach: a clamped product that saturates for random operands.

tests/data/stimulus/clamp_mac.v clamps ``a * k`` (k delayed by one enable) to -15..15; the
broken copy takes k one enable early. Uniform random a and k saturate the product almost
always, so both give the same clamped value; the *small* stimulus class
(:mod:`rtlopt.harness._small`) keeps the product in range. Real iverilog through the real
evaluator (formal off, so simulation alone decides).
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FormalConfig, ProjectConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.harness._small import small_cycles, small_value
from rtlopt.harness._stimulus import Field
from rtlopt.results import Stage, Status

DATA = Path(__file__).resolve().parents[1] / "data" / "stimulus"


def _config() -> Config:
    base = Config()
    return dataclasses.replace(
        base,
        formal=FormalConfig(enabled=False),
        eval=EvalConfig(workers=1, cache=False, netlist_check="never"),
    )


@pytest.mark.tools
def test_a_broken_clamped_product_fails_in_simulation(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(DATA / "clamp_mac.v", repo / "clamp_mac.v")
    design = load_design(repo / "clamp_mac.v", "clamp_mac", ProjectConfig())
    with Evaluator(design, _config(), tmp_path / "ev") as ev:
        broken = ev.evaluate((DATA / "clamp_mac_broken.v").read_text())
        same = ev.evaluate((DATA / "clamp_mac.v").read_text() + "\n// the same\n")
    assert broken.status is Status.INVALID and broken.stage is Stage.SIMULATION, broken.message
    assert broken.sim is not None and broken.sim.first_mismatch is not None
    assert broken.sim.first_mismatch.output == "y"
    assert same.status is Status.OK, same.message  # the reference itself still passes


def test_small_values_are_small_and_signed() -> None:
    import random

    rng = random.Random(1)
    wide, narrow = Field("a", 32, 0), Field("en", 1, 32)
    values = [small_value(rng, wide) for _ in range(2000)]
    magnitudes = [min(v, (-v) & wide.mask) for v in values]
    assert max(magnitudes) < 64
    assert any(v > wide.mask // 2 for v in values)  # negative (two's complement) ones too
    assert any(0 < v < 64 for v in values)
    assert {small_value(rng, narrow) for _ in range(50)} == {0, 1}


def test_small_cycles_start_with_a_reset_and_fill_the_count() -> None:
    cfg = Config().harness

    def word(values: dict[str, int], reset: bool = False) -> int:
        return -1 if reset else values["a"]

    out = small_cycles([Field("a", 16, 0)], word, True, cfg)
    assert len(out) == cfg.sequence_cycles and out[0] == -1
    assert (
        small_cycles([Field("a", 16, 0)], word, True, dataclasses.replace(cfg, sequence_cycles=0))
        == []
    )
