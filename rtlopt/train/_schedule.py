"""KL-budget schedules: fixed, cosine, reverse cosine and the adaptive controller.

Every schedule answers :meth:`DeltaSchedule.delta` (the budget to use at a step) and is told
the outcome of each step through :meth:`DeltaSchedule.observe`, which returns the
:class:`Decision` for the next step. The run loop does::

    for step in range(total):
        delta = schedule.delta(step, total)
        batch = batch_advantages(groups, delta, cfg.train)
        ...policy update...
        decision = schedule.observe(batch.signals(kl_ref))   # delta of step + 1, rule fired

Adaptive controller (TTT-RTL appendix I, table 9; constants in ``AdaptiveKLConfig``):

* Four signals, each smoothed by one EMA with ``alpha`` (equation 8): policy-vs-reference KL,
  eff-n, const-frac and beta-max rate. The first observation initialises an EMA; a missing
  signal (``None``) leaves its EMA unchanged, and a rule whose EMA does not exist yet does not
  fire.
* Stagnation is measured against the best batch maximum so far (the paper's "new peak"): a
  batch maximum above it by at least ``delta_r_min`` relative to it (``max > best +
  delta_r_min * |best|``) resets the no-improvement counter; anything else increments it, and
  the best so far becomes the larger of the two. (An EMA of the batch maximum, ``alpha_r``,
  dips after a weak batch, so a noisy maximum would read as a new peak and P3 would never
  fire; ``alpha_r`` is kept in the configuration but unused.) The first maximum initialises it.
* Thresholds on eff-n scale with the group size: eff-n ranges over ``1..k``, and the paper's
  ``tau_n``, ``tau_n_wta`` and ``tau_n_stag`` were set for ``k_ref = 8`` rollouts, so at ``k``
  rollouts (the step's mean number of rewarded rollouts per group) each is multiplied by
  ``k / k_ref``. Unscaled, P4 (``eff-n > 5.5``) could never fire at 4 rollouts.
* ``train.adaptive.off`` switches rules off one at a time (ablations): a rule named there never
  fires and the ladder goes on to the next.
* Warm-up: for the first ``t_warm`` steps delta is ``delta0`` and only P1 may fire: the budget
  of step ``t_warm + 1`` (1-based) is the first the ladder sets, from the ``t_warm`` batches
  observed.
* Then the priority ladder P1 (KL brake: reset to delta0), P2 (winner-take-all: shrink),
  P3 (stagnation: shrink), P4 (over-exploring: grow), else hold; shrink/grow are clamped to
  ``[delta_min, delta_max]``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rtlopt.config import TrainConfig
from rtlopt.errors import RtloptError
from rtlopt.plugins import DELTA_SCHEDULES

__all__ = [
    "DELTA_SCHEDULES",
    "AdaptiveSchedule",
    "CosineSchedule",
    "Decision",
    "DeltaSchedule",
    "DeltaScheduleFactory",
    "FixedSchedule",
    "ReverseCosineSchedule",
    "StepSignals",
    "cosine_delta",
    "make_schedule",
]


@dataclass(frozen=True)
class StepSignals:
    """What one step tells the KL-budget schedule (``None``: not measured this step).

    Attributes:
        kl_ref: Mean policy-vs-reference KL of the step's rollouts.
        eff_n: Mean effective number of rollouts per group.
        const_frac: Fraction of constant-reward groups.
        beta_max_rate: Fraction of groups whose beta* saturated.
        batch_max_reward: Largest reward of the step.
        group_size: Mean number of rewarded rollouts per group (the ``k`` the eff-n
            thresholds scale with); ``None``: ``k_ref``.
    """

    kl_ref: float | None
    eff_n: float | None
    const_frac: float | None
    beta_max_rate: float | None
    batch_max_reward: float | None
    group_size: float | None = None


@dataclass(frozen=True)
class Decision:
    """The budget for the next step and the rule that set it.

    ``rule`` is ``P1``..``P4``, ``hold`` or ``warmup`` for the adaptive controller, and the
    schedule's name (``fixed``, ``cosine``, ``cosine-reverse``) otherwise.
    """

    delta: float
    rule: str


class DeltaSchedule(Protocol):
    """A KL-budget schedule."""

    def delta(self, step: int, total_steps: int) -> float:
        """The budget for ``step`` (0-based) of a run of ``total_steps``."""
        ...

    def observe(self, signals: StepSignals) -> Decision:
        """Take one finished step into account; return the next step's decision."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The schedule's state, for resume."""
        ...

    def load_json(self, data: Mapping[str, Any]) -> None:
        """Restore a state written by :meth:`to_json`."""
        ...


class DeltaScheduleFactory(Protocol):
    """What the :data:`~rtlopt.plugins.DELTA_SCHEDULES` registry holds (entry points
    ``rtlopt.delta_schedules``): builds a schedule from the training configuration."""

    def __call__(self, cfg: TrainConfig) -> DeltaSchedule:
        """A schedule configured by ``cfg`` (its constants; state starts fresh)."""
        ...


def make_schedule(cfg: TrainConfig, state: Mapping[str, Any] | None = None) -> DeltaSchedule:
    """The schedule named by ``cfg.delta``, optionally restored from ``state``.

    Raises:
        PluginError: unknown schedule name.
        RtloptError: ``state`` belongs to another schedule.
    """
    factory: DeltaScheduleFactory = DELTA_SCHEDULES.get(cfg.delta)  # untyped table: bind it
    schedule = factory(cfg)
    if state is not None:
        schedule.load_json(state)
    return schedule


def cosine_delta(step: int, total_steps: int, start: float, end: float) -> float:
    """Cosine interpolation from ``start`` at step 0 to ``end`` at step ``total_steps - 1``."""
    if total_steps <= 1:
        return start
    frac = min(max(step / (total_steps - 1), 0.0), 1.0)
    return end + (start - end) * 0.5 * (1.0 + math.cos(math.pi * frac))


def _check_kind(data: Mapping[str, Any], kind: str) -> None:
    if data.get("kind") != kind:
        raise RtloptError(
            f"saved KL schedule is {data.get('kind')!r}, configured {kind!r}",
            hint="resume with the run's own configuration",
        )


class _Stateless:
    """Shared bookkeeping of the non-adaptive schedules: the last step asked for."""

    kind = ""

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg
        self._step = -1
        self._total = 0

    def _value(self, step: int, total_steps: int) -> float:
        raise NotImplementedError

    def delta(self, step: int, total_steps: int) -> float:
        """The budget for ``step``."""
        self._step, self._total = step, total_steps
        return self._value(step, total_steps)

    def observe(self, signals: StepSignals) -> Decision:
        """The budget of the step after the last one asked for; signals are ignored."""
        return Decision(self._value(self._step + 1, self._total), self.kind)

    def to_json(self) -> dict[str, Any]:
        """The last step asked for."""
        return {"kind": self.kind, "step": self._step, "total": self._total}

    def load_json(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`to_json`."""
        _check_kind(data, self.kind)
        self._step, self._total = int(data["step"]), int(data["total"])


class FixedSchedule(_Stateless):
    """Constant ``delta_fixed`` (TTT-Discover's ln 2)."""

    kind = "fixed"

    def _value(self, step: int, total_steps: int) -> float:
        return self.cfg.delta_fixed


class CosineSchedule(_Stateless):
    """Cosine from ``cosine_start`` to ``cosine_end`` (1.1 -> 0.3: explore, then exploit)."""

    kind = "cosine"

    def _value(self, step: int, total_steps: int) -> float:
        return cosine_delta(step, total_steps, self.cfg.cosine_start, self.cfg.cosine_end)


class ReverseCosineSchedule(_Stateless):
    """Cosine from ``cosine_end`` to ``cosine_start`` (0.3 -> 1.1, the paper's sanity check)."""

    kind = "cosine-reverse"

    def _value(self, step: int, total_steps: int) -> float:
        return cosine_delta(step, total_steps, self.cfg.cosine_end, self.cfg.cosine_start)


@dataclass
class _Ema:
    kl: float | None = None
    eff_n: float | None = None
    const_frac: float | None = None
    beta_rate: float | None = None
    k: float | None = None


class AdaptiveSchedule:
    """The adaptive KL-budget controller of TTT-RTL appendix I (see the module docstring)."""

    kind = "adaptive"

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg
        self.a = cfg.adaptive
        self.current = self.a.delta0
        self.ema = _Ema()
        self.peak: float | None = None
        self.n_noimp = 0
        self.t = 0
        self.last_rule = "warmup"

    def delta(self, step: int, total_steps: int) -> float:
        """The current budget (set by the last :meth:`observe`)."""
        return self.current

    def _mix(self, old: float | None, new: float | None) -> float | None:
        if new is None:
            return old
        if old is None:
            return new
        return (1.0 - self.a.alpha) * old + self.a.alpha * new

    def _track_peak(self, batch_max: float | None) -> None:
        """Stagnation counter against the best batch maximum so far (``self.peak``)."""
        if batch_max is None:
            self.n_noimp += 1
            return
        if self.peak is None:
            self.peak = batch_max
            self.n_noimp = 0
            return
        if batch_max > self.peak + self.a.delta_r_min * abs(self.peak):
            self.n_noimp = 0
        else:
            self.n_noimp += 1
        self.peak = max(self.peak, batch_max)

    def _on(self, rule: str) -> bool:
        return rule not in self.a.off

    def _rule(self) -> Decision:
        a, e = self.a, self.ema
        if self._on("P1") and e.kl is not None and e.kl > a.tau_kl:
            return Decision(a.delta0, "P1")
        if self.t < a.t_warm:  # self.t batches seen: this decides the budget of step t + 1
            return Decision(a.delta0, "warmup")
        scale = (e.k if e.k is not None else a.k_ref) / a.k_ref
        if e.eff_n is None or e.const_frac is None:
            return Decision(self.current, "hold")
        if (
            self._on("P2")
            and e.beta_rate is not None
            and e.beta_rate > a.tau_beta
            and e.eff_n < a.tau_n_wta * scale
        ):
            return Decision(max(a.rho_minus * self.current, a.delta_min), "P2")
        if (
            self._on("P3")
            and self.n_noimp >= a.t_stag
            and e.const_frac < a.tau_const
            and e.eff_n < a.tau_n_stag * scale
        ):
            return Decision(max(a.rho_minus * self.current, a.delta_min), "P3")
        if (
            self._on("P4")
            and e.eff_n > a.tau_n * scale
            and e.const_frac < a.tau_const_lo
            and self.n_noimp < a.t_plat
        ):
            return Decision(min(a.rho_plus * self.current, a.delta_max), "P4")
        return Decision(self.current, "hold")

    def observe(self, signals: StepSignals) -> Decision:
        """Update the EMAs and the peak tracker, then apply the warm-up / P1-P4 ladder."""
        e = self.ema
        e.kl = self._mix(e.kl, signals.kl_ref)
        e.eff_n = self._mix(e.eff_n, signals.eff_n)
        e.const_frac = self._mix(e.const_frac, signals.const_frac)
        e.beta_rate = self._mix(e.beta_rate, signals.beta_max_rate)
        e.k = self._mix(e.k, signals.group_size)
        self._track_peak(signals.batch_max_reward)
        self.t += 1
        decision = self._rule()
        self.current = decision.delta
        self.last_rule = decision.rule
        return decision

    def to_json(self) -> dict[str, Any]:
        """Controller state: delta, EMAs, peak tracker, counters."""
        return {
            "kind": self.kind,
            "current": self.current,
            "ema": asdict(self.ema),
            "peak": self.peak,
            "n_noimp": self.n_noimp,
            "t": self.t,
            "last_rule": self.last_rule,
        }

    def load_json(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`to_json`."""
        _check_kind(data, self.kind)
        self.current = float(data["current"])
        self.ema = _Ema(**{k: (None if v is None else float(v)) for k, v in data["ema"].items()})
        self.peak = None if data["peak"] is None else float(data["peak"])
        self.n_noimp = int(data["n_noimp"])
        self.t = int(data["t"])
        self.last_rule = str(data["last_rule"])


if TYPE_CHECKING:  # the built-ins named in rtlopt.plugins.DELTA_SCHEDULES are factories
    _BUILTINS: tuple[DeltaScheduleFactory, ...] = (
        FixedSchedule,
        AdaptiveSchedule,
        CosineSchedule,
        ReverseCosineSchedule,
    )
