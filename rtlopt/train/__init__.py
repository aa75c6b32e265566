"""Train layer: advantages, KL-budget schedules and the adaptive controller (no torch here).

Public API:

* :func:`group_advantages` / :func:`batch_advantages` -> :class:`GroupStats` /
  :class:`BatchStats`; estimators from the :data:`ADVANTAGES` registry
  (:class:`AdvantageFactory`, :func:`make_advantage`); :func:`solve_beta`, :func:`kl_to_uniform`.
* schedules from the :data:`DELTA_SCHEDULES` registry (:class:`DeltaScheduleFactory`,
  :func:`make_schedule`), :class:`StepSignals`, :class:`Decision`, :class:`AdaptiveSchedule`.
  Both registries are kept in :mod:`rtlopt.plugins`.

The policy-gradient step that needs torch lives in a separate module imported lazily.
"""

from rtlopt.train._advantage import (
    ADVANTAGES,
    MAX_LOG_RATIO,
    AdvantageEstimator,
    AdvantageFactory,
    BatchStats,
    EntropicAdvantage,
    ExpectedAdvantage,
    GroupStats,
    batch_advantages,
    group_advantages,
    kl_to_uniform,
    make_advantage,
    solve_beta,
)
from rtlopt.train._schedule import (
    DELTA_SCHEDULES,
    AdaptiveSchedule,
    CosineSchedule,
    Decision,
    DeltaSchedule,
    DeltaScheduleFactory,
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
    "AdvantageFactory",
    "BatchStats",
    "CosineSchedule",
    "Decision",
    "DeltaSchedule",
    "DeltaScheduleFactory",
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
    "make_advantage",
    "make_schedule",
    "solve_beta",
]
