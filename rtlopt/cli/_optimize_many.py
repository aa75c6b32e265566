"""`rtlopt optimize` over several modules (a presenter of :mod:`rtlopt.batch`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table

from rtlopt import batch, session
from rtlopt.cli._common import EXIT_INTERNAL, EXIT_OK, EXIT_REJECTED, console, err_console, escape
from rtlopt.cli._progress import status
from rtlopt.errors import UsageError
from rtlopt.profile import CLAIM
from rtlopt.run import FinishResult, RunOutcome

__all__ = ["ManyOptions", "optimize_many", "split_target"]

RunOne = Callable[[session.Target, session.RunPlan, "int | None"], RunOutcome]


@dataclass(frozen=True)
class ManyOptions:
    """The options of a run over several modules."""

    from_profile: int | None = None
    profile_json: Path | None = None
    in_context: str | None = None
    no_in_context: bool = False

    def wanted(self, targets: tuple[str, ...], resume: Path | None) -> bool:
        """The command asks for a batch (several targets, a profile, a top, a batch folder)."""
        return (
            len(targets) > 1
            or self.from_profile is not None
            or self.in_context is not None
            or (resume is not None and batch.is_batch_dir(resume))
        )


def split_target(text: str) -> tuple[Path, str | None]:
    """``FILE`` or ``FILE:MODULE`` (a file whose name holds a colon stays a file)."""
    path = Path(text)
    if path.exists() or ":" not in text:
        return path, None
    file, _, module = text.rpartition(":")
    return Path(file), module or None


def _candidates_for(module: str | None, candidates: Path | None, kw: Mapping[str, Any]) -> Any:
    """The overrides of one module: with ``--candidates DIR``, the scripted policy on
    ``DIR/<module>/`` when there is such a folder, else on ``DIR`` (the scripted policy hands
    every file of its folder to the module it optimizes); each file once, unless the steps or
    the budget are given."""
    overrides = dict(kw["overrides"])
    if candidates is None:
        return overrides
    if not candidates.exists():
        raise UsageError("candidates not found", path=candidates)
    from rtlopt.policy import candidate_paths

    own = candidates / module if module is not None else candidates
    path = (own if own.is_dir() else candidates).resolve()
    overrides["policy.backend"] = "scripted"
    overrides["policy.scripted_path"] = str(path)
    if overrides.get("run.steps") is None and overrides.get("search.node_budget") is None:
        overrides["search.node_budget"] = len(candidate_paths(path))
    return overrides


def _newest_profile(kw: Mapping[str, Any]) -> Path:
    """The newest profile.json under the runs folder of the configuration here."""
    from rtlopt.config import load_config

    cfg = load_config(Path.cwd(), config_file=kw.get("config_file")).config
    return batch.find_profile(Path.cwd(), cfg.run.runs_dir)


def _specs(
    targets: tuple[str, ...],
    module: str | None,
    kw: Mapping[str, Any],
    many: ManyOptions,
    candidates: Path | None,
) -> tuple[list[session.TargetSpec], list[batch.Skip], str | None]:
    """The modules to run, those skipped, and the top to measure in context."""
    if module is not None and len(targets) > 1:
        raise UsageError(
            "--module names one module", hint="write FILE:MODULE for each TARGET instead"
        )
    pairs = [split_target(t) for t in targets]
    if module is not None and pairs:
        pairs = [(pairs[0][0], module)]
    skipped: list[batch.Skip] = []
    context = many.in_context
    if many.from_profile is not None:
        path = many.profile_json or _newest_profile(kw)
        prof = batch.read_profile(path)
        picks, skipped = batch.targets_from_profile(prof, many.from_profile)
        have = {m for _, m in pairs}
        pairs += [(f, m) for f, m in picks if m not in have]
        console.print(f"profile: {path} (top {prof.top})")
        if context is None and not many.no_in_context:
            context = prof.top
    for p, _ in pairs:
        if not p.is_file():
            raise UsageError("target file not found", path=p, hint="TARGET is FILE or FILE:MODULE")
    specs = [
        session.TargetSpec(f, m, **{**kw, "overrides": _candidates_for(m or None, candidates, kw)})
        for f, m in pairs
    ]
    return specs, skipped, context


def optimize_many(
    targets: tuple[str, ...],
    module: str | None,
    kw: Mapping[str, Any],
    many: ManyOptions,
    *,
    run_dir: Path | None,
    resume: Path | None,
    stop_after: int | None,
    branch: bool,
    push: str | None,
    pr: bool,
    candidates: Path | None,
    run: RunOne,
) -> int:
    """Plan, run each module, finish; the exit code."""
    if resume is not None and batch.is_batch_dir(resume):
        rec = batch.read_batch(resume)
        plan = batch.plan_batch(
            rec.specs,
            skipped=rec.skipped,
            branch=rec.branch,
            push=rec.push,
            pr=rec.pr,
            command=tuple(sys.argv),
            context=rec.context,
            resume=rec,
        )
    elif resume is not None:
        raise UsageError(
            "--resume of one module's run takes no TARGET nor --from-profile / --in-context",
            path=resume,
        )
    else:
        specs, skipped, context = _specs(targets, module, kw, many, candidates)
        plan = batch.plan_batch(
            specs,
            skipped=skipped,
            run_dir=run_dir,
            branch=branch,
            push=push,
            pr=pr,
            command=tuple(sys.argv),
            context=context,
        )
    return _run_batch(plan, stop_after, run)


def _parallel(plan: batch.BatchPlan) -> int:
    """How many modules run at once (``run.parallel_modules``; 0: all)."""
    n = plan.items[0].target.config.run.parallel_modules if plan.items else 1
    return len(plan.items) if n == 0 else min(n, len(plan.items))


def _run_batch(plan: batch.BatchPlan, stop_after: int | None, run: RunOne) -> int:
    names = [i.target.design.target.name for i in plan.items]
    at_once = _parallel(plan)
    how = "one after another" if at_once <= 1 else f"{at_once} at a time"
    console.print(
        f"[bold]{len(names)} modules[/] {how}: {', '.join(names)}"
        + (f"; in context: {plan.context.design.target.name}" if plan.context else "")
    )
    console.print(f"batch directory: {plan.run_dir}")
    for s in plan.skipped:
        console.print(f"  [dim]skipped {escape(s.module)}: {escape(s.reason)}[/]")
    outcomes: list[RunOutcome | None] = []
    finished: list[FinishResult | None] = []
    if at_once > 1:
        with status(f"optimizing {len(names)} modules, {at_once} at a time ..."):
            runs = batch.run_parallel(plan, stop_after, workers=at_once, on_done=_done)
        for item, outcome in zip(plan.items, runs, strict=True):
            finished.append(session.finish(item.target, outcome, item.plan))
            outcomes.append(outcome)
    for n, item in enumerate(plan.items if at_once <= 1 else (), 1):
        console.rule(f"module {n}/{len(plan.items)}: {item.target.design.target.name}")
        outcome = run(item.target, item.plan, stop_after)
        finished.append(session.finish(item.target, outcome, item.plan))
        outcomes.append(outcome)
        if not outcome.finished:
            break
    top = plan.context.design.target.name if plan.context else ""
    with status(f"measuring {top} with the improved modules in place ..." if top else "..."):
        result = batch.finish_batch(plan, outcomes, finished)
    _show(result)
    if any(o is not None and not o.finished for o in outcomes):
        console.print(f"paused; continue with: rtlopt optimize --resume {plan.run_dir}")
        return EXIT_OK
    if result.pull_request is not None and result.pull_request.error is not None:
        err_console.print(f"[bold red]error:[/] {escape(result.pull_request.error)}")
        return EXIT_INTERNAL
    if result.context_error and result.improved and plan.context is not None:
        err_console.print(f"[bold red]error:[/] in context: {escape(result.context_error)}")
        return EXIT_INTERNAL
    return EXIT_OK if result.improved else EXIT_REJECTED


def _done(item: batch.BatchItem, outcome: RunOutcome) -> None:
    """One line per module of a parallel batch, in the order the modules are named."""
    name = item.target.design.target.name
    best = outcome.best if outcome.improved else None
    ref = outcome.reference.ppa
    if best is not None and best.ppa is not None and ref is not None:
        change = best.ppa.metric(outcome.metric) / ref.metric(outcome.metric) - 1
        what = f"improved, {outcome.metric.upper()} {change:+.1%}"
    else:
        what = "paused" if not outcome.finished else "no improvement"
    console.print(f"module {escape(name)}: {what} ({outcome.steps_done} steps, {outcome.run_dir})")


def _show(result: batch.BatchResult) -> None:
    table = Table(title="modules", title_justify="left")
    for col in ("module", "result", "area", "delay", "metric", "commit"):
        table.add_column(col, justify="left" if col in ("module", "result", "commit") else "right")
    for r in result.rows:
        b, a = r.before, r.after or r.before
        cells = ["", "", ""]
        if b is not None and a is not None:
            cells = [
                f"{a.area_um2 / b.area_um2 - 1:+.1%}" if b.area_um2 else "-",
                f"{a.delay_ps / b.delay_ps - 1:+.1%}" if b.delay_ps else "-",
                f"{a.metric(r.metric) / b.metric(r.metric) - 1:+.1%}",
            ]
        res = r.status + (f" ({r.reason})" if r.reason else "")
        table.add_row(r.module, escape(res), *cells, (r.commit or "")[:10])
    console.print(table)
    ctx = result.context
    if ctx is not None:
        console.print(
            f"in context: {ctx.top} area {ctx.before.area_um2:,.1f} -> {ctx.after.area_um2:,.1f}"
            f" um^2 ({ctx.area_ratio - 1:+.1%}), delay {ctx.before.delay_ps:,.0f} -> "
            f"{ctx.after.delay_ps:,.0f} ps ({ctx.delay_ratio - 1:+.1%})"
        )
        for line in ctx.sentences():
            console.print(f"  {escape(line)}")
        console.print(f"[dim]{CLAIM}[/]")
    elif result.context_error:
        console.print(f"in context: not measured ({escape(result.context_error)})")
    for name in result.branches:
        console.print(f"branch: [bold]{escape(name)}[/]")
    console.print(f"report: {result.report}")
    if result.pr_body_path is not None:
        console.print(f"pull request body: {result.pr_body_path}")
    if result.pull_request is not None and result.pull_request.url:
        console.print(f"pull request: [bold]{escape(result.pull_request.url)}[/]")
