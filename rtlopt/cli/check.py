"""`rtlopt check`: the pre-commit hook and CI gate."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich import box
from rich.table import Table

from rtlopt.check import CheckReport, percent_text, run_check
from rtlopt.cli._common import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_USAGE,
    PluginChoice,
    console,
    escape,
    fmt,
    handle_errors,
    shown,
)
from rtlopt.errors import RtloptError
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
@click.option(
    "--trust-config",
    is_flag=True,
    default=False,
    help="Judge by the change's rtlopt.toml / [tool.rtlopt] / filelists, and apply the "
    "environment's RTLOPT_<SECTION>__<KEY> overrides of the rules, instead of the base's (a "
    "change to them, or a changed line of a workflow or script that runs or configures rtlopt, "
    "is then a note, not a finding).",
)
@click.option(
    "--proofs",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Keep each proven module's replay files (miter, replay.sh for stock yosys-abc) "
    "in DIR/<module>.",
)
@click.option(
    "--message-file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The message of the commit being made (pre-commit's commit-msg stage passes "
    ".git/COMMIT_EDITMSG): its Rtlopt-Equivalent / Rtlopt-Equivalence trailers count too.",
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
    trust_config: bool,
    proofs: Path | None,
    message_file: Path | None,
    as_json: bool,
) -> None:
    """Check changed Verilog modules against their base version.

    Every changed module must keep its interface; modules listed in `check.optimization_only`
    or named by an `Rtlopt-Equivalent: <module>` trailer must stay equivalent (simulation and
    formal): trailers of the commits since the merge base with --base, else with the branch's
    upstream, and of --message-file; and area x delay (x power) must not worsen by more
    than the threshold. The rules come from the base revision's configuration: a change to
    rtlopt.toml or a filelist is itself a finding unless --trust-config, and so is a changed
    line of any other file that runs or configures rtlopt (a CI workflow, a Makefile) and an
    RTLOPT_<SECTION>__<KEY> variable that overrides a check, formal, eval, harness or project
    setting (not applied without --trust-config; every override is said on the first lines).
    Modules a changed header, package or define reaches are judged too; a removed module still
    instantiated fails. Exit 0 clean, 1 findings, 2 configuration or input error, 3 when
    only a tool failure (a crash, a timeout) kept a module from being checked.

    \b
    Examples:
      rtlopt check                                   # staged changes (pre-commit)
      rtlopt check --base origin/main --summary "$GITHUB_STEP_SUMMARY"   # CI
      rtlopt check rtl/alu.v --no-ppa                # no synthesis: interfaces, and
                                                     # equivalence where required
      rtlopt check --message-file .git/COMMIT_EDITMSG   # commit-msg hook: its trailers
    """
    overrides = {
        "check.ppa_threshold": threshold,
        "flow.pdk": pdk,
        "check.ppa": False if no_ppa else None,
    }
    try:
        report = run_check(
            Path.cwd(),
            files,
            base=base,
            overrides=overrides,
            trust_config=trust_config,
            proofs=proofs,
            message_file=message_file,
        )
    except RtloptError as exc:  # a CI job reading --json gets why, beside the stderr line
        if as_json:
            code = exc.exit_code if exc.exit_code in (EXIT_USAGE, EXIT_INTERNAL) else EXIT_INTERNAL
            out = {"ok": False, "error": exc.one_line(), "exit": code}
            sys.stdout.write(json.dumps(out) + "\n")
        raise
    if summary is not None:
        with summary.open("a") as fh:
            fh.write(report.markdown())
    if as_json:
        _print_json(report)
    else:
        _print_table(report)
    if report.could_not_check:  # a tool crash is no verdict on the change
        sys.exit(EXIT_INTERNAL)
    sys.exit(EXIT_OK if report.ok else EXIT_REJECTED)


def _print_json(report: CheckReport) -> None:
    out = {
        "headline": report.headline,
        "environment": report.environment,
        "base": report.base,
        "ok": report.ok,
        "metric": report.metric,
        "notes": report.notes,
        "modules": [
            {
                "file": m.file,
                "module": m.module,
                "change": m.change,
                "interface": m.interface,
                "equivalence": m.equivalence,
                "rule": m.rule,
                "metric_change": m.metric_change,
                "findings": m.findings,
                "notes": m.notes,
            }
            for m in report.modules
        ],
    }
    sys.stdout.write(json.dumps(out, indent=2) + "\n")


def _before_after(before: float | None, after: float | None) -> str:
    if before is None or after is None:
        return "-"
    return f"{fmt(before)} → {fmt(after)}"


def _print_table(report: CheckReport) -> None:
    """One row per changed module, units in the headers, fitting 80 columns: in a narrow
    terminal the file column gives way (the file is named in the title or below the table)."""
    if report.headline:
        console.print(f"[yellow]{escape(report.headline)}[/]")
    if report.environment:
        console.print(f"[yellow]{escape(report.environment)}[/]")
    kind = report.metric.upper()
    unit = "um^2*ps*uW" if report.metric == "ppa" else "um^2*ps"
    files = sorted({m.file for m in report.modules})
    wide = console.width >= 100
    where = "" if wide or len(files) != 1 else f"{files[0]}, "
    measured = (
        f"{kind} in {unit}, threshold {report.threshold * 100:g}%"
        if report.ppa
        else escape("PPA not measured: [check] ppa = false")
    )
    t = Table(
        title=f"rtlopt check against {report.base[:12]} ({where}{measured})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    # the verdict is never cut (a CI log is 80 columns wide): long names and reasons fold
    t.add_column("module", overflow="fold")
    if wide:
        t.add_column("file", no_wrap=True, overflow="ellipsis")
    t.add_column("equivalence", overflow="fold", ratio=1)
    t.add_column("area um^2", justify="right", overflow="fold")
    t.add_column("delay ps", justify="right", overflow="fold")
    t.add_column(f"{kind} Δ", justify="right", no_wrap=True)
    t.add_column("result", no_wrap=True, min_width=len("not checked"))
    for m in report.modules:
        before, after = m.before, m.after
        area = _before_after(before.area_um2 if before else None, after.area_um2 if after else None)
        delay = _before_after(
            before.delay_ps if before else None, after.delay_ps if after else None
        )
        mc = percent_text(m.metric_change)
        name = m.module if m.change == "modified" else f"{m.module} ({m.change})"
        if m.interface != "same":
            name += " (ports)"
        row = [
            shown(name),
            *([shown(m.file)] if wide else []),
            shown(m.equivalence),
            area,
            delay,
            mc,
            "[green]pass[/]"
            if m.ok
            else ("[yellow]not checked[/]" if m.tool_error else "[red]FAIL[/]"),
        ]
        t.add_row(*row)
    if report.modules:
        console.print(t)
        if not wide and len(files) > 1:
            for m in report.modules:
                console.print(f"[dim]{escape(m.module)}: {escape(m.file)}[/]")
        for m in report.modules:
            for f in m.findings:
                console.print(f"[red]{escape(m.file)}: {escape(m.module)}:[/] {escape(f)}")
            for n in m.notes:
                console.print(f"[dim]{escape(m.file)}: {escape(m.module)}: {escape(n)}[/]")
    else:
        console.print("rtlopt check: no Verilog module changed")
    for n in report.notes:
        console.print(f"[dim]{escape(n)}[/]")
