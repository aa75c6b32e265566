"""Train layer: advantages, KL-budget schedules and the adaptive controller (no torch here).

Public API:

* :func:`group_advantages` / :func:`batch_advantages` -> :class:`GroupStats` /
  :class:`BatchStats`; estimators in the :data:`ADVANTAGES` registry (``entropic``,
  ``expected``); :func:`solve_beta`, :func:`kl_to_uniform`.
* :data:`DELTA_SCHEDULES` (``fixed``, ``adaptive``, ``cosine``, ``cosine-reverse``),
  :func:`make_schedule`, :class:`StepSignals`, :class:`Decision`, :class:`AdaptiveSchedule`.

The policy-gradient step that needs torch lives in a separate module imported lazily.
"""

from rtlopt.train._advantage import (
    ADVANTAGES,
    MAX_LOG_RATIO,
    AdvantageEstimator,
    BatchStats,
    EntropicAdvantage,
    ExpectedAdvantage,
    GroupStats,
    batch_advantages,
    group_advantages,
    kl_to_uniform,
    solve_beta,
)
from rtlopt.train._schedule import (
    DELTA_SCHEDULES,
    AdaptiveSchedule,
    CosineSchedule,
    Decision,
    DeltaSchedule,
    FixedSchedule,
    ReverseCosineSchedule,
    StepSignals,
    cosine_delta,
    make_schedule,
)

__all__ = [
    "ADVANTAGES",
    "DELTA_SCHEDULES",
    "MAX_LOG_RATIO",
    "AdaptiveSchedule",
    "AdvantageEstimator",
    "BatchStats",
    "CosineSchedule",
    "Decision",
    "DeltaSchedule",
    "EntropicAdvantage",
    "ExpectedAdvantage",
    "FixedSchedule",
    "GroupStats",
    "ReverseCosineSchedule",
    "StepSignals",
    "batch_advantages",
    "cosine_delta",
    "group_advantages",
    "kl_to_uniform",
    "make_schedule",
    "solve_beta",
]
