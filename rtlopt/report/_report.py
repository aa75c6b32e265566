"""report.md, report.json and the plots of one run directory."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rtlopt.report._data import RunData, load_run
from rtlopt.report._json import TOP_CANDIDATES
from rtlopt.report._json import build_report_json as build_report_json
from rtlopt.report._markdown import _markdown
from rtlopt.report._markdown import _md_rejected as _md_rejected
from rtlopt.report._plots import plot_kl_budget, plot_metric, plot_pareto, plot_rewards
from rtlopt.rundir import RunDir, atomic_write

__all__ = ["TOP_CANDIDATES", "ReportPaths", "build_report_json", "generate_report"]

log = logging.getLogger(__name__)

_PLOT_FILES = {
    "rewards": "rewards.png",
    "metric": "metric.png",
    "pareto": "pareto.png",
    "kl_budget": "kl_budget.png",
}


@dataclass(frozen=True)
class ReportPaths:
    """Files written by :func:`generate_report`.

    Attributes:
        markdown: report.md.
        json: report.json.
        plots: The PNG files, in the order the report shows them.
    """

    markdown: Path
    json: Path
    plots: tuple[Path, ...]


def generate_report(run_dir: Path) -> ReportPaths:
    """Write report.md, report.json and the PNG plots into ``run_dir``.

    Works on finished, running and interrupted runs (partial steps.jsonl, no best.json).
    A plot that fails to render is logged and left out; the text reports are always written.
    """
    rd = RunDir(Path(run_dir))
    data = load_run(rd.path)
    jobs: dict[str, Callable[[RunData, Path], Path]] = {}
    if data.steps:
        jobs["rewards"] = plot_rewards
        jobs["metric"] = plot_metric
    if data.accepted() or (data.reference is not None and data.reference.ppa is not None):
        jobs["pareto"] = plot_pareto
    deltas = {r.get("delta") for r in data.steps}
    if data.steps and (data.delta_schedule != "fixed" or len(deltas) > 1):
        jobs["kl_budget"] = plot_kl_budget
    plots: dict[str, Path] = {}
    for key, fn in jobs.items():
        target = rd.plot(_PLOT_FILES[key])
        try:
            plots[key] = fn(data, target)
        except (ValueError, RuntimeError, OSError) as exc:
            log.warning("plot %s failed: %s", target.name, exc)
    rep = build_report_json(data, plots)
    atomic_write(rd.report_json, json.dumps(rep, indent=2, allow_nan=False) + "\n")
    atomic_write(rd.report_md, _markdown(data, rep, plots))
    log.info("report written to %s", rd.report_md)
    return ReportPaths(markdown=rd.report_md, json=rd.report_json, plots=tuple(plots.values()))
