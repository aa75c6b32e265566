"""The optimization run: the TTT-RTL loop, its run directory, and finishing (report, branch)."""

from rtlopt.run._finish import FinishResult, finish_run, pr_body
from rtlopt.run._loop import Optimizer, RunEvents, RunOutcome, StepRecord
from rtlopt.run._rundir import RunDir, atomic_write, iter_jsonl, new_run_id, read_json, write_json

__all__ = [
    "FinishResult",
    "Optimizer",
    "RunDir",
    "RunEvents",
    "RunOutcome",
    "StepRecord",
    "atomic_write",
    "finish_run",
    "iter_jsonl",
    "new_run_id",
    "pr_body",
    "read_json",
    "write_json",
]
