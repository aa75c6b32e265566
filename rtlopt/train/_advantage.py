"""Group advantages: the entropic leave-one-out estimator and the expected-reward (GRPO) one.

A *group* is the rollouts of one parent prompt. Rewards of ``None`` (infrastructure failures)
take no part: they get advantage 0 and ``used = False``. A group whose remaining rewards span
less than ``TrainConfig.degenerate_eps`` (or that has fewer than two of them) is degenerate:
every advantage is 0 and no rollout of it is used in the loss.

Entropic (TTT-RTL section 3.4, equations 5-6): beta* solves ``KL(q || U) = delta`` for
``q_i ~ exp(beta r_i)`` by bisection on ``log beta`` over ``[beta_lo, beta_hi]``
(``beta_iters`` halvings). KL grows monotonically with beta up to ``ln(k/m)`` (m = number of
rollouts tied at the maximum); when even ``beta_hi`` cannot reach delta the group is
*saturated* and beta* = beta_hi (the signal behind the controller's beta-max rate). Then
``A_i = exp(beta r_i) / mean_{j != i} exp(beta r_j) - 1``, computed in log space from rewards
shifted by their maximum so nothing overflows.

The budget cap. With ``m >= 2`` rollouts tied at the best reward the leave-one-out weights stay
bounded as beta grows (winners tend to ``(k-1)/(m-1) - 1``, the rest to -1). With one lone best
rollout they do not: as the budget approaches ``ln k`` its advantage grows like ``(k-1)/eta``
(``eta`` the weight left on the others), and at or past ``ln k`` (the adaptive controller's
range reaches ``4 ln 2 > ln 8``) beta* hits ``beta_hi`` and the advantage reached ~1e6 (the
gradient of one sample swamping the rest; ``inf`` in fp16). So such a group's budget is capped
at ``train.budget_cap x ln k`` (default 0.75): with k = 8 the lone winner's advantage tops out
near 62, with k = 4 near 36, instead of 1e6; the canonical ``ln 2`` is below the cap for every
k >= 4 and is unchanged. ``saturated`` still reports whether the *requested* budget was out of
reach (the controller's beta-max rate), ``capped`` that the cap was applied. The ratio is also
clamped at :data:`MAX_LOG_RATIO` as a last numeric guard. The cap is rtlopt's, not the paper's:
``train.budget_cap = 0`` turns it off (the paper-faithful setting; bench/search.py runs so).

Expected reward (GRPO): ``A_i = (r_i - mean) / std`` with the sample standard deviation.

Pooling (``pool = True`` in :func:`batch_advantages`, ``train.pool_degenerate``): the
degenerate groups of a step (one rollout, or constant rewards) are pooled into one group, a
cross-state baseline as in GRPO-SMu: each such rollout's advantage is measured against the
step's other such rollouts, whatever prompt they answered. EvolVE's IGR makes one child per
chain and step, so without pooling every group is a single rollout and nothing ever trains.
The controller's signals still describe the groups as sampled.

Ties (``metrics`` in :func:`batch_advantages`, ``train.ppa_tie``): before any of this, the
measured answers of a group whose figures of merit differ by less than the flow's noise floor
get their cluster's mean reward (``rtlopt.train._ties``), so a group whose answers differ only
by noise is degenerate by ``degenerate_eps`` like a constant one; a pooled group is tied again
over its members.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rtlopt.config import TrainConfig
from rtlopt.plugins import ADVANTAGES
from rtlopt.train._schedule import StepSignals
from rtlopt.train._ties import tie_rewards

__all__ = [
    "ADVANTAGES",
    "MAX_LOG_RATIO",
    "AdvantageEstimator",
    "AdvantageFactory",
    "BatchStats",
    "EntropicAdvantage",
    "ExpectedAdvantage",
    "GroupStats",
    "batch_advantages",
    "group_advantages",
    "kl_to_uniform",
    "make_advantage",
    "solve_beta",
]

MAX_LOG_RATIO = math.log(1e6)
"""Largest log of the leave-one-out weight ratio (A_i <= 1e6 - 1), reached only when saturated."""


@dataclass(frozen=True)
class GroupStats:
    """Advantages and diagnostics of one group.

    Attributes:
        advantages: One per rollout, aligned with the input (0 for unused rollouts).
        used: Whether each rollout enters the loss (has a reward, group not degenerate).
        beta: beta* (entropic, non-degenerate groups), else ``None``.
        eff_n: Effective number of rollouts ``1 / sum q_i^2`` (uniform q for degenerate groups;
            the number of rewarded rollouts for the expected estimator); ``None`` when no
            rollout has a reward.
        kl: Achieved ``KL(q || U)`` (entropic, non-degenerate), else ``None``.
        saturated: beta* hit ``beta_hi`` without reaching delta.
        degenerate: Constant (or fewer than two) rewards: all advantages zero.
        n_rewarded: Rollouts with a reward.
        capped: The group has one lone best rollout and its budget was capped at
            ``train.budget_cap x ln k`` (see the module docstring).
    """

    advantages: tuple[float, ...]
    used: tuple[bool, ...]
    beta: float | None
    eff_n: float | None
    kl: float | None
    saturated: bool
    degenerate: bool
    n_rewarded: int
    capped: bool = False


class AdvantageEstimator(Protocol):
    """Turns one group's rewards into advantages."""

    def __call__(self, rewards: Sequence[float | None], delta: float) -> GroupStats:
        """Advantages of one group at KL budget ``delta`` (ignored by non-entropic estimators)."""
        ...


class AdvantageFactory(Protocol):
    """What the :data:`~rtlopt.plugins.ADVANTAGES` registry holds (entry points
    ``rtlopt.advantages``): builds an estimator from the training configuration."""

    def __call__(self, cfg: TrainConfig) -> AdvantageEstimator:
        """An estimator configured by ``cfg`` (bisection range, degenerate threshold)."""
        ...


def make_advantage(cfg: TrainConfig) -> AdvantageEstimator:
    """The estimator named by ``cfg.advantage``.

    Raises:
        PluginError: unknown estimator name (the message lists the known ones).
    """
    factory: AdvantageFactory = ADVANTAGES.get(cfg.advantage)  # untyped table: bind its type
    return factory(cfg)


def _logsumexp(xs: Sequence[float]) -> float:
    m = max(xs)
    if m == -math.inf:
        return -math.inf
    return m + math.log(sum(math.exp(x - m) for x in xs))


def _log_q(rewards: Sequence[float], beta: float) -> list[float]:
    top = max(rewards)
    z = [beta * (r - top) for r in rewards]
    lse = _logsumexp(z)
    return [x - lse for x in z]


def kl_to_uniform(rewards: Sequence[float], beta: float) -> float:
    """``KL(q || U) = sum q_i ln(k q_i)`` for ``q_i ~ exp(beta r_i)`` (equation 5)."""
    k = len(rewards)
    logq = _log_q(rewards, beta)
    return math.log(k) + sum(math.exp(lq) * lq for lq in logq if lq > -math.inf)


def solve_beta(rewards: Sequence[float], delta: float, cfg: TrainConfig) -> tuple[float, bool]:
    """beta* with ``KL(q_beta || U) = delta`` by bisection on log beta.

    Returns:
        ``(beta, saturated)``: saturated when ``KL(beta_hi) < delta`` (beta = beta_hi). When
        even ``beta_lo`` overshoots delta, beta = beta_lo.
    """
    if kl_to_uniform(rewards, cfg.beta_hi) < delta:
        return cfg.beta_hi, True
    lo, hi = math.log(cfg.beta_lo), math.log(cfg.beta_hi)
    if kl_to_uniform(rewards, cfg.beta_lo) >= delta:
        return cfg.beta_lo, False
    for _ in range(cfg.beta_iters):
        mid = 0.5 * (lo + hi)
        if kl_to_uniform(rewards, math.exp(mid)) < delta:
            lo = mid
        else:
            hi = mid
    return math.exp(0.5 * (lo + hi)), False


def _degenerate(
    rewards: Sequence[float | None], n_rewarded: int, eff_n: float | None
) -> GroupStats:
    k = len(rewards)
    return GroupStats(
        advantages=(0.0,) * k,
        used=(False,) * k,
        beta=None,
        eff_n=eff_n,
        kl=None,
        saturated=False,
        degenerate=True,
        n_rewarded=n_rewarded,
    )


def _split(rewards: Sequence[float | None]) -> tuple[list[int], list[float]]:
    idx = [i for i, r in enumerate(rewards) if r is not None]
    return idx, [float(r) for r in rewards if r is not None]


class _GroupEstimator:
    """What every built-in estimator does first: a group without two different rewards (none,
    one, or all within ``degenerate_eps``) is degenerate, every advantage 0."""

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg

    def __call__(self, rewards: Sequence[float | None], delta: float) -> GroupStats:
        """Advantages of one group (``None``: a reward that does not count)."""
        idx, vals = _split(rewards)
        k = len(vals)
        if k == 0:
            return _degenerate(rewards, 0, None)
        if k < 2 or max(vals) - min(vals) < self.cfg.degenerate_eps:
            return _degenerate(rewards, k, float(k))
        return self._estimate(rewards, idx, vals, delta)

    def _estimate(
        self, rewards: Sequence[float | None], idx: list[int], vals: list[float], delta: float
    ) -> GroupStats:
        """The advantages of a group with at least two different rewards ``vals``, at the
        positions ``idx`` of ``rewards``."""
        raise NotImplementedError


class EntropicAdvantage(_GroupEstimator):
    """Entropic leave-one-out advantages at a KL budget (TTT-Discover / TTT-RTL); see the
    module docstring."""

    def _estimate(
        self, rewards: Sequence[float | None], idx: list[int], vals: list[float], delta: float
    ) -> GroupStats:
        k = len(vals)
        beta, saturated = solve_beta(vals, delta, self.cfg)
        top = max(vals)
        lone = sum(1 for r in vals if top - r <= self.cfg.degenerate_eps) == 1
        cap = self.cfg.budget_cap * math.log(k)
        capped = lone and cap > 0 and delta > cap
        if capped:
            beta, _ = solve_beta(vals, cap, self.cfg)
        z = [beta * (r - top) for r in vals]
        adv = [0.0] * len(rewards)
        for pos, i in enumerate(idx):
            others = _logsumexp([z[j] for j in range(k) if j != pos]) - math.log(k - 1)
            log_ratio = min(z[pos] - others, MAX_LOG_RATIO)
            adv[i] = math.expm1(log_ratio)
        logq = _log_q(vals, beta)
        eff_n = 1.0 / sum(math.exp(2.0 * lq) for lq in logq)
        used = tuple(r is not None for r in rewards)
        return GroupStats(
            advantages=tuple(adv),
            used=used,
            beta=beta,
            eff_n=eff_n,
            kl=kl_to_uniform(vals, beta),
            saturated=saturated,
            degenerate=False,
            n_rewarded=k,
            capped=capped,
        )


class ExpectedAdvantage(_GroupEstimator):
    """Expected-reward advantages (GRPO): mean-centred, divided by the sample std; ``delta``
    is ignored."""

    def _estimate(
        self, rewards: Sequence[float | None], idx: list[int], vals: list[float], delta: float
    ) -> GroupStats:
        k = len(vals)
        mean = sum(vals) / k
        std = math.sqrt(sum((r - mean) ** 2 for r in vals) / (k - 1))
        adv = [0.0] * len(rewards)
        for pos, i in enumerate(idx):
            adv[i] = (vals[pos] - mean) / std
        return GroupStats(
            advantages=tuple(adv),
            used=tuple(r is not None for r in rewards),
            beta=None,
            eff_n=float(k),
            kl=None,
            saturated=False,
            degenerate=False,
            n_rewarded=k,
        )


def group_advantages(rewards: Sequence[float | None], delta: float, cfg: TrainConfig) -> GroupStats:
    """Advantages of one group with the estimator named by ``cfg.advantage``.

    Raises:
        PluginError: unknown estimator name.
    """
    return make_advantage(cfg)(rewards, delta)


@dataclass(frozen=True)
class BatchStats:
    """Advantages of one step's groups and the aggregate signals of the KL controller.

    Signals are averaged over groups with at least one reward (``beta_max_rate`` too: a
    degenerate group counts as not saturated, so three constant groups and one saturated group
    read 0.25); ``beta_mean`` over non-degenerate groups with a beta. A signal with nothing to
    average is ``None``.

    Attributes:
        groups: Per-group statistics, in input order (as sampled: the controller's signals).
        eff_n: Mean effective number of rollouts.
        const_frac: Fraction of degenerate (constant-reward) groups.
        beta_max_rate: Fraction of groups whose beta* saturated at ``beta_hi``.
        beta_mean: Mean beta*.
        max_reward: Largest reward of the step.
        mean_reward: Mean reward over rewarded rollouts.
        group_size: Mean number of rewarded rollouts per group.
        train_groups: Per-group advantages the loss uses: ``groups``, except that pooled
            degenerate groups carry their share of the pooled group (``None``: ``groups``).
        pooled: Rollouts whose advantage came from the pooled group.
        tied: Rollouts whose reward was merged with others' within the noise floor.
    """

    groups: tuple[GroupStats, ...]
    eff_n: float | None
    const_frac: float | None
    beta_max_rate: float | None
    beta_mean: float | None
    max_reward: float | None
    mean_reward: float | None
    group_size: float | None = None
    train_groups: tuple[GroupStats, ...] | None = None
    pooled: int = 0
    tied: int = 0

    @property
    def trained(self) -> tuple[GroupStats, ...]:
        """The per-group advantages the loss uses."""
        return self.train_groups if self.train_groups is not None else self.groups

    @property
    def n_used(self) -> int:
        """Rollouts that enter the loss."""
        return sum(sum(g.used) for g in self.trained)

    def signals(self, kl_ref: float | None) -> StepSignals:
        """The step's signals for the KL-budget schedule, with the measured reference KL."""
        return StepSignals(
            kl_ref=kl_ref,
            eff_n=self.eff_n,
            const_frac=self.const_frac,
            beta_max_rate=self.beta_max_rate,
            batch_max_reward=self.max_reward,
            group_size=self.group_size,
        )


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _pool(
    groups: Sequence[Sequence[float | None]],
    stats: tuple[GroupStats, ...],
    delta: float,
    estimator: AdvantageEstimator,
    tie: tuple[Sequence[Sequence[float | None]], float] | None = None,
) -> tuple[tuple[GroupStats, ...] | None, int]:
    """The degenerate groups with a reward pooled into one group (see the module docstring):
    the per-group statistics the loss uses, or None when the pool is degenerate too;
    ``tie``: the groups' figures of merit and the noise floor, to tie the pooled group."""
    members = [gi for gi, s in enumerate(stats) if s.degenerate and s.n_rewarded > 0]
    if len(members) < 2:
        return None, 0
    flat = [r for gi in members for r in groups[gi]]
    if tie is not None:
        flat, _ = tie_rewards(flat, [m for gi in members for m in tie[0][gi]], tie[1])
    joint = estimator(flat, delta)
    if joint.degenerate:
        return None, 0
    out = list(stats)
    at = 0
    for gi in members:
        k = len(groups[gi])
        out[gi] = dataclasses.replace(
            joint,
            advantages=joint.advantages[at : at + k],
            used=joint.used[at : at + k],
        )
        at += k
    return tuple(out), sum(sum(out[gi].used) for gi in members)


def batch_advantages(
    groups: Sequence[Sequence[float | None]],
    delta: float,
    cfg: TrainConfig,
    *,
    pool: bool = False,
    metrics: Sequence[Sequence[float | None]] | None = None,
) -> BatchStats:
    """Advantages of every group of a step plus the step's aggregate signals; ``pool``: the
    step's degenerate groups share one pooled group (a cross-state baseline); ``metrics``:
    each rollout's figure of merit (None: not measured), to tie answers within
    ``cfg.ppa_tie`` (see the module docstring)."""
    estimator = make_advantage(cfg)
    tied = 0
    tie = None
    if metrics is not None and cfg.ppa_tie > 0:
        tie = (metrics, cfg.ppa_tie)
        merged = [tie_rewards(g, m, cfg.ppa_tie) for g, m in zip(groups, metrics, strict=True)]
        groups = [g for g, _ in merged]
        tied = sum(n for _, n in merged)
    stats = tuple(estimator(g, delta) for g in groups)
    live = [s for s in stats if s.n_rewarded > 0]
    sharp = [s for s in live if s.beta is not None]
    rewards = [float(r) for g in groups for r in g if r is not None]
    train_groups, pooled = _pool(groups, stats, delta, estimator, tie) if pool else (None, 0)
    return BatchStats(
        groups=stats,
        eff_n=_mean([s.eff_n for s in live if s.eff_n is not None]),
        const_frac=_mean([1.0 if s.degenerate else 0.0 for s in live]),
        beta_max_rate=_mean([1.0 if s.saturated else 0.0 for s in live]),
        beta_mean=_mean([s.beta for s in sharp if s.beta is not None]),
        max_reward=max(rewards) if rewards else None,
        mean_reward=_mean(rewards),
        group_size=_mean([float(s.n_rewarded) for s in live]),
        train_groups=train_groups,
        pooled=pooled,
        tied=tied,
    )


if TYPE_CHECKING:  # the built-ins named in rtlopt.plugins.ADVANTAGES are AdvantageFactory values
    _BUILTINS: tuple[AdvantageFactory, ...] = (EntropicAdvantage, ExpectedAdvantage)
