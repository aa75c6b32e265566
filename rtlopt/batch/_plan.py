"""Planning a batch: every target opened and preflighted before any run starts, the modules
checked against the top, the batch's record written for ``--resume``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rtlopt import session
from rtlopt.batch._profile import Skip
from rtlopt.batch._record import (
    BatchItem,
    BatchPlan,
    BatchRecord,
    _write_record,
)
from rtlopt.errors import UsageError


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
