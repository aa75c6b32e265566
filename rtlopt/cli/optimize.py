"""`rtlopt optimize`: the test-time training run (a presenter of :mod:`rtlopt.session`)."""

from __future__ import annotations

import os
import sys
import warnings
from contextlib import closing
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from rtlopt import session
from rtlopt.cli._common import (
    EXIT_OK,
    EXIT_REJECTED,
    console,
    design_options,
    fmt,
    handle_errors,
    parse_defines,
    pdk_options,
    run_options,
)
from rtlopt.errors import UsageError
from rtlopt.evaluate import EvalResult
from rtlopt.run import FinishResult, RunEvents, RunOutcome, StepRecord


@click.command()
@click.argument("target", type=click.Path(path_type=Path), required=False)
@design_options
@pdk_options
@run_options
@click.option(
    "--candidates",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder or file list of candidates; implies --policy scripted.",
)
@click.option(
    "--spec",
    type=click.Path(path_type=Path),
    default=None,
    help="Specification text for the prompts (default: the module's header comments).",
)
@click.option(
    "--jobs", type=int, default=None, help="Parallel candidate evaluations (0: one per core)."
)
@click.option(
    "--run-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Run directory (default: <repo>/.rtlopt/runs/<run-id>).",
)
@click.option(
    "--resume",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=None,
    help="Continue the run in this directory.",
)
@click.option(
    "--stop-after",
    type=int,
    default=None,
    help="Pause after this many steps in this session; continue later with --resume.",
)
@click.option("--no-branch", is_flag=True, default=False, help="Do not write a git branch.")
@click.option("--push", type=str, default=None, help="Push the result branch to this remote.")
@handle_errors
def optimize(
    target: Path | None,
    module: str | None,
    config_file: Path | None,
    include_dirs: tuple[Path, ...],
    defines: tuple[str, ...],
    liberty: Path | None,
    candidates: Path | None,
    spec: Path | None,
    run_dir: Path | None,
    resume: Path | None,
    stop_after: int | None,
    no_branch: bool,
    push: str | None,
    **settings: Any,  # --frontend, --pdk, --jobs and the run options, by option name
) -> None:
    """Optimize the module in TARGET by test-time training.

    Each step samples parent designs from the state pool, asks the policy for rewrites, scores
    every rewrite (syntax, simulation and formal equivalence, synthesis PPA), admits the best
    into the pool and updates the policy's weights. The best proven-equivalent design goes on a
    new git branch `rtlopt/<module>/<run-id>` with a report. Exit 0 when a design beats the
    reference, 1 when none does, 2 on bad input.
    """
    point = session.read_resume(resume) if resume is not None else None
    if point is not None:
        # A resumed run keeps its recorded target and configuration.
        target, module, config_file = point.target_file, module or point.module, point.config_file
    if target is None:
        raise UsageError("missing TARGET", hint="rtlopt optimize path/to/file.v [--module M]")
    overrides = {} if point is not None else _overrides(candidates, spec, settings)
    # Everything that can fail on bad input fails here, before tools or models start.
    tgt = session.open_target(
        session.TargetSpec(
            target,
            module,
            overrides=overrides,
            config_file=config_file,
            include_dirs=include_dirs,
            defines=parse_defines(defines),
            liberty=liberty,
        )
    )
    plan = session.plan_run(
        tgt,
        run_dir=run_dir,
        resume=point,
        branch=not no_branch,
        push=push,
        command=tuple(sys.argv),
    )
    outcome = _run(tgt, plan, stop_after)
    if not outcome.finished:
        paused = session.finish(tgt, outcome, plan)
        console.print(f"paused after step {outcome.steps_done}; report so far: {paused.report}")
        console.print(f"continue with: rtlopt optimize --resume {plan.run_dir}")
        sys.exit(EXIT_OK)
    result = session.finish(tgt, outcome, plan)
    _show_result(outcome, result)
    sys.exit(EXIT_OK if outcome.improved else EXIT_REJECTED)


def _overrides(candidates: Path | None, spec: Path | None, s: dict[str, Any]) -> dict[str, Any]:
    """Configuration overrides from the command line (unset options are ``None``)."""
    policy = s["policy"]
    if candidates is not None:
        if not candidates.exists():
            raise UsageError("candidates not found", path=candidates)
        policy = "scripted"
    overrides: dict[str, Any] = {
        "flow.pdk": s["pdk"],
        "flow.metric": s["metric"],
        "project.frontend": s["frontend"],
        "project.spec": str(spec) if spec else None,
        "policy.backend": policy,
        "policy.model": s["model"],
        "policy.endpoint": s["endpoint"],
        "policy.scripted_path": str(candidates.resolve()) if candidates else None,
        "policy.max_new_tokens": s["max_new_tokens"],
        "run.steps": s["steps"],
        "run.rollouts": s["rollouts"],
        "run.seed": s["seed"],
        "search.parents": s["parents"],
        "search.sampler": s["reuse"],
        "search.node_budget": s["budget"],
        "train.delta": s["delta"],
        "train.advantage": s["advantage"],
        "train.learning_rate": s["lr"],
        "eval.workers": s["jobs"],
    }
    if s["seed"] is not None:
        overrides["harness.seed"] = s["seed"]
    return overrides


def _run(tgt: session.Target, plan: session.RunPlan, stop_after: int | None) -> RunOutcome:
    """Measure the reference, load the policy and run the loop with a progress bar."""
    cfg = tgt.config
    console.print(
        f"run [bold]{plan.run_id}[/] on [bold]{tgt.design.target.name}[/] "
        f"({cfg.flow.pdk}, policy {cfg.policy.backend}, {cfg.run.steps} steps x "
        f"{cfg.search.parents} parents x {cfg.run.rollouts} rollouts)"
    )
    console.print(f"run directory: {plan.run_dir}")
    with session.open_evaluator(tgt, plan.workdir) as ev:
        with console.status("measuring the reference ..."):
            ref = ev.reference()
        _show_reference(ref, tgt.metric)
        _quiet_model_libraries()
        with console.status(f"loading the {cfg.policy.backend} policy ..."):
            policy = session.load_policy(cfg)
        with closing(policy), _progress() as progress:
            events = _progress_events(progress, cfg.run.steps, tgt.metric, ref)
            return session.optimize(tgt, ev, policy, plan, events, stop_after=stop_after)


def _show_reference(ref: EvalResult, kind: str) -> None:
    assert ref.ppa is not None
    console.print(
        f"reference: area {fmt(ref.ppa.area_um2)} um^2, delay {fmt(ref.ppa.delay_ps)} ps, "
        f"power {fmt(ref.ppa.power_uw)} uW, {kind.upper()} {fmt(ref.ppa.metric(kind))}"
    )


def _show_result(outcome: RunOutcome, result: FinishResult) -> None:
    console.print(f"report: {result.report}")
    kind = outcome.metric
    best, ref = outcome.best, outcome.reference
    if best is not None and best.ppa is not None and ref.ppa is not None:
        m, ref_m = best.ppa.metric(kind), ref.ppa.metric(kind)
        console.print(
            f"best: {kind.upper()} {fmt(m)} ({(m / ref_m - 1) * 100:+.1f}% vs reference), "
            f"formal: {best.formal.verdict.value if best.formal else 'n/a'}"
        )
    if not outcome.improved:
        console.print("[yellow]no equivalent design beat the reference[/]")
        return
    if result.branch:
        console.print(f"branch: [bold]{result.branch}[/]")
        console.print("\npull request body:\n")
        console.print(result.pr_body, markup=False)


def _quiet_model_libraries() -> None:
    """Model libraries print progress bars and deprecation chatter; rtlopt shows its own."""
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TQDM_DISABLE", "1")
    for mod in ("transformers", "peft", "accelerate", "torch"):
        warnings.filterwarnings("ignore", module=mod)


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]step {task.completed}/{task.total}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=False,
    )


def _progress_events(progress: Progress, steps: int, kind: str, ref: EvalResult) -> RunEvents:
    """Events that drive one progress bar of ``steps`` steps: the phase, then the numbers."""
    assert ref.ppa is not None
    ref_m = ref.ppa.metric(kind)
    task = progress.add_task("", total=steps)
    best = {"text": "best: -"}

    def on_phase(step: int, phase: str) -> None:
        # A resumed run starts past step 1: the bar shows the steps already done.
        progress.update(task, completed=step - 1, description=f"{phase} | {best['text']}")

    def on_step(rec: StepRecord) -> None:
        if rec.best_metric is not None:
            imp = (rec.best_metric / ref_m - 1) * 100
            best["text"] = (
                f"best reward {rec.best_reward:.2f}, {kind.upper()} "
                f"{fmt(rec.best_metric)} ({imp:+.1f}%)"
            )
        else:
            best["text"] = f"best reward {rec.best_reward:.2f}"
        progress.update(
            task,
            completed=rec.step,
            description=f"{best['text']} | valid {rec.valid_frac:.0%} | "
            f"mean {rec.mean_reward:.2f} | delta {rec.delta:.3f}",
        )

    return RunEvents(on_phase=on_phase, on_step=on_step)
