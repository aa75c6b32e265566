"""`rtlopt check`: the pre-commit hook and CI gate."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.table import Table

from rtlopt.check import CheckReport, run_check
from rtlopt.cli._common import EXIT_OK, EXIT_REJECTED, PluginChoice, console, fmt, handle_errors
from rtlopt.plugins import PDKS


@click.command()
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--base",
    type=str,
    default=None,
    help="Compare with the merge base of this revision (CI: origin/main). "
    "Default: staged changes against HEAD (pre-commit).",
)
@click.option(
    "--threshold",
    type=float,
    default=None,
    help="Largest accepted relative worsening of the figure of merit (default 0.02).",
)
@click.option("--pdk", type=PluginChoice(PDKS), default=None, help="PDK for the PPA comparison.")
@click.option(
    "--no-ppa", is_flag=True, default=False, help="Skip synthesis (interface and equivalence only)."
)
@click.option(
    "--summary",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Append the markdown table to this file (e.g. $GITHUB_STEP_SUMMARY).",
)
@click.option("--json", "as_json", is_flag=True, default=False, help="Print JSON.")
@handle_errors
def check(
    files: tuple[Path, ...],
    base: str | None,
    threshold: float | None,
    pdk: str | None,
    no_ppa: bool,
    summary: Path | None,
    as_json: bool,
) -> None:
    """Check changed Verilog modules against their base version.

    Every changed module must keep its interface; modules listed in `check.optimization_only`
    must stay equivalent (simulation and formal); and area x delay (x power) must not worsen by
    more than the threshold. Exit 0 clean, 1 findings, 2 configuration or input error.
    """
    overrides = {
        "check.ppa_threshold": threshold,
        "flow.pdk": pdk,
        "check.ppa": False if no_ppa else None,
    }
    report = run_check(Path.cwd(), files, base=base, overrides=overrides)
    if summary is not None:
        with summary.open("a") as fh:
            fh.write(report.markdown())
    if as_json:
        _print_json(report)
    else:
        _print_table(report)
    sys.exit(EXIT_OK if report.ok else EXIT_REJECTED)


def _print_json(report: CheckReport) -> None:
    out = {
        "base": report.base,
        "ok": report.ok,
        "metric": report.metric,
        "modules": [
            {
                "file": m.file,
                "module": m.module,
                "change": m.change,
                "interface": m.interface,
                "equivalence": m.equivalence,
                "metric_change": m.metric_change,
                "findings": m.findings,
                "notes": m.notes,
            }
            for m in report.modules
        ],
    }
    sys.stdout.write(json.dumps(out, indent=2) + "\n")


def _print_table(report: CheckReport) -> None:
    t = Table(title=f"rtlopt check against {report.base[:12]}", title_justify="left")
    for col in (
        "module",
        "file",
        "change",
        "interface",
        "equivalence",
        "area",
        "delay",
        report.metric.upper(),
        "result",
    ):
        t.add_column(col, overflow="fold", no_wrap=col in ("module", "result"))
    for m in report.modules:
        area = (
            f"{fmt(m.before.area_um2)} -> {fmt(m.after.area_um2)}"
            if m.before and m.after
            else "-"
        )
        delay = (
            f"{fmt(m.before.delay_ps)} -> {fmt(m.after.delay_ps)}"
            if m.before and m.after
            else "-"
        )
        mc = f"{m.metric_change * 100:+.1f}%" if m.metric_change is not None else "-"
        result = "[green]pass[/]" if m.ok else "[red]FAIL[/]"
        t.add_row(
            m.module, m.file, m.change, m.interface, m.equivalence, area, delay, mc, result
        )
    if report.modules:
        console.print(t)
        for m in report.modules:
            for f in m.findings:
                console.print(f"[red]{m.file}: {m.module}:[/] {f}")
            for n in m.notes:
                console.print(f"[dim]{m.file}: {m.module}: {n}[/]")
    else:
        console.print("rtlopt check: no Verilog module changed")
