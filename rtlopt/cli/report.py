"""`rtlopt report`: regenerate a run's report."""

from __future__ import annotations

from pathlib import Path

import click

from rtlopt.cli._common import console, handle_errors
from rtlopt.errors import UsageError
from rtlopt.report import generate_report
from rtlopt.rundir import RunDir


@click.command()
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@handle_errors
def report(run_dir: Path) -> None:
    """(Re)generate report.md, report.json and the plots of RUN_DIR (also for interrupted runs).

    \b
    Example:
      rtlopt report .rtlopt/runs/20260101-120000-ab12
    """
    if not RunDir(run_dir).is_run():
        raise UsageError(
            "not a run directory (no run.json, steps.jsonl or reference.json)",
            path=run_dir,
            hint="pass the folder printed by `rtlopt optimize`",
        )
    paths = generate_report(run_dir)
    console.print(f"report: {paths.markdown}")
    for p in paths.plots:
        console.print(f"plot: {p}")
