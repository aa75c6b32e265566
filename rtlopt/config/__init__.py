"""Configuration: TOML into nested frozen dataclasses with help text on every field.

Precedence, lowest first: defaults < user file (``$XDG_CONFIG_HOME/rtlopt/config.toml``) <
project file (``rtlopt.toml`` or ``[tool.rtlopt]`` in ``pyproject.toml``, found upward from the
target) < ``RTLOPT_<SECTION>__<KEY>`` environment variables < command-line overrides. Unknown
keys are errors with a spelling suggestion; cross-field checks run before any tool starts.
"""

from rtlopt.config._checks import (
    _CHOICES,
    ACE_RESTART_AFTER,
    TRAINING_BACKENDS,
    Config,
    _validate,
    choices,
    get_dotted,
    lora_target_modules,
    plugin_settings,
    pools_degenerate,
    restart_after,
    rollouts_per_baseline,
)
from rtlopt.config._load import (
    ResolvedConfig,
    Source,
    config_observations,
    describe,
    find_project_file,
    load_config,
    to_dict,
    to_toml,
    user_config_file,
)
from rtlopt.config._sections import (
    LN2,
    AdaptiveKLConfig,
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
)
from rtlopt.config._workflow import BenchConfig, CheckConfig, WritebackConfig
from rtlopt.errors import ConfigError

__all__ = [
    "LN2",
    "ACE_RESTART_AFTER",
    "AdaptiveKLConfig",
    "BenchConfig",
    "CheckConfig",
    "Config",
    "ConfigError",
    "EvalConfig",
    "FlowConfig",
    "FormalConfig",
    "HarnessConfig",
    "PolicyConfig",
    "ProjectConfig",
    "ReflectConfig",
    "ResolvedConfig",
    "RewardConfig",
    "RunConfig",
    "SandboxConfig",
    "SearchConfig",
    "Source",
    "TRAINING_BACKENDS",
    "TrainConfig",
    "WritebackConfig",
    "_CHOICES",
    "_validate",
    "choices",
    "config_observations",
    "describe",
    "find_project_file",
    "get_dotted",
    "load_config",
    "lora_target_modules",
    "plugin_settings",
    "pools_degenerate",
    "restart_after",
    "rollouts_per_baseline",
    "to_dict",
    "to_toml",
    "user_config_file",
]
