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

from rtlopt.batch._finish import finish_batch
from rtlopt.batch._plan import plan_batch
from rtlopt.batch._profile import Skip, find_profile, read_profile, targets_from_profile
from rtlopt.batch._record import (
    BATCH_FILE,
    BatchItem,
    BatchPlan,
    BatchRecord,
    BatchResult,
    is_batch_dir,
    read_batch,
)
from rtlopt.batch._run import run_module, run_parallel

__all__ = [
    "BATCH_FILE",
    "BatchItem",
    "BatchPlan",
    "BatchRecord",
    "BatchResult",
    "Skip",
    "find_profile",
    "finish_batch",
    "is_batch_dir",
    "plan_batch",
    "read_batch",
    "read_profile",
    "run_module",
    "run_parallel",
    "targets_from_profile",
]
