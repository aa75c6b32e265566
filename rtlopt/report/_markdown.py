"""The run report in markdown (``report.md``): the header, the result against the reference, the
progress plots, the top and the rejected candidates, and the flow's settings."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rtlopt.config import TRAINING_BACKENDS
from rtlopt.report._data import RunData
from rtlopt.report._json import _duration, _name, _ratio
from rtlopt.report._json import build_report_json as build_report_json
from rtlopt.report._learning import learning_section
from rtlopt.shown import md_code, md_text


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
