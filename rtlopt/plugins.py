"""Every plugin table of rtlopt: one :class:`~rtlopt.registry.Registry` per entry-point group.

Each table is the only list of its names: configuration checks (:mod:`rtlopt.config`), the
command line's choices and shell completion, and the layers that build plugins all ask it, so a
name an installed distribution adds through the entry-point group is accepted everywhere.

The tables live on the ground floor, beside the configuration, so that configuration and the
command line can ask them without importing the layers that implement the plugins. This module
holds names and ``"module:attribute"`` strings only (a built-in is imported on first use,
exactly like an entry point) and imports no layer, not even for the type checker. The factory
Protocols (what :meth:`Registry.get` returns) belong to the layers that use the plugins, and each
layer binds its type where it builds from the table
(``factory: PolicyFactory = POLICIES.get(name)``); mypy checks the built-ins against them there.
"""

from __future__ import annotations

from typing import Any

from rtlopt.registry import Registry

__all__ = [
    "ADVANTAGES",
    "CUSTOM_PDK",
    "DELTA_SCHEDULES",
    "EXECUTORS",
    "FRONTENDS",
    "PDKS",
    "POLICIES",
    "REGISTRIES",
    "SAMPLERS",
]

FRONTENDS: Registry[Any] = Registry(
    "frontend",
    "rtlopt.frontends",
    {
        "pyslang": "rtlopt.frontend._pyslang:PyslangFrontend",
        "pyverilog": "rtlopt.frontend._pyverilog:PyverilogFrontend",
    },
)
"""Parsers (``project.frontend``, ``--frontend``): ``() -> Frontend``."""

CUSTOM_PDK = "custom"
"""The PDK name of a user's own liberty file (``--liberty FILE``): no plugin stands behind it."""

PDKS: Registry[Any] = Registry(
    "PDK",
    "rtlopt.pdks",
    {
        "sky130hd": "rtlopt.pdk._builtin:sky130hd",
        "nangate45": "rtlopt.pdk._builtin:nangate45",
    },
    reserved=(CUSTOM_PDK,),
    aliases={"sky130": "sky130hd", "nangate": "nangate45"},
    # The packages under plugins/ bundle these liberty files; installed (scripts/setup.sh),
    # they take the name over from the built-in, which finds its liberty on the search path.
    replaceable={"sky130hd": "rtlopt-pdk-sky130hd", "nangate45": "rtlopt-pdk-nangate45"},
)
"""Process design kits (``flow.pdk``, ``--pdk``): ``() -> Pdk``. The built-ins find their
liberty on the search path (``RTLOPT_PDK_PATH``); the bundled packages under ``plugins/``
(``rtlopt-pdk-sky130hd``, ``rtlopt-pdk-nangate45``) replace them with the file inside."""

SAMPLERS: Registry[Any] = Registry(
    "search strategy",
    "rtlopt.samplers",
    {
        "puct": "rtlopt.search._samplers:PuctSampler",
        "igr": "rtlopt.search._igr:IgrSearch",
        "mcts": "rtlopt.search._mcts:MctsSearch",
        "igr-batched": "rtlopt.search._igr:batched_igr",
        "mcts-batched": "rtlopt.search._mcts:batched_mcts",
        "egreedy": "rtlopt.search._samplers:EpsilonGreedySampler",
        "greedy": "rtlopt.search._samplers:GreedySampler",
        "none": "rtlopt.search._samplers:RootSampler",
    },
)
"""Search strategies (``search.sampler``, ``--search``, also ``--reuse``): ``(SearchConfig) ->
Sampler | SearchStrategy``: a parent sampler over the TTT-RTL state pool (``puct`` and the
ablations) or a whole strategy (EvolVE's ``igr`` and ``mcts``; ``igr-batched`` and
``mcts-batched`` are rtlopt's earlier variants that expand several rollouts or leaves per step)."""

ADVANTAGES: Registry[Any] = Registry(
    "advantage estimator",
    "rtlopt.advantages",
    {
        "entropic": "rtlopt.train._advantage:EntropicAdvantage",
        "expected": "rtlopt.train._advantage:ExpectedAdvantage",
    },
)
"""Group advantage estimators (``train.advantage``, ``--advantage``):
``(TrainConfig) -> AdvantageEstimator``."""

DELTA_SCHEDULES: Registry[Any] = Registry(
    "KL-budget schedule",
    "rtlopt.delta_schedules",
    {
        "fixed": "rtlopt.train._schedule:FixedSchedule",
        "adaptive": "rtlopt.train._schedule:AdaptiveSchedule",
        "cosine": "rtlopt.train._schedule:CosineSchedule",
        "cosine-reverse": "rtlopt.train._schedule:ReverseCosineSchedule",
    },
)
"""KL-budget schedules (``train.delta``, ``--delta``): ``(TrainConfig) -> DeltaSchedule``."""

POLICIES: Registry[Any] = Registry(
    "policy",
    "rtlopt.policies",
    {
        "transformers": "rtlopt.policy._transformers:TransformersPolicy",
        "vllm": "rtlopt.policy._vllm:VllmPolicy",
        "openai": "rtlopt.policy._openai:OpenAIPolicy",
        "scripted": "rtlopt.policy._scripted:ScriptedPolicy",
    },
)
"""Policy backends (``policy.backend``, ``--policy``): ``(PolicyConfig, TrainConfig, *, seed)
-> Policy`` with a ``preflight(PolicyConfig)`` check."""

EXECUTORS: Registry[Any] = Registry(
    "executor",
    "rtlopt.executors",
    {
        "local": "rtlopt.evaluate._executor:LocalExecutor",
        "ray": "rtlopt.evaluate._ray:RayExecutor",
    },
)
"""Where candidates (and ``rtlopt bench``'s designs) run (``eval.executor``, ``--executor``):
``(EvalConfig) -> Executor``. ``ray`` needs the ``rtlopt[ray]`` extra."""

REGISTRIES: tuple[Registry[object], ...] = (
    FRONTENDS,
    PDKS,
    SAMPLERS,
    ADVANTAGES,
    DELTA_SCHEDULES,
    POLICIES,
    EXECUTORS,
)
"""Every table; ``pyproject.toml`` declares exactly their entry-point groups."""
