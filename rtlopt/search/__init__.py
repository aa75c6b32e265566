"""Search layer: the PUCT state pool, parent samplers, and EvolVE's IGR and MCTS strategies.

Public API:

* :class:`State`, :class:`Child`, :class:`StatePool` (``add_children``, ``record_expansion``,
  ``prune``, ``update``, ``best``, ``to_json``/``from_json``, ``save``/``load``), ``code_hash``.
* :class:`SearchStrategy` (``plan``/``observe``/``finished``/``save``/``load``), its
  :class:`Expansion` and :class:`PlanContext`, :func:`make_strategy` (any name of the
  :data:`SAMPLERS` registry: ``puct``, ``igr``, ``mcts``, ``egreedy``, ``greedy``, ``none``, and
  entry points ``rtlopt.samplers``), :class:`PoolSearch`, :class:`IgrSearch`,
  :class:`MctsSearch`.
* :class:`Sampler` protocol, :class:`SamplerFactory` (``SearchConfig -> Sampler |
  SearchStrategy``), :func:`make_sampler` (pool samplers only), and the PUCT score functions
  :func:`puct_score` / :func:`puct_scores`.
"""

from rtlopt.search._igr import BUILTIN_IDEAS, IgrSearch, normalize_idea
from rtlopt.search._mcts import MctsNode, MctsSearch, uct
from rtlopt.search._notes import read_igr_notes
from rtlopt.search._pool import ROOT_ID, Child, State, StatePool, code_hash
from rtlopt.search._samplers import (
    SAMPLERS,
    EpsilonGreedySampler,
    GreedySampler,
    PuctSampler,
    RootSampler,
    Sampler,
    ScoredState,
    make_sampler,
    puct_score,
    puct_scores,
)
from rtlopt.search._strategy import (
    Expansion,
    IdeaSource,
    PlanContext,
    PoolSearch,
    SamplerFactory,
    SearchStrategy,
    effective_temperature,
    make_strategy,
    split_budget,
)

__all__ = [
    "BUILTIN_IDEAS",
    "ROOT_ID",
    "SAMPLERS",
    "Child",
    "EpsilonGreedySampler",
    "Expansion",
    "GreedySampler",
    "IdeaSource",
    "IgrSearch",
    "MctsNode",
    "MctsSearch",
    "PlanContext",
    "PoolSearch",
    "PuctSampler",
    "RootSampler",
    "Sampler",
    "SamplerFactory",
    "ScoredState",
    "SearchStrategy",
    "State",
    "StatePool",
    "code_hash",
    "effective_temperature",
    "make_sampler",
    "make_strategy",
    "normalize_idea",
    "puct_score",
    "puct_scores",
    "read_igr_notes",
    "split_budget",
    "uct",
]
