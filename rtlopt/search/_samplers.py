"""Parent samplers: PUCT (TTT-RTL equation 1) and the paper's reuse ablations.

Every sampler returns *distinct* states, at most ``k`` of them. With
``SearchConfig.lineage_blocking`` no two returned states lie on one parent-child chain (one is
an ancestor of the other), so a batch may hold fewer than ``k`` states. The root is exempt from
lineage blocking: it holds no design, and since every state descends from it, blocking it would
turn every batch that contains it into a batch of one. The exception is the ``none`` sampler
(no reuse), which restarts every prompt from the root and so returns ``k`` copies of it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rtlopt.config import SearchConfig
from rtlopt.plugins import SAMPLERS
from rtlopt.search._pool import State, StatePool

__all__ = [
    "SAMPLERS",
    "EpsilonGreedySampler",
    "GreedySampler",
    "PuctSampler",
    "RootSampler",
    "Sampler",
    "ScoredState",
    "make_sampler",
    "puct_score",
    "puct_scores",
]


class Sampler(Protocol):
    """Chooses the parent states of one step."""

    def select(self, pool: StatePool, k: int, rng: random.Random) -> list[State]:
        """Up to ``k`` parents from ``pool``; ``rng`` is the only source of randomness."""
        ...


def make_sampler(cfg: SearchConfig) -> Sampler:
    """The parent sampler named by ``cfg.sampler`` (see :func:`~rtlopt.search.make_strategy`
    for every strategy).

    Raises:
        PluginError: unknown name (the message lists the known ones).
        TypeError: the name is a whole strategy (``igr``, ``mcts``), not a pool sampler.
    """
    factory: Callable[[SearchConfig], object] = SAMPLERS.get(cfg.sampler)
    built = factory(cfg)
    if not callable(getattr(built, "select", None)):
        raise TypeError(f"{cfg.sampler!r} is a search strategy, not a pool sampler")
    return built  # type: ignore[return-value]


def puct_score(q: float, sigma: float, prior: float, total: int, visits: int, c: float) -> float:
    """Equation (1): ``Q + c * sigma * P * sqrt(1 + T) / (1 + N)``."""
    return q + c * sigma * prior * math.sqrt(1.0 + total) / (1.0 + visits)


@dataclass(frozen=True)
class ScoredState:
    """A state with the terms of its PUCT score (for tests and logs)."""

    state: State
    q: float
    prior: float
    bonus: float
    score: float


def puct_scores(pool: StatePool, c: float) -> list[ScoredState]:
    """PUCT score of every state, best first.

    Q is the best one-step child reward (own reward before expansion), sigma the pool's reward
    range, P the normalized linear-rank prior of equation (2), T the number of expanded parents
    and N the state's visit count. Ties go to the higher reward, then the older state.
    """
    states = pool.states
    size = len(states)
    ranks = pool.ranks()
    norm = sum(size - r for r in ranks.values())
    sigma = pool.reward_range()
    out: list[ScoredState] = []
    for s in states:
        prior = (size - ranks[s.id]) / norm
        bonus = c * sigma * prior * math.sqrt(1.0 + pool.T) / (1.0 + s.visits)
        out.append(ScoredState(s, s.q, prior, bonus, s.q + bonus))
    out.sort(key=lambda x: (-x.score, -x.state.reward, x.state.id))
    return out


def _pick(ordered: Iterable[State], chosen: list[State], pool: StatePool, blocking: bool) -> bool:
    """Append the first state of ``ordered`` that is eligible next to ``chosen``."""
    for s in ordered:
        if _eligible(s, chosen, pool, blocking):
            chosen.append(s)
            return True
    return False


def _pick_unrelated(
    ordered: Sequence[State], k: int, pool: StatePool, blocking: bool
) -> list[State]:
    """Up to ``k`` states in the order of ``ordered``, none related to another (lineage
    blocking) and none twice."""
    chosen: list[State] = []
    while len(chosen) < k and _pick(ordered, chosen, pool, blocking):
        pass
    return chosen


def _eligible(s: State, chosen: list[State], pool: StatePool, blocking: bool) -> bool:
    for c in chosen:
        if c.id == s.id:
            return False
        if blocking and not s.is_root and not c.is_root and pool.related(s, c):
            return False
    return True


def _by_reward(pool: StatePool) -> list[State]:
    return sorted(pool.states, key=lambda s: (-s.reward, s.id))


class PuctSampler:
    """Greedy top-k by PUCT score with lineage blocking (TTT-RTL section 3.1)."""

    def __init__(self, cfg: SearchConfig) -> None:
        self.cfg = cfg

    def select(self, pool: StatePool, k: int, rng: random.Random) -> list[State]:
        """The ``k`` best-scored mutually unrelated states (deterministic; ``rng`` unused)."""
        ordered = [x.state for x in puct_scores(pool, self.cfg.puct_c)]
        return _pick_unrelated(ordered, k, pool, self.cfg.lineage_blocking)


class GreedySampler:
    """Always the best states by reward (ablation)."""

    def __init__(self, cfg: SearchConfig) -> None:
        self.cfg = cfg

    def select(self, pool: StatePool, k: int, rng: random.Random) -> list[State]:
        """The ``k`` highest-reward mutually unrelated states."""
        return _pick_unrelated(_by_reward(pool), k, pool, self.cfg.lineage_blocking)


class EpsilonGreedySampler:
    """Per slot: with probability epsilon a uniformly random state, else the best (ablation)."""

    def __init__(self, cfg: SearchConfig) -> None:
        self.cfg = cfg

    def select(self, pool: StatePool, k: int, rng: random.Random) -> list[State]:
        """Up to ``k`` distinct, mutually unrelated states."""
        ordered = _by_reward(pool)
        chosen: list[State] = []
        blocking = self.cfg.lineage_blocking
        while len(chosen) < k:
            eligible = [s for s in ordered if _eligible(s, chosen, pool, blocking)]
            if not eligible:
                break
            explore = rng.random() < self.cfg.epsilon
            chosen.append(rng.choice(eligible) if explore else eligible[0])
        return chosen


class RootSampler:
    """No reuse: every prompt starts from the empty root (ablation)."""

    def __init__(self, cfg: SearchConfig) -> None:
        self.cfg = cfg

    def select(self, pool: StatePool, k: int, rng: random.Random) -> list[State]:
        """``k`` copies of the root."""
        return [pool.root] * k
