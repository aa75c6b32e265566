"""`rtlopt evaluate`: score one candidate against the original module."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from rtlopt.cli._common import (
    EXIT_OK,
    EXIT_REJECTED,
    console,
    design_options,
    existing_file,
    fmt,
    handle_errors,
    load_pdk,
    load_target,
    pdk_options,
    ratio,
    resolve,
)


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
    type=click.Choice(["auto", "adp", "ppa"]),
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
    help="Keep scratch files here (default: a temp folder).",
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
    """
    from rtlopt.evaluate import Evaluator, make_workdir

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
    rc = resolve(target, overrides, config_file)
    design = load_target(target, module, rc, include_dirs, defines)
    pdk_info = load_pdk(rc, liberty)
    text = cand_path.read_text(errors="replace")
    wd = workdir.resolve() if workdir else make_workdir()
    with Evaluator(design, rc.config, wd, pdk_info) as ev:
        if not as_json:
            with console.status("measuring the reference ..."):
                ref = ev.reference()
            with console.status("evaluating the candidate ..."):
                res = ev.evaluate(text)
        else:
            ref = ev.reference()
            res = ev.evaluate(text)
        kind = ev.metric_kind
    if as_json:
        out = {
            "reference": ref.to_json(),
            "candidate": res.to_json(),
            "metric": kind,
            "accepted": res.accepted,
            "workdir": str(wd),
        }
        sys.stdout.write(json.dumps(out, indent=2, default=str) + "\n")
    else:
        _print_table(design.target.name, ref, res, kind, wd)
    sys.exit(EXIT_OK if res.accepted else EXIT_REJECTED)


def _print_table(name: str, ref: Any, res: Any, kind: str, wd: Path) -> None:
    t = Table(title=f"{name}: reference vs candidate", title_justify="left")
    t.add_column("")
    t.add_column("reference", justify="right")
    t.add_column("candidate", justify="right")
    t.add_column("ratio", justify="right")
    rp, cp = ref.ppa, res.ppa
    rows = [
        ("area (um^2)", rp and rp.area_um2, cp and cp.area_um2),
        ("delay (ps)", rp and rp.delay_ps, cp and cp.delay_ps),
        ("power (uW)", rp and rp.power_uw, cp and cp.power_uw),
        ("ADP (um^2*ps)", rp and rp.adp, cp and cp.adp),
        ("PPA product", rp and rp.ppa_product, cp and cp.ppa_product),
    ]
    for label, a, b in rows:
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
        f"formal: {verdict}{method}"
        + (f" - {res.formal.reason}" if res.formal and res.formal.reason else "")
    )
    if res.netlist is not None:
        nl = res.netlist
        console.print(f"netlist check: {'pass' if nl.passed else 'FAIL'} ({nl.vectors} vectors, "
                      f"{nl.mismatches} mismatches)")
    console.print(f"metric: {kind}")
    if res.accepted:
        console.print(
            "[bold green]ACCEPTED[/]: equivalent to the reference"
            + (
                f"; {kind.upper()} ratio {ratio(cp.metric(kind), rp.metric(kind))}"
                if cp and rp
                else ""
            )
        )
    else:
        console.print(
            f"[bold red]REJECTED[/] ({res.status.value} at {res.stage.value}): {res.reason}"
        )
    console.print(f"[dim]scratch: {wd}[/]")
