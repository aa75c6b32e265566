"""What a run step produces: the loop's callbacks and outcome, one step's rollouts, and the
verdicts the loop gives answers without the evaluator (no module, an edit that does not apply,
a policy error)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.config import RewardConfig
from rtlopt.policy import (
    Completion,
    EditError,
    Prompt,
    unfinished_module,
)
from rtlopt.results import EvalResult, Stage, Status
from rtlopt.rundir import StepRecord
from rtlopt.search import Expansion


@dataclass
class RunEvents:
    """Callbacks the CLI uses for progress display (all optional)."""

    on_phase: Callable[[int, str], None] | None = None
    on_eval: Callable[[int, int, EvalResult], None] | None = None  # step, index, result
    on_step: Callable[[StepRecord], None] | None = None

    def phase(self, step: int, name: str) -> None:
        """Tell ``on_phase`` (if set) that ``step`` entered phase ``name``."""
        if self.on_phase:
            self.on_phase(step, name)


@dataclass
class RunOutcome:
    """How a run ended."""

    run_dir: Path
    steps_done: int
    best: EvalResult | None
    best_code: str | None
    reference: EvalResult
    improved: bool
    metric: str
    records: list[StepRecord] = field(default_factory=list)
    finished: bool = True
    trainable: bool = False


_FENCE_OPEN = re.compile(r"```[A-Za-z]*\n")


def candidate_text(completion: Completion) -> str | None:
    """The text to evaluate for one completion.

    A complete module is taken as extracted. An answer that starts a module but never finishes
    it (truncated, malformed) is still compiled, so the syntax stage's error count gives it
    partial credit (TTT-RTL's r_syn); an answer without any module gets no credit.
    """
    if getattr(completion, "error", None):
        return None  # the policy could not sample it (e.g. a prompt too long to fit)
    if completion.verilog:
        return str(completion.verilog)
    return unfinished_module(str(completion.text))


def _policy_error_result(error: str) -> EvalResult:
    """A rollout the policy could not sample: an infrastructure error (no reward, no gradient)."""
    return EvalResult(status=Status.TOOL_ERROR, stage=Stage.SCREEN, reason=f"policy: {error}")


def no_module_result(reward: float = RewardConfig.no_module) -> EvalResult:
    """The loop's verdict on an answer without any Verilog module: ``reward.no_module``, the
    lowest reward class (below a failed edit, a screened module and any compiled answer)."""
    return EvalResult(
        status=Status.INVALID,
        stage=Stage.SCREEN,
        reason="the answer holds no Verilog module",
        reward=reward,
        r_syn=0.0,
    )


def _edit_failure_result(exc: EditError, reward: float = RewardConfig.edit_failed) -> EvalResult:
    """An edit answer that does not apply: a syntax-stage failure naming the block, rewarded
    ``reward.edit_failed``."""
    return EvalResult(
        status=Status.INVALID, stage=Stage.SCREEN, reason=str(exc), reward=reward, r_syn=0.0
    )


@dataclass
class _Rollouts:
    """One step's rollouts, flattened: rollout ``k`` answers ``prompts[group[k]]``.

    Attributes:
        expansions: The step's expansions (one group each).
        prompts: Their prompts.
        formats: Their answer formats (``whole`` or ``edit``).
        bases: The code each expansion's answers edit (the parent's, or the reference).
        group: Group (expansion index) of every rollout.
        completions: Every rollout's completion.
        texts: The Verilog to evaluate of every rollout (``None``: no design in the answer).
        decided: Results known without the evaluator (no module, an edit that does not
            apply, a policy error), else ``None``.
        focus: Per rollout, the lines of its design that changed against its base.
        results: Every rollout's evaluation (filled by the evaluation phase).
    """

    expansions: list[Expansion]
    prompts: list[Prompt]
    formats: list[str]
    bases: list[str]
    group: list[int]
    completions: list[Completion]
    texts: list[str | None]
    decided: list[EvalResult | None]
    focus: list[tuple[int, ...]]
    results: list[EvalResult] = field(default_factory=list)

    def scored(self) -> list[float]:
        """Rewards of the rollouts that have one (infrastructure failures have none)."""
        return [r.reward for r in self.results if r.reward is not None]

    def group_rewards(self) -> list[list[float | None]]:
        """Rewards per group (infrastructure failures carry ``None``: no gradient)."""
        rewards: list[list[float | None]] = [[] for _ in self.expansions]
        for gi, res in zip(self.group, self.results, strict=True):
            rewards[gi].append(res.reward)
        return rewards

    def group_metrics(self, kind: str) -> list[list[float | None]]:
        """The figure of merit ``kind`` of every accepted, measured rollout per group (None for
        the others): the ties within ``train.ppa_tie``."""
        out: list[list[float | None]] = [[] for _ in self.expansions]
        for gi, res in zip(self.group, self.results, strict=True):
            ok = res.accepted and res.ppa is not None and res.reward is not None
            out[gi].append(res.ppa.metric(kind) if ok and res.ppa is not None else None)
        return out
