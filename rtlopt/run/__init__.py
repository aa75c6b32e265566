"""The optimization run: the TTT-RTL loop and finishing (report, branch).

The run directory's layout and files are :mod:`rtlopt.rundir` (re-exported here).
"""

from rtlopt.run._finish import FinishResult, finish_run, pr_body
from rtlopt.run._loop import Optimizer, RunEvents, RunOutcome, candidate_text
from rtlopt.run._restart import RestartCoordinator, failure_signature
from rtlopt.rundir import (
    RunDir,
    RunInfo,
    RunState,
    StepRecord,
    atomic_write,
    iter_jsonl,
    new_run_id,
    read_json,
    write_json,
)

__all__ = [
    "FinishResult",
    "Optimizer",
    "RunDir",
    "RunEvents",
    "RunInfo",
    "RestartCoordinator",
    "RunOutcome",
    "RunState",
    "StepRecord",
    "atomic_write",
    "candidate_text",
    "failure_signature",
    "finish_run",
    "iter_jsonl",
    "new_run_id",
    "pr_body",
    "read_json",
    "write_json",
]
