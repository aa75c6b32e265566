"""A rollout the policy could not sample (a prompt that does not fit even shortened) is an
infrastructure error in the run: no reward, no gradient, counted, never scored as a bad design.

Real evaluator and tools on the bundled example; the policy is a small in-test object.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from rtlopt.config import Config, RunConfig, SearchConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.policy import Completion, Prompt, Sample, UpdateStats
from rtlopt.run import Optimizer

pytestmark = pytest.mark.tools

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "priority_encoder"


class _HalfBrokenPolicy:
    """Prompt 0's rollouts cannot be sampled; prompt 1's are the reference itself."""

    name = "half-broken"
    trainable = True

    def __init__(self, code: str) -> None:
        self.code = code
        self.updates: list[list[Sample]] = []

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        out = [
            [
                Completion(text="", verilog=None, seed=j, error="prompt does not fit")
                for j in range(n)
            ]
        ]
        for i in range(1, len(prompts)):
            out.append(
                [Completion(text=self.code, verilog=self.code, seed=100 * i + j) for j in range(n)]
            )
        return out

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        self.updates.append(list(samples))
        return UpdateStats(
            loss=None, kl_ref=None, n_samples=0, tokens=0, grad_norm=None, time_s=0.0
        )

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)

    def load(self, path: Path) -> None:
        pass

    def close(self) -> None:
        pass


def test_unsampled_rollouts_are_infrastructure_errors(tmp_path: Path) -> None:
    from rtlopt.pdk import resolve_pdk

    cfg = dataclasses.replace(
        Config(), run=RunConfig(steps=1, rollouts=2), search=SearchConfig(parents=2, sampler="none")
    )
    # the example copied out of the checkout, as the other run tests do: in place, the design's
    # repository was this checkout, every file of which the screen read (80 % of the test)
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE / "rtl", repo / "rtl")
    design = load_design(repo / "rtl" / "prio_enc.v", "prio_enc", cfg.project)
    policy = _HalfBrokenPolicy(design.target.text())
    with Evaluator(design, cfg, tmp_path / "work", resolve_pdk("nangate45")) as ev:
        opt = Optimizer(design, cfg, ev, policy, tmp_path / "run", "spec")
        opt.prepare("r1", resume=False)
        outcome = opt.run()
    rec = outcome.records[0]
    assert rec.rollouts == 4 and rec.infra_errors == 2
    # The errored rollouts enter neither the loss nor the candidate records.
    # the other group is constant: its two rollouts count in the loss's mean with advantage 0
    assert len(policy.updates[0]) == 2 and all(s.advantage == 0.0 for s in policy.updates[0])
    assert all(s.completion for s in policy.updates[0])
    recorded = list((tmp_path / "run" / "candidates").glob("*.json"))
    assert len(recorded) == 1
    assert json.loads(recorded[0].read_text())["status"] == "ok"
