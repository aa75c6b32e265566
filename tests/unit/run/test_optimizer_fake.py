"""The Optimizer (run/_loop.py) with a fake policy and a fake evaluator: no model, no tools.

The fake evaluator scores a candidate by markers in its text; the fake policy answers from a
fixed list. What is checked is the loop's own bookkeeping: every rollout evaluated once per
distinct text, infrastructure errors recorded but never rewarded or admitted, the best
accepted design tracked, the run directory written, and the policy updated once per step.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import Config, ProjectConfig, RunConfig, SearchConfig, TrainConfig
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.policy import Completion, Prompt, Sample, UpdateStats
from rtlopt.results import PPA, EvalResult, Stage, Status
from rtlopt.run import Optimizer
from rtlopt.rundir import RunDir
from rtlopt.search import PoolSearch
from rtlopt.verilog import source_hash

REF = "module top(input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n"
SMALLER = REF.replace("~a", "a ^ 4'hf") + "// SMALLER\n"
SAME = REF.replace("~a", "~(a)")
WRONG = REF.replace("~a", "a") + "// WRONG\n"
FLAKY = REF.replace("~a", "~a | 4'h0") + "// FLAKY\n"
NEAR = REF.replace("~a", "~a & 4'hf") + "// NEAR\n"  # 0.04 % larger than SMALLER
THINK_CUT = "<think>\nThe inverter could be"  # cut off at the token limit while thinking
MODULE_CUT = "```verilog\nmodule top(input [3:0] a, output [3:0] y);\n  assign y ="  # mid-module


class FakeEvaluator:
    """Scores by markers: SMALLER halves the area, WRONG is not equivalent, FLAKY is a tool
    error (infrastructure); anything else equals the reference."""

    metric_kind = "adp"

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def reference(self) -> EvalResult:
        return self._ok(100.0, REF)

    def provenance(self) -> dict[str, Any]:
        return {"tools": {"fake": "1"}}

    def _ok(self, area: float, text: str) -> EvalResult:
        ppa = PPA(area_um2=area, delay_ps=10.0, power_uw=None, cells=1)
        r_ppa = (100.0 * 10.0) / ppa.adp
        return EvalResult(
            status=Status.OK,
            stage=Stage.DONE,
            reward=2.0 + r_ppa,
            r_syn=1.0,
            r_func=1.0,
            r_ppa=r_ppa,
            ppa=ppa,
            source_hash=source_hash(text),
        )

    def evaluate(self, text: str) -> EvalResult:
        if "WRONG" in text:
            return EvalResult(
                status=Status.INVALID,
                stage=Stage.SIMULATION,
                reward=1.0,
                r_syn=1.0,
                reason="not equivalent",
                source_hash=source_hash(text),
            )
        if "FLAKY" in text:
            return EvalResult(
                status=Status.TOOL_ERROR,
                stage=Stage.SYNTHESIS,
                reason="yosys crashed",
                source_hash=source_hash(text),
            )
        area = 50.0 if "SMALLER" in text else 50.02 if "NEAR" in text else 100.0
        return self._ok(area, text)

    def evaluate_many(
        self, texts: Sequence[str], progress: Callable[[int, EvalResult], None] | None = None
    ) -> list[EvalResult]:
        self.batches.append(list(texts))
        out = []
        for i, t in enumerate(texts):
            out.append(self.evaluate(t))
            if progress is not None:
                progress(i, out[-1])
        return out


class FakeExecutor:
    """The caller's executor: runs a batch through the fake evaluator's recording
    ``evaluate_many``."""

    def evaluate(
        self,
        evaluator: FakeEvaluator,
        texts: Sequence[str],
        progress: Callable[[int, EvalResult], None] | None = None,
    ) -> list[EvalResult]:
        return evaluator.evaluate_many(texts, progress)

    def close(self) -> None:
        pass


class FakePolicy:
    """Answers from a fixed list in turn; records prompts and updates."""

    name = "fake"
    trainable = False

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.n = 0
        self.prompts: list[Prompt] = []
        self.updates: list[list[Sample]] = []

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        out = []
        for p in prompts:
            self.prompts.append(p)
            group = []
            for _ in range(n):
                text = self.answers[self.n % len(self.answers)]
                self.n += 1
                if text in (THINK_CUT, MODULE_CUT):  # answers that hit the token limit
                    group.append(Completion(text=text, verilog=None, truncated=True))
                    continue
                verilog = text if "module" in text else None
                group.append(Completion(text=f"```verilog\n{text}```", verilog=verilog))
            out.append(group)
        return out

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        self.updates.append(list(samples))
        return UpdateStats(
            loss=None, kl_ref=None, n_samples=len(samples), tokens=0, grad_norm=None, time_s=0.0
        )

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)

    def load(self, path: Path) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def design(tmp_path: Path) -> Design:
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl" / "top.v").write_text(REF)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    return load_design(repo / "rtl" / "top.v", "top", ProjectConfig())


def _optimizer(
    design: Design,
    tmp_path: Path,
    answers: Sequence[str],
    steps: int = 2,
    rollouts: int = 4,
    train: TrainConfig | None = None,
    parents: int = SearchConfig.parents,
) -> tuple[Optimizer, FakeEvaluator, FakePolicy]:
    cfg = dataclasses.replace(
        Config(),
        run=RunConfig(steps=steps, rollouts=rollouts, seed=3),
        train=train or TrainConfig(),
        search=SearchConfig(parents=parents),
    )
    ev, pol = FakeEvaluator(), FakePolicy(answers)
    opt = Optimizer(
        design,
        cfg,
        ev,  # type: ignore[arg-type]
        pol,
        tmp_path / "run",
        "invert a",
        executor=FakeExecutor(),  # type: ignore[arg-type]
    )
    opt.prepare("run-1", resume=False)
    return opt, ev, pol


def test_fake_loop_keeps_the_best_and_never_scores_infrastructure_errors(
    design: Design, tmp_path: Path
) -> None:
    answers = [SAME, WRONG, FLAKY, "I would rather not write Verilog today.", SMALLER, SAME]
    opt, ev, pol = _optimizer(design, tmp_path, answers)
    out = opt.run()
    assert out.finished and out.improved and out.steps_done == 2
    assert out.best is not None and out.best_code is not None and "SMALLER" in out.best_code
    assert out.best.r_ppa == pytest.approx(2.0)
    # each step evaluates its distinct texts once; an answer without a module is not evaluated
    assert all(len(b) == len(set(b)) for b in ev.batches) and len(ev.batches) == 2
    assert not any("rather not" in t for b in ev.batches for t in b)
    rd = RunDir(tmp_path / "run")
    records = rd.read_steps()
    assert [r["step"] for r in records] == [1, 2]
    assert sum(r["infra_errors"] for r in records) >= 1  # the FLAKY rollouts
    assert rd.read_best() is not None
    flaky = rd.read_candidate(source_hash(FLAKY))
    assert flaky is not None and flaky.reward is None and flaky.is_infrastructure_error
    # the pool takes rewarded children (partial credit included), never a tool error
    assert isinstance(opt.strategy, PoolSearch)  # the default strategy: TTT-RTL's PUCT pool
    codes = [s.code for s in opt.strategy.pool.states if not s.is_root]
    assert any("SMALLER" in c for c in codes) and not any("FLAKY" in c for c in codes)
    assert len(pol.updates) == 2 and pol.prompts  # one update per step


def test_fake_loop_without_an_improvement(design: Design, tmp_path: Path) -> None:
    opt, _, _ = _optimizer(design, tmp_path, [SAME, WRONG], steps=1, rollouts=2)
    out = opt.run()
    assert not out.improved and out.best is not None and out.best.r_ppa == pytest.approx(1.0)


def test_fake_loop_pauses_and_resumes(design: Design, tmp_path: Path) -> None:
    answers = [SAME, SMALLER]
    opt, _, _ = _optimizer(design, tmp_path, answers, steps=3, rollouts=2)
    first = opt.run(stop_after=1)
    assert not first.finished and first.steps_done == 1
    cfg = opt.config
    again = Optimizer(
        design,
        cfg,
        FakeEvaluator(),
        FakePolicy(answers),  # type: ignore[arg-type]
        tmp_path / "run",
        "invert a",
        executor=FakeExecutor(),  # type: ignore[arg-type]
    )
    again.prepare("run-1", resume=True)
    assert again.start_step == 2
    out = again.run()
    assert out.finished and [r["step"] for r in RunDir(tmp_path / "run").read_steps()] == [1, 2, 3]
    shutil.rmtree(tmp_path / "run")


@pytest.mark.parametrize(("mode", "masked"), [("thinking", 1), ("all", 2), ("none", 0)])
def test_fake_loop_keeps_cut_off_answers_out_of_the_loss_and_counts_them(
    design: Design, tmp_path: Path, mode: str, masked: int
) -> None:
    """DAPO's overlong filtering: a cut-off answer is not handed to the update (no gradient
    towards or away from it), and the step records how many were cut off and masked."""
    answers = [SMALLER, SAME, THINK_CUT, MODULE_CUT]
    train = TrainConfig(mask_truncated=mode)
    opt, _, pol = _optimizer(design, tmp_path, answers, steps=1, train=train, parents=1)
    opt.run()
    (samples,) = pol.updates
    texts = [s.completion for s in samples]
    assert (THINK_CUT in texts) == (mode == "none")
    assert (MODULE_CUT in texts) == (mode != "all")
    assert len(samples) == 4 - masked
    (rec,) = RunDir(tmp_path / "run").read_steps()
    assert rec["trunc_frac"] == 0.5 and rec["masked"] == masked and rec["think_closed"] == 0


def test_fake_loop_ties_answers_within_the_noise_floor(design: Design, tmp_path: Path) -> None:
    answers = [SMALLER, NEAR, SAME, WRONG]
    opt, _, pol = _optimizer(
        design, tmp_path, answers, steps=1, train=TrainConfig(ppa_tie=0.001), parents=1
    )
    opt.run()
    adv = {s.completion.split("// ")[-1][:4]: s.advantage for s in pol.updates[0]}
    assert adv["SMAL"] == pytest.approx(adv["NEAR"]) and adv["SMAL"] > 0
    (rec,) = RunDir(tmp_path / "run").read_steps()
    assert rec["tied"] == 2
    opt, _, pol = _optimizer(
        design, tmp_path / "b", answers, steps=1, train=TrainConfig(ppa_tie=0), parents=1
    )
    opt.run()
    adv = {s.completion.split("// ")[-1][:4]: s.advantage for s in pol.updates[0]}
    assert adv["SMAL"] > adv["NEAR"]  # exact ranking when the floor is off
