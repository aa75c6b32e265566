"""`rtlopt optimize`: the test-time training run (a presenter of :mod:`rtlopt.session`)."""

from __future__ import annotations

import os
import shlex
import sys
import warnings
from contextlib import closing
from pathlib import Path
from typing import Any

import click

from rtlopt import session
from rtlopt.cli._common import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_REJECTED,
    OPTIMIZE_SECTIONS,
    SectionedCommand,
    console,
    design_options,
    err_console,
    escape,
    flow_label,
    fmt,
    handle_errors,
    merge_settings,
    parse_defines,
    parse_settings,
    pdk_options,
    run_options,
    run_overrides,
    settings_option,
)
from rtlopt.cli._optimize_many import ManyOptions, optimize_many, split_target
from rtlopt.cli._progress import LineProgress, status
from rtlopt.errors import UsageError
from rtlopt.report import learning_line, no_update_note
from rtlopt.results import EvalResult
from rtlopt.run import FinishResult, RunEvents, RunOutcome, StepRecord


@click.command(cls=SectionedCommand, sections=OPTIMIZE_SECTIONS)
@click.argument("targets", nargs=-1, metavar="[TARGET]...")
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
@click.option(
    "--reflect-endpoint",
    type=str,
    default=None,
    metavar="URL",
    help="Base URL of an OpenAI-compatible reflector model (reflect.endpoint): it reads the "
    "step's failed and improved rollouts and writes lessons for the next prompts.",
)
@click.option(
    "--reflect-model",
    type=str,
    default=None,
    help="Reflector model id (reflect.model; default: the first model the endpoint lists).",
)
@click.option(
    "--from-profile",
    "from_profile",
    type=int,
    default=None,
    metavar="N",
    help="Optimize the first N modules the newest `rtlopt profile` suggests (skipping, with "
    "the reason, those rtlopt cannot evaluate); measures its top in context.",
)
@click.option(
    "--profile",
    "profile_json",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    default=None,
    help="The profile.json for --from-profile (default: the newest under the runs folder).",
)
@click.option(
    "--in-context",
    "in_context",
    type=str,
    default=None,
    metavar="TOP",
    help="After the run, synthesize TOP (module, file or FILE:MODULE) with the improved "
    "modules in place and report its area, delay and power beside the modules' own.",
)
@click.option(
    "--no-in-context", is_flag=True, default=False, help="Do not measure the profile's top."
)
@settings_option
@click.option("--no-branch", is_flag=True, default=False, help="Do not write a git branch.")
@click.option("--push", type=str, default=None, help="Push the result branch to this remote.")
@click.option(
    "--pr",
    is_flag=True,
    default=False,
    help="Open a pull request from the pushed branch with `gh pr create` (pushes to origin "
    "unless --push names a remote); without gh, print that command and the compare page.",
)
@handle_errors
def optimize(
    targets: tuple[str, ...],
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
    pr: bool,
    from_profile: int | None,
    profile_json: Path | None,
    in_context: str | None,
    no_in_context: bool,
    set_items: tuple[str, ...],
    **settings: Any,  # --frontend, --pdk, --jobs, --reflect-* and the run options, by name
) -> None:
    """Optimize the module in TARGET by test-time training (several TARGETs, FILE or
    FILE:MODULE, or --from-profile N: one module after another, one report).

    Each step samples parent designs from the state pool, asks the policy for rewrites, scores
    every rewrite (syntax, simulation and formal equivalence, synthesis PPA), admits the best
    into the pool and updates the policy's weights. The best proven-equivalent design goes on a
    new git branch `rtlopt/<module>/<run-id>` with a report. Exit 0 when a design beats the
    reference, 1 when none does, 2 on bad input.

    \b
    Examples:
      rtlopt optimize rtl/alu.v --pdk sky130               # CPU model, 100 steps
      rtlopt optimize rtl/alu.v -m alu --steps 20 --policy openai \\
          --endpoint http://gpu-box:8000/v1 --model Qwen/Qwen3-8B
      rtlopt optimize rtl/alu.v --candidates rewrites/ --steps 2   # your own rewrites
      rtlopt optimize rtl/alu.v --pdk nangate45 --push origin --pr # branch + pull request
      rtlopt optimize rtl/alu.v --reflect-endpoint http://llm:8000/v1 \\
          --set reflect.restart_after=5                      # ACE-style reflection
      rtlopt optimize --resume .rtlopt/runs/20260101-120000-ab12
      rtlopt optimize rtl/alu.v:alu rtl/fifo.v:fifo --in-context top   # one branch, 2 commits
      rtlopt optimize --from-profile 3 --pdk sky130        # the profile's first 3 suggestions
    """
    many = ManyOptions(from_profile, profile_json, in_context, no_in_context)
    if many.wanted(targets, resume):
        generic = parse_settings(set_items)
        kw: dict[str, Any] = {"config_file": config_file, "include_dirs": include_dirs}
        kw["overrides"] = _overrides(None, spec, settings, generic) if resume is None else {}
        kw |= {"defines": parse_defines(defines), "liberty": liberty}
        out: dict[str, Any] = {"run_dir": run_dir, "resume": resume, "push": push, "pr": pr}
        out |= {"branch": not no_branch, "candidates": candidates, "stop_after": stop_after}
        sys.exit(optimize_many(targets, module, kw, many, run=_run, **out))
    target = split_target(targets[0])[0] if targets else None
    if targets:
        module = module or split_target(targets[0])[1]
    point = session.read_resume(resume) if resume is not None else None
    if point is not None:
        # A resumed run keeps its recorded target and configuration.
        target, module, config_file = point.target_file, module or point.module, point.config_file
    if target is None:
        raise UsageError("missing TARGET", hint="rtlopt optimize path/to/file.v [--module M]")
    generic = parse_settings(set_items)
    overrides = {} if point is not None else _overrides(candidates, spec, settings, generic)
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
        pr=pr,
    )
    outcome = _run(tgt, plan, stop_after)
    if not outcome.finished:
        paused = session.finish(tgt, outcome, plan)
        console.print(f"paused after step {outcome.steps_done}; report so far: {paused.report}")
        console.print(f"continue with: rtlopt optimize --resume {plan.run_dir}")
        sys.exit(EXIT_OK)
    result = session.finish(tgt, outcome, plan)
    _show_result(outcome, result)
    if result.rejected:  # the two proofs disagree: nothing was written back
        console.print(f"[red]not kept:[/] the two proofs disagree: {result.rejected}")
        sys.exit(EXIT_REJECTED)
    if result.pull_request is not None and result.pull_request.error is not None:
        sys.exit(EXIT_INTERNAL)  # gh failed: a tool error; the branch and results stand
    sys.exit(EXIT_OK if outcome.improved else EXIT_REJECTED)


def _overrides(
    candidates: Path | None,
    spec: Path | None,
    s: dict[str, Any],
    generic: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Configuration overrides from the command line (unset options are ``None``): the named
    options, then the ``--set`` ones (``generic``; a key set both ways must agree)."""
    policy = s["policy"]
    if candidates is not None:
        if not candidates.exists():
            raise UsageError("candidates not found", path=candidates)
        policy = "scripted"
    overrides: dict[str, Any] = {
        **run_overrides({**s, "policy": policy}),
        "project.frontend": s["frontend"],
        "project.spec": str(spec) if spec else None,
        "policy.scripted_path": str(candidates.resolve()) if candidates else None,
        "eval.workers": s["jobs"],
        "eval.executor": s["executor"],
        "eval.ray_address": s["ray_address"],
        "reflect.endpoint": s["reflect_endpoint"],
        "reflect.model": s["reflect_model"],
    }
    if candidates is not None and s["steps"] is None and s["budget"] is None:
        from rtlopt.policy import candidate_paths

        # your own rewrites: each file once (the budget ends the run), not once per rollout
        # of the default 100 steps
        overrides["search.node_budget"] = len(candidate_paths(candidates.resolve()))
    return merge_settings(overrides, generic or {})


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
        with status("measuring the reference ..."):
            ref = ev.reference()
        _show_reference(ref, tgt.metric)
        _quiet_model_libraries()
        with status(f"loading the {cfg.policy.backend} policy ..."):
            policy = session.load_policy(cfg)
        with closing(policy), LineProgress(cfg.run.steps, label="step") as progress:
            events = _progress_events(progress, tgt.metric, ref)
            return session.optimize(tgt, ev, policy, plan, events, stop_after=stop_after)


def _show_reference(ref: EvalResult, kind: str) -> None:
    assert ref.ppa is not None
    console.print(f"flow: {escape(flow_label(ref))}")
    console.print(
        f"reference: area {fmt(ref.ppa.area_um2)} um^2, delay {fmt(ref.ppa.delay_ps)} ps, "
        f"power {fmt(ref.ppa.power_uw)} uW, {kind.upper()} {fmt(ref.ppa.metric(kind))}"
    )


def _show_result(outcome: RunOutcome, result: FinishResult) -> None:
    console.print(f"report: {result.report}")
    note = no_update_note(outcome.records, outcome.trainable)
    if note is not None:
        console.print(f"[yellow]{escape(note)}[/]")
    elif outcome.trainable and outcome.records:
        n = sum(1 for r in outcome.records if r.updated)
        console.print(f"learning: {n} of {len(outcome.records)} step(s) updated the policy")
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
        console.print(
            f"branch: [bold]{escape(result.branch)}[/] (commit "
            f"{(result.commit or '?')[:10]}, from {escape(result.base or '?')})"
        )
    if result.pushed_to:
        console.print(f"pushed: {escape(result.branch or '')} -> {escape(result.pushed_to)}")
    if result.pr_body_path is not None:
        console.print(f"pull request body: {escape(str(result.pr_body_path))}")
    pr = result.pull_request
    if pr is None:
        return
    if pr.url is not None:
        console.print(f"pull request: [bold]{escape(pr.url)}[/]")
        return
    if pr.error is not None:
        err_console.print(
            f"[bold red]error:[/] {escape(pr.error)} (log: {pr.log}); the branch "
            "is pushed: open the pull request by hand"
        )
    else:
        console.print("gh is not installed; open the pull request with:")
    console.print("  " + escape(shlex.join(pr.command)), soft_wrap=True)
    if pr.compare_url is not None:
        console.print(f"  or in the browser: {escape(pr.compare_url)}", soft_wrap=True)


def _quiet_model_libraries() -> None:
    """Model libraries print progress bars and deprecation chatter; rtlopt shows its own."""
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TQDM_DISABLE", "1")
    for mod in ("transformers", "peft", "accelerate", "torch"):
        warnings.filterwarnings("ignore", module=mod)


def _progress_events(progress: LineProgress, kind: str, ref: EvalResult) -> RunEvents:
    """Events that drive the progress line: the phase, then each finished step's numbers."""
    assert ref.ppa is not None
    ref_m = ref.ppa.metric(kind)
    # until a step finishes, the best design is the reference
    progress.update(
        key=f"best: the reference, {kind.upper()} {fmt(ref_m)}", key_short="best: reference"
    )

    def on_phase(step: int, phase: str) -> None:
        # A resumed run starts past step 1: the counter shows the steps already done.
        progress.update(completed=step - 1, phase=phase)

    def on_step(rec: StepRecord) -> None:
        if rec.best_metric is not None:
            imp = (rec.best_metric / ref_m - 1) * 100
            key = (
                f"best reward {rec.best_reward:.2f}, {kind.upper()} "
                f"{fmt(rec.best_metric)} ({imp:+.1f}%)"
            )
            short = f"best {rec.best_reward:.2f} {imp:+.1f}%"
        else:  # nothing equivalent beat it yet
            key = f"best: the reference, {kind.upper()} {fmt(ref_m)}"
            short = "best: reference"
        progress.update(
            completed=rec.step,
            key=key,
            key_short=short,
            phase="",
            details=[
                f"valid {rec.valid_frac:.0%}",
                f"mean {rec.mean_reward:.2f}",
                f"delta {rec.delta:.3f}",
                learning_line(rec),
            ],
        )
        progress.emit()

    return RunEvents(on_phase=on_phase, on_step=on_step)
