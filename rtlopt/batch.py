"""Several modules in one run: one optimization after another, then one branch (a commit per
improved module) or a branch each, one report and pull-request body with a row per module, and
the top's PPA with the improved modules in place (PPA in context).

The command line drives it::

    plan = plan_batch(specs, ...)                    # every target opened, every preflight run
    for item in plan.items:                          # the command shows each run's progress
        outcome = session.optimize(item.target, ev, policy, item.plan, ...)
        finished = session.finish(item.target, outcome, item.plan)
    result = finish_batch(plan, outcomes, finished)  # in context, report, branch, PR

With ``run.parallel_modules`` other than 1, :func:`run_parallel` runs the modules at once, each
on its own thread with its own evaluator and policy, and returns the outcomes in the order of
``plan.items``; the modules' own finishing (report, ``each`` branch) and the batch's then run
one after another in that order, so the commits and the report are those of the sequential run.

A module's run is an ordinary run in ``<batch dir>/<module>/`` (its report, candidates and
proofs; ``--resume`` of that folder works alone too). ``batch.json`` in the batch folder lists
the modules, so ``rtlopt optimize --resume <batch dir>`` continues the whole batch: finished
modules only report again, the paused or interrupted one continues, the rest start.
Nothing the user owns is modified: the branch is written from HEAD in a temporary worktree.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt import session
from rtlopt.errors import RtloptError, UsageError
from rtlopt.profile import ContextResult, Profile, measure_in_context
from rtlopt.profile._suggest import rank
from rtlopt.report import ModuleRow, multi_pr_body, multi_report

if TYPE_CHECKING:
    from rtlopt.run import FinishResult, RunOutcome
    from rtlopt.writeback import PullRequest

__all__ = [
    "BATCH_FILE",
    "BatchItem",
    "BatchPlan",
    "BatchResult",
    "Skip",
    "find_profile",
    "finish_batch",
    "is_batch_dir",
    "plan_batch",
    "read_batch",
    "run_module",
    "run_parallel",
    "targets_from_profile",
]

log = logging.getLogger(__name__)

BATCH_FILE = "batch.json"
"""The list of a batch's modules in its folder (what ``--resume`` reads)."""


@dataclass(frozen=True)
class Skip:
    """A module the batch does not optimize, and why."""

    module: str
    reason: str
    file: str = ""


def find_profile(start: Path, runs_dir: str = ".rtlopt/runs") -> Path:
    """The newest ``profile.json`` that ``rtlopt profile`` wrote in the repository of ``start``.

    Raises:
        UsageError: no profile yet.
    """
    from rtlopt.frontend import find_repo_root

    root = find_repo_root(start)
    runs = Path(runs_dir) if Path(runs_dir).is_absolute() else root / runs_dir
    found = sorted(
        (runs / "profile").glob("*/profile.json"), key=lambda p: p.stat().st_mtime, reverse=True
    )
    if not found:
        raise UsageError(
            f"no profile under {runs / 'profile'}",
            hint="run `rtlopt profile` first, or pass --profile FILE",
        )
    return found[0]


def read_profile(path: Path) -> Profile:
    """A profile written by ``rtlopt profile`` (its ``profile.json``).

    Raises:
        UsageError: not a profile.
    """
    try:
        return Profile.from_json(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(
            f"not a profile: {exc}", path=path, hint="pass the profile.json of rtlopt profile"
        ) from None


def targets_from_profile(
    prof: Profile, count: int, root: Path | None = None
) -> tuple[list[tuple[Path, str]], list[Skip]]:
    """The first ``count`` modules of the profile's ranking that rtlopt can evaluate, as
    (file, module), and the modules ranked before the last one taken that it cannot (with the
    profile's reason)."""
    if count < 1:
        raise UsageError(f"--from-profile {count}: expected a count of at least 1")
    take: list[tuple[Path, str]] = []
    skips: list[Skip] = []
    for m in rank(prof):
        if len(take) >= count:
            break
        if not m.evaluable or not m.file:
            skips.append(Skip(m.name, m.why_not or "its file is not known", m.file))
            continue
        path = Path(m.file)
        if not path.is_absolute() and root is not None:
            path = root / path
        if not path.is_file():
            skips.append(Skip(m.name, f"its file {m.file} is gone", m.file))
            continue
        take.append((path, m.name))
    return take, skips


@dataclass(frozen=True)
class BatchItem:
    """One module of the batch: its opened target and its run's plan."""

    target: session.Target
    plan: session.RunPlan


@dataclass(frozen=True)
class BatchPlan:
    """Where and how a batch goes.

    Attributes:
        run_id: The batch's id.
        run_dir: The batch folder (a module's run in ``<run_dir>/<module>``).
        items: The modules, in the order they run.
        skipped: Modules asked for that cannot be optimized, with the reason.
        mode: ``one`` branch with a commit per module, or ``each`` module its own branch.
        branch: The branch of ``one`` mode (None: no branch, or ``each`` mode).
        push: Remote to push the branch to (``one`` mode).
        pr: Open a pull request from it (``one`` mode).
        context: The top to measure with the improved modules in place, or None.
        resumed: A batch continued from its folder.
    """

    run_id: str
    run_dir: Path
    items: tuple[BatchItem, ...]
    skipped: tuple[Skip, ...] = ()
    mode: str = "one"
    branch: str | None = None
    push: str | None = None
    pr: bool = False
    context: session.Target | None = None
    resumed: bool = False
    specs: tuple[session.TargetSpec, ...] = ()
    context_spec: session.TargetSpec | None = None
    want_branch: bool = True
    written: tuple[str, ...] = ()
    commits: tuple[tuple[str, str, str], ...] = ()  # (module, commit, base) on ``branch``


@dataclass(frozen=True)
class BatchResult:
    """What a batch produced."""

    report: Path
    pr_body_path: Path | None
    rows: tuple[ModuleRow, ...]
    branches: tuple[str, ...]
    context: ContextResult | None
    context_error: str = ""
    pull_request: PullRequest | None = None
    pushed_to: str | None = None

    @property
    def improved(self) -> bool:
        return any(r.status == "improved" for r in self.rows)


def _spec_json(spec: session.TargetSpec) -> dict[str, Any]:
    return {
        "file": str(spec.file.resolve()),
        "module": spec.module,
        "overrides": {k: v for k, v in spec.overrides.items() if v is not None},
        "config_file": str(spec.config_file.resolve()) if spec.config_file else None,
        "include_dirs": [str(p.resolve()) for p in spec.include_dirs],
        "defines": dict(spec.defines),
        "liberty": str(spec.liberty.resolve()) if spec.liberty else None,
    }


def _spec_from_json(d: Mapping[str, Any]) -> session.TargetSpec:
    return session.TargetSpec(
        Path(d["file"]),
        d.get("module"),
        overrides=dict(d.get("overrides") or {}),
        config_file=Path(d["config_file"]) if d.get("config_file") else None,
        include_dirs=tuple(Path(p) for p in d.get("include_dirs") or ()),
        defines=dict(d.get("defines") or {}),
        liberty=Path(d["liberty"]) if d.get("liberty") else None,
    )


def is_batch_dir(path: Path) -> bool:
    """``path`` is the folder of a run over several modules."""
    return (path / BATCH_FILE).is_file()


@dataclass(frozen=True)
class BatchRecord:
    """What ``batch.json`` says: enough to plan the batch again (``--resume``)."""

    run_id: str
    run_dir: Path
    specs: tuple[session.TargetSpec, ...]
    skipped: tuple[Skip, ...]
    branch: bool
    push: str | None
    pr: bool
    context: session.TargetSpec | None
    written: tuple[str, ...] = ()
    module_runs: tuple[str, ...] = ()
    commits: tuple[tuple[str, str, str], ...] = ()


def read_batch(run_dir: Path) -> BatchRecord:
    """The batch recorded in ``run_dir``.

    Raises:
        UsageError: not a batch folder.
    """
    path = run_dir.resolve() / BATCH_FILE
    try:
        d = json.loads(path.read_text())
        return BatchRecord(
            d["run_id"],
            run_dir.resolve(),
            tuple(_spec_from_json(m) for m in d["modules"]),
            tuple(Skip(**s) for s in d.get("skipped", [])),
            bool(d["branch"]),
            d.get("push"),
            bool(d.get("pr")),
            _spec_from_json(d["context"]) if d.get("context") else None,
            tuple(d.get("written", [])),
            tuple(m.get("run_dir", "") for m in d["modules"]),
            tuple((str(m), str(c), str(b)) for m, c, b in d.get("commits", [])),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"not a batch folder: {exc}", path=path) from None


def _write_record(
    plan: BatchPlan,
    written: Sequence[str] = (),
    commits: Mapping[str, tuple[str, str]] | None = None,
) -> None:
    data = {
        "run_id": plan.run_id,
        "mode": plan.mode,
        "branch": plan.want_branch,
        "branch_name": plan.branch,
        "push": plan.push,
        "pr": plan.pr,
        "context": _spec_json(plan.context_spec) if plan.context_spec is not None else None,
        "skipped": [s.__dict__ for s in plan.skipped],
        "modules": [
            {**_spec_json(s), "run_dir": str(i.plan.run_dir), "run_id": i.plan.run_id}
            for s, i in zip(plan.specs, plan.items, strict=True)
        ],
        "written": list(written or plan.written),
        "commits": [[m, c, b] for m, (c, b) in commits.items()]
        if commits
        else [list(x) for x in plan.commits],
    }
    plan.run_dir.mkdir(parents=True, exist_ok=True)
    (plan.run_dir / BATCH_FILE).write_text(json.dumps(data, indent=2) + "\n")


def _context_spec(text: str, first: session.Target, like: session.TargetSpec) -> session.TargetSpec:
    """The top of ``--in-context``: a module name, a file, or ``FILE:MODULE``.

    Raises:
        UsageError: neither a file nor a module of the repository.
    """
    path, _, name = text.rpartition(":") if ":" in text else (text, "", "")
    if Path(text).is_file():
        return replace(like, file=Path(text), module=None)
    if path and Path(path).is_file():
        return replace(like, file=Path(path), module=name or None)
    try:
        mod = first.design.modules[text]
    except KeyError:
        raise UsageError(
            f"--in-context {text}: no such module or file",
            hint="name the top module (--in-context picorv32) or its file",
        ) from None
    return replace(like, file=mod.file, module=mod.name)


def _check_below(top: session.Target, targets: Sequence[session.Target]) -> None:
    """Every module of the batch is part of the top's design.

    Raises:
        UsageError: one is not (the in-context numbers would not contain it).
    """
    files = {*top.design.prelude, *top.design.closure}
    for t in targets:
        name = t.design.target.name
        mod = top.design.modules.get(name)
        if mod is None or mod.file not in files:
            raise UsageError(
                f"module {name} is not part of {top.design.target.name}'s design",
                hint="name its top with --in-context TOP, or pass --no-in-context",
            )


def _one_branch(
    targets: Sequence[session.Target], run_id: str, branch: bool, push: str | None
) -> str | None:
    """The branch of ``one`` mode after its preflight (None: no branch, or ``each`` mode)."""
    cfg = targets[0].config
    if not branch or cfg.writeback.multi_branch != "one":
        return None
    from rtlopt.writeback import preflight_branch, remote_url

    part = "multi" if len(targets) > 1 else targets[0].design.target.name
    name = f"{cfg.writeback.branch_prefix}/{part}/{run_id}"
    for t in targets:
        preflight_branch(t.design.root, t.design.target.file, t.design.target.name, name)
    if push is not None:
        remote_url(targets[0].design.root, push)
    return name


def _branch_written(run_dir: Path) -> bool:
    """The module's run wrote its own branch already (``each`` mode)."""
    from rtlopt.rundir import RunDir

    info = RunDir(run_dir).read_info()
    return info is not None and bool(info.branch)


def _plan_items(
    targets: Sequence[session.Target],
    bdir: Path,
    resume: bool,
    each: tuple[bool, str | None, bool],
    command: tuple[str, ...],
) -> list[BatchItem]:
    """Each module's run plan in ``bdir/<module>`` (continued when it has a run.json);
    ``each``: a branch per module, its remote, a pull request per module."""
    branch, remote, pr = each
    items = []
    for t in targets:
        rdir = bdir / t.design.target.name
        point, own = None, branch
        if resume and (rdir / "run.json").is_file():
            point = session.read_resume(rdir)
            own = branch and not _branch_written(rdir)  # each mode: written once, kept
        mplan = session.plan_run(
            t,
            run_dir=rdir,
            resume=point,
            branch=own,
            push=remote if own else None,
            pr=pr and own,
            command=command,
        )
        items.append(BatchItem(t, mplan))
    return items


def plan_batch(
    specs: Sequence[session.TargetSpec],
    *,
    skipped: Sequence[Skip] = (),
    run_dir: Path | None = None,
    branch: bool = True,
    push: str | None = None,
    pr: bool = False,
    command: tuple[str, ...] = (),
    context: str | session.TargetSpec | None = None,
    resume: BatchRecord | None = None,
) -> BatchPlan:
    """Open every target and run every preflight (policy, tools, git) before any work.

    Args:
        specs: The modules, in the order they run.
        skipped: Modules asked for that cannot be optimized (they get a row).
        run_dir: The batch folder (default ``<repo>/<run.runs_dir>/multi-<run-id>``).
        branch: Write the result on git (``writeback.multi_branch``: one or each).
        push: Remote to push to.
        pr: Open a pull request from the pushed branch.
        command: The command line, for provenance.
        context: The top to measure with the improved modules in place (``--in-context``).
        resume: The recorded batch to continue (its folder, id and settings win).

    Raises:
        UsageError: no module, a module twice, bad input, or a preflight failed.
    """
    from rtlopt.rundir import new_run_id

    if not specs:
        raise UsageError("no module to optimize", hint="rtlopt optimize a.v:m1 b.v:m2")
    targets = [session.open_target(s) for s in specs]
    names = [t.design.target.name for t in targets]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UsageError(f"module {dup[0]} is named twice", hint="name each module once")
    cfg, root = targets[0].config, targets[0].design.root
    pr = pr or cfg.writeback.pull_request
    if pr and not branch:
        raise UsageError(
            "a pull request needs the result branch", hint="drop --no-branch, or drop --pr"
        )
    remote = push or cfg.writeback.push or ("origin" if pr else None)
    run_id = resume.run_id if resume else new_run_id("multi")
    written = resume.written if resume else ()
    # a resumed batch whose branch is written keeps it: no preflight of a taken name
    name = None if written else _one_branch(targets, run_id, branch, remote)
    if resume is not None:
        bdir = resume.run_dir
    elif run_dir is not None:
        bdir = run_dir.resolve()
    else:
        runs = Path(cfg.run.runs_dir)
        runs = runs if runs.is_absolute() else root / runs
        session._ignore_runs_dir(root, runs)
        bdir = runs / f"multi-{run_id}"
    each = branch and name is None and not written
    items = _plan_items(targets, bdir, resume is not None, (each, remote, pr), command)
    ctx_spec = (
        context
        if isinstance(context, session.TargetSpec) or context is None
        else _context_spec(context, targets[0], specs[0])
    )
    ctx = session.open_target(ctx_spec) if ctx_spec is not None else None
    if ctx is not None:
        _check_below(ctx, targets)
    plan = BatchPlan(
        run_id,
        bdir,
        tuple(items),
        tuple(skipped),
        cfg.writeback.multi_branch,
        name if not written else (written[0] if cfg.writeback.multi_branch == "one" else None),
        remote,
        pr,
        ctx,
        resume is not None,
        tuple(specs),
        ctx_spec,
        branch,
        written,
        resume.commits if resume else (),
    )
    _write_record(plan)
    return plan


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
    after the last commit."""
    from rtlopt.writeback import commit_message_for, results_kept, write_branch

    assert plan.branch is not None
    out: dict[str, tuple[str, str]] = {}
    for n, (item, o) in enumerate(improved):
        d = item.target.design
        msg = commit_message_for(d.target.name, o, item.plan.run_id)
        try:
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
        except RtloptError as exc:
            raise results_kept(exc, plan.run_dir) from None
        out[d.target.name] = (res.commit_sha, res.base)
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


def run_module(item: BatchItem, stop_after: int | None = None) -> RunOutcome:
    """One module's run without a progress display: its evaluator, its policy, the loop."""
    from contextlib import closing

    t = item.target
    with session.open_evaluator(t, item.plan.workdir) as ev:
        ev.reference()
        with closing(session.load_policy(t.config)) as policy:
            return session.optimize(t, ev, policy, item.plan, stop_after=stop_after)


def run_parallel(
    plan: BatchPlan,
    stop_after: int | None = None,
    *,
    workers: int = 0,
    run_one: Callable[[BatchItem, int | None], RunOutcome] = run_module,
    on_done: Callable[[BatchItem, RunOutcome], None] | None = None,
) -> list[RunOutcome]:
    """Every module's run at once (at most ``workers`` at a time, 0: all), each on its own
    thread; the outcomes in the order of ``plan.items``, whatever order they end in.

    Raises:
        The first module's error (in the order of ``plan.items``) once every run has ended.
    """
    from concurrent.futures import ThreadPoolExecutor

    n = len(plan.items) if workers <= 0 else min(workers, len(plan.items))
    with ThreadPoolExecutor(max_workers=max(1, n), thread_name_prefix="rtlopt-module") as pool:
        futures = [pool.submit(run_one, item, stop_after) for item in plan.items]
        outcomes: list[RunOutcome] = []
        for item, fut in zip(plan.items, futures, strict=True):
            outcome = fut.result()
            if on_done is not None:
                on_done(item, outcome)
            outcomes.append(outcome)
    return outcomes
