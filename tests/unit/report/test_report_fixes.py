"""Report fixes: wall time, counterexamples with width and radix, a sane step colour bar for one
step, and the trade-off curve of the figure of merit in use (ADP or PPA product)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rtlopt.report._plots as plots
from rtlopt.report import generate_report
from rtlopt.report._cex import counterexample_lines, literal
from rtlopt.report._data import load_run, tradeoff_point
from rtlopt.results import (
    PPA,
    EvalResult,
    FormalResult,
    Mismatch,
    SimResult,
    Stage,
    Status,
    Verdict,
)
from tests.unit.report.test_report_generate import REF_CODE

REF = PPA(area_um2=100.0, delay_ps=200.0, power_uw=5.0, cells=40)


def test_literals_carry_width_and_radix() -> None:
    assert literal("01110") == "5'b01110"
    assert literal("1") == "1'b1"
    assert literal("000011110000") == "12'b0000_1111_0000 = 12'h0f0"
    assert literal("10x1") == "4'b10x1"
    assert literal("10x100001") == "9'b1_0x10_0001"
    assert literal("8'hff") == "8'hff" and literal("?") == "?"


def _sim_reject(h: str) -> EvalResult:
    return EvalResult(
        status=Status.INVALID,
        stage=Stage.SIMULATION,
        reward=1.1,
        r_syn=1.0,
        source_hash=h,
        reason="not equivalent in simulation",
        sim=SimResult(
            False,
            1300,
            5,
            Mismatch("22000 ns (vector 21)", {"vec": "0001", "en": "1"}, "pos", "01111", "01110"),
        ),
    )


def _formal_reject(h: str) -> EvalResult:
    return EvalResult(
        status=Status.INVALID,
        stage=Stage.FORMAL,
        reward=1.1,
        r_syn=1.0,
        source_hash=h,
        reason="formally not equivalent",
        sim=SimResult(True, 1300, 0),
        formal=FormalResult(
            Verdict.REFUTED,
            "sat -tempinduct -seq 8",
            counterexample={
                "cycle": "3",
                "expected q": "0110",
                "got q": "0111",
                "d@1": "1010",
                "rst@1": "0",
            },
        ),
    )


def _ok(h: str, ppa: PPA) -> EvalResult:
    return EvalResult(
        status=Status.OK,
        stage=Stage.DONE,
        reward=11.5,
        r_syn=1.0,
        r_func=1.0,
        r_ppa=1.0,
        ppa=ppa,
        source_hash=h,
        sim=SimResult(True, 1300, 0),
        formal=FormalResult(Verdict.PROVEN, "sat miter (combinational)"),
    )


def _run_dir(
    root: Path,
    cands: list[tuple[EvalResult, int]],
    *,
    metric: str = "adp",
    wall_s: float | None = None,
    step_time: float = 0.0332,
) -> Path:
    rd = root / "run"
    (rd / "candidates").mkdir(parents=True)
    info: dict[str, Any] = {
        "run_id": "r1",
        "module": "m",
        "target_file": "m.v",
        "pdk": "nangate45",
        "status": "done",
    }
    if wall_s is not None:
        info["wall_s"] = wall_s
    (rd / "run.json").write_text(json.dumps(info))
    (rd / "provenance.json").write_text(json.dumps({"metric": metric}))
    ref = EvalResult(
        status=Status.OK, stage=Stage.DONE, reward=11.1, r_syn=1.0, r_func=1.0, r_ppa=1.0, ppa=REF
    ).to_json()
    (rd / "reference.json").write_text(json.dumps({**ref, "code": REF_CODE}))
    for res, step in cands:
        (rd / "candidates" / f"{res.source_hash}.json").write_text(
            json.dumps({**res.to_json(), "step": step, "parent": 0})
        )
    steps = sorted({s for _, s in cands}) or [1]
    (rd / "steps.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "step": s,
                    "max_reward": 11.5,
                    "mean_reward": 5.0,
                    "best_reward": 11.5,
                    "best_metric": None,
                    "metric": metric,
                    "delta": 0.693,
                    "rule": "fixed",
                    "accepted": 1,
                    "rollouts": 2,
                    "tokens": 0,
                    "time_s": step_time,
                }
            )
            + "\n"
            for s in steps
        )
    )
    return rd


def test_rejected_candidates_show_labelled_counterexamples(tmp_path: Path) -> None:
    rd = _run_dir(tmp_path, [(_sim_reject("a" * 32), 1), (_formal_reject("b" * 32), 1)])
    md = generate_report(rd).markdown.read_text()
    assert "## Rejected candidates" in md
    assert "inputs vec = 4'b0001, en = 1'b1" in md
    assert "output pos: expected 5'b01111, got 5'b01110" in md
    assert "formal (sat -tempinduct -seq 8), outputs differ at cycle 3:" in md
    assert "inputs d@1 = 4'b1010, rst@1 = 1'b0" in md
    assert "output q: expected 4'b0110, got 4'b0111" in md
    rep = json.loads((rd / "report.json").read_text())
    assert {r["stage"] for r in rep["rejected"]} == {"simulation", "formal"}
    assert counterexample_lines(_ok("c" * 32, REF)) == []


def test_wall_time_is_the_run_not_the_sum_of_steps(tmp_path: Path) -> None:
    rd = _run_dir(tmp_path, [(_ok("a" * 32, REF), 1)], wall_s=6.21)
    md = generate_report(rd).markdown.read_text()
    assert "wall time 6.21 s (reference, policy loading and steps; the steps alone 0.0332 s)" in md
    rep = json.loads((rd / "report.json").read_text())
    assert rep["summary"]["wall_s"] == pytest.approx(6.21)
    other = tmp_path / "old"
    other.mkdir()
    rd = _run_dir(other, [(_ok("a" * 32, REF), 1)], wall_s=None, step_time=75.0)
    md = generate_report(rd).markdown.read_text()
    assert "time in steps 1 min 15 s (wall time not recorded" in md and "wall time 0" not in md


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Keep the figures the plot functions would save and close."""
    kept: list[Any] = []

    def keep(fig: Any, path: Path) -> Path:
        kept.append(fig)
        return path

    monkeypatch.setattr(plots, "_save", keep)
    return kept


def test_one_step_gets_one_colour_and_one_tick(tmp_path: Path, figures: list[Any]) -> None:
    cands = [(_ok(f"{i:032x}", PPA(90.0 - i, 190.0, 4.0)), 1) for i in range(3)]
    plots.plot_pareto(load_run(_run_dir(tmp_path, cands)), tmp_path / "p.png")
    (fig,) = figures
    ax, cax = fig.axes
    assert list(cax.get_yticks()) == [1.0]
    assert cax.get_ylim() == pytest.approx((0.5, 1.5))
    assert [t.get_text() for t in cax.get_yticklabels()] == ["1"]


def test_several_steps_get_whole_step_ticks(tmp_path: Path, figures: list[Any]) -> None:
    cands = [(_ok(f"{i:032x}", PPA(90.0 - i, 190.0, 4.0)), i) for i in range(1, 6)]
    plots.plot_pareto(load_run(_run_dir(tmp_path, cands)), tmp_path / "p.png")
    _, cax = figures[0].axes
    ticks = [t for t in cax.get_yticks() if 0.5 <= t <= 5.5]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert cax.get_ylim() == pytest.approx((0.5, 5.5))


@pytest.mark.parametrize("metric", ["adp", "ppa"])
def test_the_curve_is_the_figure_of_merit_in_use(
    tmp_path: Path, figures: list[Any], metric: str
) -> None:
    best = PPA(80.0, 210.0, 3.0)
    rd = _run_dir(tmp_path, [(_ok("a" * 32, best), 1)], metric=metric)
    data = load_run(rd)
    assert data.metric == metric
    plots.plot_pareto(data, tmp_path / "p.png")
    ax = figures[0].axes[0]
    (curve,) = [ln for ln in ax.get_lines() if ln.get_label().startswith("reference ")]
    assert curve.get_label() == f"reference {metric.upper()}"
    level = REF.adp if metric == "adp" else REF.ppa_product
    xs, ys = curve.get_xdata(), curve.get_ydata()
    assert all(x * y == pytest.approx(level) for x, y in zip(xs, ys, strict=True))
    # the reference and the winner sit in the same plane as the curve
    assert tradeoff_point(REF, metric) == ((100.0, 200.0) if metric == "adp" else (100.0, 1000.0))
    assert ax.get_ylabel() == ("delay (ps)" if metric == "adp" else "delay × power (ps·µW)")
