"""The run loop: plan, prompt, generate, evaluate, observe, reflect, advantages, update.

A step the restart coordinator marks (``reflect.restart_after`` stagnant steps failing the same
way, ACE-RTL's restart, by default on only with a reflector: :mod:`rtlopt.run._restart`) is
planned by the strategy's ``restart`` instead of ``plan``: its prompts start from the
reference and name the persisting error.

One loop for every search strategy (``search.sampler``: the TTT-RTL pool with PUCT, EvolVE's
IGR and MCTS, the ablations) and every policy backend: a training policy learns from each
expansion's rollouts (one advantage group per prompt) whatever strategy chose the prompts.

Every step ends with an atomic checkpoint (the strategy's state, the playbook, the controller,
the policy, the step and node counters), so a run killed at any point resumes from its last
completed step without losing anything.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Sequence
from pathlib import Path

from rtlopt.config import Config, pools_degenerate, restart_after
from rtlopt.errors import Terminated
from rtlopt.evaluate import Evaluator, Executor, make_executor
from rtlopt.frontend.model import Design
from rtlopt.policy import (
    Case,
    Completion,
    Playbook,
    Policy,
    Reflector,
    ReflectStats,
    Sample,
    UpdateStats,
    feedback_lines,
    in_thought,
    metric_name,
)
from rtlopt.results import EvalResult, Status
from rtlopt.run._generation import _Generation
from rtlopt.run._restart import RestartCoordinator
from rtlopt.run._rollouts import RunEvents as RunEvents
from rtlopt.run._rollouts import RunOutcome as RunOutcome
from rtlopt.run._rollouts import _Rollouts
from rtlopt.run._rollouts import candidate_text as candidate_text
from rtlopt.run._rollouts import no_module_result as no_module_result
from rtlopt.rundir import RunDir, RunInfo, RunState, StepRecord
from rtlopt.search import (
    Child,
    PlanContext,
    effective_temperature,
    make_strategy,
)
from rtlopt.train import BatchStats, Decision, batch_advantages, make_schedule
from rtlopt.verilog import source_hash

log = logging.getLogger(__name__)
progress_log = logging.getLogger("rtlopt.progress")
"""One line per generation call and per evaluated rollout (the CLI shows it, also in a pipe)."""

ROLLOUTS_FILE = "rollouts.jsonl"
"""Every rollout of the run, one JSON line each: step, parent, status, stage, reason, reward,
candidate hash and the answer's text (the report summarizes the reasons)."""


class Optimizer(_Generation):
    """One optimization run over a design.

    Args:
        design: The parsed design.
        config: Resolved configuration.
        evaluator: The evaluator (owns tool workers).
        policy: The policy that proposes rewrites (and learns, when trainable).
        run_dir: The run directory (created, or existing when resuming).
        spec: Specification text for prompts.
        command: The command line, for provenance.
        reflector: The reflector (default: built from ``[reflect]`` when its endpoint is set).
        executor: Where candidates are evaluated (default: one made from ``eval.executor``
            when the first batch is evaluated, and closed when :meth:`run` returns; one passed
            in stays the caller's to close).
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
        reflector: Reflector | None = None,
        executor: Executor | None = None,
    ) -> None:
        self.design = design
        self.config = config
        self.evaluator = evaluator
        self.policy = policy
        self.rd = RunDir(run_dir)
        self.spec = spec
        self.command = list(command)
        self.strategy = make_strategy(config.search)
        self.schedule = make_schedule(config.train)
        self.start_step = 1
        self.best: EvalResult | None = None
        self.best_code: str | None = None
        self.best_reward_so_far = 0.0
        self.nodes = 0
        self.exhausted = False
        self.reflector = reflector
        if reflector is None and config.reflect.endpoint:
            self.reflector = Reflector(config.reflect)
        self.playbook = Playbook(config.reflect.max_lessons) if self.reflector else None
        self.coordinator = RestartCoordinator(restart_after(config.reflect))
        self.executor = executor
        self._own_executor: Executor | None = None

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
                    "temperature": effective_temperature(
                        self.config.search, self.config.policy.temperature
                    ),
                },
                "search": self.config.search.sampler,
                "reflector": {
                    "endpoint": self.config.reflect.endpoint,
                    "model": self.config.reflect.model,
                }
                if self.reflector
                else None,
                "command": self.command,
            }
        )

    def _restore(self, state: RunState) -> None:
        rd = self.rd
        self.strategy.load(rd)
        self.schedule.load_json(state.schedule)
        self.best_reward_so_far = state.best_reward
        self.nodes = state.nodes
        self.coordinator.load_json(state.coordinator)
        best = rd.read_best()
        if best is not None:
            self.best, self.best_code = best
        if self.playbook is not None:
            data = rd.read_playbook()
            if data is not None:
                self.playbook = Playbook.from_json(data, self.config.reflect.max_lessons)
        if self.policy.trainable and rd.policy_saved():
            self.policy.load(rd.policy)
        rd.truncate_steps(state.step)
        self.start_step = state.step + 1
        log.info("resuming %s after step %d", rd.path, state.step)

    def _checkpoint(self, step: int) -> None:
        rd = self.rd
        self.strategy.save(rd)
        if self.playbook is not None:
            rd.write_playbook(self.playbook.to_json())
        if self.policy.trainable:
            rd.save_policy(self.policy.save, step)
        rd.write_state(
            RunState(
                step=step,
                schedule=self.schedule.to_json(),
                best_reward=self.best_reward_so_far,
                nodes=self.nodes,
                coordinator=self.coordinator.to_json(),
            )
        )

    # ---------------------------------------------------------------- the loop

    def _budget_left(self) -> int | None:
        budget = self.config.search.node_budget
        return None if budget <= 0 else max(0, budget - self.nodes)

    def run(self, events: RunEvents | None = None, stop_after: int | None = None) -> RunOutcome:
        """Run the remaining steps and return the outcome.

        The run ends after ``run.steps`` steps, when ``search.node_budget`` candidates have
        been generated, or when the strategy has nothing left to expand (IGR: every chain
        done), whichever comes first.

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
        done = self.start_step - 1
        try:
            for step in range(self.start_step, last + 1):
                if self._budget_left() == 0 or self.strategy.finished():
                    self.exhausted = True
                    break
                rec = self._step(step, events)
                if rec is None:
                    self.exhausted = True
                    break
                records.append(rec)
                self.rd.append_step(rec)
                self._checkpoint(step)
                done = step
                if events.on_step:
                    events.on_step(rec)
            else:
                self.exhausted = self._budget_left() == 0 or self.strategy.finished()
        except (KeyboardInterrupt, Terminated):  # Ctrl-C, SIGTERM, SIGHUP
            self.rd.update_info(status="interrupted")
            raise
        finally:
            if self.reflector is not None:
                self.reflector.close()
            self._close_executor()
        finished = done >= cfg.run.steps or self.exhausted
        self.rd.update_info(status="done" if finished else "paused")
        ref = self.evaluator.reference()
        improved = self.best is not None and self.best.r_ppa > 1.0 + 1e-9
        return RunOutcome(
            self.rd.path,
            done,
            self.best,
            self.best_code,
            ref,
            improved,
            self.evaluator.metric_kind,
            records,
            finished=finished,
            trainable=self.policy.trainable,
        )

    def _step(self, step: int, events: RunEvents) -> StepRecord | None:
        """One step: plan, rollouts, evaluation, bookkeeping, reflection, learning; ``None``
        when the strategy has nothing to expand."""
        t0 = time.monotonic()
        events.phase(step, "planning")
        cfg = self.config
        ctx = PlanContext(
            step,
            self._budget_left(),
            cfg.run.rollouts,
            random.Random(f"{cfg.run.seed}-{step}"),
            self._ideas,
        )
        if self.coordinator.best_metric is None:
            self.coordinator.best_metric = self._best_metric()
        note = self.coordinator.begin(step)
        if note is not None:
            log.warning("step %d: restart from the reference. %s", step, note)
            expansions = self.strategy.restart(ctx)
        else:
            expansions = self.strategy.plan(ctx)
        if not expansions:
            return None
        events.phase(step, "restarting from the reference" if note else "generating")
        ro = self._generate(step, expansions, note)
        ro.results = self._evaluate(step, ro, events)
        self._record_candidates(step, ro)
        self.strategy.observe(step, ro.expansions, self._children(ro))
        self._track_best(ro)
        self.nodes += len(ro.results)
        if self.coordinator.observe(step, ro.results, self._best_metric()):
            log.info(
                "step %d: %d stagnant step(s) failing with %r; the next step restarts",
                step,
                self.coordinator.streak,
                self.coordinator.persistent(),
            )
        reflected = self._reflect(step, ro, events)
        delta = self.schedule.delta(step - 1, cfg.run.steps)
        batch = batch_advantages(
            ro.group_rewards(),
            delta,
            cfg.train,
            pool=pools_degenerate(cfg),
            metrics=ro.group_metrics(self.evaluator.metric_kind),
        )
        events.phase(step, "updating the policy")
        stats = self.policy.update(self._samples(ro, batch))
        decision = self.schedule.observe(batch.signals(stats.kl_ref))
        rec = self._record(step, ro, delta, batch, stats, decision, time.monotonic() - t0)
        rec.reflections = reflected.requests if self.reflector else None
        rec.lessons = len(self.playbook.lessons) if self.playbook is not None else None
        rec.restart = note is not None
        rec.stagnant = self.coordinator.streak
        return rec

    def _best_metric(self) -> float | None:
        """The lowest figure of merit so far: the best accepted design's or the reference's."""
        kind = self.evaluator.metric_kind
        ref = self.evaluator.reference()
        values = [r.ppa.metric(kind) for r in (ref, self.best) if r is not None and r.ppa]
        return min(values) if values else None

    # ---------------------------------------------------------------- phases of a step

    def _evaluate(self, step: int, ro: _Rollouts, events: RunEvents) -> list[EvalResult]:
        """Evaluate each distinct text once; the rest were decided without the evaluator."""
        to_eval = sorted({t for t, d in zip(ro.texts, ro.decided, strict=True) if t and not d})
        events.phase(step, f"evaluating {len(to_eval)} candidates")
        done = 0

        def progress(i: int, res: EvalResult) -> None:
            nonlocal done
            done += 1
            verdict = (
                f"accepted, reward {res.reward:.3f}"
                if res.accepted and res.reward is not None
                else f"{res.status} at {res.stage}: {(res.reason or '').strip()[:100]}"
            )
            progress_log.info(
                "%s step %d: candidate %d/%d %s",
                self.design.target.name,
                step,
                done,
                len(to_eval),
                verdict,
            )
            if events.on_eval:
                events.on_eval(step, done, res)

        results = self._executor().evaluate(self.evaluator, to_eval, progress)
        by_text = dict(zip(to_eval, results, strict=True))
        none = no_module_result(self.config.reward.no_module)
        return [
            d if d is not None else by_text[t] if t else none
            for t, d in zip(ro.texts, ro.decided, strict=True)
        ]

    def _executor(self) -> Executor:
        if self.executor is not None:
            return self.executor
        if self._own_executor is None:
            self._own_executor = make_executor(self.config.eval)
        return self._own_executor

    def _close_executor(self) -> None:
        executor, self._own_executor = self._own_executor, None
        if executor is not None:
            executor.close()

    def _record_candidates(self, step: int, ro: _Rollouts) -> None:
        """Write every new candidate and its result to ``candidates/``, and every rollout
        (its answer, the stage it reached, why it stopped there) to ``rollouts.jsonl``."""
        with (self.rd.path / ROLLOUTS_FILE).open("a") as f:
            for k, (gi, res) in enumerate(zip(ro.group, ro.results, strict=True)):
                row = {
                    "step": step,
                    "parent": ro.expansions[gi].node_id,
                    "status": str(res.status),
                    "stage": str(res.stage),
                    "reason": res.reason,
                    "reward": res.reward,
                    "hash": res.source_hash,
                    "text": ro.completions[k].text,
                }
                f.write(json.dumps(row) + "\n")
        for k, (gi, text, res) in enumerate(zip(ro.group, ro.texts, ro.results, strict=True)):
            if not text:
                continue
            h = source_hash(text)
            if not self.rd.has_candidate(h):
                self.rd.write_candidate(
                    h,
                    text,
                    res,
                    step=step,
                    parent=ro.expansions[gi].node_id,
                    source=ro.completions[k].source,
                )

    def _children(self, ro: _Rollouts) -> list[list[Child]]:
        """Each expansion's rollouts as the strategy sees them (``code == ""``: no design)."""
        kind = self.evaluator.metric_kind
        out: list[list[Child]] = [[] for _ in ro.expansions]
        for k, (gi, res) in enumerate(zip(ro.group, ro.results, strict=True)):
            out[gi].append(
                Child(
                    code=ro.texts[k] or "",
                    reward=res.reward,
                    metrics={key: m.value for key, m in res.metrics.items()},
                    eval_hash=res.source_hash,
                    accepted=res.accepted,
                    feedback="\n".join(feedback_lines(res, kind)),
                    focus=ro.focus[k],
                )
            )
        return out

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

    def _cases(self, step: int, ro: _Rollouts) -> list[Case]:
        """The step's failed and improved rollouts, for the reflector (improvements first,
        largest first)."""
        kind = self.evaluator.metric_kind
        name = metric_name(kind)
        improved: list[tuple[float, Case]] = []
        failed: list[Case] = []
        for k, (gi, res) in enumerate(zip(ro.group, ro.results, strict=True)):
            e = ro.expansions[gi]
            text = ro.texts[k] or ""
            fb = feedback_lines(res, kind)
            h = source_hash(text) if text else ""
            if res.accepted and res.ppa is not None:
                before = self._metric_of(e.eval_hash if not e.is_root else "")
                now = res.ppa.metric(kind)
                if before and now < before * (1 - 1e-9):
                    gain = (before - now) / before
                    out = (
                        f"{name} {before:.6g} -> {now:.6g} ({-100 * gain:.1f}%), proven equivalent"
                    )
                    improved.append((gain, Case("improved", step, h, ro.bases[gi], text, fb, out)))
            elif res.status is Status.INVALID:
                out = f"rejected at {res.stage.value}: {res.reason}"[:300]
                failed.append(
                    Case(
                        "failed",
                        step,
                        h,
                        ro.bases[gi],
                        text,
                        fb,
                        out,
                        "" if text else ro.completions[k].text,
                    )
                )
        improved.sort(key=lambda x: -x[0])
        return [c for _, c in improved] + failed

    def _reflect(self, step: int, ro: _Rollouts, events: RunEvents) -> ReflectStats:
        """Reflect on the step's rollouts and update the playbook (next step's prompts)."""
        if self.reflector is None or self.playbook is None:
            return ReflectStats()
        cases = self._cases(step, ro)
        if not cases:
            return ReflectStats()
        events.phase(step, "reflecting")
        stats = self.reflector.reflect(
            cases,
            self.playbook,
            self.design.target.name,
            metric_name(self.evaluator.metric_kind),
            seed=self.config.run.seed * 7919 + step,
        )
        log.info(
            "step %d reflection: %d request(s), %d new, %d merged, %d dropped lesson(s)",
            step,
            stats.requests,
            stats.new,
            stats.merged,
            stats.dropped,
        )
        return stats

    def _masked(self, c: Completion) -> bool:
        """Whether a rollout cut off at ``policy.max_new_tokens`` stays out of the loss."""
        mode = self.config.train.mask_truncated
        return c.truncated and (mode == "all" or (mode == "thinking" and in_thought(c.text)))

    def _samples(self, ro: _Rollouts, batch: BatchStats) -> list[Sample]:
        """Every rewarded rollout of the step with its advantage (0 in degenerate groups: it
        counts in the loss's mean, as in verl's batch, and takes no backward pass); answers cut
        off at ``policy.max_new_tokens`` stay out as ``train.mask_truncated`` says (DAPO)."""
        index: list[list[int]] = [[] for _ in ro.expansions]
        for k, gi in enumerate(ro.group):
            index[gi].append(k)
        samples = []
        for gi, idx in enumerate(index):
            stats_g = batch.trained[gi]
            for k, adv, used in zip(idx, stats_g.advantages, stats_g.used, strict=True):
                if ro.results[k].reward is None or self._masked(ro.completions[k]):
                    continue
                samples.append(
                    Sample(
                        prompt=ro.prompts[gi],
                        completion=ro.completions[k].text,
                        advantage=adv if used else 0.0,
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
            nodes=self.nodes,
            expansions=len(ro.expansions),
            updated=stats.updated,
            samples=stats.n_samples,
            grad_norm=stats.grad_norm,
            trunc_frac=sum(1 for c in ro.completions if c.truncated) / max(1, len(ro.completions)),
            logprob_gap=stats.logprob_gap,
            masked=sum(
                1
                for c, r in zip(ro.completions, ro.results, strict=True)
                if r.reward is not None and self._masked(c)
            ),
            think_closed=sum(1 for c in ro.completions if c.think_closed),
            tied=batch.tied,
        )
