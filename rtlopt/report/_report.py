"""report.md, report.json and the plots of one run directory."""

from __future__ import annotations

import difflib
import json
import logging
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rtlopt.config import TRAINING_BACKENDS
from rtlopt.report._cex import counterexample_lines
from rtlopt.report._data import Candidate, RunData, load_run, pareto_front, tradeoff_point
from rtlopt.report._learning import learning_section
from rtlopt.report._plots import plot_kl_budget, plot_metric, plot_pareto, plot_rewards
from rtlopt.results import PPA, EvalResult
from rtlopt.rundir import RunDir, atomic_write
from rtlopt.shown import md_code, md_text

__all__ = ["TOP_CANDIDATES", "ReportPaths", "build_report_json", "generate_report"]

log = logging.getLogger(__name__)

TOP_CANDIDATES = 10
"""Rows of the top-candidates table."""

REJECTED_SHOWN = 5
"""Rejected candidates whose counterexample the report shows."""

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


# ------------------------------------------------------------------------ markdown


def _fmt(x: Any, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        if not math.isfinite(x):
            return "-"
        return f"{x:,.0f}" if abs(x) >= 1e4 else f"{x:.{digits}g}"
    return str(x)


def _pct(new: float | None, old: float | None) -> str:
    r = _ratio(new, old)
    return "-" if r is None else f"{100.0 * (r - 1.0):+.1f} %"


def _md_table(header: list[str], rows: list[list[str]], align: str) -> list[str]:
    out = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|",
    ]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _flat(d: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = []
    for k, v in d.items():
        if isinstance(v, Mapping):
            rows.extend(_flat(v, f"{prefix}{k}."))
        else:
            rows.append((f"{prefix}{k}", v))
    return rows


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


def _cell(v: Any) -> str:
    """A value as inert Markdown text, also in a table cell (``rtlopt.shown.md_text``)."""
    return md_text(v)


def _fenced(lang: str, body: str) -> list[str]:
    """A fenced block that no backtick line in ``body`` (a candidate's code) can close."""
    runs = [len(r) for r in re.findall("`{3,}", body)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return [f"{fence}{lang}", body, fence]


def _diff(data: RunData) -> str:
    if data.best_code is None or not data.reference_code:
        return ""
    name = data.module
    lines = difflib.unified_diff(
        data.reference_code.splitlines(keepends=True),
        data.best_code.splitlines(keepends=True),
        fromfile=f"reference/{name}.v",
        tofile=f"optimized/{name}.v",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _trainable(data: RunData) -> bool:
    """Whether the run's policy learns (its recorded configuration: a training backend and a
    positive learning rate)."""
    policy, train = data.config.get("policy", {}), data.config.get("train", {})
    return policy.get("backend", "transformers") in TRAINING_BACKENDS and (
        float(train.get("learning_rate", 1.0)) > 0
    )


def _markdown(data: RunData, rep: dict[str, Any], plots: Mapping[str, Path]) -> str:
    out = [
        *_md_header(data, rep),
        *_md_result(data, rep),
        *_md_progress(data, plots),
        *learning_section(data.steps, _trainable(data)),
        *_md_top(data, rep),
        *_md_rejected(rep),
        *_md_flow(data, rep),
    ]
    return "\n".join(out)


def _md_header(data: RunData, rep: dict[str, Any]) -> list[str]:
    kind = data.metric
    s = rep["summary"]
    out = [f"# rtlopt report: {md_code(data.module)}", ""]
    steps_txt = f"{s['steps_done']}" + (
        f" of {s['steps_configured']}" if s["steps_configured"] else ""
    )
    out += [
        f"- Run: {md_code(data.run.get('run_id', data.path.name))}, "
        f"status **{md_text(data.status)}**, "
        f"{steps_txt} steps",
        f"- Target: {md_code(data.run.get('target_file', '?'))}, "
        f"PDK {md_code(data.run.get('pdk', '?'))}, "
        f"figure of merit **{kind.upper()}**",
        f"- Rollouts {_fmt(s['rollouts'])}, accepted {_fmt(s['accepted'])}, "
        f"tokens {_fmt(s['tokens'])}, "
        + (
            f"wall time {_duration(s['wall_s'])} (reference, policy loading and steps; "
            f"the steps alone {_duration(s['time_s'])})"
            if s["wall_s"] is not None
            else f"time in steps {_duration(s['time_s'])} (wall time not recorded: the run "
            "did not finish a session)"
        ),
        "",
    ]
    if data.status in ("running", "interrupted"):
        out += [
            f"> The run is **{data.status}**: this report covers the steps recorded so far.",
            "",
        ]
    return out


def _md_result(data: RunData, rep: dict[str, Any]) -> list[str]:
    kind = data.metric
    ref = data.reference.ppa if data.reference else None
    best = data.best
    out: list[str] = []
    out += ["## Result", ""]
    if best is None or best.ppa is None:
        out += ["No candidate has passed every equivalence gate yet: the module is unchanged.", ""]
        if ref is not None:
            power = f", power {_fmt(ref.power_uw)} µW" if ref.power_uw is not None else ""
            out += [
                f"Reference: area {_fmt(ref.area_um2)} µm², delay {_fmt(ref.delay_ps)} ps"
                f"{power}, {kind.upper()} {_fmt(rep['reference']['metric'])}, "
                f"reward {_fmt(data.reference_reward)}.",
                "",
            ]
    else:
        b = best.ppa
        rows = [
            [
                "area (µm²)",
                _fmt(ref.area_um2 if ref else None),
                _fmt(b.area_um2),
                _pct(b.area_um2, ref.area_um2 if ref else None),
            ],
            [
                "delay (ps)",
                _fmt(ref.delay_ps if ref else None),
                _fmt(b.delay_ps),
                _pct(b.delay_ps, ref.delay_ps if ref else None),
            ],
        ]
        if b.power_uw is not None or (ref is not None and ref.power_uw is not None):
            rows.append(
                [
                    "power (µW)",
                    _fmt(ref.power_uw if ref else None),
                    _fmt(b.power_uw),
                    _pct(b.power_uw, ref.power_uw if ref else None),
                ]
            )
        rows.append(
            [
                f"**{kind.upper()}**",
                _fmt(rep["reference"]["metric"]),
                _fmt(rep["best"]["metric"]),
                f"**{_pct(rep['best']['metric'], rep['reference']['metric'])}**",
            ]
        )
        rows.append(["reward", _fmt(data.reference_reward), _fmt(best.reward), ""])
        out += _md_table(["metric", "reference", "best", "change"], rows, "lrrr") + [""]
        eq = rep["best"]["equivalence"]
        out += [
            "### Equivalence",
            "",
            f"- Formal: **{md_text(eq['verdict'])}** ({md_text(eq['method'])})"
            + (f": {md_text(eq['reason'])}" if eq["reason"] else ""),
            f"- Simulation: {_fmt(eq['sim_vectors'])} vectors, "
            f"{_fmt(eq['sim_mismatches'])} mismatches"
            + (
                " (" + ", ".join(f"{k} {v}" for k, v in eq["sim_classes"].items()) + ")"
                if eq["sim_classes"]
                else ""
            ),
            "",
        ]
    return out


def _md_progress(data: RunData, plots: Mapping[str, Path]) -> list[str]:
    kind = data.metric
    out: list[str] = []
    out += ["## Progress", ""]
    titles = {
        "rewards": "Reward trajectory",
        "metric": f"Best {kind.upper()}",
        "pareto": "Area vs delay",
        "kl_budget": "KL budget",
    }
    for key, p in plots.items():
        out += [f"![{titles[key]}]({p.name})", ""]
    restarts = [str(r["step"]) for r in data.steps if r.get("restart")]
    if restarts:
        out += [
            f"Restarted from the reference after stagnation at step{'s' * (len(restarts) > 1)} "
            f"{', '.join(restarts)} (`reflect.restart_after` steps in a row failing the same "
            "way without improving).",
            "",
        ]
    if data.steps:
        rows = [
            [
                str(r["step"]),
                _fmt(r.get("max_reward")),
                _fmt(r.get("mean_reward")),
                _fmt(r.get("best_reward")),
                _fmt(r.get("best_metric")),
                _fmt(r.get("delta"), 3),
                str(r.get("rule", "")),
                f"{_fmt(r.get('accepted'))}/{_fmt(r.get('rollouts'))}",
            ]
            for r in data.steps
        ]
        out += ["<details><summary>Per-step numbers</summary>", ""]
        out += _md_table(
            [
                "step",
                "max reward",
                "mean reward",
                "best reward",
                f"best {kind.upper()}",
                "δ",
                "rule",
                "accepted",
            ],
            rows,
            "rrrrrrlr",
        )
        out += ["", "</details>", ""]
    else:
        out += ["No step has been recorded yet.", ""]
    return out


def _md_top(data: RunData, rep: dict[str, Any]) -> list[str]:
    kind = data.metric
    out: list[str] = []
    top = rep["top_candidates"]
    ro = rep.get("rollouts")
    if ro:
        out += ["## Rollouts", ""]
        out += [
            f"{ro['count']} rollouts, each kept in {md_code(ro['file'])} (answer, stage reached, "
            "reason). How far they got:",
            "",
        ]
        out += _md_table(
            ["outcome", "rollouts"], [[k, str(v)] for k, v in ro["outcomes"].items()], "lr"
        )
        if ro["reasons"]:
            out += ["", "Most common reasons (numbers and paths blurred):", ""]
            out += _md_table(
                ["reason", "rollouts"],
                [[_cell(r["reason"] or "(none given)"), str(r["count"])] for r in ro["reasons"]],
                "lr",
            )
        out += [""]
    if top:
        out += ["## Top candidates", ""]
        rows = []
        for c in top:
            ppa = c["ppa"] or {}
            rows.append(
                [
                    _name(c),
                    _fmt(c["step"]),
                    _fmt(c["reward"]),
                    "yes" if c["accepted"] else f"no ({md_text(c['stage'])})",
                    _fmt(ppa.get("area_um2")),
                    _fmt(ppa.get("delay_ps")),
                    _fmt(c["metric"]),
                    _pct(c["metric"], rep["reference"]["metric"]),
                    md_text(c["verdict"] or "-"),
                ]
            )
        out += _md_table(
            [
                "candidate",
                "step",
                "reward",
                "accepted",
                "area (µm²)",
                "delay (ps)",
                kind.upper(),
                "vs reference",
                "formal",
            ],
            rows,
            "lrrlrrrrl",
        ) + [""]
    return out


def _md_rejected(rep: dict[str, Any]) -> list[str]:
    out: list[str] = []
    rejected = rep["rejected"]
    if rejected:
        out += [
            "## Rejected candidates",
            "",
            "Counterexamples of the rejected candidates with the highest reward (values as "
            "Verilog literals: width, radix, digits).",
            "",
        ]
        for c in rejected:
            out += [
                f"- {_name(c)} (step {_fmt(c['step'])}), rejected at "
                f"**{_cell(c['stage'])}**: {_cell(c['reason'])}"
            ]
            out += [f"  - {_cell(line)}" for line in c["counterexample"]]
            if c.get("waveform"):
                link = quote(str(c["waveform"]), safe="/._-")
                out += [f"  - waveform: [{_cell(c['waveform'])}]({link})"]
        out += [""]
    return out


def _md_flow(data: RunData, rep: dict[str, Any]) -> list[str]:
    out: list[str] = []
    diff = _diff(data)
    if diff:
        out += ["## Module diff", "", *_fenced("diff", diff.rstrip("\n")), ""]
    out += ["## Flow and tools", ""]
    tools = rep["tools"]
    if tools:
        out += _md_table(
            ["tool", "version"], [[_cell(k), md_code(v)] for k, v in tools.items()], "ll"
        ) + [""]
    flow = rep["flow"]
    if isinstance(flow, Mapping) and flow:
        items = _flat(flow)
        short = [(k, v) for k, v in items if not (isinstance(v, str) and "\n" in v)]
        scripts = [(k, v) for k, v in items if isinstance(v, str) and "\n" in v]
        if short:
            out += _md_table(
                ["flow setting", "value"], [[_cell(k), md_code(v)] for k, v in short], "ll"
            ) + [""]
        for k, v in scripts:
            out += [
                f"<details><summary>{md_text(k)}</summary>",
                "",
                *_fenced("tcl", v.rstrip("\n")),
                "",
                "</details>",
                "",
            ]
    extra = [("seed", rep["seed"]), ("KL budget", data.delta_schedule), ("command", rep["command"])]
    out += [f"- {k}: {md_code(v)}" for k, v in extra if v is not None]
    out += [
        "",
        "Ratios compare designs measured in this one flow; absolute numbers depend on "
        "the tool versions above.",
        "",
    ]
    return out


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
