"""What a bench records: its options, the status vocabulary, a reference's and a design's
result (as they are read back from a design's run folder) and the bench's progress callbacks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


class BenchStatus:
    """Status words of a design in a bench table (plain strings so CSVs stay readable)."""

    IMPROVED = "improved"
    NO_IMPROVEMENT = "no improvement"
    NO_ACCEPTED = "no accepted design"
    TB_REJECTED = "suite tb rejected"
    UNMEASURABLE = "unmeasurable"
    LOAD_ERROR = "load error"
    SKIPPED = "skipped"
    ERROR = "error"
    MEASURED = "measured"


@dataclass(frozen=True)
class BenchOptions:
    """Everything a bench run needs besides the designs.

    Attributes:
        kind: Suite layout (a key of ``rtlopt.benchmark.SUITE_KINDS``).
        suite_path: The suite's folder.
        out_dir: Bench output folder (run directories, tables, chart).
        overrides: Dotted configuration overrides (``{"flow.pdk": "nangate45", ...}``), applied
            to every design.
        liberty: A liberty file instead of the PDK's.
        designs: Design names to run (default: all).
        jobs: Designs optimized at once.
        config_file: A configuration file for every design.
        candidates: Scripted backend root: ``<candidates>/<design>/`` holds a design's
            candidates (a folder of ``.v`` files directly under it serves every design).
        suite_tb: Run the suite's testbench as an extra gate on accepted designs.
        command: The command line, for provenance.
        executor: Where the designs run (``local``: ``jobs`` threads here; ``ray``: Ray tasks
            of ``eval.workers`` CPUs each (default 1) that evaluate their candidates in the
            task; the output folder must be at the same path on every node).
        ray_address: The Ray cluster (see ``eval.ray_address``).
        seeds: ``run.seed`` of each learning run of a design (``bench.seeds``); empty: one run
            with the configured seed in ``<out>/runs/<design>/``.
        frozen_control: Beside each seed, a frozen best-of-N run with the same sample budget
            (``bench.frozen_control``).
    """

    kind: str
    suite_path: Path
    out_dir: Path
    overrides: Mapping[str, Any] = field(default_factory=dict)
    liberty: Path | None = None
    designs: tuple[str, ...] | None = None
    jobs: int = 1
    config_file: Path | None = None
    candidates: Path | None = None
    suite_tb: bool = True
    command: tuple[str, ...] = ()
    executor: str = "local"
    ray_address: str | None = None
    seeds: tuple[int, ...] = ()
    frozen_control: bool = False


@dataclass(frozen=True)
class ReferenceResult:
    """The reference measurement of one design (``--reference-only``)."""

    design: str
    status: str
    detail: str = ""
    area_um2: float | None = None
    delay_ps: float | None = None
    power_uw: float | None = None
    metric: str = ""
    ref_metric: float | None = None
    seconds: float = 0.0

    @property
    def measurable(self) -> bool:
        """The reference has a positive figure of merit."""
        return self.ref_metric is not None and self.ref_metric > 0.0


@dataclass(frozen=True)
class DesignResult:
    """The outcome of optimizing one design.

    Attributes:
        design: Design name.
        status: A :class:`BenchStatus` word.
        detail: Why (failure reason, suite testbench verdict, ...).
        metric: Figure of merit (``adp`` or ``ppa``).
        ref_metric: The reference's metric.
        best_metric: Metric of the chosen design (best accepted that passes the suite gate).
        ratio: ``best_metric / ref_metric`` (``None`` without a chosen design).
        best_reward: Reward of the chosen design.
        max_reward: Best reward of any rollout of the run (accepted or not).
        candidate: Source hash of the chosen design.
        suite_tb: Suite testbench verdict of the chosen design (or why it was not run).
        tb_fallbacks: Accepted candidates tried before the chosen one that failed the suite
            testbench.
        run_dir: The design's run directory.
        steps: Steps completed.
        rollouts: Candidates the run generated (its sample budget as spent).
        seconds: Wall-clock time of this invocation on the design.
        resumed: The run continued an interrupted one.
        arm: With several seeds or a frozen control: ``learning`` or ``frozen`` (empty: the
            bench's one run of the design).
        seed: The run's ``run.seed`` when the bench ran several seeds or a control.
    """

    design: str
    status: str
    detail: str = ""
    metric: str = ""
    ref_metric: float | None = None
    best_metric: float | None = None
    ratio: float | None = None
    best_reward: float | None = None
    max_reward: float | None = None
    candidate: str | None = None
    suite_tb: str = ""
    tb_fallbacks: int = 0
    run_dir: str = ""
    steps: int = 0
    rollouts: int = 0
    seconds: float = 0.0
    resumed: bool = False
    arm: str = ""
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> DesignResult:
        """Inverse of :meth:`to_json` (unknown keys are ignored)."""
        names = DesignResult.__dataclass_fields__
        return DesignResult(**{k: v for k, v in data.items() if k in names})


@dataclass
class BenchEvents:
    """Progress callbacks (all optional; called from worker threads)."""

    on_start: Callable[[str], None] | None = None
    on_step: Callable[[str, int, int], None] | None = None  # design, step, steps
    on_done: Callable[[DesignResult | ReferenceResult], None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)


class _Cancelled(KeyboardInterrupt):
    """Raised inside a design's run when the bench is being interrupted."""
