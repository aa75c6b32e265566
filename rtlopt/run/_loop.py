"""The TTT-RTL loop: sample parents, prompt, generate, evaluate, admit, advantages, update.

Every step ends with an atomic checkpoint (pool, controller, policy, step counter), so a run
killed at any point resumes from its last completed step without losing anything.
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend.model import Design
from rtlopt.policy import (
    Completion,
    ParentInfo,
    Policy,
    Prompt,
    Sample,
    UpdateStats,
    build_prompt,
    feedback_lines,
    unfinished_module,
)
from rtlopt.results import EvalResult, Stage, Status
from rtlopt.rundir import RunDir, RunInfo, RunState, StepRecord
from rtlopt.search import Child, State, StatePool, make_sampler
from rtlopt.train import BatchStats, Decision, batch_advantages, make_schedule
from rtlopt.verilog import source_hash

log = logging.getLogger(__name__)


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


def _no_module_result() -> EvalResult:
    return EvalResult(
        status=Status.INVALID,
        stage=Stage.SCREEN,
        reason="the answer holds no Verilog module",
        reward=0.0,
        r_syn=0.0,
    )


@dataclass
class _Rollouts:
    """One step's rollouts, flattened: rollout ``k`` answers ``prompts[group[k]]``.

    Attributes:
        parents: The step's parent states (one group each).
        prompts: Their prompts.
        group: Group (parent index) of every rollout.
        completions: Every rollout's completion.
        texts: The Verilog to evaluate of every rollout (``None``: no module in the answer).
        results: Every rollout's evaluation (filled by the evaluation phase).
    """

    parents: list[State]
    prompts: list[Prompt]
    group: list[int]
    completions: list[Completion]
    texts: list[str | None]
    results: list[EvalResult] = field(default_factory=list)

    def scored(self) -> list[float]:
        """Rewards of the rollouts that have one (infrastructure failures have none)."""
        return [r.reward for r in self.results if r.reward is not None]


class Optimizer:
    """One optimization run over a design.

    Args:
        design: The parsed design.
        config: Resolved configuration.
        evaluator: The evaluator (owns tool workers).
        policy: The policy that proposes rewrites (and learns, when trainable).
        run_dir: The run directory (created, or existing when resuming).
        spec: Specification text for prompts.
        command: The command line, for provenance.
    """

    def __init__(
        self,
        design: Design,
        config: Config,
        evaluator: Evaluator,
        policy: Policy,
        run_dir: Path,
        spec: str,
        command: Sequence[str] = (),
    ) -> None:
        self.design = design
        self.config = config
        self.evaluator = evaluator
        self.policy = policy
        self.rd = RunDir(run_dir)
        self.spec = spec
        self.command = list(command)
        self.sampler = make_sampler(config.search)
        self.schedule = make_schedule(config.train)
        self.pool = StatePool(config.search)
        self.start_step = 1
        self.best: EvalResult | None = None
        self.best_code: str | None = None
        self.best_reward_so_far = 0.0

    # ---------------------------------------------------------------- checkpointing

    def prepare(self, run_id: str, resume: bool) -> None:
        """Create the run directory, or load its checkpoint when resuming."""
        rd = self.rd
        rd.create()
        state = rd.read_state() if resume else None
        if state is not None:
            self._restore(state)
        else:
            rd.write_config(self.config)
            rd.write_info(
                RunInfo(
                    run_id=run_id,
                    module=self.design.target.name,
                    target_file=str(self.design.target.file),
                    repo_root=str(self.design.root),
                    pdk=self.config.flow.pdk,
                    status="running",
                    command=tuple(self.command),
                )
            )
        rd.write_reference(self.evaluator.reference(), self.design.target.text())
        rd.write_provenance(
            {
                **self.evaluator.provenance(),
                "seed": self.config.run.seed,
                "policy": {
                    "backend": self.config.policy.backend,
                    "model": self.config.policy.model,
                },
                "command": self.command,
            }
        )

    def _restore(self, state: RunState) -> None:
        rd = self.rd
        self.pool = StatePool.load(self.config.search, rd.pool)
        self.schedule.load_json(state.schedule)
        self.best_reward_so_far = state.best_reward
        best = rd.read_best()
        if best is not None:
            self.best, self.best_code = best
        if self.policy.trainable and rd.policy_saved():
            self.policy.load(rd.policy)
        rd.truncate_steps(state.step)
        self.start_step = state.step + 1
        log.info("resuming %s after step %d", rd.path, state.step)

    def _checkpoint(self, step: int) -> None:
        rd = self.rd
        self.pool.save(rd.pool)
        if self.policy.trainable:
            rd.save_policy(self.policy.save, step)
        rd.write_state(
            RunState(
                step=step, schedule=self.schedule.to_json(), best_reward=self.best_reward_so_far
            )
        )

    # ---------------------------------------------------------------- the loop

    def run(self, events: RunEvents | None = None, stop_after: int | None = None) -> RunOutcome:
        """Run the remaining steps and return the outcome.

        Args:
            events: Progress callbacks.
            stop_after: Pause after this many steps in this session (resume later).
        """
        events = events or RunEvents()
        cfg = self.config
        records: list[StepRecord] = []
        last = cfg.run.steps
        if stop_after is not None:
            last = min(last, self.start_step - 1 + stop_after)
        try:
            for step in range(self.start_step, last + 1):
                rec = self._step(step, events)
                records.append(rec)
                self.rd.append_step(rec)
                self._checkpoint(step)
                if events.on_step:
                    events.on_step(rec)
        except KeyboardInterrupt:
            self.rd.update_info(status="interrupted")
            raise
        finished = last >= cfg.run.steps
        self.rd.update_info(status="done" if finished else "paused")
        ref = self.evaluator.reference()
        improved = self.best is not None and self.best.r_ppa > 1.0 + 1e-9
        return RunOutcome(
            self.rd.path,
            last,
            self.best,
            self.best_code,
            ref,
            improved,
            self.evaluator.metric_kind,
            records,
            finished=finished,
        )

    def _step(self, step: int, events: RunEvents) -> StepRecord:
        """One step: parents, rollouts, evaluation, bookkeeping, learning."""
        t0 = time.monotonic()
        events.phase(step, "sampling parents")
        parents = self.sampler.select(
            self.pool, self.config.search.parents, random.Random(f"{self.config.run.seed}-{step}")
        )
        events.phase(step, "generating")
        ro = self._generate(step, parents)
        ro.results = self._evaluate(step, ro, events)
        self._record_candidates(step, ro)
        self._admit(step, ro)
        self._track_best(ro)
        delta = self.schedule.delta(step - 1, self.config.run.steps)
        batch = batch_advantages(self._group_rewards(ro), delta, self.config.train)
        events.phase(step, "updating the policy")
        stats = self.policy.update(self._samples(ro, batch))
        decision = self.schedule.observe(batch.signals(stats.kl_ref))
        return self._record(step, ro, delta, batch, stats, decision, time.monotonic() - t0)

    # ---------------------------------------------------------------- phases of a step

    def _generate(self, step: int, parents: list[State]) -> _Rollouts:
        """Prompt the policy once per parent for ``run.rollouts`` answers each."""
        cfg = self.config
        prompts = [self._prompt_for(p) for p in parents]
        groups = self.policy.generate(prompts, cfg.run.rollouts, seed=cfg.run.seed * 100003 + step)
        group = [gi for gi, comps in enumerate(groups) for _ in comps]
        completions = [c for comps in groups for c in comps]
        texts = [candidate_text(c) for c in completions]
        return _Rollouts(parents, prompts, group, completions, texts)

    def _evaluate(self, step: int, ro: _Rollouts, events: RunEvents) -> list[EvalResult]:
        """Evaluate each distinct text once; answers without a module get zero reward."""
        to_eval = sorted({t for t in ro.texts if t})
        events.phase(step, f"evaluating {len(to_eval)} candidates")
        done = 0

        def progress(i: int, res: EvalResult) -> None:
            nonlocal done
            done += 1
            if events.on_eval:
                events.on_eval(step, done, res)

        results = self.evaluator.evaluate_many(to_eval, progress)
        by_text = dict(zip(to_eval, results, strict=True))
        return [
            _policy_error_result(str(c.error)) if getattr(c, "error", None)
            else by_text[t] if t else _no_module_result()
            for c, t in zip(ro.completions, ro.texts, strict=True)
        ]

    def _record_candidates(self, step: int, ro: _Rollouts) -> None:
        """Write every new candidate and its result to ``candidates/``."""
        for gi, text, res in zip(ro.group, ro.texts, ro.results, strict=True):
            if not text:
                continue
            h = source_hash(text)
            if not self.rd.has_candidate(h):
                self.rd.write_candidate(h, text, res, step=step, parent=ro.parents[gi].id)

    def _admit(self, step: int, ro: _Rollouts) -> None:
        """Offer each parent's rewarded children to the pool (top-k per parent inside it)."""
        kind = self.evaluator.metric_kind
        for gi, parent in enumerate(ro.parents):
            children = [
                Child(
                    code=text,
                    reward=res.reward,
                    metrics={k: m.value for k, m in res.metrics.items()},
                    eval_hash=res.source_hash,
                    accepted=res.accepted,
                    feedback="\n".join(feedback_lines(res, kind)),
                )
                for g, text, res in zip(ro.group, ro.texts, ro.results, strict=True)
                if g == gi and text and res.reward is not None
            ]
            self.pool.add_children(parent.id, children, step)
        self.pool.record_expansion([p.id for p in ro.parents])
        self.pool.prune()

    def _track_best(self, ro: _Rollouts) -> None:
        """Keep (and write) the best accepted design, and the best reward of any rollout."""
        for text, res in zip(ro.texts, ro.results, strict=True):
            if (
                text
                and res.accepted
                and res.reward is not None
                and (self.best is None or (self.best.reward or 0) < res.reward)
            ):
                self.best, self.best_code = res, text
                self.rd.write_best(text, res)
        scored = ro.scored()
        if scored:
            self.best_reward_so_far = max(self.best_reward_so_far, max(scored))

    def _group_rewards(self, ro: _Rollouts) -> list[list[float | None]]:
        """Rewards per group (infrastructure failures carry ``None``: no gradient)."""
        rewards: list[list[float | None]] = [[] for _ in ro.parents]
        for gi, res in zip(ro.group, ro.results, strict=True):
            rewards[gi].append(res.reward)
        return rewards

    def _samples(self, ro: _Rollouts, batch: BatchStats) -> list[Sample]:
        """The rollouts that enter the loss, with their advantages."""
        index: list[list[int]] = [[] for _ in ro.parents]
        for k, gi in enumerate(ro.group):
            index[gi].append(k)
        samples = []
        for gi, idx in enumerate(index):
            stats_g = batch.groups[gi]
            for k, adv, used in zip(idx, stats_g.advantages, stats_g.used, strict=True):
                if used:
                    samples.append(
                        Sample(
                            prompt=ro.prompts[gi],
                            completion=ro.completions[k].text,
                            advantage=adv,
                        )
                    )
        return samples

    def _record(
        self,
        step: int,
        ro: _Rollouts,
        delta: float,
        batch: BatchStats,
        stats: UpdateStats,
        decision: Decision,
        time_s: float,
    ) -> StepRecord:
        """The step's line of steps.jsonl."""
        kind = self.evaluator.metric_kind
        ref = self.evaluator.reference()
        scored = ro.scored()
        accepted = sum(1 for r in ro.results if r.accepted)
        return StepRecord(
            step=step,
            max_reward=max(scored) if scored else 0.0,
            mean_reward=sum(scored) / len(scored) if scored else 0.0,
            best_reward=self.best_reward_so_far,
            best_metric=self.best.ppa.metric(kind) if self.best and self.best.ppa else None,
            ref_metric=ref.ppa.metric(kind) if ref.ppa else float("nan"),
            metric=kind,
            delta=delta,
            beta_mean=batch.beta_mean,
            eff_n=batch.eff_n,
            const_frac=batch.const_frac,
            beta_max_rate=batch.beta_max_rate,
            kl_ref=stats.kl_ref,
            rule=decision.rule,
            next_delta=decision.delta,
            valid_frac=accepted / max(1, len(ro.results)),
            accepted=accepted,
            rollouts=len(ro.results),
            tokens=sum(c.completion_tokens for c in ro.completions),
            loss=stats.loss,
            time_s=time_s,
            infra_errors=sum(1 for r in ro.results if r.is_infrastructure_error),
        )

    # ---------------------------------------------------------------- prompts

    def _prompt_for(self, state: State) -> Prompt:
        ref = self.evaluator.reference()
        assert ref.ppa is not None
        kind = self.evaluator.metric_kind
        parent = None
        if state.parent_id is not None and state.code:
            res = self.rd.read_candidate(state.eval_hash) if state.eval_hash else None
            ppa = res.ppa if res is not None else None
            feedback = tuple(state.feedback.splitlines()) if state.feedback else ()
            parent = ParentInfo(
                code=state.code, ppa=ppa, feedback=feedback, prev_metric=self._prev_metric(state)
            )
        return build_prompt(self.design.target.text(), ref.ppa, self.spec, kind, parent)

    def _prev_metric(self, state: State) -> float | None:
        """The metric the parent improved on: its own parent's, or the reference's."""
        kind = self.evaluator.metric_kind
        prev = self.pool.find(state.parent_id) if state.parent_id is not None else None
        if prev is not None and prev.parent_id is not None:
            prev_res = self.rd.read_candidate(prev.eval_hash) if prev.eval_hash else None
            if prev_res is not None and prev_res.ppa is not None:
                return prev_res.ppa.metric(kind)
            return None
        ref = self.evaluator.reference()
        return ref.ppa.metric(kind) if ref.ppa is not None else None
