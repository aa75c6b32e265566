"""Reading a run directory, tolerant of interrupted runs.

Everything the report shows comes from the files the run loop writes (see
docs/ARCHITECTURE.md): ``run.json``, ``config.toml``, ``provenance.json``, ``reference.json``,
``steps.jsonl``, ``candidates/<hash>.{v,json}``, ``best.{v,json}``. Any of them may be missing
or, for ``steps.jsonl``, end in a torn line; the report then says what it does not know.
"""

from __future__ import annotations

import json
import logging
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.config import RewardConfig
from rtlopt.evaluate.result import PPA, EvalResult

__all__ = ["Candidate", "RunData", "load_run", "pareto_front"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    """One evaluated candidate of the run.

    Attributes:
        hash: File stem in ``candidates/``.
        result: Its evaluation.
        step: Step that produced it (``None`` if not recorded).
        parent: Id of the pool state it was generated from.
        code_path: The candidate's Verilog file, if present.
    """

    hash: str
    result: EvalResult
    step: int | None
    parent: int | None
    code_path: Path | None

    def metric(self, kind: str) -> float | None:
        """The figure of merit, or ``None`` without PPA (or without power for ``ppa``)."""
        ppa = self.result.ppa
        if ppa is None:
            return None
        if kind == "ppa":
            return ppa.ppa_product
        return ppa.adp


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
        return (float(weights.get("w_syn", d.w_syn)) + float(weights.get("w_func", d.w_func))
                + float(weights.get("w_ppa", d.w_ppa)))

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


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, json.JSONDecodeError) as exc:
        log.warning("cannot read %s: %s", path, exc)
        return None


def _result(data: Any, where: Path) -> EvalResult | None:
    if not isinstance(data, Mapping):
        return None
    try:
        return EvalResult.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        log.warning("cannot read the evaluation result in %s: %s", where, exc)
        return None


def _read_steps(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    by_step: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            log.info("skipping a torn line of %s", path)
            continue
        if isinstance(rec, dict) and isinstance(rec.get("step"), int):
            by_step[rec["step"]] = rec  # a resumed run's redo replaces the earlier record
    return [by_step[k] for k in sorted(by_step)]


def _opt_int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def load_run(run_dir: Path) -> RunData:
    """Read a run directory; missing or broken files leave their parts empty."""
    run_dir = Path(run_dir)
    data = RunData(path=run_dir)
    run = _read_json(run_dir / "run.json")
    data.run = run if isinstance(run, dict) else {}
    cfg_path = run_dir / "config.toml"
    if cfg_path.exists():
        try:
            data.config = tomllib.loads(cfg_path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            log.warning("cannot read %s: %s", cfg_path, exc)
    prov = _read_json(run_dir / "provenance.json")
    data.provenance = prov if isinstance(prov, dict) else {}
    ref = _read_json(run_dir / "reference.json")
    data.reference = _result(ref, run_dir / "reference.json")
    if isinstance(ref, dict):
        data.reference_code = str(ref.get("code", ""))
    data.steps = _read_steps(run_dir / "steps.jsonl")
    cand_dir = run_dir / "candidates"
    if cand_dir.is_dir():
        for jpath in sorted(cand_dir.glob("*.json")):
            raw = _read_json(jpath)
            res = _result(raw, jpath)
            if res is None or not isinstance(raw, dict):
                continue
            vpath = jpath.with_suffix(".v")
            data.candidates.append(Candidate(
                hash=jpath.stem, result=res, step=_opt_int(raw.get("step")),
                parent=_opt_int(raw.get("parent")), code_path=vpath if vpath.exists() else None))
    best = _read_json(run_dir / "best.json")
    data.best = _result(best, run_dir / "best.json")
    if data.best is not None and (run_dir / "best.v").exists():
        data.best_code = (run_dir / "best.v").read_text(encoding="utf-8")
    if data.best is None:
        # An interrupted run may have accepted candidates but no best.json yet.
        acc = [c for c in data.accepted() if c.result.reward is not None]
        if acc:
            top = max(acc, key=lambda c: float(c.result.reward or 0.0))
            data.best = top.result
            if top.code_path is not None:
                data.best_code = top.code_path.read_text(encoding="utf-8")
    if data.best is not None:
        data.best_hash = next((c.hash for c in data.candidates
                               if c.result.source_hash and
                               c.result.source_hash == data.best.source_hash), None)
        if data.best_hash is None and data.best_code is not None:
            data.best_hash = next((c.hash for c in data.candidates if c.code_path is not None
                                   and c.code_path.read_text(encoding="utf-8") == data.best_code),
                                  None)
    return data


def pareto_front(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points not dominated in (area, delay), both minimized; sorted by area."""
    front: list[tuple[float, float]] = []
    for a, d in sorted(set(points)):
        if not front or d < front[-1][1]:
            front.append((a, d))
    return front
