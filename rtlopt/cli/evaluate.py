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
    handle_errors,
    parse_defines,
    pdk_options,
)
from rtlopt.cli._evaluate_table import print_table
from rtlopt.config import choices
from rtlopt.errors import InfrastructureError
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
    from rtlopt.frontend._encoding import candidate_text

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
    text = candidate_text(cand_path)
    keep = workdir is not None or tgt.config.eval.keep_scratch
    with scratch_dir(workdir.resolve() if workdir else None, "rtlopt-eval-", keep=keep) as wd:
        memo = wants_memo() and not keep
        if as_json:
            ev = session.evaluate(tgt, text, wd, observe=memo)
        else:
            with console.status("evaluating the candidate ...") as status, _shown(status.update):
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
            print_table(tgt.design.target.name, ev.reference, ev.candidate, ev.metric, shown)
        if memo and not failed:  # the same command again: answered before anything loads
            name = tgt.design.target.name
            remember_evaluate(command, name, candidate, ev, kept=keep, as_json=as_json)
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
