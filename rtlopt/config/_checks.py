"""The whole configuration and its checks: the fixed vocabularies of settings, the plugin names,
the cross-field validation that runs before any tool starts, and the values derived from
settings."""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rtlopt.config._sections import (
    EvalConfig,
    FlowConfig,
    FormalConfig,
    HarnessConfig,
    PolicyConfig,
    ProjectConfig,
    ReflectConfig,
    RewardConfig,
    RunConfig,
    SandboxConfig,
    SearchConfig,
    TrainConfig,
    _field_types,
    _is_dataclass_type,
)
from rtlopt.config._workflow import BenchConfig, CheckConfig, WritebackConfig
from rtlopt.errors import ConfigError, PluginError
from rtlopt.registry import Registry


@dataclass(frozen=True)
class Config:
    """The whole resolved configuration."""

    project: ProjectConfig = field(
        default_factory=ProjectConfig, metadata={"help": "Repository sources."}
    )
    harness: HarnessConfig = field(
        default_factory=HarnessConfig, metadata={"help": "Equivalence testbench."}
    )
    formal: FormalConfig = field(
        default_factory=FormalConfig, metadata={"help": "Formal equivalence."}
    )
    flow: FlowConfig = field(
        default_factory=FlowConfig, metadata={"help": "Synthesis and STA flow."}
    )
    reward: RewardConfig = field(default_factory=RewardConfig, metadata={"help": "Reward weights."})
    sandbox: SandboxConfig = field(
        default_factory=SandboxConfig, metadata={"help": "Candidate limits."}
    )
    eval: EvalConfig = field(default_factory=EvalConfig, metadata={"help": "Evaluation pipeline."})
    search: SearchConfig = field(default_factory=SearchConfig, metadata={"help": "State pool."})
    train: TrainConfig = field(default_factory=TrainConfig, metadata={"help": "Policy update."})
    policy: PolicyConfig = field(default_factory=PolicyConfig, metadata={"help": "Language model."})
    reflect: ReflectConfig = field(
        default_factory=ReflectConfig, metadata={"help": "Reflection and playbook."}
    )
    run: RunConfig = field(default_factory=RunConfig, metadata={"help": "Run settings."})
    check: CheckConfig = field(default_factory=CheckConfig, metadata={"help": "Pre-commit check."})
    bench: BenchConfig = field(
        default_factory=BenchConfig, metadata={"help": "Benchmark seeds and control."}
    )
    writeback: WritebackConfig = field(
        default_factory=WritebackConfig, metadata={"help": "Git output."}
    )

    def __post_init__(self) -> None:
        _validate(self)


_CHOICES: dict[str, tuple[str, ...]] = {
    "flow.metric": ("auto", "adp", "ppa"),
    "harness.initial_values": ("ignore", "honor"),
    "harness.unused_parameters": ("interface", "defaults"),
    "harness.other_configurations": ("check", "ignore"),
    "flow.power_mode": ("vectorless", "activity"),
    "flow.engine": ("auto", "yosys", "pyosys"),
    "flow.systemverilog": ("auto", "slang", "native"),
    "eval.netlist_check": ("auto", "always", "never"),
    "policy.device": ("auto", "cpu", "cuda"),
    "policy.dtype": ("auto", "bfloat16", "float16", "float32"),
    "policy.answer_format": ("auto", "whole", "edit"),
    "sandbox.require": ("auto", "always", "never"),
    "writeback.multi_branch": ("one", "each"),
    "train.pool_degenerate": ("auto", "always", "never"),
    "train.mask_truncated": ("thinking", "all", "none"),
}
"""Settings with a fixed vocabulary. Plugin names are not listed here: their registries are."""


def choices(dotted: str) -> tuple[str, ...]:
    """The fixed vocabulary of a setting (``choices("flow.metric")``), for the command line."""
    return _CHOICES[dotted]


@functools.cache
def plugin_settings() -> Mapping[str, Registry[object]]:
    """Every setting that names a plugin (``search.sampler``), with the registry of its names."""
    out: dict[str, Registry[object]] = {}

    def walk(cls: type, prefix: str) -> None:
        hints = _field_types(cls)
        for f in dataclasses.fields(cls):
            tp = hints[f.name]
            if _is_dataclass_type(tp):
                walk(tp, f"{prefix}{f.name}.")
            elif "registry" in f.metadata:
                out[f"{prefix}{f.name}"] = f.metadata["registry"]

    walk(Config, "")
    return types.MappingProxyType(out)


def get_dotted(cfg: Any, dotted: str) -> Any:
    """Read ``section.key`` from a config object."""
    obj = cfg
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _validate(cfg: Config) -> None:
    for dotted, allowed in _CHOICES.items():
        value = get_dotted(cfg, dotted)
        if value not in allowed:
            raise ConfigError(f"{dotted} = {value!r} is not one of: {', '.join(allowed)}")
    for dotted, registry in plugin_settings().items():
        value = get_dotted(cfg, dotted)
        try:
            registry.check(value)
        except PluginError as exc:
            raise ConfigError(
                f"{dotted} = {value!r} is not a known {registry.kind}", hint=exc.hint
            ) from None
    positive = [
        "harness.random_vectors",
        "run.rollouts",
        "search.parents",
        "search.top_k",
        "search.pool_cap",
        "flow.clock_period_ns",
        "sandbox.timeout_s",
        "train.beta_iters",
        "search.igr_ideas",
        "search.igr_steps",
        "search.mcts_children",
        "policy.edit_min_lines",
        "reflect.parallel",
        "reflect.max_lessons",
        "bench.seeds",
    ]
    for dotted in positive:
        if get_dotted(cfg, dotted) <= 0:
            raise ConfigError(f"{dotted} must be positive, got {get_dotted(cfg, dotted)}")
    if cfg.run.steps < 0:
        raise ConfigError("run.steps must be >= 0")
    if cfg.run.parallel_modules < 0:
        raise ConfigError("run.parallel_modules must be >= 0 (0: all modules at once)")
    if not 0.0 <= cfg.harness.bias_probability <= 1.0:
        raise ConfigError("harness.bias_probability must be in [0, 1]")
    if cfg.harness.bias_vectors < 0:
        raise ConfigError("harness.bias_vectors must be >= 0 (0: no biased class)")
    if cfg.harness.parameter_probes < 0:
        raise ConfigError("harness.parameter_probes must be >= 0 (0: no probes)")
    if cfg.harness.bias_hold_max < 1:
        raise ConfigError("harness.bias_hold_max must be at least 1")
    f = cfg.formal
    if f.powerup_first_cycles < 0 or f.powerup_search_cycles < 0:
        raise ConfigError("formal.powerup_first_cycles and powerup_search_cycles must be >= 0")
    if not 0.01 <= f.comb_sat_share <= 1.0:
        raise ConfigError("formal.comb_sat_share must be in [0.01, 1] (1: the SAT miter alone)")
    if not 0.0 <= f.powerup_search_share <= 0.5:
        raise ConfigError("formal.powerup_search_share must be in [0, 0.5] (0: no searches)")
    if cfg.search.node_budget < 0:
        raise ConfigError("search.node_budget must be >= 0 (0: no limit)")
    if cfg.search.temperature is not None and cfg.search.temperature < 0:
        raise ConfigError("search.temperature must be >= 0")
    if cfg.reflect.prompt_lessons < 0:
        raise ConfigError("reflect.prompt_lessons must be >= 0")
    if cfg.reflect.restart_after is not None and cfg.reflect.restart_after < 0:
        raise ConfigError("reflect.restart_after must be >= 0 (0: never restart)")
    if cfg.search.igr_children < 0 or cfg.search.mcts_leaves < 0:
        raise ConfigError("search.igr_children and search.mcts_leaves must be >= 0")
    if cfg.flow.power_mode == "activity" and not cfg.flow.power:
        raise ConfigError(
            "flow.power_mode = 'activity' but flow.power = false: no power is measured",
            hint="set flow.power = true, or flow.power_mode = 'vectorless'",
        )
    if not 0.0 <= cfg.search.epsilon <= 1.0:
        raise ConfigError("search.epsilon must be in [0, 1]")
    _check_baseline(cfg)
    if not 0.0 <= cfg.policy.gpu_memory_utilization < 1.0:
        raise ConfigError(
            "policy.gpu_memory_utilization must be in [0, 1)", hint="0 lets rtlopt choose"
        )
    _check_learning(cfg)


def _check_learning(cfg: Config) -> None:
    """The reward classes, the advantage and the adaptive controller's settings."""
    if not cfg.train.beta_lo < cfg.train.beta_hi:
        raise ConfigError("train.beta_lo must be below train.beta_hi")
    rw = cfg.reward
    if not rw.no_module < rw.edit_failed < rw.screened < 0.0:
        raise ConfigError(
            "reward: need no_module < edit_failed < screened < 0 (below any compiled answer)"
        )
    if not 0.0 <= cfg.train.budget_cap < 1.0:
        raise ConfigError("train.budget_cap must be in [0, 1) (0: off)")
    if not 0.0 <= cfg.train.ppa_tie < 1.0:
        raise ConfigError("train.ppa_tie must be in [0, 1) (a relative difference; 0: off)")
    if cfg.policy.think_budget is not None and cfg.policy.think_budget < 0:
        raise ConfigError("policy.think_budget must be >= 0 (0: no budget; unset: auto)")
    a = cfg.train.adaptive
    if not a.delta_min <= a.delta0 <= a.delta_max:
        raise ConfigError("train.adaptive: need delta_min <= delta0 <= delta_max")
    if a.k_ref < 2:
        raise ConfigError("train.adaptive.k_ref must be at least 2")
    unknown = sorted(set(a.off) - {"P1", "P2", "P3", "P4"})
    if unknown:
        raise ConfigError(
            f"train.adaptive.off names unknown rule(s): {', '.join(unknown)}",
            hint="use P1, P2, P3 or P4",
        )


ACE_RESTART_AFTER = 3
"""``reflect.restart_after`` when unset and a reflector is configured."""


def restart_after(reflect: ReflectConfig) -> int:
    """Stagnant steps before ACE-RTL's restart: the setting, or 3 with a reflector and 0
    (off) without one."""
    if reflect.restart_after is not None:
        return reflect.restart_after
    return ACE_RESTART_AFTER if reflect.endpoint else 0


TRAINING_BACKENDS = ("transformers", "vllm")
"""Policy backends whose weights a run updates (when ``train.learning_rate > 0``)."""


def lora_target_modules(train: TrainConfig) -> str | list[str]:
    """``train.lora_targets`` as peft's ``target_modules`` takes it (``all-linear`` or names)."""
    if train.lora_targets.strip() == "all-linear":
        return "all-linear"
    return [t.strip() for t in train.lora_targets.split(",") if t.strip()]


def pools_degenerate(cfg: Config) -> bool:
    """Whether a run pools its degenerate groups (``train.pool_degenerate``; auto: igr, mcts)."""
    mode = cfg.train.pool_degenerate
    if mode == "auto":
        return cfg.search.sampler.split("-")[0] in ("igr", "mcts")
    return mode == "always"


def rollouts_per_baseline(cfg: Config) -> int:
    """The most rollouts of one step that can share an advantage baseline: a group's, or the
    step's when degenerate groups are pooled."""
    s = cfg.search
    sampler = s.sampler
    if sampler == "igr" and s.igr_children > 0:
        group, groups = s.igr_children, s.parents
    elif sampler == "mcts" and s.mcts_leaves > 0:
        group, groups = s.mcts_children, s.mcts_leaves
    elif sampler.startswith("mcts"):
        group, groups = s.mcts_children, s.parents
    else:
        group, groups = cfg.run.rollouts, s.parents
    return group * groups if pools_degenerate(cfg) else group


def _check_baseline(cfg: Config) -> None:
    """A learning policy needs two rollouts that share a baseline, or nothing ever trains."""
    learning = cfg.policy.backend in TRAINING_BACKENDS and cfg.train.learning_rate > 0
    if learning and rollouts_per_baseline(cfg) < 2:
        raise ConfigError(
            f"search.sampler = {cfg.search.sampler!r} with a learning policy: fewer than 2 "
            "rollouts of a step share an advantage baseline, so no weight would ever change",
            hint="set --rollouts 2 or more, --parents 2 or more (igr/mcts), "
            "train.pool_degenerate = 'always', or train.learning_rate = 0 (a frozen policy)",
        )
