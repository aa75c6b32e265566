"""`rtlopt optimize`: the test-time training run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from rtlopt.cli._common import (
    EXIT_OK,
    EXIT_REJECTED,
    console,
    design_options,
    fmt,
    handle_errors,
    load_pdk,
    load_target,
    pdk_options,
    resolve,
    run_options,
)
from rtlopt.errors import UsageError


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
    frontend: str | None,
    pdk: str | None,
    liberty: Path | None,
    policy: str | None,
    model: str | None,
    endpoint: str | None,
    candidates: Path | None,
    steps: int | None,
    parents: int | None,
    rollouts: int | None,
    seed: int | None,
    delta: str | None,
    reuse: str | None,
    advantage: str | None,
    lr: float | None,
    max_new_tokens: int | None,
    metric: str | None,
    spec: Path | None,
    jobs: int | None,
    run_dir: Path | None,
    resume: Path | None,
    stop_after: int | None,
    no_branch: bool,
    push: str | None,
) -> None:
    """Optimize the module in TARGET by test-time training.

    Each step samples parent designs from the state pool, asks the policy for rewrites, scores
    every rewrite (syntax, simulation and formal equivalence, synthesis PPA), admits the best
    into the pool and updates the policy's weights. The best proven-equivalent design goes on a
    new git branch `rtlopt/<module>/<run-id>` with a report. Exit 0 when a design beats the
    reference, 1 when none does, 2 on bad input.
    """
    from rtlopt.run import new_run_id, read_json

    run_info: dict[str, Any] = {}
    if resume is not None:
        resume = resume.resolve()
        try:
            run_info = read_json(resume / "run.json")
        except (OSError, ValueError):
            raise UsageError(
                "not a run directory (no run.json)",
                path=resume,
                hint="pass the folder printed by the interrupted run",
            ) from None
        target = Path(run_info["target_file"])
        module = module or run_info.get("module")
        config_file = resume / "config.toml"
    if target is None:
        raise UsageError("missing TARGET", hint="rtlopt optimize path/to/file.v [--module M]")
    if candidates is not None:
        if not candidates.exists():
            raise UsageError("candidates not found", path=candidates)
        policy = "scripted"
    overrides: dict[str, Any] = {
        "flow.pdk": pdk,
        "flow.metric": metric,
        "project.frontend": frontend,
        "project.spec": str(spec) if spec else None,
        "policy.backend": policy,
        "policy.model": model,
        "policy.endpoint": endpoint,
        "policy.scripted_path": str(candidates.resolve()) if candidates else None,
        "policy.max_new_tokens": max_new_tokens,
        "run.steps": steps,
        "run.rollouts": rollouts,
        "run.seed": seed,
        "search.parents": parents,
        "search.sampler": reuse,
        "train.delta": delta,
        "train.advantage": advantage,
        "train.learning_rate": lr,
        "eval.workers": jobs,
    }
    if seed is not None:
        overrides["harness.seed"] = seed
    if resume is not None:
        overrides = {}  # a resumed run keeps its recorded configuration
    rc = resolve(target, overrides, config_file)
    cfg = rc.config

    # Everything that can fail on bad input fails here, before tools or models start.
    from rtlopt.policy import create_policy, load_spec, preflight_policy

    design = load_target(target, module, rc, include_dirs, defines)
    pdk_info = load_pdk(rc, liberty)
    preflight_policy(cfg.policy)
    run_id = run_info.get("run_id") or new_run_id(design.target.name)
    branch = f"{cfg.writeback.branch_prefix}/{design.target.name}/{run_id}"
    do_branch = not no_branch
    from rtlopt.writeback import preflight_optimize

    # tools, branch name, git identity: checked now rather than after the whole run
    preflight_optimize(design, cfg, branch if do_branch else None)
    git_ok = do_branch
    spec_text = load_spec(cfg.project.spec, design.target.header_comment)
    if resume is not None:
        rdir = resume
    elif run_dir is not None:
        rdir = run_dir.resolve()
    else:
        runs = Path(cfg.run.runs_dir)
        rdir = (runs if runs.is_absolute() else design.root / runs) / run_id
        _ignore_rtlopt_dir(design.root, rdir)

    from rtlopt.evaluate import Evaluator
    from rtlopt.run import Optimizer, finish_run

    console.print(
        f"run [bold]{run_id}[/] on [bold]{design.target.name}[/] "
        f"({cfg.flow.pdk}, policy {cfg.policy.backend}, {cfg.run.steps} steps x "
        f"{cfg.search.parents} parents x {cfg.run.rollouts} rollouts)"
    )
    console.print(f"run directory: {rdir}")
    with Evaluator(design, cfg, rdir / "work", pdk_info) as ev:
        with console.status("measuring the reference ..."):
            ref = ev.reference()
        kind = ev.metric_kind
        assert ref.ppa is not None
        ref_m = ref.ppa.metric(kind)
        console.print(
            f"reference: area {fmt(ref.ppa.area_um2)} um^2, delay {fmt(ref.ppa.delay_ps)} ps, "
            f"power {fmt(ref.ppa.power_uw)} uW, {kind.upper()} {fmt(ref_m)}"
        )
        _quiet_model_libraries()
        with console.status(f"loading the {cfg.policy.backend} policy ..."):
            pol = create_policy(cfg.policy, cfg.train, seed=cfg.run.seed)
        try:
            opt = Optimizer(design, cfg, ev, pol, rdir, spec_text, command=sys.argv)
            opt.prepare(run_id, resume=resume is not None)
            outcome = _run_with_progress(opt, cfg.run.steps, kind, ref_m, stop_after)
        finally:
            pol.close()
        if not outcome.finished:
            from rtlopt.report import generate_report

            paths = generate_report(rdir)
            console.print(
                f"paused after step {outcome.steps_done}; report so far: {paths.markdown}"
            )
            console.print(f"continue with: rtlopt optimize --resume {rdir}")
            sys.exit(EXIT_OK)
        result = finish_run(
            outcome,
            design,
            cfg,
            branch=branch if (do_branch and git_ok) else None,
            push=push or cfg.writeback.push,
        )
    console.print(f"report: {result.report}")
    if outcome.best is not None and outcome.best.ppa is not None:
        m = outcome.best.ppa.metric(kind)
        console.print(
            f"best: {kind.upper()} {fmt(m)} ({(m / ref_m - 1) * 100:+.1f}% vs reference), "
            f"formal: {outcome.best.formal.verdict.value if outcome.best.formal else 'n/a'}"
        )
    if not outcome.improved:
        console.print("[yellow]no equivalent design beat the reference[/]")
        sys.exit(EXIT_REJECTED)
    if result.branch:
        console.print(f"branch: [bold]{result.branch}[/]")
        console.print("\npull request body:\n")
        console.print(result.pr_body, markup=False)
    sys.exit(EXIT_OK)


def _quiet_model_libraries() -> None:
    """Model libraries print progress bars and deprecation chatter; rtlopt shows its own."""
    import os
    import warnings

    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TQDM_DISABLE", "1")
    for mod in ("transformers", "peft", "accelerate", "torch"):
        warnings.filterwarnings("ignore", module=mod)


def _ignore_rtlopt_dir(root: Path, rdir: Path) -> None:
    """Keep run folders inside the repository out of git status."""
    try:
        rel = rdir.relative_to(root)
    except ValueError:
        return
    top = root / rel.parts[0]
    top.mkdir(parents=True, exist_ok=True)
    gi = top / ".gitignore"
    if not gi.exists():
        gi.write_text("# rtlopt run data\n*\n")


def _run_with_progress(
    opt: Any, steps: int, kind: str, ref_m: float, stop_after: int | None
) -> Any:
    from rtlopt.run import RunEvents

    best_line = {"text": "best: -"}
    with Progress(
        TextColumn("[bold]step {task.completed}/{task.total}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task("", total=steps, completed=opt.start_step - 1)

        def on_phase(step: int, phase: str) -> None:
            progress.update(task, description=f"{phase} | {best_line['text']}")

        def on_step(rec: Any) -> None:
            if rec.best_metric is not None:
                imp = (rec.best_metric / ref_m - 1) * 100
                best_line["text"] = (
                    f"best reward {rec.best_reward:.2f}, {kind.upper()} "
                    f"{fmt(rec.best_metric)} ({imp:+.1f}%)"
                )
            else:
                best_line["text"] = f"best reward {rec.best_reward:.2f}"
            progress.update(
                task,
                completed=rec.step,
                description=f"{best_line['text']} | valid {rec.valid_frac:.0%} | "
                f"mean {rec.mean_reward:.2f} | delta {rec.delta:.3f}",
            )

        return opt.run(RunEvents(on_phase=on_phase, on_step=on_step), stop_after=stop_after)
