"""Candidate evaluation: screen, compile, interface, simulation, formal, synthesis, timing."""

from rtlopt.evaluate._cache import CacheInputs
from rtlopt.evaluate._configs import text_change_elsewhere
from rtlopt.evaluate._evaluator import Evaluator, interface_problem, make_workdir
from rtlopt.evaluate._executor import (
    EXECUTORS,
    Executor,
    ExecutorFactory,
    LocalExecutor,
    TaskContext,
    make_executor,
)
from rtlopt.evaluate._sim_headers import header_simulator_change, unread_include_sites
from rtlopt.evaluate._trace import (
    Replay,
    Sample,
    failing_lines,
    keep_trace,
    load_replay,
)
from rtlopt.results import (
    PPA,
    EvalResult,
    FormalResult,
    Metric,
    Mismatch,
    SimResult,
    Stage,
    Status,
    Verdict,
)
from rtlopt.verilog import normalize_source, normalized_hash, source_hash

__all__ = [
    "CacheInputs",
    "Replay",
    "Sample",
    "failing_lines",
    "keep_trace",
    "load_replay",
    "EXECUTORS",
    "PPA",
    "EvalResult",
    "Evaluator",
    "Executor",
    "ExecutorFactory",
    "FormalResult",
    "Metric",
    "Mismatch",
    "SimResult",
    "Stage",
    "Status",
    "Verdict",
    "LocalExecutor",
    "TaskContext",
    "interface_problem",
    "make_executor",
    "make_workdir",
    "normalize_source",
    "normalized_hash",
    "source_hash",
    "text_change_elsewhere",
    "header_simulator_change",
    "unread_include_sites",
]
