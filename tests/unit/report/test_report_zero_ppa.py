"""A winner of no cost (a pure-wire rewrite: no cells, no area, no delay) is plotted and
reported: the reference's iso-metric curve is drawn where the area is positive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rtlopt.report._plots as plots
from rtlopt.report import generate_report
from rtlopt.report._data import load_run
from rtlopt.results import PPA
from tests.unit.report.test_report_fixes import REF, _ok, _run_dir

WIRE = PPA(area_um2=0.0, delay_ps=0.0, power_uw=0.0, cells=0)


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    kept: list[Any] = []

    def keep(fig: Any, path: Path) -> Path:
        kept.append(fig)
        return path

    monkeypatch.setattr(plots, "_save", keep)
    return kept


@pytest.mark.parametrize("metric", ["adp", "ppa"])
def test_a_winner_of_no_area_keeps_the_curve_positive(
    tmp_path: Path, figures: list[Any], metric: str
) -> None:
    rd = _run_dir(tmp_path, [(_ok("a" * 32, WIRE), 1)], metric=metric)
    plots.plot_pareto(load_run(rd), tmp_path / "p.png")
    ax = figures[0].axes[0]
    (curve,) = [ln for ln in ax.get_lines() if ln.get_label().startswith("reference ")]
    level = REF.adp if metric == "adp" else REF.ppa_product
    xs, ys = curve.get_xdata(), curve.get_ydata()
    assert min(xs) > 0
    assert all(x * y == pytest.approx(level) for x, y in zip(xs, ys, strict=True))


def test_iso_curve_without_a_positive_area_is_left_out(figures: list[Any]) -> None:
    plt = plots._pyplot()
    fig, ax = plt.subplots()
    plots._reference_and_iso_curve(ax, (0.0, 0.0), [(0.0, 0.0)], "adp")
    assert [ln.get_label() for ln in ax.get_lines()] == []
    plt.close(fig)


def test_the_report_of_a_pure_wire_winner_is_written(tmp_path: Path) -> None:
    rd = _run_dir(tmp_path, [(_ok("a" * 32, WIRE), 1)])
    md = generate_report(rd).markdown.read_text()
    assert "## " in md
