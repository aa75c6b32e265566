"""A batch's plan and results, and its record ``batch.json`` in the batch folder (the modules
and their targets, so ``--resume`` of the batch folder continues the whole batch)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt import session
from rtlopt.batch._profile import Skip
from rtlopt.errors import UsageError
from rtlopt.profile import ContextResult
from rtlopt.report import ModuleRow

if TYPE_CHECKING:
    from rtlopt.writeback import PullRequest


BATCH_FILE = "batch.json"
"""The list of a batch's modules in its folder (what ``--resume`` reads)."""


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
