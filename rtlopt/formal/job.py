"""What every engine of one check works on, and the helpers they share."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.config import FormalConfig
from rtlopt.formal.channel import new_secret, result_name, span
from rtlopt.formal.clocking import Clocking
from rtlopt.formal.plan import FormalPlan
from rtlopt.formal.scripts import DRIVERS
from rtlopt.frontend.model import Design
from rtlopt.tools import Limits, ToolRun, raise_if_crashed, require_tool, run_tool

__all__ = ["Job", "elapsed", "read_text", "run_script", "workdir_of", "yosys_argv"]


@dataclass(frozen=True)
class Job:
    """One formal check: the design, the files to compare, the plan and the time budget.

    Every engine takes a job and a share of the time left (``cfg.timeout_s`` from ``start``).
    ``secret`` seals the phase markers and names the result files of every script run of
    this check (:mod:`rtlopt.formal.channel`); each engine removes its result files first.
    ``timings`` collects seconds per verification step beside the engines (``vacuity``).
    ``clocking`` keeps the analysis of the structure netlist (the file's times, size and
    inode -> the analysis of both modules, or why it is unreadable), so the netlist, which is
    tens of megabytes for a core, is parsed once per version however often it is consulted
    (:func:`rtlopt.formal.structure.read_structure`).
    """

    design: Design
    reference_file: Path
    candidate_files: Sequence[Path]
    plan: FormalPlan
    cfg: FormalConfig
    memory_mb: int | None
    extra_inc: list[Path]
    start: float
    secret: str = field(default_factory=new_secret)
    timings: dict[str, float] = field(default_factory=dict)
    clocking: dict[tuple[int, ...], dict[str, Clocking] | str] = field(default_factory=dict)

    def add_time(self, step: str, seconds: float) -> None:
        """Count ``seconds`` for ``step`` in :attr:`timings`."""
        self.timings[step] = self.timings.get(step, 0.0) + seconds

    def budget(self, share: float) -> float:
        """Seconds for an engine given ``share`` of the time left (at least one)."""
        return max(1.0, (self.cfg.timeout_s - elapsed(self.start)) * share)


def elapsed(start: float) -> float:
    return time.monotonic() - start


def yosys_argv(log_name: str, script_name: str) -> list[str]:
    """The command line running a Yosys script quietly, its log in ``log_name``."""
    return require_tool("yosys").argv("-q", "-l", log_name, "-s", script_name)


def workdir_of(reference_file: Path) -> Path:
    return reference_file.parent


def read_text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def run_script(
    job: Job, script: Path, *, seconds: float, results: Sequence[str], what: str, structure: bool
) -> tuple[ToolRun, str]:
    """Run an engine's Yosys ``script`` (``<stem>.ys``) in its folder, its log in ``<stem>.log``
    and its output in ``<stem>.out``, the ``results`` files of an earlier run removed first.

    Returns the run and its log text (the output when the log is missing); the witness and,
    with ``structure``, the drivers check are counted as ``vacuity`` time.

    Raises:
        ToolFailed: Yosys crashed (:func:`~rtlopt.tools.raise_if_crashed`).
    """
    wd = script.parent
    for name in results:
        (wd / result_name(job.secret, name)).unlink(missing_ok=True)
    log_name = script.with_suffix(".log").name
    run = run_tool(
        yosys_argv(log_name, script.name),
        cwd=wd,
        log_path=script.with_suffix(".out"),
        limits=Limits(seconds, job.memory_mb),
        raise_on_timeout=False,
    )
    raise_if_crashed(run, what)
    text = read_text(wd / log_name) or run.output()
    job.add_time("vacuity", span(wd, job.secret, "witness_start", "witness"))
    if structure:
        job.add_time("vacuity", span(wd, job.secret, "drivers_start", DRIVERS["gate"]))
    return run, text
