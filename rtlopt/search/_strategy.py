"""Search strategies: what the run loop expands each step, and what it learns from the results.

The loop is one for every strategy (and every policy backend, frozen or training)::

    expansions = strategy.plan(PlanContext(step, budget, rollouts, rng, ideas))
    #   (or strategy.restart(ctx) on a step the restart coordinator marks: ACE-RTL's restart)
    ...one prompt per expansion, ``e.n`` rollouts each, evaluate, learn...
    strategy.observe(step, expansions, children)      # per expansion, its evaluated rollouts
    strategy.save(run_dir)                             # every step: kill and resume lose nothing

Strategies are plugins of the :data:`~rtlopt.plugins.SAMPLERS` table (``search.sampler``,
``--search``), the one list of names. A plugin may be a whole strategy (``plan``/``observe``:
``igr``, ``mcts``) or a parent sampler over the TTT-RTL state pool (``select``: ``puct``,
``egreedy``, ``greedy``, ``none``), which :func:`make_strategy` runs as a :class:`PoolSearch`.

An expansion names the node it improves; ``code == ""`` means the reference (the root prompt).
A child with ``code == ""`` is a rollout that gave no design (no module, an edit that does not
apply); one with ``reward is None`` is an infrastructure failure (never scored).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rtlopt.config import SearchConfig
from rtlopt.errors import UsageError
from rtlopt.plugins import SAMPLERS
from rtlopt.rundir import RunDir
from rtlopt.search._pool import ROOT_ID, Child, State, StatePool
from rtlopt.search._samplers import (
    EpsilonGreedySampler,
    GreedySampler,
    PuctSampler,
    RootSampler,
    Sampler,
)

__all__ = [
    "Expansion",
    "effective_temperature",
    "IdeaSource",
    "PlanContext",
    "PoolSearch",
    "SamplerFactory",
    "SearchStrategy",
    "make_strategy",
    "split_budget",
]

log = logging.getLogger(__name__)

IdeaSource = Callable[[Sequence[str], int], list[str]]
"""``(ideas so far, how many more) -> new ideas`` (possibly fewer): asks the policy."""


@dataclass(frozen=True)
class Expansion:
    """One prompt of a step: the node to improve and how many rollouts to sample from it.

    Attributes:
        node_id: The strategy's id of the node (recorded as the candidates' parent).
        code: The node's Verilog; ``""`` is the reference (the root prompt).
        feedback: Feedback lines of the node, or of the failed attempt to improve it.
        eval_hash: The node's candidate hash (its PPA for the prompt); ``""`` for the root.
        prev_hash: Hash of the design the node improved on: ``""`` the reference, None unknown.
        n: Rollouts to sample.
        idea: The optimization idea being implemented (IGR), None otherwise.
        focus: Lines of ``code`` the prompt of a long module shows first.
        tag: The strategy's own reference (IGR: the chain), -1 when unused.
    """

    node_id: int
    code: str
    feedback: str
    eval_hash: str
    prev_hash: str | None
    n: int
    idea: str | None = None
    focus: tuple[int, ...] = ()
    tag: int = -1

    @property
    def is_root(self) -> bool:
        """Whether the expansion starts from the reference."""
        return not self.code


@dataclass(frozen=True)
class PlanContext:
    """What a strategy may use to plan one step.

    Attributes:
        step: The step (1-based).
        budget: Rollouts still allowed by ``search.node_budget``; None: no limit.
        rollouts: ``run.rollouts`` (rollouts per prompt of the pool strategies and IGR).
        rng: The step's only source of randomness.
        ideas: Asks the policy for optimization ideas (IGR).
    """

    step: int
    budget: int | None
    rollouts: int
    rng: random.Random
    ideas: IdeaSource


@runtime_checkable
class SearchStrategy(Protocol):
    """A search over candidate designs (see the module docstring)."""

    def plan(self, ctx: PlanContext) -> list[Expansion]:
        """This step's expansions (their ``n`` sum to at most ``ctx.budget``); empty when the
        strategy has nothing left to expand."""
        ...

    def restart(self, ctx: PlanContext) -> list[Expansion]:
        """This step's expansions after stagnation (ACE-RTL's restart): the same rollouts as
        :meth:`plan` would spend, all from the reference (root expansions, no feedback), so
        that :meth:`observe` attaches their children to the root and the search continues
        from them instead of the stagnant trajectory. Empty when nothing is left to expand."""
        ...

    def observe(
        self, step: int, expansions: Sequence[Expansion], children: Sequence[Sequence[Child]]
    ) -> None:
        """Take in each expansion's evaluated rollouts (same order as ``expansions``)."""
        ...

    def finished(self) -> bool:
        """Whether the strategy has run its course (IGR: every chain done)."""
        ...

    def save(self, rd: RunDir) -> None:
        """Write the state to the run directory (atomically)."""
        ...

    def load(self, rd: RunDir) -> None:
        """Restore the state :meth:`save` wrote (missing: keep the fresh state)."""
        ...


class SearchFileState:
    """Save and resume through the run directory's ``search.json`` for a strategy that
    serializes itself with ``to_json`` / ``load_json`` (IGR, MCTS)."""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def load_json(self, data: dict[str, Any]) -> None:
        raise NotImplementedError

    def save(self, rd: RunDir) -> None:
        """``search.json``."""
        rd.write_search(self.to_json())

    def load(self, rd: RunDir) -> None:
        """Read ``search.json`` when present."""
        data = rd.read_search()
        if data is not None:
            self.load_json(data)

    @staticmethod
    def check_state(data: dict[str, Any], strategy: str, version: int) -> None:
        """Raise unless ``data`` is the state of ``strategy`` in format ``version``.

        Raises:
            UsageError: the state belongs to another strategy or format.
        """
        if data.get("strategy") != strategy or data.get("version") != version:
            raise UsageError(
                "search.json holds another strategy's state",
                hint="resume with the run's own search strategy",
            )


def split_budget(ns: Sequence[int], budget: int | None) -> list[int]:
    """Rollouts per expansion within ``budget``, earlier expansions first (0 drops one)."""
    if budget is None:
        return list(ns)
    out = []
    left = max(0, budget)
    for n in ns:
        take = min(n, left)
        out.append(take)
        left -= take
    return out


class PoolSearch:
    """The TTT-RTL state pool driven by a parent sampler (PUCT or an ablation).

    Args:
        sampler: Chooses the parents.
        cfg: Search settings (``parents``, pool settings).
    """

    def __init__(self, sampler: Sampler, cfg: SearchConfig) -> None:
        self.sampler = sampler
        self.cfg = cfg
        self.pool = StatePool(cfg)

    def plan(self, ctx: PlanContext) -> list[Expansion]:
        """``search.parents`` parents chosen by the sampler, ``run.rollouts`` rollouts each."""
        parents = self.sampler.select(self.pool, self.cfg.parents, ctx.rng)
        ns = split_budget([ctx.rollouts] * len(parents), ctx.budget)
        return [self._expansion(p, n) for p, n in zip(parents, ns, strict=True) if n > 0]

    def restart(self, ctx: PlanContext) -> list[Expansion]:
        """``search.parents`` expansions of the root, ``run.rollouts`` rollouts each: their
        children enter the pool under the root (PUCT then weighs them like any state)."""
        ns = split_budget([ctx.rollouts] * self.cfg.parents, ctx.budget)
        return [self._expansion(self.pool.root, n) for n in ns if n > 0]

    def _expansion(self, s: State, n: int) -> Expansion:
        if s.is_root or not s.code:
            return Expansion(s.id, "", "", "", "", n)
        prev = self.pool.find(s.parent_id) if s.parent_id is not None else None
        prev_hash = prev.eval_hash if prev is not None and not prev.is_root else ""
        return Expansion(s.id, s.code, s.feedback, s.eval_hash, prev_hash, n, focus=s.focus)

    def observe(
        self, step: int, expansions: Sequence[Expansion], children: Sequence[Sequence[Child]]
    ) -> None:
        """Top-k admission per parent, visit counts, pruning (TTT-RTL section 3.1)."""
        for e, kids in zip(expansions, children, strict=True):
            usable = [c for c in kids if c.code and c.reward is not None]
            self.pool.add_children(e.node_id, usable, step)
        self.pool.record_expansion([e.node_id for e in expansions])
        self.pool.prune()

    def finished(self) -> bool:
        """The pool never runs out of parents."""
        return False

    def save(self, rd: RunDir) -> None:
        """``pool.json``."""
        self.pool.save(rd.pool)

    def load(self, rd: RunDir) -> None:
        """Read ``pool.json`` (a run without one keeps the fresh pool)."""
        if rd.pool.exists():
            self.pool = StatePool.load(self.cfg, rd.pool)

    @property
    def root_id(self) -> int:
        """Id of the root state."""
        return ROOT_ID


def effective_temperature(cfg: SearchConfig, policy_temperature: float) -> float:
    """The rollouts' sampling temperature: ``search.temperature`` when set, else the
    strategy's own default (its factory's ``default_temperature``: 0.6 for ``igr`` and
    ``mcts``, as EvolVE), else ``policy.temperature``."""
    if cfg.temperature is not None:
        return float(cfg.temperature)
    default = getattr(SAMPLERS.get(cfg.sampler), "default_temperature", None)
    return float(default) if isinstance(default, int | float) else policy_temperature


def make_strategy(cfg: SearchConfig) -> SearchStrategy:
    """The strategy named by ``cfg.sampler``: a whole strategy as built, a parent sampler
    wrapped in :class:`PoolSearch`.

    Raises:
        PluginError: unknown name (the message lists the known ones).
        TypeError: the plugin builds neither a strategy nor a sampler.
    """
    factory: SamplerFactory = SAMPLERS.get(cfg.sampler)  # the table is untyped: bind its type
    built = factory(cfg)
    if isinstance(built, SearchStrategy):
        return built
    if callable(getattr(built, "select", None)):
        return PoolSearch(built, cfg)
    raise TypeError(
        f"search plugin {cfg.sampler!r} built a {type(built).__name__}, which has "
        "neither plan/observe (a strategy) nor select (a parent sampler)"
    )


class SamplerFactory(Protocol):
    """What the :data:`~rtlopt.plugins.SAMPLERS` registry holds (entry points
    ``rtlopt.samplers``): builds a parent sampler over the state pool, or a whole search
    strategy (:class:`~rtlopt.search.SearchStrategy`), from the search configuration."""

    def __call__(self, cfg: SearchConfig) -> Sampler | SearchStrategy:
        """A sampler or strategy configured by ``cfg``."""
        ...


if TYPE_CHECKING:  # the built-ins named in rtlopt.plugins.SAMPLERS are SamplerFactory values
    _BUILTINS: tuple[SamplerFactory, ...] = (
        PuctSampler,
        GreedySampler,
        EpsilonGreedySampler,
        RootSampler,
    )
