"""Finishing a batch: the top's PPA with the improved modules in place, one branch (a commit per
improved module) or a branch each, one report and pull-request body with a row per module."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.batch._record import (
    BatchItem,
    BatchPlan,
    BatchResult,
    _write_record,
)
from rtlopt.errors import RtloptError
from rtlopt.profile import ContextResult, measure_in_context
from rtlopt.report import ModuleRow, multi_pr_body, multi_report

if TYPE_CHECKING:
    from rtlopt.run import FinishResult, RunOutcome
    from rtlopt.writeback import PullRequest

log = logging.getLogger("rtlopt.batch")


def _row(item: BatchItem, outcome: RunOutcome | None, fin: FinishResult | None) -> ModuleRow:
    d = item.target.design
    rel = _rel(d.target.file, d.root)
    if outcome is None:
        return ModuleRow(d.target.name, rel, "not started", run_dir=_rel(item.plan.run_dir, d.root))
    best = outcome.best if outcome.improved else None
    f = best.formal if best is not None else None
    status = "paused" if not outcome.finished else "improved" if best else "no improvement"
    return ModuleRow(
        d.target.name,
        rel,
        status,
        metric=outcome.metric,
        before=outcome.reference.ppa,
        after=best.ppa if best is not None else None,
        verdict=f"{f.verdict.value} ({f.method})" if f else "",
        commit=(fin.commit if fin is not None else None) or _recorded(item, "commit"),
        branch=(fin.branch if fin is not None else None) or _recorded(item, "branch"),
        run_dir=_rel(item.plan.run_dir, d.root),
    )


def _recorded(item: BatchItem, key: str) -> str | None:
    """The branch or commit a module's run recorded (a resumed ``each`` batch keeps them)."""
    from rtlopt.rundir import RunDir

    info = RunDir(item.plan.run_dir).read_info()
    value = getattr(info, key, "") if info is not None else ""
    return str(value) if value else None


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _rewrites(
    plan: BatchPlan, outcomes: Sequence[RunOutcome | None]
) -> list[tuple[BatchItem, RunOutcome]]:
    """The modules whose finished run beat their reference, with their outcomes."""
    out = []
    for item, o in zip(plan.items, outcomes, strict=False):
        if o is not None and o.finished and o.improved and o.best is not None and o.best_code:
            out.append((item, o))
    return out


def _in_context(
    plan: BatchPlan, improved: Sequence[tuple[BatchItem, RunOutcome]]
) -> tuple[ContextResult | None, str]:
    """The top with the improved modules in place (None and why not when not measured)."""
    top = plan.context
    if top is None:
        return None, ""
    if not improved:
        return None, "no module improved"
    if top.pdk is None:
        return None, "no PDK"
    rewrites = {i.target.design.target.name: (o.best_code or "").strip() for i, o in improved}
    try:
        ctx = measure_in_context(
            top.design,
            top.pdk,
            top.config.flow,
            top.config.sandbox,
            rewrites,
            plan.run_dir / "context",
        )
    except RtloptError as exc:  # the modules' results stand; the report says what failed
        log.warning("in context: %s", exc.one_line())
        return None, exc.one_line()
    return ctx, ""


def _write_one_branch(
    plan: BatchPlan, improved: Sequence[tuple[BatchItem, RunOutcome]]
) -> dict[str, tuple[str, str]]:
    """One commit per improved module on ``plan.branch``: module -> (commit, base); pushed
    after the last commit. All or nothing: when a later module cannot be written, the branch
    made for the earlier ones is deleted again."""
    from rtlopt.writeback import (
        PushFailed,
        commit_message_for,
        delete_branch,
        results_kept,
        write_branch,
    )

    assert plan.branch is not None
    out: dict[str, tuple[str, str]] = {}
    try:
        for n, (item, o) in enumerate(improved):
            d = item.target.design
            msg = commit_message_for(d.target.name, o, item.plan.run_id)
            res = write_branch(
                d.root,
                d.target.file,
                d.target.name,
                (o.best_code or "").strip() + "\n",
                branch=plan.branch,
                message=msg,
                push=plan.push if n == len(improved) - 1 else None,
                design=d,
                extend=n > 0,
            )
            out[d.target.name] = (res.commit_sha, res.base)
    except BaseException as exc:
        if out and not isinstance(exc, PushFailed):  # the last commit was made: it stays
            delete_branch(improved[0][0].target.design.root, plan.branch)
        if isinstance(exc, RtloptError):
            raise results_kept(exc, plan.run_dir) from None
        raise
    return out


def finish_batch(
    plan: BatchPlan,
    outcomes: Sequence[RunOutcome | None],
    finished: Sequence[FinishResult | None],
) -> BatchResult:
    """The in-context numbers, the branch (one mode), the report and the pull-request body.

    ``outcomes`` and ``finished`` follow ``plan.items`` (None: a module not run yet, when the
    batch paused). A paused batch gets its report so far, no branch and no in-context numbers.
    """
    done = len(outcomes) == len(plan.items) and all(o is not None and o.finished for o in outcomes)
    rows = [
        _row(item, o, f)
        for item, o, f in zip(
            plan.items,
            [*outcomes, *[None] * (len(plan.items) - len(outcomes))],
            [*finished, *[None] * (len(plan.items) - len(finished))],
            strict=True,
        )
    ]
    improved = _rewrites(plan, outcomes) if done else []
    ctx, ctx_err = _in_context(plan, improved) if done else (None, "the run is paused")
    ctx_err = ctx_err if plan.context is not None else ""
    commits = {m: (c, b) for m, c, b in plan.commits}
    if done and improved and plan.branch is not None and not plan.written:
        commits = _write_one_branch(plan, improved)
        _write_record(plan, written=(plan.branch,), commits=commits)
    rows = [
        replace(r, commit=commits[r.module][0], branch=plan.branch) if r.module in commits else r
        for r in rows
    ]
    rows += [ModuleRow(s.module, s.file, "skipped", reason=s.reason) for s in plan.skipped]
    branches = tuple(sorted({r.branch for r in rows if r.branch}))
    report = plan.run_dir / "report.md"
    report.write_text(
        multi_report(rows, ctx, run_id=plan.run_id, branches=branches, context_error=ctx_err)
    )
    body_path = None
    if improved:
        body_path = plan.run_dir / "pr_body.md"
        body_path.write_text(multi_pr_body(rows, ctx, plan.run_id))
    (plan.run_dir / "report.json").write_text(
        json.dumps(
            {
                "run_id": plan.run_id,
                "modules": [_row_json(r) for r in rows],
                "branches": list(branches),
                "in_context": ctx.to_json() if ctx is not None else None,
                "in_context_error": ctx_err,
            },
            indent=2,
        )
        + "\n"
    )
    request = _pull_request(plan, commits, body_path) if not plan.written else None
    return BatchResult(
        report,
        body_path,
        tuple(rows),
        branches,
        ctx,
        ctx_err,
        request,
        plan.push if commits and plan.push else None,
    )


def _row_json(r: ModuleRow) -> dict[str, Any]:
    def ppa(p: Any) -> dict[str, Any] | None:
        if p is None:
            return None
        return {"area_um2": p.area_um2, "delay_ps": p.delay_ps, "power_uw": p.power_uw}

    return {**r.__dict__, "before": ppa(r.before), "after": ppa(r.after)}


def _pull_request(
    plan: BatchPlan, commits: Mapping[str, tuple[str, str]], body: Path | None
) -> PullRequest | None:
    """Open the pull request of the one branch (``--pr``) once it is pushed."""
    if not (plan.pr and commits and plan.push and plan.branch and body is not None):
        return None
    from rtlopt.writeback import open_pull_request

    base = next(iter(commits.values()))[1]
    names = ", ".join(commits)
    return open_pull_request(
        plan.items[0].target.design.root,
        plan.push,
        branch=plan.branch,
        base=base,
        title=f"rtlopt: {names} rewritten (one commit each)",
        body_file=body,
        workdir=plan.run_dir / "work",
    )
