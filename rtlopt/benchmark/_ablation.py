"""The C910 LZA ablation grid of the TTT-RTL paper's Table 3.

Each row of the grid is a named set of configuration overrides (:data:`ABLATION_GRID`, a
table); :func:`run_ablation` optimizes one design once per row (resumably, one run directory
per row under ``<out>/ablation/<slug>/``) with the metric fixed to ADP, and :func:`ablation_rows`
/ :func:`ablation_markdown` give the Table 3 shape: configuration, best reward, best ADP, ADP
reduction.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rtlopt.benchmark._runner import (
    BenchEvents,
    BenchOptions,
    BenchStatus,
    DesignResult,
    guarded_optimize,
)
from rtlopt.benchmark._tasks import run_tasks, task_events, task_options
from rtlopt.benchmark.suite import SuiteDesign, load_suite
from rtlopt.errors import UsageError
from rtlopt.evaluate import TaskContext

__all__ = [
    "ABLATION_GRID",
    "C910_LZA_MODULE",
    "AblationConfig",
    "AblationRow",
    "ablation_markdown",
    "ablation_rows",
    "load_c910_design",
    "run_ablation",
    "select_configs",
]

log = logging.getLogger(__name__)

C910_LZA_MODULE = "ct_vfmau_lza_simd_half"
"""The C910 unit the paper ablates."""


@dataclass(frozen=True)
class AblationConfig:
    """One row of the ablation grid.

    Attributes:
        name: Row label as in the paper's Table 3.
        axis: The axis the row varies (``full``, ``delta``, ``train``, ``reuse``, ``combined``).
        overrides: Dotted configuration overrides of the row.
    """

    name: str
    axis: str
    overrides: Mapping[str, Any] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        """File-system name of the row's run directory."""
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")


_FIXED = {"train.delta": "fixed"}
_PUCT_ENTROPIC = {"search.sampler": "puct", "train.advantage": "entropic"}

ABLATION_GRID: tuple[AblationConfig, ...] = (
    AblationConfig(
        "TTT-RTL (PUCT + entropic + adaptive delta)",
        "full",
        {**_PUCT_ENTROPIC, "train.delta": "adaptive"},
    ),
    AblationConfig(
        "cosine 1.1->0.3",
        "delta",
        {
            **_PUCT_ENTROPIC,
            "train.delta": "cosine",
            "train.cosine_start": 1.1,
            "train.cosine_end": 0.3,
        },
    ),
    AblationConfig("fixed delta = ln2", "delta", {**_PUCT_ENTROPIC, **_FIXED}),
    AblationConfig(
        "cosine 0.3->1.1",
        "delta",
        {
            **_PUCT_ENTROPIC,
            "train.delta": "cosine-reverse",
            "train.cosine_start": 1.1,
            "train.cosine_end": 0.3,
        },
    ),
    AblationConfig(
        "expected reward (no entropic)",
        "train",
        {"search.sampler": "puct", "train.advantage": "expected", **_FIXED},
    ),
    AblationConfig(
        "epsilon-greedy (eps=0.1)",
        "reuse",
        {
            "search.sampler": "egreedy",
            "search.epsilon": 0.1,
            "train.advantage": "entropic",
            **_FIXED,
        },
    ),
    AblationConfig(
        "no reuse", "reuse", {"search.sampler": "none", "train.advantage": "entropic", **_FIXED}
    ),
    AblationConfig(
        "naive test-time RL (expected reward + no reuse)",
        "combined",
        {"search.sampler": "none", "train.advantage": "expected", **_FIXED},
    ),
    AblationConfig(
        "best-of-N (frozen policy + no reuse)",
        "combined",
        {"search.sampler": "none", "train.learning_rate": 0.0, **_FIXED},
    ),
)
"""The rows of the paper's Table 3 (section 4.3), in the paper's order. On the train and reuse
axes delta is held at the fixed ln 2, as in the paper."""

_ABLATION_BASE: Mapping[str, Any] = {"flow.metric": "adp"}


def select_configs(names: Sequence[str] | None) -> list[AblationConfig]:
    """Rows of the grid by name or slug (default: all).

    Raises:
        UsageError: an unknown row (listing the known slugs).
    """
    if not names:
        return list(ABLATION_GRID)
    by_key = {c.slug: c for c in ABLATION_GRID} | {c.name: c for c in ABLATION_GRID}
    unknown = [n for n in names if n not in by_key]
    if unknown:
        raise UsageError(
            f"unknown ablation row(s) {', '.join(unknown)}",
            hint=f"known: {', '.join(c.slug for c in ABLATION_GRID)}",
        )
    return [by_key[n] for n in names]


def load_c910_design(path: Path, module: str = C910_LZA_MODULE) -> SuiteDesign:
    """The C910 LZA as a suite design: ``path`` is its folder, or the ``.v`` file itself.

    Raises:
        UsageError: no such folder/file, or no file named after the module in it.
    """
    folder = path.parent if path.is_file() else path
    designs = load_suite("folder", folder)
    for d in designs:
        if d.module == module or d.name == module:
            return d
    raise UsageError(
        f"no module {module} in {folder}",
        path=folder,
        hint="pass the folder holding ct_vfmau_lza_simd_half.v "
        "(e.g. ../shared/bench/c910/lza_simd_half)",
    )


@dataclass(frozen=True)
class AblationRow:
    """One row of the Table 3 shaped result."""

    config: AblationConfig
    result: DesignResult

    @property
    def best_reward(self) -> float | None:
        """Best reward of any rollout (the paper's "best reward" column)."""
        return self.result.max_reward

    @property
    def best_adp(self) -> float | None:
        """ADP of the best accepted design (``None``: no functionally correct design)."""
        return self.result.best_metric

    @property
    def reduction(self) -> float | None:
        """Relative ADP change of the best accepted design (negative is better)."""
        return None if self.result.ratio is None else self.result.ratio - 1.0


def run_ablation(
    design: SuiteDesign,
    opts: BenchOptions,
    configs: Sequence[AblationConfig] = ABLATION_GRID,
    events: BenchEvents | None = None,
    on_row: Callable[[AblationRow], None] | None = None,
) -> list[AblationRow]:
    """Run one optimization of ``design`` per ablation row (``opts.jobs`` rows at once).

    The row's overrides go on top of ``opts.overrides`` (so ``--steps`` etc. apply to every
    row); the metric is ADP. Rows are resumable like bench designs.

    Raises:
        KeyboardInterrupt: interrupted (every row stays resumable).
    """
    events = events or BenchEvents()
    opts.out_dir.mkdir(parents=True, exist_ok=True)
    task = functools.partial(_ablation_task, design=design)

    def lost(cfg: AblationConfig, exc: BaseException) -> AblationRow:
        log.error("%s: lost its worker twice: %s", cfg.name, exc)
        res = DesignResult(
            cfg.name,
            BenchStatus.ERROR,
            f"worker lost: {exc}",
            run_dir=str(opts.out_dir / "ablation" / cfg.slug),
        )
        if events.on_done:
            events.on_done(res)
        row = AblationRow(cfg, res)
        if on_row:
            on_row(row)
        return row

    return run_tasks(
        list(configs), task, opts, events, lost, cpus=_cpus(opts), handlers={"row": on_row}
    )


def _cpus(opts: BenchOptions) -> int:
    return int(opts.overrides.get("eval.workers") or 1)


def _ablation_task(
    cfg: AblationConfig, ctx: TaskContext, opts: BenchOptions, design: SuiteDesign
) -> AblationRow:
    """One row: the design optimized under the row's overrides (an executor task)."""
    base = replace(task_options(opts, ctx), designs=None)
    res = guarded_optimize(
        design,
        base,
        task_events(ctx),
        rdir=opts.out_dir / "ablation" / cfg.slug,
        overrides={**_ABLATION_BASE, **cfg.overrides},
        label=cfg.name,
    )
    row = AblationRow(cfg, res)
    ctx.report(("row", row))
    return row


def ablation_rows(rows: Sequence[AblationRow]) -> list[dict[str, Any]]:
    """The rows as plain records (configuration, axis, best reward, best ADP, reduction)."""
    return [
        {
            "configuration": r.config.name,
            "axis": r.config.axis,
            "best_reward": r.best_reward,
            "best_adp": r.best_adp,
            "adp_reduction": r.reduction,
            "status": r.result.status,
            "detail": r.result.detail,
        }
        for r in rows
    ]


def _num(x: float | None, fmt: str) -> str:
    return "—" if x is None else format(x, fmt)


def ablation_markdown(
    rows: Sequence[AblationRow], ref_adp: float | None, ref_reward: float | None = None
) -> str:
    """Markdown in the shape of the paper's Table 3 (reference row first)."""
    out = [
        "| Configuration | Best reward | Best ADP (um^2*ps) | ADP reduction |",
        "|---|---:|---:|---:|",
        f"| Reference | {_num(ref_reward, '.2f')} | {_num(ref_adp, ',.0f')} | |",
    ]
    for r in rows:
        red = "—" if r.reduction is None else f"{r.reduction * 100:+.1f}%"
        out.append(
            f"| {r.config.name} | {_num(r.best_reward, '.2f')} | "
            f"{_num(r.best_adp, ',.0f')} | {red} |"
        )
    return "\n".join(out) + "\n"
