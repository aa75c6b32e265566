"""Benchmark tables (CSV + markdown) and the per-design ratio chart of the paper's figure 2.

matplotlib is imported lazily (Agg backend) so that the rest of the package works without it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.benchmark.summary import BenchRow, summarize, summary_markdown, write_rows_csv
from rtlopt.errors import UsageError

__all__ = ["BenchTables", "plot_ratios", "write_tables"]

log = logging.getLogger(__name__)

# Colour-blind-safe palette (Okabe-Ito), one colour per method in order.
_COLORS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")


def _methods(rows: Sequence[BenchRow], methods: Sequence[str] | None) -> list[str]:
    if methods is not None:
        return list(methods)
    seen: dict[str, None] = {}
    for r in rows:
        for m in r.ratios:
            seen.setdefault(m, None)
    return list(seen)


def _geomean(values: Sequence[float]) -> float | None:
    if not values:
        return None
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def plot_ratios(
    rows: Sequence[BenchRow],
    out_png: Path,
    methods: Sequence[str] | None = None,
    *,
    title: str | None = None,
    common_only: bool = False,
    dpi: int = 120,
) -> Path:
    """Draw the per-design ratio bar chart (one bar per method and design).

    A dashed black line marks the reference (ratio 1.0), dotted coloured lines each method's
    geometric mean over the designs where every plotted method has a ratio. A missing ratio
    (failure) is drawn as an ``x`` on the axis.

    Args:
        rows: Per-design rows, drawn in the given order.
        out_png: Output file (parent folders are created).
        methods: Methods to draw, in legend order (default: all columns).
        title: Figure title.
        common_only: Draw only designs where every method has a ratio (the paper's figure 2).
        dpi: Resolution.

    Returns:
        ``out_png``.

    Raises:
        UsageError: nothing to draw.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = _methods(rows, methods)
    if common_only:
        rows = [r for r in rows if all(r.ratio(m) is not None for m in names)]
    if not rows or not names:
        raise UsageError("no designs or methods to plot")
    n, k = len(rows), len(names)
    width = 0.8 / k
    fig_w = min(max(8.0, 0.32 * n * max(1.0, k / 3) + 2.0), 40.0)
    fig: Any
    fig, ax = plt.subplots(figsize=(fig_w, 5.8))
    values = [v for r in rows for m in names if (v := r.ratio(m)) is not None]
    top = max([1.2, *(v * 1.06 for v in values)])
    common = [r for r in rows if all(r.ratio(m) is not None for m in names)]
    for j, m in enumerate(names):
        color = _COLORS[j % len(_COLORS)]
        xs = [i - 0.4 + width * (j + 0.5) for i in range(n)]
        heights = [r.ratio(m) or 0.0 for r in rows]
        gm = _geomean([v for r in common if (v := r.ratio(m)) is not None])
        label = m if gm is None else f"{m} (geomean {gm:.3f}, N={len(common)})"
        ax.bar(xs, heights, width=width, color=color, label=label, edgecolor="none")
        missing = [x for x, r in zip(xs, rows, strict=True) if r.ratio(m) is None]
        if missing:
            ax.plot(
                missing, [top * 0.012] * len(missing), "x", color=color, markersize=5, clip_on=False
            )
        if gm is not None:
            ax.axhline(gm, color=color, linestyle=":", linewidth=1.2)
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1.0, label="reference (1.0)")
    ax.set_xticks(range(n))
    ax.set_xticklabels(
        [r.design for r in rows], rotation=60, ha="right", rotation_mode="anchor", fontsize=9
    )
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_ylim(0, top)
    ax.set_ylabel("PPA-product ratio vs reference (lower is better)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    # legend above the axes so it never hides bars
    ax.legend(
        loc="lower left",
        bbox_to_anchor=(0.0, 1.01),
        fontsize=8,
        ncol=min(k + 1, 5 if fig_w >= 14 else 2),
        frameon=False,
    )
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    out_png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out_png, dpi=dpi)
    plt.close(fig)
    log.debug("wrote %s (%d designs x %d methods)", out_png, n, k)
    return out_png


@dataclass(frozen=True)
class BenchTables:
    """Files written by :func:`write_tables`."""

    csv: Path
    markdown: Path


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _metric(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def write_tables(
    rows: Sequence[BenchRow], out_dir: Path, method: str | None = None, *, stem: str = "benchmark"
) -> BenchTables:
    """Write the per-design results as CSV and as a markdown table with a summary.

    Columns: design, reference metric, best ratio of ``method`` (our run), status, then the
    other methods' ratios; the markdown file ends with the Table 1 / Table 2 summary.

    Args:
        rows: Per-design rows.
        out_dir: Output folder (created).
        method: The method whose result is "best ratio" (default: the first column).
        stem: File name stem (``<stem>.csv``, ``<stem>.md``).
    """
    names = _methods(rows, None)
    if method is None:
        method = names[0] if names else "rtlopt"
    others = [m for m in names if m != method]
    order = [method, *others] if method in names else others
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = write_rows_csv(rows, out_dir / f"{stem}.csv", order)

    head = ["design", "ref metric", f"best ratio ({method})", "status", *others]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        status = r.status + (f" ({r.detail})" if r.detail else "")
        cells = [
            r.design,
            _metric(r.ref_metric),
            _cell(r.ratio(method)),
            status.replace("|", "/"),
            *(_cell(r.ratio(m)) for m in others),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    if order and rows:
        text += "\n## Summary\n\n" + summary_markdown(summarize(rows, order))
    md_path = out_dir / f"{stem}.md"
    md_path.write_text(text)
    return BenchTables(csv_path, md_path)
