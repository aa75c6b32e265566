"""The run report as JSON (``report.json``): the run's summary, the reference and the best design
with their PPA and proof, the top and the rejected candidates, and why rollouts were rejected."""

from __future__ import annotations

import json
import logging
import math
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rtlopt.report._cex import counterexample_lines
from rtlopt.report._data import Candidate, RunData, pareto_front, tradeoff_point
from rtlopt.results import PPA, EvalResult
from rtlopt.shown import md_code

log = logging.getLogger("rtlopt.report._report")


TOP_CANDIDATES = 10
"""Rows of the top-candidates table."""

REJECTED_SHOWN = 5
"""Rejected candidates whose counterexample the report shows."""


def _clean(v: Any) -> Any:
    """JSON-safe copy: non-finite floats become ``None``."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, Mapping):
        return {str(k): _clean(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_clean(x) for x in v]
    return v


def _ppa_json(ppa: PPA | None, kind: str) -> dict[str, Any] | None:
    if ppa is None:
        return None
    return {
        "area_um2": ppa.area_um2,
        "delay_ps": ppa.delay_ps,
        "power_uw": ppa.power_uw,
        "adp": ppa.adp,
        "ppa_product": ppa.ppa_product,
        "metric": ppa.ppa_product if kind == "ppa" else ppa.adp,
    }


def _ratio(new: float | None, old: float | None) -> float | None:
    if new is None or old is None or old == 0:
        return None
    return new / old


def _formal_json(res: EvalResult | None) -> dict[str, Any] | None:
    if res is None:
        return None
    f, sim = res.formal, res.sim
    return {
        "verdict": f.verdict.value if f else "not run",
        "method": f.method if f else "simulation only",
        "reason": f.reason if f else "",
        "sim_vectors": sim.vectors if sim else None,
        "sim_mismatches": sim.mismatches if sim else None,
        "sim_classes": dict(sim.classes) if sim else {},
    }


def _name(c: Mapping[str, Any]) -> str:
    """A candidate as the report names it: its file (``--candidates``) and hash, or its hash."""
    h = md_code(str(c["hash"])[:12])
    return f"{md_code(str(c['source']))} ({h})" if c.get("source") else h


def _candidate_row(c: Candidate, kind: str, ref_metric: float | None) -> dict[str, Any]:
    r = c.result
    m = c.metric(kind)
    return {
        "hash": c.hash,
        "source": c.source,
        "step": c.step,
        "parent": c.parent,
        "status": r.status.value,
        "stage": r.stage.value,
        "accepted": r.accepted,
        "reward": r.reward,
        "ppa": _ppa_json(r.ppa, kind),
        "metric": m,
        "ratio": _ratio(m, ref_metric),
        "verdict": r.formal.verdict.value if r.formal else None,
        "reason": r.reason,
    }


def _top(data: RunData) -> list[Candidate]:
    rewarded = [c for c in data.candidates if c.result.reward is not None]
    rewarded.sort(
        key=lambda c: (
            not c.result.accepted,
            -float(c.result.reward or 0.0),
            c.step if c.step is not None else 0,
            c.hash,
        )
    )
    return rewarded[:TOP_CANDIDATES]


def _rejected(data: RunData) -> list[Candidate]:
    """Rejected candidates with a counterexample, most promising (highest reward) first."""
    bad = [c for c in data.candidates if not c.result.accepted and counterexample_lines(c.result)]
    bad.sort(
        key=lambda c: (-float(c.result.reward or 0.0), c.step if c.step is not None else 0, c.hash)
    )
    return bad[:REJECTED_SHOWN]


def _duration(seconds: float | None) -> str:
    """``6.1 s``, ``2 min 05 s``, ``1 h 03 min``."""
    if seconds is None:
        return "-"
    if seconds < 60:
        return f"{seconds:.3g} s" if seconds < 10 else f"{seconds:.0f} s"
    m, s = divmod(int(round(seconds)), 60)
    if m < 60:
        return f"{m} min {s:02d} s"
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min"


def _summary(data: RunData) -> dict[str, Any]:
    steps = data.steps

    def total(key: str) -> float | None:
        vals = [r.get(key) for r in steps]
        nums = [float(v) for v in vals if isinstance(v, int | float) and not isinstance(v, bool)]
        return sum(nums) if nums else None

    last = steps[-1] if steps else {}
    wall = data.run.get("wall_s")
    return {
        "steps_done": len(steps),
        "steps_configured": data.configured_steps,
        "last_step": last.get("step"),
        "best_reward": last.get("best_reward"),
        "best_metric": last.get("best_metric"),
        "rollouts": total("rollouts"),
        "accepted": total("accepted"),
        "tokens": total("tokens"),
        "time_s": total("time_s"),
        "wall_s": float(wall) if isinstance(wall, int | float) else None,
        "candidates": len(data.candidates),
        "accepted_candidates": len(data.accepted()),
    }


def build_report_json(data: RunData, plots: Mapping[str, Path]) -> dict[str, Any]:
    """The machine-readable report: the step records verbatim plus summaries."""
    kind = data.metric
    ref_metric = data.reference_metric
    best = data.best
    best_metric = None
    if best is not None and best.ppa is not None:
        best_metric = best.ppa.ppa_product if kind == "ppa" else best.ppa.adp
    ratio = _ratio(best_metric, ref_metric)
    acc = data.accepted()
    # the trade-off plane of the figure of merit: area vs delay (ADP), vs delay*power (PPA)
    points = {c.hash: tradeoff_point(c.result.ppa, kind) for c in acc}
    front = pareto_front([p for p in points.values() if p is not None])
    on_front = [h for h, p in points.items() if p is not None and p in front]
    prov = data.provenance
    rep: dict[str, Any] = _clean(
        {
            "run": data.run,
            "module": data.module,
            "status": data.status,
            "metric": kind,
            "reference": {
                "reward": data.reference_reward,
                "ppa": _ppa_json(data.reference.ppa if data.reference else None, kind),
                "metric": ref_metric,
            },
            "best": None
            if best is None
            else {
                "hash": data.best_hash,
                "reward": best.reward,
                "ppa": _ppa_json(best.ppa, kind),
                "metric": best_metric,
                "ratio": ratio,
                "improvement_pct": None if ratio is None else 100.0 * (1.0 - ratio),
                "equivalence": _formal_json(best),
            },
            "summary": _summary(data),
            "steps": data.steps,
            "top_candidates": [_candidate_row(c, kind, ref_metric) for c in _top(data)],
            "rejected": [
                {
                    "hash": c.hash,
                    "source": c.source,
                    "step": c.step,
                    "stage": c.result.stage.value,
                    "reason": c.result.reason,
                    "counterexample": counterexample_lines(c.result),
                    "waveform": _trace_link(data.path, c.result.logs.get("trace_vcd")),
                }
                for c in _rejected(data)
            ],
            "rollouts": rollout_reasons(data.path),
            "pareto": on_front,
            "delta_schedule": data.delta_schedule,
            "tools": prov.get("tools", {}),
            "flow": prov.get("flow", {}),
            "seed": prov.get("seed"),
            "command": prov.get("command") or data.run.get("command"),
            "plots": {k: p.name for k, p in plots.items()},
        }
    )
    return rep


def _reason_key(reason: str) -> str:
    """A reason without its numbers and paths, so that rollouts failing alike count together."""
    first = (reason or "").strip().splitlines()[0] if (reason or "").strip() else ""
    first = re.sub(r"(/[^\s:]+)+", "<path>", first)
    return re.sub(r"\d+(\.\d+)?", "N", first)[:120]


def rollout_reasons(run_dir: Path, top: int = 8) -> dict[str, Any] | None:
    """Every rollout of ``rollouts.jsonl`` counted by how far it got (status at stage) and the
    most common reasons; None for runs that kept no rollout log."""
    path = run_dir / "rollouts.jsonl"
    if not path.is_file():
        return None
    outcomes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    n = 0
    for line in path.read_text(errors="replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue  # a line cut by a kill
        n += 1
        outcomes[f"{row.get('status')} at {row.get('stage')}"] += 1
        if row.get("status") != "ok":
            reasons[_reason_key(str(row.get("reason") or ""))] += 1
    return {
        "count": n,
        "outcomes": dict(outcomes.most_common()),
        "reasons": [{"reason": r, "count": c} for r, c in reasons.most_common(top)],
        "file": path.name,
    }


def _trace_link(run_dir: Path, vcd: str | None) -> str | None:
    """A counterexample VCD relative to the run directory (where report.md is), or None when
    there is none or it is gone."""
    if not vcd or not Path(vcd).is_file():
        return None
    p = Path(vcd).resolve()
    try:
        return p.relative_to(Path(run_dir).resolve()).as_posix()
    except ValueError:
        return str(p)
