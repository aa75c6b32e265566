"""Candidate evaluation: screen, compile, interface, simulation, formal, synthesis, timing."""

from rtlopt.evaluate.result import (
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

__all__ = ["PPA", "EvalResult", "FormalResult", "Metric", "Mismatch", "SimResult", "Stage",
           "Status", "Verdict"]
