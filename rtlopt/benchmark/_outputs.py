"""A bench's output files: the per-design rows, the CSV and markdown tables with the paper's
summary, the ratio chart, ``results.json`` and a reference-only pass's tables."""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.benchmark._results import DesignResult, ReferenceResult
from rtlopt.benchmark.chart import plot_ratios, write_tables
from rtlopt.benchmark.summary import BenchRow, BenchSummary, compare, summarize
from rtlopt.errors import UsageError
from rtlopt.rundir import write_json

log = logging.getLogger("rtlopt.benchmark._runner")


def reference_rows(results: Sequence[ReferenceResult]) -> list[BenchRow]:
    """Bench rows (no method columns) of a reference-only pass."""
    return [BenchRow(r.design, r.ref_metric, {}, r.status, r.detail) for r in results]


def bench_rows(results: Sequence[DesignResult], method: str = "rtlopt") -> list[BenchRow]:
    """Bench rows with one method column (``method``) holding each design's ratio."""
    rows = []
    for r in results:
        detail = r.detail
        if r.suite_tb and not r.suite_tb.startswith("passed"):
            detail = f"{detail}; suite tb {r.suite_tb}" if detail else f"suite tb {r.suite_tb}"
        rows.append(BenchRow(r.design, r.ref_metric, {method: r.ratio}, r.status, detail))
    return rows


@dataclass(frozen=True)
class BenchOutputs:
    """Files and summary of a finished bench."""

    rows: list[BenchRow]
    summary: BenchSummary
    csv: Path
    markdown: Path
    chart: Path | None
    results_json: Path


def write_bench_outputs(
    results: Sequence[DesignResult],
    out_dir: Path,
    method: str = "rtlopt",
    compare_rows: Sequence[BenchRow] | None = None,
    title: str | None = None,
) -> BenchOutputs:
    """Write the per-design CSV/markdown tables (with the paper's summary) and the chart.

    Args:
        results: Per-design results.
        out_dir: Bench output folder.
        method: Column name of our ratios.
        compare_rows: Other methods' per-design ratios (merged as extra columns).
        title: Chart title.
    """
    rows = bench_rows(results, method)
    if compare_rows is not None:
        rows = compare(rows, compare_rows)
    tables = write_tables(rows, out_dir, method)
    methods = [method, *[m for r in rows[:1] for m in r.ratios if m != method]]
    summary = summarize(rows, methods)
    chart: Path | None = None
    if any(r.ratio(m) is not None for r in rows for m in methods):
        try:
            chart = plot_ratios(rows, out_dir / "ratios.png", methods, title=title)
        except (ImportError, UsageError) as exc:
            log.warning("no chart: %s", exc)
    results_json = out_dir / "results.json"
    write_json(results_json, [r.to_json() for r in results])
    return BenchOutputs(rows, summary, tables.csv, tables.markdown, chart, results_json)


def write_reference_tables(
    results: Sequence[ReferenceResult], out_dir: Path, stem: str = "references"
) -> tuple[Path, Path]:
    """Write a reference-only pass as CSV and markdown; returns ``(csv, md)``."""
    cols = [
        "design",
        "status",
        "area_um2",
        "delay_ps",
        "power_uw",
        "metric",
        "ref_metric",
        "seconds",
        "detail",
    ]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)

    def g(x: float | None) -> str:
        return "" if x is None else f"{x:.6g}"

    lines = [
        "| design | status | area (um^2) | delay (ps) | power (uW) | metric | detail |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in results:
        w.writerow(
            [
                r.design,
                r.status,
                g(r.area_um2),
                g(r.delay_ps),
                g(r.power_uw),
                r.metric,
                g(r.ref_metric),
                f"{r.seconds:.2f}",
                r.detail,
            ]
        )
        lines.append(
            f"| {r.design} | {r.status} | {g(r.area_um2)} | {g(r.delay_ps)} | "
            f"{g(r.power_uw)} | {g(r.ref_metric)} | {r.detail.replace('|', '/')} |"
        )
    n_ok = sum(1 for r in results if r.measurable)
    lines += ["", f"{n_ok}/{len(results)} designs measurable."]
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out_dir / f"{stem}.csv", out_dir / f"{stem}.md"
    csv_path.write_text(buf.getvalue())
    md_path.write_text("\n".join(lines) + "\n")
    return csv_path, md_path
