"""Candidate evaluation: screen, compile, interface, simulation, formal, synthesis, timing."""

from rtlopt.evaluate._evaluator import Evaluator, interface_problem, make_workdir
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
    "PPA",
    "EvalResult",
    "Evaluator",
    "FormalResult",
    "Metric",
    "Mismatch",
    "SimResult",
    "Stage",
    "Status",
    "Verdict",
    "interface_problem",
    "make_workdir",
    "normalize_source",
    "normalized_hash",
    "source_hash",
]
