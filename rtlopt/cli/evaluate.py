"""`rtlopt evaluate`: score one candidate against the original module."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from rtlopt.cli._common import (
    EXIT_OK,
    EXIT_REJECTED,
    console,
    design_options,
    escape,
    existing_file,
    flow_label,
    fmt,
    handle_errors,
    parse_defines,
    pdk_options,
    ratio,
    shown,
)
from rtlopt.config import choices
from rtlopt.errors import InfrastructureError
from rtlopt.results import PPA, EvalResult
from rtlopt.tools import scratch_dir


@click.command()
@click.argument("target", type=click.Path(path_type=Path))
@click.option(
    "--candidate",
    "-c",
    type=click.Path(path_type=Path),
    required=True,
    help="File holding the rewritten module (same name and ports).",
)
@design_options
@pdk_options
@click.option(
    "--metric",
    type=click.Choice(choices("flow.metric")),
    default=None,
    help="Figure of merit (default from config: auto).",
)
@click.option("--no-formal", is_flag=True, default=False, help="Skip the formal check.")
@click.option(
    "--accept-unknown",
    is_flag=True,
    default=False,
    help="Also accept a candidate that passes simulation when the formal check cannot decide "
    "(reported as unknown); by default only proven candidates are accepted.",
)
@click.option("--seed", type=int, default=None, help="Harness seed.")
@click.option("--vectors", type=int, default=None, help="Random vectors / cycles.")
@click.option(
    "--workdir",
    type=click.Path(path_type=Path),
    default=None,
    help="Keep scratch files here (default: a temp folder removed at exit, unless "
    "eval.keep_scratch is set).",
)
@click.option(
    "--json", "as_json", is_flag=True, default=False, help="Print JSON instead of a table."
)
@handle_errors
def evaluate(
    target: Path,
    candidate: Path,
    module: str | None,
    config_file: Path | None,
    include_dirs: tuple[Path, ...],
    defines: tuple[str, ...],
    frontend: str | None,
    pdk: str | None,
    liberty: Path | None,
    metric: str | None,
    no_formal: bool,
    accept_unknown: bool,
    seed: int | None,
    vectors: int | None,
    workdir: Path | None,
    as_json: bool,
) -> None:
    """Score CANDIDATE against the module in TARGET.

    Runs the candidate through screening, compilation, the interface check, simulation against
    the original, the formal equivalence check, synthesis and timing/power, and prints the
    reference and the candidate side by side. Exit 0 when the candidate is accepted, 1 when it is
    rejected, 2 on bad input.

    \b
    Examples:
      rtlopt evaluate rtl/alu.v --candidate alu_fast.v --pdk sky130
      rtlopt evaluate rtl/core.v -m lza --candidate lza_new.v --json > verdict.json
    """
    from rtlopt import session
    from rtlopt.cli._fast import observe_command, remember_evaluate, wants_memo

    cand_path = existing_file(candidate, "candidate file")
    overrides: dict[str, Any] = {
        "flow.pdk": pdk,
        "flow.metric": metric,
        "project.frontend": frontend,
        "formal.enabled": False if no_formal else None,
        "formal.require_proof": False if accept_unknown else None,
        "harness.seed": seed,
        "harness.random_vectors": vectors,
    }
    spec = session.TargetSpec(
        target,
        module,
        overrides=overrides,
        config_file=config_file,
        include_dirs=include_dirs,
        defines=parse_defines(defines),
        liberty=liberty,
    )
    tgt = session.open_target(spec)
    # what the command read, right after reading it (for a memo of this command line)
    command = observe_command(spec, tgt.config_files) if wants_memo() else None
    text = cand_path.read_text(errors="replace")
    keep = workdir is not None or tgt.config.eval.keep_scratch
    with scratch_dir(workdir.resolve() if workdir else None, "rtlopt-eval-", keep=keep) as wd:
        memo = wants_memo() and not keep
        if as_json:
            ev = session.evaluate(tgt, text, wd, observe=memo)
        else:
            with console.status("measuring the reference ...") as status, _shown(status.update):
                ev = session.evaluate(tgt, text, wd, on_phase=status.update, observe=memo)
        # a tool crash or timeout is no verdict: exit 3, the scratch folder with its logs kept
        failed = ev.candidate.is_infrastructure_error
        shown = wd if keep or failed else None
        if not keep:  # the scratch folder goes: the counterexample's waveform stays
            from rtlopt.evaluate import keep_trace

            ev = dataclasses.replace(ev, candidate=keep_trace(ev.candidate))
        if as_json:
            out = {
                "reference": ev.reference.to_json(),
                "candidate": ev.candidate.to_json(),
                "metric": ev.metric,
                "accepted": ev.candidate.accepted,
                # every parameter configuration checked, with its verdict, and the scope
                "scope": ev.candidate.scope,
                "configurations": list(ev.candidate.configurations),
                "workdir": str(shown) if shown else None,
            }
            sys.stdout.write(json.dumps(out, indent=2, default=str) + "\n")
        else:
            _print_table(tgt.design.target.name, ev.reference, ev.candidate, ev.metric, shown)
        if memo and not failed:  # the same command again: answered before anything loads
            remember_evaluate(command, tgt.design.target.name, candidate, ev, keep)
        if failed:
            raise InfrastructureError(
                f"could not check the candidate: {ev.candidate.reason}",
                hint=f"logs kept in {wd}",
            )
    sys.exit(EXIT_OK if ev.candidate.accepted else EXIT_REJECTED)


@contextlib.contextmanager
def _shown(update: Callable[[str], object]) -> Iterator[None]:
    """The configuration being checked (``rtlopt.evaluate.configuration``) as the status."""

    class _Status(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            update(escape(record.getMessage()) + " ...")

    logger = logging.getLogger("rtlopt.evaluate.configuration")
    handler, level, propagate = _Status(), logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    # the log shows it too only when it shows INFO (-v)
    logger.propagate = logging.getLogger().getEffectiveLevel() <= logging.INFO
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate


def _print_parameters(res: EvalResult) -> None:
    """The scope of a parameterized verdict and every configuration checked."""
    if res.configurations:
        checked = "; ".join(f"{c['values']}: {c['verdict']}" for c in res.configurations)
        console.print(escape(f"parameters: {res.scope or 'rejected'} ({checked})"))


def _print_table(name: str, ref: EvalResult, res: EvalResult, kind: str, wd: Path | None) -> None:
    # rich's tables and the report layer only when a table is printed (not with --json)
    from rich.table import Table

    from rtlopt.report import counterexample_lines

    t = Table(title=f"{shown(name)}: reference vs candidate", title_justify="left")
    t.add_column("")
    t.add_column("reference", justify="right")
    t.add_column("candidate", justify="right")
    t.add_column("ratio", justify="right")
    rp, cp = ref.ppa, res.ppa
    rows: list[tuple[str, Callable[[PPA], float | None]]] = [
        ("area (um^2)", lambda p: p.area_um2),
        ("delay (ps)", lambda p: p.delay_ps),
        ("power (uW)", lambda p: p.power_uw),
    ]
    if any(p is not None and p.power_activity_uw is not None for p in (rp, cp)):
        rows += [
            ("power (vectorless)", lambda p: p.power_vectorless_uw),
            ("power (activity)", lambda p: p.power_activity_uw),
        ]
    rows += [
        ("ADP (um^2*ps)", lambda p: p.adp),
        ("PPA product", lambda p: p.ppa_product),
    ]
    for label, get in rows:
        a = get(rp) if rp else None
        b = get(cp) if cp else None
        t.add_row(label, fmt(a), fmt(b), ratio(b, a))
    t.add_row("reward", fmt(ref.reward), fmt(res.reward), "")
    console.print(t)
    verdict = res.formal.verdict.value if res.formal else "not run"
    method = f" ({res.formal.method})" if res.formal and res.formal.method else ""
    vectors = (
        f"{res.sim.vectors} vectors, {res.sim.mismatches} mismatches" if res.sim else "not run"
    )
    console.print(f"simulation: {vectors}")
    console.print(
        escape(
            f"formal: {verdict}{method}"
            + (f" - {res.formal.reason}" if res.formal and res.formal.reason else "")
        )
    )
    _print_parameters(res)
    if res.netlist is not None:
        nl = res.netlist
        console.print(
            f"netlist check: {'pass' if nl.passed else 'FAIL'} ({nl.vectors} vectors, "
            f"{nl.mismatches} mismatches)"
        )
    console.print(f"metric: {kind}; flow: {escape(flow_label(ref))}")
    if res.accepted:
        worse = bool(cp and rp and cp.metric(kind) > rp.metric(kind) * (1 + 1e-9))
        console.print(
            "[bold green]ACCEPTED[/]: equivalent to the reference"
            + (", but worse" if worse else "")
            + (
                f"; {kind.upper()} ratio {ratio(cp.metric(kind), rp.metric(kind))}"
                if cp and rp
                else ""
            )
        )
    elif res.is_infrastructure_error:
        console.print(
            f"[bold yellow]COULD NOT CHECK[/] ({res.status.value} at {res.stage.value}): "
            + escape(res.reason)
        )
    else:
        console.print(
            f"[bold red]REJECTED[/] ({res.status.value} at {res.stage.value}): "
            + escape(res.reason)
        )
        if res.logs.get("trace") and Path(res.logs["trace"]).is_file():
            from rtlopt.cli._trace_table import print_trace

            print_trace(console, res.logs["trace"])
        else:
            for line in counterexample_lines(res):
                console.print("  " + escape(line), soft_wrap=True)
    if wd is not None:
        console.print(f"[dim]scratch: {escape(str(wd))}[/]")
