"""Candidate evaluation: screen, compile, interface, simulation, formal, synthesis, timing."""

from rtlopt.evaluate._evaluator import Evaluator, interface_problem, make_workdir
from rtlopt.evaluate._sources import normalize_source, normalized_hash, source_hash
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
