"""The reward side of verl's training: a task (the design and its settings, carried in verl's data
rows) and the scorer that evaluates a batch of answers to it with a cached evaluator per task."""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from rtlopt.config import load_config
from rtlopt.errors import UsageError
from rtlopt.evaluate import EvalResult, Evaluator, make_workdir, source_hash
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.policy import answer_code, feedback_lines
from rtlopt.run._loop import no_module_result

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
    "area_um2",
    "delay_ps",
    "power_uw",
    "feedback",
    "code",
)
"""The keys of every row's result, in order. The last five carry what the state pool needs
to admit the answer as a state (:mod:`rtlopt.run._verl_pool`): its PPA numbers (NaN without),
the EDA feedback a prompt built from it shows, and the code that was evaluated ("" for an
answer with no module)."""


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
        for h, code in zip(hashes, codes, strict=True):
            dup = h is not None and h in seen
            if h is not None:
                seen.add(h)
            res = results[h] if h is not None else no_module_result(ev.config.reward.no_module)
            row = self._row(res, ev.metric_kind, duplicate=dup or h in waits)
            rows.append({**row, "code": code or ""})
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
            "area_um2": res.ppa.area_um2 if res.ppa is not None else math.nan,
            "delay_ps": res.ppa.delay_ps if res.ppa is not None else math.nan,
            "power_uw": _number(res.ppa.power_uw if res.ppa is not None else None),
            "feedback": "\n".join(feedback_lines(res, kind)),
            "code": "",
        }

    def close(self) -> None:
        """Close every evaluator (their tool workers and executors)."""
        with self._lock:
            evs, self._evaluators = list(self._evaluators.values()), {}
        for ev in evs:
            ev.close()


def _number(x: float | None) -> float:
    return math.nan if x is None else float(x)


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
