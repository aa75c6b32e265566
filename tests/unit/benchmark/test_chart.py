"""Tables and the per-design chart."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rtlopt.benchmark import PAPER_METHODS, BenchRow, load_paper_table4, read_rows_csv
from rtlopt.benchmark.chart import plot_ratios, write_tables
from rtlopt.errors import UsageError


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_chart_of_paper_table(tmp_path: Path) -> None:
    rows = load_paper_table4()
    full = plot_ratios(rows, tmp_path / "a" / "all.png", PAPER_METHODS, title="Table 4", dpi=40)
    small = plot_ratios(rows[:4], tmp_path / "small.png", ["TTT-RTL"], dpi=40)
    w_full, h_full = _png_size(full)
    w_small, _ = _png_size(small)
    assert w_full > w_small  # the figure widens with the number of designs
    assert w_full > 2 * h_full


def test_chart_nothing_to_draw(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        plot_ratios([], tmp_path / "x.png")
    rows = [BenchRow("a", 1.0, {"x": None, "y": 0.5})]
    with pytest.raises(UsageError):
        plot_ratios(rows, tmp_path / "x.png", common_only=True)
    assert _png_size(plot_ratios(rows, tmp_path / "x.png"))[0] > 0


def test_write_tables(tmp_path: Path) -> None:
    rows = [
        BenchRow("accu", 82040.8, {"rtlopt": 0.8, "TTT-RTL": 0.76}, status="ok"),
        BenchRow(
            "alu",
            3192539.6,
            {"rtlopt": None, "TTT-RTL": 0.241},
            status="failed",
            detail="no equivalent | candidate",
        ),
    ]
    t = write_tables(rows, tmp_path / "out", "rtlopt")
    md = t.markdown.read_text()
    assert "| design | ref metric | best ratio (rtlopt) | status | TTT-RTL |" in md
    assert "| accu | 82040.8 | 0.800 | ok | 0.760 |" in md
    assert "| alu | 3192539.6 | – | failed (no equivalent / candidate) | 0.241 |" in md
    assert "## Summary" in md and "| rtlopt | 1/2 |" in md
    with t.csv.open() as f:
        header = next(csv.reader(f))
    assert header[:4] == ["design", "ref_metric", "rtlopt", "TTT-RTL"]
    back = read_rows_csv(t.csv)
    assert back[1].ratio("rtlopt") is None and back[1].status == "failed"
    assert back[0].ratio("TTT-RTL") == pytest.approx(0.76)
