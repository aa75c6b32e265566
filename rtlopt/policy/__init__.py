"""Policy layer: prompts (TTT-RTL appendix H), answer extraction and four LLM backends.

Backends (``POLICIES``): ``transformers`` (generation and on-device training), ``vllm`` (fast
rollouts with LoRA hot-loading, GPU), ``openai`` (any OpenAI-compatible endpoint, frozen) and
``scripted`` (candidates from files, frozen). Heavy packages are imported only when a backend
is built.
"""

from rtlopt.plugins import POLICIES
from rtlopt.policy._extract import answer_code, extract_verilog, unfinished_module
from rtlopt.policy._preflight import GPU_DEFAULT_MODEL, ResolvedModel, resolve_model
from rtlopt.policy._prompts import (
    NO_SPEC,
    SYSTEM_PROMPT,
    ParentInfo,
    build_prompt,
    feedback_lines,
    fmt_number,
    load_spec,
    metric_name,
)
from rtlopt.policy._registry import PolicyFactory, create_policy, preflight_policy
from rtlopt.policy._types import Completion, Message, Policy, Prompt, Sample, UpdateStats

__all__ = [
    "GPU_DEFAULT_MODEL",
    "NO_SPEC",
    "POLICIES",
    "SYSTEM_PROMPT",
    "Completion",
    "Message",
    "ParentInfo",
    "Policy",
    "PolicyFactory",
    "Prompt",
    "ResolvedModel",
    "Sample",
    "UpdateStats",
    "answer_code",
    "build_prompt",
    "create_policy",
    "extract_verilog",
    "feedback_lines",
    "fmt_number",
    "load_spec",
    "metric_name",
    "preflight_policy",
    "resolve_model",
    "unfinished_module",
]
