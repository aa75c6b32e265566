"""verl glue: rtlopt's evaluator as verl's reward function, rtlopt's advantages as verl's.

docs/scale.md explains how the test-time-training loop maps onto verl; this module is the part
rtlopt ships. Nothing here imports verl, Ray or torch when the module is imported (verl pulls
torch and vLLM; CPU installs of rtlopt do not have it): torch is imported by the advantage
functions when verl calls them, verl only by :func:`register_advantage_estimators`.

Reward. verl calls ``compute_score(data_source, solution_str, ground_truth, extra_info)`` per
rollout (its reward loop, also as ``async``: :func:`compute_score_async`), or
``compute_score(data_sources, solution_strs, ground_truths, extra_infos)`` per batch (its
``batch`` reward manager: :func:`compute_score_batch`). A row's ``ground_truth`` (or
``extra_info["rtlopt"]``) names the design as JSON (:class:`RewardTask`, made by
:meth:`RewardTask.to_ground_truth`). The answer is extracted exactly as ``rtlopt optimize``
does (:func:`rtlopt.policy.answer_code`) and scored by the design's
:class:`~rtlopt.evaluate.Evaluator`, which stays open (warm tools, cache) across calls, with
the configured executor (``eval.executor = "ray"`` fans out to actors on verl's own Ray
cluster). Identical answers of a batch, and of concurrent calls, are evaluated once.

Every row's result is a dict with the same keys (verl collects each key into a column):
``score`` (rtlopt's reward), ``accepted``, ``r_syn``, ``r_func``, ``r_ppa``, ``metric`` (the
figure of merit, NaN without PPA), ``infrastructure_error``, ``duplicate``, ``status``,
``stage``, ``source_hash``. A tool crash or timeout is not a verdict on the answer: its
``score`` is NaN, which the advantage estimators below leave out of their group (advantage 0,
as rtlopt's loop does); with another estimator, pass ``infrastructure_score`` (verl:
``custom_reward_function.reward_kwargs``) to give such rows a number instead.

Advantages. :func:`entropic_advantage` and :func:`expected_advantage` have the signature of
verl's advantage estimators (``token_level_rewards``, ``response_mask``, ``index``,
``config``) and compute rtlopt's group advantages (:mod:`rtlopt.train._advantage`) per group of
rollouts of one prompt; :func:`register_advantage_estimators` registers them with verl as
``rtlopt_entropic`` and ``rtlopt_expected``.
"""

from __future__ import annotations

import asyncio
import atexit
import dataclasses
import json
import logging
import math
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.config import LN2, TrainConfig, load_config
from rtlopt.errors import UsageError
from rtlopt.evaluate import EvalResult, Evaluator, Stage, Status, make_workdir, source_hash
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.policy import answer_code
from rtlopt.train._advantage import make_advantage

if TYPE_CHECKING:
    import torch

__all__ = [
    "REWARD_KEYS",
    "RewardScorer",
    "RewardTask",
    "compute_score",
    "compute_score_async",
    "compute_score_batch",
    "entropic_advantage",
    "expected_advantage",
    "register_advantage_estimators",
]

log = logging.getLogger(__name__)

REWARD_KEYS = (
    "score",
    "accepted",
    "r_syn",
    "r_func",
    "r_ppa",
    "metric",
    "infrastructure_error",
    "duplicate",
    "status",
    "stage",
    "source_hash",
)
"""The keys of every row's result, in order."""


# ------------------------------------------------------------------------------------- the task


@dataclasses.dataclass(frozen=True)
class RewardTask:
    """The design a dataset row's answers are scored against.

    Attributes:
        file: The file that defines the target module (absolute, or relative to the reward
            worker's working folder).
        module: The module (optional when the file has one).
        config_file: A configuration file instead of the one found upward of ``file``.
        overrides: Dotted configuration overrides (``{"flow.pdk": "nangate45"}``).
        liberty: A liberty file instead of the PDK's.
    """

    file: str
    module: str | None = None
    config_file: str | None = None
    overrides: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    liberty: str | None = None

    def to_ground_truth(self) -> str:
        """The JSON to put in a row's ``reward_model.ground_truth``."""
        return json.dumps(
            dataclasses.asdict(self) | {"overrides": dict(self.overrides)}, sort_keys=True
        )

    @property
    def key(self) -> str:
        return self.to_ground_truth()

    @staticmethod
    def from_row(ground_truth: Any, extra_info: Any = None) -> RewardTask:
        """The task of a row: ``extra_info["rtlopt"]`` if present, else ``ground_truth``
        (a JSON object or a mapping).

        Raises:
            UsageError: the row names no design, or names unknown fields.
        """
        spec: Any = None
        if isinstance(extra_info, Mapping) and extra_info.get("rtlopt") is not None:
            spec = extra_info["rtlopt"]
        elif ground_truth is not None:
            spec = ground_truth
        if isinstance(spec, str):
            try:
                spec = json.loads(spec)
            except ValueError as exc:
                raise UsageError(
                    f"the row's ground_truth is not rtlopt's task JSON: {spec[:80]!r}",
                    hint="build rows with RewardTask(...).to_ground_truth()",
                ) from exc
        if not isinstance(spec, Mapping) or not spec.get("file"):
            raise UsageError(
                "the row names no design for rtlopt's reward",
                hint='put {"file": "rtl/x.v", ...} in reward_model.ground_truth '
                "(RewardTask(...).to_ground_truth())",
            )
        fields = {f.name for f in dataclasses.fields(RewardTask)}
        unknown = sorted(set(spec) - fields)
        if unknown:
            raise UsageError(
                f"unknown field(s) in the row's rtlopt task: {', '.join(unknown)}",
                hint=f"known: {', '.join(sorted(fields))}",
            )
        return RewardTask(**{**spec, "overrides": dict(spec.get("overrides") or {})})


# ------------------------------------------------------------------------------------ the scorer


class RewardScorer:
    """Scores answers against their design; keeps one open evaluator per design.

    Thread-safe: verl's reward loop calls from several threads (or coroutines) at once, and an
    answer being evaluated for one call is waited for, not evaluated again, by another.

    Args:
        workdir: Scratch root (default: a fresh folder in the temp folder).
        infrastructure_score: ``score`` of a tool crash or timeout (default NaN: no reward).
    """

    def __init__(
        self, workdir: Path | None = None, infrastructure_score: float | None = None
    ) -> None:
        self._workdir = workdir
        self.infrastructure_score = infrastructure_score
        self._lock = threading.Lock()
        self._evaluators: dict[str, Evaluator] = {}
        self._opening: dict[str, threading.Lock] = {}
        self._inflight: dict[tuple[str, str], Future[EvalResult]] = {}

    def evaluator(self, task: RewardTask) -> Evaluator:
        """The task's evaluator, opened (and its reference measured) on first use."""
        with self._lock:
            ev = self._evaluators.get(task.key)
            if ev is not None:
                return ev
            gate = self._opening.setdefault(task.key, threading.Lock())
        with gate:
            with self._lock:
                ev = self._evaluators.get(task.key)
            if ev is None:
                ev = _open(task, self._root() / f"task-{len(self._evaluators):03d}")
                ev.reference()
                with self._lock:
                    self._evaluators[task.key] = ev
            return ev

    def _root(self) -> Path:
        with self._lock:
            if self._workdir is None:
                self._workdir = make_workdir("rtlopt-verl-")
            return self._workdir

    def score(self, task: RewardTask, answers: Sequence[str]) -> list[dict[str, Any]]:
        """One result dict per answer (keys :data:`REWARD_KEYS`), in order."""
        ev = self.evaluator(task)
        codes = [answer_code(a) for a in answers]
        hashes = [source_hash(c) if c is not None else None for c in codes]
        mine: dict[str, str] = {}  # hash -> code this call evaluates
        waits: dict[str, Future[EvalResult]] = {}
        with self._lock:
            for h, c in zip(hashes, codes, strict=True):
                if h is None or h in mine or h in waits:
                    continue
                fut = self._inflight.get((task.key, h))
                if fut is None:
                    self._inflight[(task.key, h)] = Future()
                    mine[h] = c  # type: ignore[assignment]
                else:
                    waits[h] = fut
        results: dict[str, EvalResult] = {}
        try:
            if mine:
                order = list(mine)
                for h, res in zip(order, ev.evaluate_many([mine[h] for h in order]), strict=True):
                    results[h] = res
                    self._inflight[(task.key, h)].set_result(res)
        except BaseException as exc:
            with self._lock:
                for h in mine:
                    fut = self._inflight[(task.key, h)]
                    if not fut.done():
                        fut.set_exception(exc)
            raise
        finally:
            with self._lock:
                for h in mine:
                    self._inflight.pop((task.key, h), None)
        for h, fut in waits.items():
            results[h] = fut.result()
        seen: set[str] = set()
        rows = []
        for h in hashes:
            dup = h is not None and h in seen
            if h is not None:
                seen.add(h)
            res = results[h] if h is not None else _no_module()
            rows.append(self._row(res, ev.metric_kind, duplicate=dup or h in waits))
        return rows

    def _row(self, res: EvalResult, kind: str, *, duplicate: bool) -> dict[str, Any]:
        infra = res.is_infrastructure_error
        if res.reward is not None:
            score = float(res.reward)
        elif self.infrastructure_score is not None:
            score = float(self.infrastructure_score)
        else:
            score = math.nan
        metric = math.nan
        if res.ppa is not None:
            try:
                metric = float(res.ppa.metric(kind))
            except ValueError:
                metric = math.nan
        return {
            "score": score,
            "accepted": 1.0 if res.accepted else 0.0,
            "r_syn": float(res.r_syn or 0.0),
            "r_func": float(res.r_func or 0.0),
            "r_ppa": float(res.r_ppa or 0.0),
            "metric": metric,
            "infrastructure_error": 1.0 if infra else 0.0,
            "duplicate": 1.0 if duplicate else 0.0,
            "status": str(res.status),
            "stage": str(res.stage),
            "source_hash": res.source_hash or "",
        }

    def close(self) -> None:
        """Close every evaluator (their tool workers and executors)."""
        with self._lock:
            evs, self._evaluators = list(self._evaluators.values()), {}
        for ev in evs:
            ev.close()


def _open(task: RewardTask, workdir: Path) -> Evaluator:
    """Configuration -> design -> PDK -> evaluator, as ``rtlopt evaluate`` opens a target."""
    file = Path(task.file).expanduser().resolve()
    if not file.is_file():
        raise UsageError(
            "the rtlopt task's target file was not found",
            path=file,
            hint="reward workers need the repository at the same path",
        )
    cfg = load_config(
        file,
        overrides=dict(task.overrides),
        config_file=Path(task.config_file) if task.config_file else None,
    ).config
    design = load_design(file, task.module, cfg.project)
    liberty = task.liberty or cfg.flow.liberty
    if liberty is not None and not Path(liberty).exists():
        raise UsageError("liberty file not found", path=Path(liberty))
    pdk = resolve_pdk(cfg.flow.pdk, Path(liberty) if liberty else None)
    return Evaluator(design, cfg, workdir, pdk)


def _no_module() -> EvalResult:
    """The loop's verdict on an answer without any Verilog module (no credit)."""
    return EvalResult(
        status=Status.INVALID,
        stage=Stage.SCREEN,
        reason="the answer holds no Verilog module",
        reward=0.0,
        r_syn=0.0,
    )


_SCORER: RewardScorer | None = None
_SCORER_LOCK = threading.Lock()


def _scorer() -> RewardScorer:
    global _SCORER
    with _SCORER_LOCK:
        if _SCORER is None:
            _SCORER = RewardScorer()
            atexit.register(_SCORER.close)
        return _SCORER


def _with_score(row: dict[str, Any], infrastructure_score: float | None) -> dict[str, Any]:
    if infrastructure_score is not None and row["infrastructure_error"]:
        return {**row, "score": float(infrastructure_score)}
    return row


# ------------------------------------------------------------------------------------ verl API


def compute_score(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Any = None,
    *,
    infrastructure_score: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """verl's per-rollout reward function: rtlopt's reward of one answer.

    Args:
        data_source: The row's data source (not used).
        solution_str: The model's answer.
        ground_truth: The row's :class:`RewardTask` JSON.
        extra_info: The row's extra info (``extra_info["rtlopt"]`` wins over ground_truth).
        infrastructure_score: ``score`` of a tool crash or timeout (default NaN).
        kwargs: Other arguments verl passes (ignored).
    """
    task = RewardTask.from_row(ground_truth, extra_info)
    [row] = _scorer().score(task, [solution_str])
    return _with_score(row, infrastructure_score)


async def compute_score_async(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Any = None,
    *,
    infrastructure_score: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """:func:`compute_score` for verl's asynchronous reward loop (runs in a thread)."""
    return await asyncio.to_thread(
        compute_score,
        data_source,
        solution_str,
        ground_truth,
        extra_info,
        infrastructure_score=infrastructure_score,
    )


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Any] | None = None,
    *,
    infrastructure_score: float | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """verl's batch reward function: one result per answer, in order. Answers of one design
    are scored together (the executor spreads them over its workers)."""
    n = len(solution_strs)
    extras = list(extra_infos) if extra_infos is not None else [None] * n
    if not len(ground_truths) == len(extras) == n:
        raise UsageError(
            f"verl passed {n} answers, {len(ground_truths)} ground truths and "
            f"{len(extras)} extra infos"
        )
    tasks = [RewardTask.from_row(g, e) for g, e in zip(ground_truths, extras, strict=True)]
    groups: dict[str, list[int]] = {}
    for i, t in enumerate(tasks):
        groups.setdefault(t.key, []).append(i)
    rows: list[dict[str, Any] | None] = [None] * n
    scorer = _scorer()
    for idx in groups.values():
        for i, row in zip(
            idx, scorer.score(tasks[idx[0]], [solution_strs[i] for i in idx]), strict=True
        ):
            rows[i] = _with_score(row, infrastructure_score)
    return [r for r in rows if r is not None]


# ------------------------------------------------------------------------------------ advantages


def _group_advantages(
    name: str,
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: Sequence[Any],
    config: Any,
) -> tuple[torch.Tensor, torch.Tensor]:
    import torch

    delta = float(_setting(config, "rtlopt_delta", LN2))
    estimator = make_advantage(TrainConfig(advantage=name))
    scores = token_level_rewards.sum(dim=-1).detach().cpu().tolist()
    groups: dict[Any, list[int]] = {}
    for i, g in enumerate(index):
        groups.setdefault(g, []).append(i)
    adv = [0.0] * len(scores)
    for rows in groups.values():
        rewards = [scores[i] if math.isfinite(scores[i]) else None for i in rows]
        stats = estimator(rewards, delta)
        for i, a in zip(rows, stats.advantages, strict=True):
            adv[i] = a
    out = torch.tensor(adv, dtype=token_level_rewards.dtype, device=token_level_rewards.device)
    out = out.unsqueeze(-1) * response_mask
    return out, out


def _setting(config: Any, key: str, default: float) -> Any:
    if config is None:
        return default
    if isinstance(config, Mapping):
        return config.get(key, default)
    getter = getattr(config, "get", None)
    if callable(getter):
        return getter(key, default)
    return getattr(config, key, default)


def entropic_advantage(
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: Sequence[Any],
    config: Any = None,
    **kwargs: Any,
) -> tuple[torch.Tensor, torch.Tensor]:
    """rtlopt's entropic leave-one-out advantage per group (rollouts sharing ``index``), at
    KL budget ``config.rtlopt_delta`` (default ln 2). A row whose reward is NaN (tool error)
    gets 0 and takes no part in its group. Returns ``(advantages, returns)``, both
    ``(batch, response_length)`` and masked."""
    return _group_advantages("entropic", token_level_rewards, response_mask, index, config)


def expected_advantage(
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: Sequence[Any],
    config: Any = None,
    **kwargs: Any,
) -> tuple[torch.Tensor, torch.Tensor]:
    """rtlopt's expected-reward (GRPO) advantage per group, NaN rewards left out."""
    return _group_advantages("expected", token_level_rewards, response_mask, index, config)


def register_advantage_estimators() -> tuple[str, ...]:
    """Register :func:`entropic_advantage` and :func:`expected_advantage` with verl as
    ``rtlopt_entropic`` and ``rtlopt_expected`` (``algorithm.adv_estimator``); idempotent.

    Raises:
        UsageError: verl is not installed.
    """
    try:
        from verl.trainer.ppo.core_algos import register_adv_est
    except ImportError as exc:
        raise UsageError("verl is not installed", hint="pip install verl (GPU machines)") from exc
    names = ("rtlopt_entropic", "rtlopt_expected")
    for name, fn in zip(names, (entropic_advantage, expected_advantage), strict=True):
        register_adv_est(name)(fn)
    return names
