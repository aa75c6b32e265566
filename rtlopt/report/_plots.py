"""PNG plots of a run (matplotlib, Agg backend, imported lazily)."""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.report._data import RunData, pareto_front, tradeoff_point

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_kl_budget", "plot_metric", "plot_pareto", "plot_rewards"]

log = logging.getLogger(__name__)

_REF_COLOR = "#c0392b"
_RUN_COLOR = "#1f4e79"
_RULE_COLORS = {
    "warmup": "#95a5a6",
    "hold": "#34495e",
    "P1": "#c0392b",
    "P2": "#8e44ad",
    "P3": "#d35400",
    "P4": "#27ae60",
}
_RULE_NAMES = {
    "warmup": "warm-up",
    "hold": "hold",
    "P1": "P1 KL brake",
    "P2": "P2 winner-take-all",
    "P3": "P3 stagnation",
    "P4": "P4 over-exploring",
}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=120, bbox_inches="tight", facecolor="white")
    _pyplot().close(fig)
    return path


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


def _series(steps: Sequence[dict[str, Any]], key: str) -> tuple[list[int], list[float]]:
    xs: list[int] = []
    ys: list[float] = []
    for rec in steps:
        y = _num(rec.get(key))
        if y is not None:
            xs.append(int(rec["step"]))
            ys.append(y)
    return xs, ys


def _metric_label(kind: str) -> str:
    return "PPA product (µm²·ps·µW)" if kind == "ppa" else "ADP (µm²·ps)"


def _style(ax: Axes) -> None:
    ax.grid(True, alpha=0.3)
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)


def _step_ticks(ax: Axes, steps: Sequence[dict[str, Any]]) -> None:
    """Integer step ticks over the recorded steps (half a step of margin each side)."""
    from matplotlib.ticker import MaxNLocator

    xs = [int(r["step"]) for r in steps]
    if xs:
        ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
        if max(xs) - min(xs) <= 12:  # few steps: one tick each (MaxNLocator would use 0.1)
            ax.set_xticks(range(min(xs), max(xs) + 1))
            return
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def plot_rewards(data: RunData, path: Path) -> Path:
    """Figure-3 layout: best-so-far, per-step mean and per-step max reward vs the reference."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), sharex=True)
    ref = data.reference_reward
    panels = [
        ("best_reward", "(a) Best reward up to step"),
        ("mean_reward", "(b) Mean reward within step"),
        ("max_reward", "(c) Max reward within step"),
    ]
    for ax, (key, title) in zip(axes, panels, strict=True):
        xs, ys = _series(data.steps, key)
        if key == "best_reward":
            ax.step(
                xs, ys, where="post", color=_RUN_COLOR, lw=2, marker="o", ms=3, label=data.module
            )
        else:
            ax.plot(xs, ys, color=_RUN_COLOR, lw=1.6, marker="o", ms=3, label=data.module)
        ax.axhline(ref, color=_REF_COLOR, ls="--", lw=1.3, label=f"reference ({ref:.3g})")
        ax.set_title(title, fontsize=11)
        ax.set_xlabel("step")
        ax.set_ylabel("reward")
        _style(ax)
        _step_ticks(ax, data.steps)
        top = max([ref, *ys]) if ys else ref
        ax.set_ylim(bottom=min([0.0, *ys]), top=top * 1.08 + 0.1)
    axes[0].legend(loc="lower right", fontsize=9, frameon=False)
    n = len(data.steps)
    fig.suptitle(f"{data.module}: reward trajectory ({n} step{'s' if n != 1 else ''})", fontsize=12)
    fig.tight_layout()
    return _save(fig, path)


def plot_metric(data: RunData, path: Path) -> Path:
    """Best accepted figure of merit over steps against the reference."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    kind = data.metric
    ref = data.reference_metric
    xs, ys = _series(data.steps, "best_metric")
    if xs:
        ax.step(
            xs,
            ys,
            where="post",
            color=_RUN_COLOR,
            lw=2,
            marker="o",
            ms=3,
            label=f"best accepted {kind.upper()}",
        )
    if ref is not None:
        ref_txt = f"{ref:,.0f}" if abs(ref) >= 1e4 else f"{ref:.4g}"
        ax.axhline(ref, color=_REF_COLOR, ls="--", lw=1.3, label=f"reference ({ref_txt})")
        if ys and ref:  # a reference of no cost (a pure wire) has no relative change
            pct = 100.0 * (ys[-1] / ref - 1.0)
            ax.annotate(
                f"{pct:+.1f} %",
                xy=(xs[-1], ys[-1]),
                xytext=(-8, -16),
                textcoords="offset points",
                ha="right",
                color=_RUN_COLOR,
                fontsize=10,
            )
    if not xs:
        ax.text(
            0.5,
            0.5,
            "no accepted design yet",
            transform=ax.transAxes,
            ha="center",
            va="center",
            color="#7f8c8d",
            fontsize=12,
        )
    ax.set_xlabel("step")
    ax.set_ylabel(_metric_label(kind))
    ax.set_title(f"{data.module}: best {kind.upper()} so far (lower is better)", fontsize=11)
    vals = [*ys, *([ref] if ref is not None else [])]
    if vals:
        ax.set_ylim(0, max(vals) * 1.12)
    ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 4))
    _style(ax)
    _step_ticks(ax, data.steps)
    ax.legend(loc="lower left", fontsize=9, frameon=False)
    fig.tight_layout()
    return _save(fig, path)


def _step_colors(ax: Axes, fig: Figure, xs: list[float], ys: list[float], steps: list[int]) -> None:
    """Scatter coloured by step with one colour per step and a bar ticked at whole steps
    (a single step gets one colour and one tick, not a 0.9..1.1 ramp)."""
    from matplotlib.colors import BoundaryNorm
    from matplotlib.ticker import MaxNLocator

    lo, hi = min(steps), max(steps)
    bounds = [s - 0.5 for s in range(lo, hi + 2)]
    cmap = _pyplot().get_cmap("viridis", max(2, hi - lo + 1))
    norm = BoundaryNorm(bounds, cmap.N)
    sc = ax.scatter(
        xs,
        ys,
        c=steps,
        cmap=cmap,
        norm=norm,
        s=28,
        alpha=0.85,
        edgecolors="none",
        label="accepted candidates",
    )
    cbar = fig.colorbar(sc, ax=ax, pad=0.02)
    cbar.set_label("step")
    if hi == lo:
        cbar.set_ticks([lo])
    else:
        cbar.locator = MaxNLocator(integer=True, nbins=min(10, hi - lo + 1))
        cbar.update_ticks()


def plot_pareto(data: RunData, path: Path) -> Path:
    """The trade-off plane of the figure of merit: area vs delay (ADP) or area vs delay*power
    (PPA product), accepted candidates by step, the reference with its iso-metric curve (points
    below it beat the reference), the winner and the Pareto front."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    kind = data.metric
    acc = [(c, tradeoff_point(c.result.ppa, kind)) for c in data.accepted()]
    pts = [p for _, p in acc if p is not None]
    steps = [c.step if c.step is not None else 0 for c, p in acc if p is not None]
    if pts:
        _step_colors(ax, fig, [p[0] for p in pts], [p[1] for p in pts], steps)
        front = pareto_front(pts)
        ax.step(
            [p[0] for p in front],
            [p[1] for p in front],
            where="post",
            color="#16a085",
            lw=1.5,
            ls="-",
            label="Pareto front",
        )
    else:
        ax.text(
            0.5,
            0.93,
            "no accepted candidates yet",
            transform=ax.transAxes,
            ha="center",
            color="#7f8c8d",
            fontsize=12,
        )
    ref_pt = tradeoff_point(data.reference.ppa if data.reference is not None else None, kind)
    if ref_pt is not None:
        _reference_and_iso_curve(ax, ref_pt, pts, kind)
    best_pt = tradeoff_point(data.best.ppa if data.best is not None else None, kind)
    if best_pt is not None:
        ax.scatter(
            [best_pt[0]],
            [best_pt[1]],
            marker="D",
            s=110,
            facecolors="none",
            edgecolors="black",
            linewidths=1.8,
            zorder=6,
            label="winner",
        )
    ys_all = [p[1] for p in pts] + ([ref_pt[1]] if ref_pt is not None else [])
    xs_all2 = [p[0] for p in pts] + ([ref_pt[0]] if ref_pt is not None else [])
    if ys_all:
        ax.set_ylim(min(ys_all) * 0.85, max(ys_all) * 1.15)
        ax.set_xlim(min(xs_all2) * 0.85, max(xs_all2) * 1.15)
    ax.set_xlabel("area (µm²)")
    if kind == "ppa":
        ax.set_ylabel("delay × power (ps·µW)")
        ax.set_title(
            f"{data.module}: area vs delay × power of equivalent designs (PPA)", fontsize=11
        )
    else:
        ax.set_ylabel("delay (ps)")
        ax.set_title(f"{data.module}: area vs delay of equivalent designs (ADP)", fontsize=11)
    _style(ax)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper right", fontsize=9, frameon=True, framealpha=0.9)
    fig.tight_layout()
    return _save(fig, path)


def _reference_and_iso_curve(
    ax: Any, ref_pt: tuple[float, float], pts: list[tuple[float, float]], kind: str
) -> None:
    """The reference's star and the curve of its figure of merit through it."""
    ax.scatter(
        [ref_pt[0]],
        [ref_pt[1]],
        marker="*",
        s=260,
        color=_REF_COLOR,
        edgecolors="black",
        linewidths=0.6,
        zorder=5,
        label="reference",
    )
    # The figure of merit is x*y in this plane: its curve through the reference, drawn where
    # the area is positive (a pure-wire rewrite has no area: the curve has no point at 0).
    level = ref_pt[0] * ref_pt[1]
    xs_all = [x for x in [p[0] for p in pts] + [ref_pt[0]] if x > 0]
    if not xs_all:
        return
    lo, hi = min(xs_all) * 0.85, max(xs_all) * 1.15
    grid = [lo + (hi - lo) * i / 100 for i in range(101)]
    ax.plot(
        grid,
        [level / a for a in grid],
        color=_REF_COLOR,
        ls=":",
        lw=1,
        label=f"reference {kind.upper()}",
    )


def plot_kl_budget(data: RunData, path: Path) -> Path:
    """KL budget delta per step, each point coloured by the controller rule that fired."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    xs, ys = _series(data.steps, "delta")
    ax.plot(xs, ys, color="#7f8c8d", lw=1.2, zorder=1)
    # A step's record holds the rule fired after it, which set the next step's delta: colour
    # each point by the rule that set it (the first step keeps the initial value).
    fired = [(int(r["step"]), str(r.get("rule", ""))) for r in data.steps]
    rules = {fired[i + 1][0]: fired[i][1] for i in range(len(fired) - 1)}
    if fired:
        rules[fired[0][0]] = "warmup" if data.delta_schedule == "adaptive" else fired[0][1]
    for rule, color in _RULE_COLORS.items():
        sel = [(x, y) for x, y in zip(xs, ys, strict=True) if rules.get(x) == rule]
        if sel:
            ax.scatter(
                [p[0] for p in sel],
                [p[1] for p in sel],
                color=color,
                s=30,
                zorder=2,
                label=_RULE_NAMES[rule],
            )
    others = [(x, y) for x, y in zip(xs, ys, strict=True) if rules.get(x) not in _RULE_COLORS]
    if others:
        ax.scatter(
            [p[0] for p in others],
            [p[1] for p in others],
            color=_RUN_COLOR,
            s=18,
            zorder=2,
            label=data.delta_schedule,
        )
    ln2 = math.log(2.0)
    ax.axhline(ln2, color=_REF_COLOR, ls="--", lw=1, label="ln 2 (fixed)")
    ax.set_xlabel("step")
    ax.set_ylabel("KL budget δ")
    ax.set_title(f"{data.module}: KL budget ({data.delta_schedule})", fontsize=11)
    _style(ax)
    _step_ticks(ax, data.steps)
    top = max([*ys, ln2]) if ys else ln2
    ax.set_ylim(0, top * 1.25)
    ax.legend(
        loc="upper left",
        fontsize=8,
        frameon=False,
        ncol=3,
        title="δ set by",
        title_fontsize=8,
        alignment="left",
    )
    fig.tight_layout()
    return _save(fig, path)
