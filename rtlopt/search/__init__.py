"""Search layer: the PUCT state pool and parent samplers (TTT-RTL section 3.1).

Public API:

* :class:`State`, :class:`Child`, :class:`StatePool` (``add_children``, ``record_expansion``,
  ``prune``, ``update``, ``best``, ``to_json``/``from_json``, ``save``/``load``), ``code_hash``.
* :class:`Sampler` protocol, :class:`SamplerFactory` (``SearchConfig -> Sampler``), the
  :data:`SAMPLERS` registry (kept in :mod:`rtlopt.plugins`; entry points ``rtlopt.samplers``),
  :func:`make_sampler`, and the PUCT score functions :func:`puct_score` / :func:`puct_scores`.
"""

from rtlopt.search._pool import ROOT_ID, Child, State, StatePool, code_hash
from rtlopt.search._samplers import (
    SAMPLERS,
    EpsilonGreedySampler,
    GreedySampler,
    PuctSampler,
    RootSampler,
    Sampler,
    SamplerFactory,
    ScoredState,
    make_sampler,
    puct_score,
    puct_scores,
)

__all__ = [
    "ROOT_ID",
    "SAMPLERS",
    "Child",
    "EpsilonGreedySampler",
    "GreedySampler",
    "PuctSampler",
    "RootSampler",
    "Sampler",
    "SamplerFactory",
    "ScoredState",
    "State",
    "StatePool",
    "code_hash",
    "make_sampler",
    "puct_score",
    "puct_scores",
]
