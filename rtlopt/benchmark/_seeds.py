"""Several seeds and a frozen control per design: "training helped" as a measured claim.

With ``bench.seeds`` above one or ``bench.frozen_control`` on (``rtlopt bench``'s defaults:
three seeds and the control), every design is optimized once per seed (``run.seed`` = the
configured seed, +1, +2, ...; the harness seed stays, so every run is checked against the same
vectors) in ``<out>/runs/<design>/learning-seed<s>/``, and, with the control, once more per seed
as the paper's best-of-N row of Table 3 (:data:`FROZEN_CONTROL`: the policy frozen, no reuse)
with the same steps, parents and rollouts, i.e. the same sample budget, in
``<out>/runs/<design>/frozen-seed<s>/``. Each run is resumable like a bench design.

:func:`seed_summaries` gives per design and arm the mean and spread (min-max, standard
deviation) of the ratio over the seeds, and the learning-minus-frozen difference per seed
(paired by seed) with its spread; :func:`arm_results` one result per design and arm (the mean
ratio) for the bench's usual tables. A run that produced no accepted design counts as ratio 1
(it keeps the reference, as the paper's penalized mean counts a failure); a run that could not
be measured (load error, unmeasurable reference, worker lost, tool failure) counts nowhere and
is listed.
"""

from __future__ import annotations

import logging
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rtlopt.benchmark._ablation import ABLATION_GRID
from rtlopt.benchmark._results import BenchEvents, BenchOptions, BenchStatus, DesignResult
from rtlopt.benchmark._runner import guarded_optimize
from rtlopt.benchmark._tasks import _reason, run_tasks, task_events, task_options
from rtlopt.benchmark.suite import SuiteDesign

__all__ = [
    "FROZEN",
    "FROZEN_CONTROL",
    "LEARNING",
    "SeedSummary",
    "Spread",
    "Trial",
    "arm_results",
    "bench_trials",
    "run_trials",
    "seed_summaries",
    "seeds_markdown",
]

log = logging.getLogger("rtlopt.benchmark._runner")

LEARNING = "learning"
FROZEN = "frozen"
_CONTROL_ROW = "best-of-N (frozen policy + no reuse)"
FROZEN_CONTROL: Mapping[str, Any] = next(
    c.overrides for c in ABLATION_GRID if c.name == _CONTROL_ROW
)
"""The frozen control's overrides: the ablation grid's best-of-N row (learning rate 0, every
prompt from the root)."""

_SCORED = frozenset(
    {
        BenchStatus.IMPROVED,
        BenchStatus.NO_IMPROVEMENT,
        BenchStatus.NO_ACCEPTED,
        BenchStatus.TB_REJECTED,
    }
)
"""Statuses of a run that measured the design: its ratio (or 1, no accepted design) counts."""


@dataclass(frozen=True)
class Trial:
    """One run of a design: its arm and seed."""

    design: SuiteDesign
    arm: str
    seed: int

    def run_dir(self, out_dir: Path) -> Path:
        """``<out>/runs/<design>/<arm>-seed<seed>``."""
        return out_dir / "runs" / self.design.name / f"{self.arm}-seed{self.seed}"

    def overrides(self) -> dict[str, Any]:
        """The run's configuration overrides: its seed, and the control's for the frozen arm."""
        return {"run.seed": self.seed, **(FROZEN_CONTROL if self.arm == FROZEN else {})}


def bench_trials(designs: Sequence[SuiteDesign], opts: BenchOptions) -> list[Trial]:
    """The runs of a seeded bench, design by design: each seed learning, then its control."""
    arms = (LEARNING, FROZEN) if opts.frozen_control else (LEARNING,)
    return [Trial(d, arm, s) for d in designs for s in opts.seeds for arm in arms]


def run_trials(
    opts: BenchOptions, designs: Sequence[SuiteDesign], events: BenchEvents | None = None
) -> list[DesignResult]:
    """Run every trial of :func:`bench_trials` (``opts.jobs`` at once), resumably; one result
    per trial, with its ``arm`` and ``seed``.

    Raises:
        KeyboardInterrupt: interrupted (every run stays resumable).
    """
    events = events or BenchEvents()
    opts.out_dir.mkdir(parents=True, exist_ok=True)

    def lost(t: Trial, exc: BaseException) -> DesignResult:
        log.error("%s (%s, seed %d): lost its worker twice: %s", t.design.name, t.arm, t.seed, exc)
        res = DesignResult(
            t.design.name,
            BenchStatus.ERROR,
            f"worker lost: {_reason(exc)}",
            run_dir=str(t.run_dir(opts.out_dir)),
            arm=t.arm,
            seed=t.seed,
        )
        if events.on_done:
            events.on_done(res)
        return res

    cpus = int(opts.overrides.get("eval.workers") or 1)
    trials = bench_trials(designs, opts)
    return run_tasks(trials, _trial_task, opts, events, lost, cpus=cpus)


def _trial_task(t: Trial, ctx: Any, opts: BenchOptions) -> DesignResult:
    """One trial as an executor task."""
    res = guarded_optimize(
        t.design,
        replace(task_options(opts, ctx), designs=None),
        task_events(ctx),
        rdir=t.run_dir(opts.out_dir),
        overrides=t.overrides(),
    )
    return replace(res, arm=t.arm, seed=t.seed)


# ---------------------------------------------------------------------------------- the summary


@dataclass(frozen=True)
class Spread:
    """Mean and spread of values over seeds (``None`` without values)."""

    n: int
    mean: float | None
    low: float | None
    high: float | None
    std: float | None

    @staticmethod
    def of(values: Sequence[float]) -> Spread:
        """The spread of ``values``; ``std`` is the sample standard deviation (``None``
        below two values)."""
        if not values:
            return Spread(0, None, None, None, None)
        std = statistics.stdev(values) if len(values) > 1 else None
        return Spread(len(values), math.fsum(values) / len(values), min(values), max(values), std)

    def text(self, digits: int = 3) -> str:
        """``mean (low-high, sd x)``, or an en dash without values."""
        if self.mean is None or self.low is None or self.high is None:
            return "–"
        sd = "" if self.std is None else f", sd {self.std:.{digits}f}"
        return f"{self.mean:.{digits}f} ({self.low:.{digits}f} to {self.high:.{digits}f}{sd})"


@dataclass(frozen=True)
class SeedSummary:
    """One design over its seeds.

    Attributes:
        design: Design name.
        ref_metric: The reference's metric.
        learning: The learning runs' ratios.
        frozen: The frozen control's ratios (``None``: no control).
        delta: Learning minus frozen ratio per seed where both runs measured the design
            (negative: training helped); ``None``: no control.
        unscored: ``arm seed: status`` of runs that count nowhere.
        rollouts: Candidates generated per arm, summed over its seeds (the sample budget as
            spent: the control samples every parent slot of every step, a pool sampler with
            lineage blocking may fill fewer, so learning never gets more samples).
    """

    design: str
    ref_metric: float | None
    learning: Spread
    frozen: Spread | None
    delta: Spread | None
    unscored: tuple[str, ...] = ()
    rollouts: Mapping[str, int] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """``helped`` (every seed's difference below 0), ``hurt`` (every one above 0),
        ``within spread`` (the differences straddle 0), or ``no control`` / ``not measured``."""
        d = self.delta
        if d is None:
            return "no control"
        if d.low is None or d.high is None:
            return "not measured"
        if d.high < 0.0:
            return "helped"
        if d.low > 0.0:
            return "hurt"
        return "within spread"


def _ratio(r: DesignResult) -> float | None:
    """A run's ratio as the summary counts it: no accepted design is 1, unmeasured is None."""
    if r.status not in _SCORED:
        return None
    return r.ratio if r.ratio is not None else 1.0


def seed_summaries(results: Sequence[DesignResult]) -> list[SeedSummary]:
    """Per design (in first-seen order) the spread of each arm and of the paired difference."""
    by_design: dict[str, list[DesignResult]] = {}
    for r in results:
        by_design.setdefault(r.design, []).append(r)
    out = []
    for name, runs in by_design.items():
        arms: dict[str, dict[int, float]] = {LEARNING: {}, FROZEN: {}}
        unscored = []
        for r in runs:
            value = _ratio(r)
            if value is None:
                unscored.append(f"{r.arm} seed {r.seed}: {r.status}")
            else:
                arms.setdefault(r.arm, {})[r.seed if r.seed is not None else 0] = value
        control = any(r.arm == FROZEN for r in runs)
        learn, frozen = arms[LEARNING], arms[FROZEN]
        paired = [learn[s] - frozen[s] for s in sorted(learn) if s in frozen]
        ref = next((r.ref_metric for r in runs if r.ref_metric is not None), None)
        out.append(
            SeedSummary(
                name,
                ref,
                Spread.of([learn[s] for s in sorted(learn)]),
                Spread.of([frozen[s] for s in sorted(frozen)]) if control else None,
                Spread.of(paired) if control else None,
                tuple(unscored),
                {arm: sum(r.rollouts for r in runs if r.arm == arm) for arm in arms},
            )
        )
    return out


def arm_results(results: Sequence[DesignResult], arm: str) -> list[DesignResult]:
    """One result per design for ``arm``: the mean ratio over its measured seeds (the bench's
    usual tables and the paper's summary take it); status ``improved`` when the mean is below
    1. A design with no measured run of the arm keeps its first run's status and reason."""
    out = []
    for s in seed_summaries([r for r in results if r.arm == arm]):
        runs = [r for r in results if r.design == s.design and r.arm == arm]
        spread = s.learning if arm == LEARNING else s.frozen
        if spread is None or spread.mean is None:
            first = runs[0]
            out.append(replace(first, arm=arm, seed=None))
            continue
        status = BenchStatus.IMPROVED if spread.mean < 1.0 - 1e-9 else BenchStatus.NO_IMPROVEMENT
        out.append(
            DesignResult(
                s.design,
                status,
                f"mean of {spread.n} seed(s): {spread.text()}",
                metric=runs[0].metric,
                ref_metric=s.ref_metric,
                ratio=spread.mean,
                max_reward=max(
                    (r.max_reward for r in runs if r.max_reward is not None), default=None
                ),
                steps=max(r.steps for r in runs),
                rollouts=sum(r.rollouts for r in runs),
                seconds=math.fsum(r.seconds for r in runs),
                arm=arm,
            )
        )
    return out


def seeds_markdown(summaries: Sequence[SeedSummary], method: str = "rtlopt") -> str:
    """The per-design table: each arm's mean (min to max, sd) and learning minus frozen."""
    out = [
        f"| design | seeds | {method}: learning | frozen best-of-N | learning - frozen | verdict "
        "| rollouts (learning / frozen) |",
        "|---|---:|---|---|---|---|---|",
    ]
    for s in summaries:
        frozen = s.frozen.text() if s.frozen is not None else "–"
        delta = s.delta.text() if s.delta is not None else "–"
        spent = f"{s.rollouts.get(LEARNING, 0)} / {s.rollouts.get(FROZEN, 0)}"
        out.append(
            f"| {s.design} | {s.learning.n} | {s.learning.text()} | {frozen} | {delta} | "
            f"{s.verdict} | {spent if s.frozen is not None else s.rollouts.get(LEARNING, 0)} |"
        )
    counts = {v: sum(1 for s in summaries if s.verdict == v) for v in ("helped", "hurt")}
    deltas = [s.delta.mean for s in summaries if s.delta is not None and s.delta.mean is not None]
    out += [
        "",
        "Ratios are best accepted metric / reference metric (lower is better; a run with no "
        "accepted design counts 1). learning - frozen is paired by seed: negative means the "
        "learning run beat its frozen control. Both arms run the same steps, parents and "
        "rollouts; the rollouts column counts the candidates each generated.",
    ]
    if deltas:
        out.append(
            f"Training helped on {counts['helped']} and hurt on {counts['hurt']} of "
            f"{len(summaries)} design(s) on every seed; mean difference over designs "
            f"{math.fsum(deltas) / len(deltas):+.3f}."
        )
    unscored = [f"{s.design} {u}" for s in summaries for u in s.unscored]
    if unscored:
        out.append("Not measured (counted nowhere): " + "; ".join(unscored) + ".")
    return "\n".join(out) + "\n"
