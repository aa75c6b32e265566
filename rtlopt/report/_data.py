"""Reading a run directory, tolerant of interrupted runs.

Everything the report shows comes from the files the run loop writes, read through
:class:`rtlopt.rundir.RunDir` (``run.json``, ``config.toml``, ``provenance.json``,
``reference.json``, ``steps.jsonl``, ``candidates/<hash>.{v,json}``, ``best.{v,json}``). Any of
them may be missing or damaged, or, for ``steps.jsonl``, end in a torn line; the report then
says what it does not know.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rtlopt.config import RewardConfig
from rtlopt.errors import UsageError
from rtlopt.results import PPA, EvalResult
from rtlopt.rundir import CandidateRecord, RunDir

_T = TypeVar("_T")

__all__ = ["Candidate", "RunData", "load_run", "pareto_front", "tradeoff_point"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate(CandidateRecord):
    """One evaluated candidate of the run (a :class:`~rtlopt.rundir.CandidateRecord` that
    knows its figure of merit)."""

    def metric(self, kind: str) -> float | None:
        """The figure of merit, or ``None`` without PPA (or without power for ``ppa``)."""
        ppa = self.result.ppa
        if ppa is None:
            return None
        if kind == "ppa":
            return ppa.ppa_product
        return ppa.adp


def tradeoff_point(ppa: PPA | None, kind: str) -> tuple[float, float] | None:
    """The point of a design in the plane of the figure of merit: (area, delay) for ADP,
    (area, delay*power) for the PPA product, so that the reference's iso-curve
    ``x * y = metric`` holds exactly. ``None`` without the numbers."""
    if ppa is None:
        return None
    if kind == "ppa":
        if ppa.power_uw is None:
            return None
        return ppa.area_um2, ppa.delay_ps * ppa.power_uw
    return ppa.area_um2, ppa.delay_ps


@dataclass
class RunData:
    """Everything known about one run directory."""

    path: Path
    run: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)
    reference: EvalResult | None = None
    reference_code: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    best: EvalResult | None = None
    best_code: str | None = None
    best_hash: str | None = None

    @property
    def module(self) -> str:
        """Target module name (``?`` if unknown)."""
        return str(self.run.get("module", "?"))

    @property
    def status(self) -> str:
        """running, done or interrupted (``unknown`` without run.json)."""
        return str(self.run.get("status", "unknown"))

    @property
    def metric(self) -> str:
        """Figure of merit of the run: ``adp`` or ``ppa``."""
        for rec in self.steps:
            if rec.get("metric") in ("adp", "ppa"):
                return str(rec["metric"])
        prov = self.provenance.get("metric")
        if prov in ("adp", "ppa"):
            return str(prov)
        ref = self.reference.ppa if self.reference is not None else None
        return "ppa" if ref is not None and ref.power_uw is not None else "adp"

    @property
    def reference_metric(self) -> float | None:
        """The reference's figure of merit."""
        if self.reference is not None and self.reference.ppa is not None:
            value = _metric(self.reference.ppa, self.metric)
            if value is not None:
                return value
        for rec in self.steps:
            v = rec.get("ref_metric")
            if isinstance(v, int | float) and math.isfinite(v):
                return float(v)
        return None

    @property
    def reference_reward(self) -> float:
        """Reward of the reference: from reference.json, else w_syn + w_func + w_ppa."""
        if self.reference is not None and self.reference.reward is not None:
            return float(self.reference.reward)
        weights = self.config.get("reward") or self.provenance.get("reward") or {}
        d = RewardConfig()
        return (
            float(weights.get("w_syn", d.w_syn))
            + float(weights.get("w_func", d.w_func))
            + float(weights.get("w_ppa", d.w_ppa))
        )

    @property
    def delta_schedule(self) -> str:
        """KL-budget schedule name from the run's configuration (``fixed`` if unknown)."""
        train = self.config.get("train") or {}
        return str(train.get("delta", "fixed"))

    @property
    def configured_steps(self) -> int | None:
        """``run.steps`` of the configuration."""
        run = self.config.get("run") or {}
        steps = run.get("steps")
        return int(steps) if isinstance(steps, int) else None

    def accepted(self) -> list[Candidate]:
        """Accepted candidates with PPA."""
        return [c for c in self.candidates if c.result.accepted and c.result.ppa is not None]


def _metric(ppa: PPA, kind: str) -> float | None:
    return ppa.ppa_product if kind == "ppa" else ppa.adp


def _tolerant(read: Callable[[], _T], default: _T) -> _T:
    """``read()``, or ``default`` when its file is damaged (logged): reports describe what they
    can of an interrupted run."""
    try:
        return read()
    except UsageError as exc:
        log.warning("%s", exc.one_line())
        return default


def load_run(run_dir: Path) -> RunData:
    """Read a run directory; missing or broken files leave their parts empty."""
    rd = RunDir(Path(run_dir))
    data = RunData(path=rd.path)
    info = _tolerant(rd.read_info, None)
    data.run = info.to_json() if info is not None else {}
    data.config = _tolerant(rd.read_config_table, {})
    data.provenance = _tolerant(rd.read_provenance, {})
    ref = _tolerant(rd.read_reference, None)
    if ref is not None:
        data.reference, data.reference_code = ref
    data.steps = rd.read_steps()
    data.candidates = [
        Candidate(c.hash, c.result, c.step, c.parent, c.code_path, c.source)
        for c in rd.iter_candidates(lambda path, exc: log.warning("%s", exc.one_line()))
    ]
    best = _tolerant(rd.read_best, None)
    if best is not None:
        data.best, data.best_code = best
    if data.best is None:
        # An interrupted run may have accepted candidates but no best.json yet.
        acc = [c for c in data.accepted() if c.result.reward is not None]
        if acc:
            top = max(acc, key=lambda c: float(c.result.reward or 0.0))
            data.best = top.result
            if top.code_path is not None:
                data.best_code = top.code_path.read_text(encoding="utf-8")
    if data.best is not None:
        data.best_hash = next(
            (
                c.hash
                for c in data.candidates
                if c.result.source_hash and c.result.source_hash == data.best.source_hash
            ),
            None,
        )
        if data.best_hash is None and data.best_code is not None:
            data.best_hash = next(
                (
                    c.hash
                    for c in data.candidates
                    if c.code_path is not None
                    and c.code_path.read_text(encoding="utf-8") == data.best_code
                ),
                None,
            )
    return data


def pareto_front(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points not dominated in (area, delay), both minimized; sorted by area."""
    front: list[tuple[float, float]] = []
    for a, d in sorted(set(points)):
        if not front or d < front[-1][1]:
            front.append((a, d))
    return front
