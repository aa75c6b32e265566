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
from typing import Any

from rtlopt.config import Config, to_toml
from rtlopt.evaluate import EvalResult, Evaluator, Stage, Status
from rtlopt.evaluate._sources import source_hash
from rtlopt.frontend.model import Design
from rtlopt.run._rundir import RunDir, atomic_write, read_json, write_json

log = logging.getLogger(__name__)


@dataclass
class StepRecord:
    """Metrics of one step (one line of steps.jsonl)."""

    step: int
    max_reward: float
    mean_reward: float
    best_reward: float
    best_metric: float | None
    ref_metric: float
    metric: str
    delta: float
    beta_mean: float | None
    eff_n: float | None
    const_frac: float | None
    beta_max_rate: float | None
    kl_ref: float | None
    rule: str
    valid_frac: float
    accepted: int
    rollouts: int
    tokens: int
    loss: float | None
    time_s: float
    infra_errors: int = 0
    next_delta: float | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class RunEvents:
    """Callbacks the CLI uses for progress display (all optional)."""

    on_phase: Callable[[int, str], None] | None = None
    on_eval: Callable[[int, int, EvalResult], None] | None = None  # step, index, result
    on_step: Callable[[StepRecord], None] | None = None


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


_PARTIAL_MODULE = re.compile(r"\bmodule\s+[A-Za-z_]")
_FENCE_OPEN = re.compile(r"```[A-Za-z]*\n")


def candidate_text(completion: Any) -> str | None:
    """The text to evaluate for one completion.

    A complete module is taken as extracted. An answer that starts a module but never finishes
    it (truncated, malformed) is still compiled, so the syntax stage's error count gives it
    partial credit (TTT-RTL's r_syn); an answer without any module gets no credit.
    """
    if getattr(completion, "error", None):
        return None  # the policy could not sample it (e.g. a prompt too long to fit)
    if completion.verilog:
        return str(completion.verilog)
    text = str(completion.text)
    text = re.sub(r"<think>.*?(</think>|$)", "", text, flags=re.S)
    m = _PARTIAL_MODULE.search(text)
    if m is None:
        return None
    body = text[m.start() :]
    return body.split("```", 1)[0].strip() + "\n"


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


class Optimizer:
    """One optimization run over a design.

    Args:
        design: The parsed design.
        config: Resolved configuration.
        evaluator: The evaluator (owns tool workers).
        policy: A ``rtlopt.policy.Policy``.
        run_dir: The run directory (created, or existing when resuming).
        spec: Specification text for prompts.
        command: The command line, for provenance.
    """

    def __init__(
        self,
        design: Design,
        config: Config,
        evaluator: Evaluator,
        policy: Any,
        run_dir: Path,
        spec: str,
        command: Sequence[str] = (),
    ) -> None:
        from rtlopt.search import SAMPLERS, StatePool
        from rtlopt.train import make_schedule

        self.design = design
        self.config = config
        self.evaluator = evaluator
        self.policy = policy
        self.rd = RunDir(run_dir)
        self.spec = spec
        self.command = list(command)
        self.sampler = SAMPLERS.get(config.search.sampler)(config.search)
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
        rd.path.mkdir(parents=True, exist_ok=True)
        rd.candidates.mkdir(exist_ok=True)
        if resume and rd.state.exists():
            state = read_json(rd.state)
            done = int(state["step"])
            from rtlopt.search import StatePool

            self.pool = StatePool.load(self.config.search, rd.pool)
            self.schedule.load_json(state["schedule"])
            self.best_reward_so_far = float(state.get("best_reward", 0.0))
            if rd.best_json.exists():
                self.best = EvalResult.from_json(read_json(rd.best_json))
                self.best_code = rd.best_v.read_text()
            if self.policy.trainable and (rd.policy / "done").exists():
                self.policy.load(rd.policy)
            rd.truncate_steps(done)
            self.start_step = done + 1
            log.info("resuming %s after step %d", rd.path, done)
        else:
            atomic_write(rd.config, to_toml(self.config))
            write_json(
                rd.run_json,
                {
                    "run_id": run_id,
                    "module": self.design.target.name,
                    "target_file": str(self.design.target.file),
                    "repo_root": str(self.design.root),
                    "pdk": self.config.flow.pdk,
                    "status": "running",
                    "command": self.command,
                },
            )
        ref = self.evaluator.reference()
        ref_json = ref.to_json()
        ref_json["code"] = self.design.target.text()
        write_json(rd.reference, ref_json)
        write_json(
            rd.provenance,
            {
                **self.evaluator.provenance(),
                "seed": self.config.run.seed,
                "policy": {
                    "backend": self.config.policy.backend,
                    "model": self.config.policy.model,
                },
                "command": self.command,
            },
        )

    def _checkpoint(self, step: int) -> None:
        rd = self.rd
        self.pool.save(rd.pool)
        if self.policy.trainable:
            marker = rd.policy / "done"
            if marker.exists():
                marker.unlink()
            self.policy.save(rd.policy)
            marker.write_text(str(step))
        write_json(
            rd.state,
            {
                "step": step,
                "schedule": self.schedule.to_json(),
                "best_reward": self.best_reward_so_far,
            },
        )

    def _set_status(self, status: str) -> None:
        try:
            data = read_json(self.rd.run_json)
        except (OSError, ValueError):
            data = {}
        data["status"] = status
        write_json(self.rd.run_json, data)

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
                self.rd.append_step(rec.to_json())
                self._checkpoint(step)
                if events.on_step:
                    events.on_step(rec)
        except KeyboardInterrupt:
            self._set_status("interrupted")
            raise
        finished = last >= cfg.run.steps
        self._set_status("done" if finished else "paused")
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

    def _prompt_for(self, state: Any) -> Any:
        from rtlopt.policy import ParentInfo, build_prompt

        ref = self.evaluator.reference()
        assert ref.ppa is not None
        kind = self.evaluator.metric_kind
        parent = None
        if state.parent_id is not None and state.code:
            res = self._load_result(state.eval_hash)
            ppa = res.ppa if res is not None else None
            feedback = tuple(state.feedback.splitlines()) if state.feedback else ()
            prev = self.pool.find(state.parent_id)
            prev_metric = None
            if prev is not None and prev.parent_id is not None:
                prev_res = self._load_result(prev.eval_hash)
                if prev_res is not None and prev_res.ppa is not None:
                    prev_metric = prev_res.ppa.metric(kind)
            elif ref.ppa is not None:
                prev_metric = ref.ppa.metric(kind)
            parent = ParentInfo(
                code=state.code, ppa=ppa, feedback=feedback, prev_metric=prev_metric
            )
        return build_prompt(self.design.target.text(), ref.ppa, self.spec, kind, parent)

    def _load_result(self, h: str | None) -> EvalResult | None:
        if not h:
            return None
        f = self.rd.candidates / f"{h}.json"
        if not f.exists():
            return None
        try:
            return EvalResult.from_json(read_json(f))
        except (OSError, ValueError, KeyError):
            return None

    def _step(self, step: int, events: RunEvents) -> StepRecord:
        from rtlopt.policy import Sample, feedback_lines
        from rtlopt.search import Child
        from rtlopt.train import batch_advantages

        cfg = self.config
        t0 = time.monotonic()
        rng = random.Random(f"{cfg.run.seed}-{step}")
        if events.on_phase:
            events.on_phase(step, "sampling parents")
        parents = self.sampler.select(self.pool, cfg.search.parents, rng)
        prompts = [self._prompt_for(p) for p in parents]
        if events.on_phase:
            events.on_phase(step, "generating")
        groups = self.policy.generate(prompts, cfg.run.rollouts, seed=cfg.run.seed * 100003 + step)
        flat = [(gi, c) for gi, comps in enumerate(groups) for c in comps]
        texts = [candidate_text(c) for _, c in flat]
        to_eval = sorted({t for t in texts if t})
        if events.on_phase:
            events.on_phase(step, f"evaluating {len(to_eval)} candidates")
        done = 0

        def progress(i: int, res: EvalResult) -> None:
            nonlocal done
            done += 1
            if events.on_eval:
                events.on_eval(step, done, res)

        results_list = self.evaluator.evaluate_many(to_eval, progress)
        by_text = dict(zip(to_eval, results_list, strict=True))
        results = [
            _policy_error_result(c.error) if getattr(c, "error", None)
            else by_text[t] if t else _no_module_result()
            for (_, c), t in zip(flat, texts, strict=True)
        ]
        kind = self.evaluator.metric_kind
        ref = self.evaluator.reference()
        ref_metric = ref.ppa.metric(kind) if ref.ppa else float("nan")

        # Record candidates.
        for (gi, _c), text, res in zip(flat, texts, results, strict=True):
            if not text:
                continue
            h = source_hash(text)
            f = self.rd.candidates / f"{h}.v"
            if not f.exists():
                f.write_text(text)
                data = res.to_json()
                data["step"] = step
                data["parent"] = parents[gi].id
                write_json(self.rd.candidates / f"{h}.json", data)

        # Pool admission (top-k per parent inside the pool).
        for gi, parent in enumerate(parents):
            children = []
            for (g, _c), text, res in zip(flat, texts, results, strict=True):
                if g != gi or not text or res.reward is None:
                    continue
                metrics = {k: m.value for k, m in res.metrics.items()}
                children.append(
                    Child(
                        code=text,
                        reward=res.reward,
                        metrics=metrics,
                        eval_hash=res.source_hash,
                        accepted=res.accepted,
                        feedback="\n".join(feedback_lines(res, kind)),
                    )
                )
            self.pool.add_children(parent.id, children, step)
        self.pool.record_expansion([p.id for p in parents])
        self.pool.prune()

        # Best so far.
        for text, res in zip(texts, results, strict=True):
            if (
                text
                and res.accepted
                and res.reward is not None
                and (self.best is None or (self.best.reward or 0) < res.reward)
            ):
                self.best, self.best_code = res, text
                atomic_write(self.rd.best_v, text)
                write_json(self.rd.best_json, res.to_json())
        scored = [r.reward for r in results if r.reward is not None]
        if scored:
            self.best_reward_so_far = max(self.best_reward_so_far, max(scored))

        # Advantages per group (infrastructure failures carry no reward and no gradient).
        delta = self.schedule.delta(step - 1, cfg.run.steps)
        group_rewards: list[list[float | None]] = [[] for _ in parents]
        group_index: list[list[int]] = [[] for _ in parents]
        for k, (gi, _c) in enumerate(flat):
            group_rewards[gi].append(results[k].reward)
            group_index[gi].append(k)
        batch = batch_advantages(group_rewards, delta, cfg.train)
        samples = []
        for gi, idx in enumerate(group_index):
            stats_g = batch.groups[gi]
            for k, adv, used in zip(idx, stats_g.advantages, stats_g.used, strict=True):
                if used:
                    samples.append(
                        Sample(prompt=prompts[gi], completion=flat[k][1].text, advantage=adv)
                    )
        if events.on_phase:
            events.on_phase(step, "updating the policy")
        stats = self.policy.update(samples)
        decision = self.schedule.observe(batch.signals(stats.kl_ref))
        tokens = sum(c.completion_tokens for _, c in flat)
        return StepRecord(
            step=step,
            max_reward=max(scored) if scored else 0.0,
            mean_reward=sum(scored) / len(scored) if scored else 0.0,
            best_reward=self.best_reward_so_far,
            best_metric=self.best.ppa.metric(kind) if self.best and self.best.ppa else None,
            ref_metric=ref_metric,
            metric=kind,
            delta=delta,
            beta_mean=batch.beta_mean,
            eff_n=batch.eff_n,
            const_frac=batch.const_frac,
            beta_max_rate=batch.beta_max_rate,
            kl_ref=stats.kl_ref,
            rule=decision.rule,
            next_delta=decision.delta,
            valid_frac=sum(1 for r in results if r.accepted) / max(1, len(results)),
            accepted=sum(1 for r in results if r.accepted),
            rollouts=len(results),
            tokens=tokens,
            loss=stats.loss,
            time_s=time.monotonic() - t0,
            infra_errors=sum(1 for r in results if r.is_infrastructure_error),
        )
