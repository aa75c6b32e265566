"""The state pool in verl's loop: the prompts of each batch come from the PUCT pool, and each
batch's scored answers go back into it (and into the KL-budget controller) before the next.

verl 0.9 loads a custom dataset class (``data.custom_cls.path`` / ``.name``;
``verl.utils.dataset.rl_dataset.get_dataset_class``) and its legacy trainer
(``trainer.use_v1=False``: ``verl.trainer.ppo.ray_trainer.RayPPOTrainer.fit``) calls the
dataset's ``on_batch_end(batch=batch)`` after every step but the last, in the process that
also computes advantages and fetches the next batch (its TaskRunner; the data loader must
have no worker processes, ``data.dataloader_num_workers=0``, or the next batch would come
from a copy). The dataset (:mod:`rtlopt.run.verl_dataset`) is a thin torch shell around
:class:`PoolFeeder`, which does the work without torch:

* :meth:`PoolFeeder.item` ``i`` of a step: the prompt built from the ``i``-th parent the pool's
  sampler chose for the step (chosen at the step's first item; ``search.parents`` prompts, a
  parent repeated when lineage blocking returns fewer), with the state's id and the step in
  the row's ``extra_info``, the design in ``reward_model.ground_truth`` (:class:`RewardTask`);
  the step's KL budget (the schedule's, as ``rtlopt optimize`` takes it) is set for the
  estimators (:func:`rtlopt.train._verl.set_budget`).
* :meth:`PoolFeeder.observe` with the rows verl scored (:func:`outcomes`: the reward's
  columns, :data:`rtlopt.run._verl_scorer.REWARD_KEYS`, and the row's ``uid``): the answers of
  each parent admitted to the pool as ``rtlopt optimize`` admits them (top-k, de-duplicated),
  the step's group advantages recomputed at the budget used (the estimators' own function) and
  their signals, with the policy-to-reference KL when verl computed reference log-probs, given
  to the schedule, whose next budget goes to the estimators; the pool, the schedule and a line
  per step are written to ``<out>/pool/``, from which a restarted job continues.

The prompts are the ones ``rtlopt optimize`` builds (:func:`rtlopt.policy.build_prompt` with
the parent's code, numbers and feedback), whole-module answers only: verl's reward applies no
SEARCH/REPLACE edits (a design whose prompts would ask for edits is refused). A prompt longer
than the launch's ``data.max_prompt_length`` falls back to the root prompt for that slot.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rtlopt.config import Config, load_config
from rtlopt.errors import UsageError
from rtlopt.policy import ParentInfo, Prompt, answer_format, build_prompt
from rtlopt.results import PPA, EvalResult
from rtlopt.run._verl_scorer import RewardTask
from rtlopt.rundir import write_json
from rtlopt.search import Child, State, StatePool, make_sampler
from rtlopt.train import batch_advantages, make_schedule
from rtlopt.train._verl import set_budget

__all__ = ["Outcome", "PoolFeeder", "PoolSpec", "outcomes"]

log = logging.getLogger(__name__)

SPEC_VERSION = 1


@dataclasses.dataclass(frozen=True)
class PoolSpec:
    """What the dataset needs to build prompts without an evaluator of its own (written by
    the launch, which measured the reference).

    Attributes:
        task: The design (its configuration: search, train, run, policy settings).
        reference: The reference's evaluation (its PPA numbers and details).
        code: The reference module's text.
        spec: The specification text the prompts show.
        metric: ``adp`` or ``ppa``.
        out_dir: Where the pool's state goes (``<out_dir>/pool/``).
        max_prompt_tokens: ``data.max_prompt_length`` of the launch.
    """

    task: RewardTask
    reference: EvalResult
    code: str
    spec: str
    metric: str
    out_dir: Path
    max_prompt_tokens: int

    def to_json(self) -> dict[str, Any]:
        return {
            "version": SPEC_VERSION,
            "task": json.loads(self.task.to_ground_truth()),
            "reference": self.reference.to_json(),
            "code": self.code,
            "spec": self.spec,
            "metric": self.metric,
            "out_dir": str(self.out_dir),
            "max_prompt_tokens": self.max_prompt_tokens,
        }

    @staticmethod
    def read(path: Path) -> PoolSpec:
        """The spec file written by :meth:`write`.

        Raises:
            UsageError: unreadable, or not a pool spec of this version.
        """
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read the pool spec: {exc}", path=Path(path)) from None
        if not isinstance(data, dict) or data.get("version") != SPEC_VERSION:
            raise UsageError(
                "not an rtlopt pool spec of this version",
                path=Path(path),
                hint="write it again with `rtlopt train --dry-run`",
            )
        return PoolSpec(
            task=RewardTask.from_row(data["task"]),
            reference=EvalResult.from_json(data["reference"]),
            code=str(data["code"]),
            spec=str(data["spec"]),
            metric=str(data["metric"]),
            out_dir=Path(data["out_dir"]),
            max_prompt_tokens=int(data["max_prompt_tokens"]),
        )

    def write(self, path: Path) -> None:
        write_json(path, self.to_json())


@dataclasses.dataclass(frozen=True)
class Outcome:
    """One scored answer of a verl batch, as the pool takes it.

    Attributes:
        uid: verl's group id (one prompt's rollouts share it).
        state: The parent state the prompt was built from.
        step: The step the prompt was built in.
        score: The reward (``None``: a tool failure, no reward).
        code: The evaluated module ("" for an answer with no module).
        accepted: Proven equivalent with PPA.
        feedback: The EDA feedback a prompt built from this answer shows.
        metrics: PPA numbers and the figure of merit (finite ones only).
        source_hash: The evaluator's hash of the code.
    """

    uid: str
    state: int
    step: int
    score: float | None
    code: str
    accepted: bool
    feedback: str
    metrics: Mapping[str, float]
    source_hash: str

    def child(self) -> Child:
        return Child(
            code=self.code,
            reward=self.score,
            metrics=dict(self.metrics),
            eval_hash=self.source_hash,
            accepted=self.accepted,
            feedback=self.feedback,
        )


def _finite(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def outcomes(columns: Mapping[str, Sequence[Any]], metric: str) -> list[Outcome]:
    """The batch's rows from verl's non-tensor columns: ``uid``, ``extra_info`` (the dataset's
    row) and the reward's keys.

    Raises:
        UsageError: a column the pool needs is missing (the reward is not rtlopt's
            ``compute_score``, or the trainer dropped its columns).
    """
    need = ("uid", "extra_info", "score", "code", "accepted", "feedback", "source_hash")
    missing = [c for c in need if c not in columns]
    if missing:
        raise UsageError(
            f"verl's batch lacks the column(s) {', '.join(missing)} the state pool needs",
            hint="use rtlopt's reward (reward.custom_reward_function.path=pkg://rtlopt.run.verl)",
        )
    out = []
    for i, extra in enumerate(columns["extra_info"]):
        nums = {k: _finite(columns[k][i]) for k in ("area_um2", "delay_ps", "power_uw", "metric")}
        metrics = {k: v for k, v in nums.items() if v is not None and k != "metric"}
        if nums["metric"] is not None:
            metrics[metric] = nums["metric"]
        out.append(
            Outcome(
                uid=str(columns["uid"][i]),
                state=int(extra["rtlopt_state"]),
                step=int(extra["rtlopt_step"]),
                score=_finite(columns["score"][i]),
                code=str(columns["code"][i] or ""),
                accepted=bool(float(columns["accepted"][i])),
                feedback=str(columns["feedback"][i] or ""),
                metrics=metrics,
                source_hash=str(columns["source_hash"][i] or ""),
            )
        )
    return out


class PoolFeeder:
    """The pool, its sampler and the KL-budget schedule of one verl run (see the module).

    Args:
        spec: The design and its reference.
        count_tokens: The model's token count of a prompt (verl's tokenizer with its chat
            template); ``None``: every prompt is taken to fit.
        config: The design's configuration (default: loaded from ``spec.task``).
    """

    def __init__(
        self,
        spec: PoolSpec,
        count_tokens: Callable[[Prompt], int] | None = None,
        config: Config | None = None,
    ) -> None:
        self.spec = spec
        self.config = config or _config(spec.task)
        self.count_tokens = count_tokens
        self.dir = spec.out_dir / "pool"
        cfg = self.config
        try:
            self.sampler = make_sampler(cfg.search)
            if callable(getattr(self.sampler, "plan", None)):  # MCTS also has a select
                raise TypeError(cfg.search.sampler)
        except TypeError:
            raise UsageError(
                f"search.sampler = {cfg.search.sampler} is a whole search strategy; the verl "
                "path feeds verl from the state pool",
                hint="use puct (the default), egreedy, greedy or none",
            ) from None
        if answer_format(spec.code, cfg.policy.answer_format, cfg.policy.edit_min_lines) != "whole":
            raise UsageError(
                "this module's prompts ask for SEARCH/REPLACE edits, which verl's reward does "
                "not apply",
                hint="set policy.answer_format = 'whole' for verl training",
            )
        self.pool = StatePool(cfg.search)
        self.schedule = make_schedule(cfg.train)
        self.step = 1
        self.rng = random.Random(cfg.run.seed)
        self.parents: list[State] | None = None
        self.delta: float | None = None
        self._load()

    # ------------------------------------------------------------------ prompts

    def item(self, i: int) -> dict[str, Any]:
        """Row ``i`` of the current step (its parents are chosen at the step's first row)."""
        if self.parents is None:
            self._choose()
        assert self.parents is not None
        state = self.parents[i % len(self.parents)]
        prompt = self.prompt(state)
        return {
            "data_source": "rtlopt",
            "raw_prompt": [dict(m) for m in prompt],
            "reward_model": {"style": "rule", "ground_truth": self.spec.task.to_ground_truth()},
            "extra_info": {"index": i, "rtlopt_state": state.id, "rtlopt_step": self.step},
        }

    def _choose(self) -> None:
        cfg = self.config
        chosen = self.sampler.select(self.pool, cfg.search.parents, self.rng)
        self.parents = chosen or [self.pool.root]
        self.delta = self.schedule.delta(self.step - 1, cfg.run.steps)
        set_budget(self.delta)
        log.info(
            "step %d: parents %s, KL budget %.4f",
            self.step,
            [s.id for s in self.parents],
            self.delta,
        )

    def prompt(self, state: State) -> Prompt:
        """The prompt ``rtlopt optimize`` builds from ``state`` (the root: the reference's);
        the root's when it would not fit the launch's prompt length."""
        ref = self.spec.reference
        assert ref.ppa is not None
        parent = None
        if not state.is_root:
            parent = ParentInfo(
                code=state.code,
                ppa=_ppa(state.metrics),
                feedback=tuple(state.feedback.splitlines()),
                prev_metric=self._prev_metric(state),
            )
        prompt = build_prompt(self.spec.code, ref.ppa, self.spec.spec, self.spec.metric, parent)
        if parent is not None and self.count_tokens is not None:
            n = self.count_tokens(prompt)
            if n > self.spec.max_prompt_tokens:
                log.warning(
                    "state %d: its prompt of %d tokens exceeds data.max_prompt_length %d; "
                    "this slot starts from the reference",
                    state.id,
                    n,
                    self.spec.max_prompt_tokens,
                )
                return self.prompt(self.pool.root)
        return prompt

    def _prev_metric(self, state: State) -> float | None:
        kind = self.spec.metric
        up = self.pool.find(state.parent_id) if state.parent_id is not None else None
        if up is None or up.is_root:
            ppa = self.spec.reference.ppa
            try:
                return ppa.metric(kind) if ppa is not None else None
            except ValueError:
                return None
        return up.metrics.get(kind)

    # ------------------------------------------------------------------ feedback

    def observe(self, rows: Sequence[Outcome], kl_ref: float | None = None) -> dict[str, Any]:
        """Take a scored batch: admit its answers, update the schedule, save; the step's line.

        Rows of another step (a batch built before this feeder's state) are not admitted.
        """
        cfg = self.config
        if self.parents is None:  # a restarted job: the batch was built by the previous one
            self._choose()
        stale = [r for r in rows if r.step != self.step]
        mine = [r for r in rows if r.step == self.step]
        if stale:
            log.error(
                "%d answer(s) of step(s) %s reached step %d; not admitted",
                len(stale),
                sorted({r.step for r in stale}),
                self.step,
            )
        groups: dict[str, list[Outcome]] = {}
        for r in mine:
            groups.setdefault(r.uid, []).append(r)
        expansions: dict[int, list[Child]] = {}
        for g in groups.values():
            expansions.setdefault(g[0].state, []).extend(r.child() for r in g)
        admitted = self.pool.update(self.step, expansions)
        delta = self.delta if self.delta is not None else cfg.train.delta_fixed
        batch = batch_advantages([[r.score for r in g] for g in groups.values()], delta, cfg.train)
        decision = self.schedule.observe(batch.signals(kl_ref))
        line = {
            "step": self.step,
            "parents": [s.id for s in self.parents or []],
            "delta": delta,
            "next_delta": decision.delta,
            "rule": decision.rule,
            "groups": len(groups),
            "rollouts": len(mine),
            "stale": len(stale),
            "admitted": [s.id for s in admitted],
            "max_reward": batch.max_reward,
            "kl_ref": kl_ref,
            "pool": len(self.pool),
        }
        self.step += 1
        self.parents = None
        self.delta = None
        self._save(line)
        return line

    # ------------------------------------------------------------------ state

    def _save(self, line: Mapping[str, Any]) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.pool.save(self.dir / "pool.json")
        state = {"step": self.step, "schedule": self.schedule.to_json(), "rng": _rng(self.rng)}
        write_json(self.dir / "state.json", state)
        with (self.dir / "steps.jsonl").open("a") as f:
            f.write(json.dumps(line) + "\n")

    def _load(self) -> None:
        state_file = self.dir / "state.json"
        if not state_file.is_file():
            return
        data = json.loads(state_file.read_text())
        self.pool = StatePool.load(self.config.search, self.dir / "pool.json")
        self.schedule = make_schedule(self.config.train, data["schedule"])
        self.step = int(data["step"])
        self.rng.setstate(_unrng(data["rng"]))
        log.info("state pool resumed at step %d (%d states)", self.step, len(self.pool))


def _config(task: RewardTask) -> Config:
    return load_config(
        Path(task.file),
        overrides=dict(task.overrides),
        config_file=Path(task.config_file) if task.config_file else None,
    ).config


def _ppa(metrics: Mapping[str, float]) -> PPA | None:
    area, delay = metrics.get("area_um2"), metrics.get("delay_ps")
    if area is None or delay is None:
        return None
    return PPA(area, delay, metrics.get("power_uw"))


def _rng(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _unrng(data: Sequence[Any]) -> tuple[Any, ...]:
    return (data[0], tuple(data[1]), data[2])
