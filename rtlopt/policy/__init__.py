"""Policy layer: prompts (TTT-RTL appendix H), answer extraction and four LLM backends.

Backends (``POLICIES``): ``transformers`` (generation and on-device training), ``vllm`` (fast
rollouts with LoRA hot-loading, GPU), ``openai`` (any OpenAI-compatible endpoint, frozen) and
``scripted`` (candidates from files, frozen). Heavy packages are imported only when a backend
is built.
"""

from rtlopt.plugins import POLICIES
from rtlopt.policy._edits import (
    EditBlock,
    EditError,
    EditResult,
    apply_edits,
    changed_lines,
    has_edit_blocks,
    parse_edit_blocks,
)
from rtlopt.policy._extract import answer_code, extract_verilog, in_thought, unfinished_module
from rtlopt.policy._preflight import GPU_DEFAULT_MODEL, ResolvedModel, resolve_model
from rtlopt.policy._prompts import (
    NO_SPEC,
    SYSTEM_PROMPT,
    ParentInfo,
    answer_format,
    build_prompt,
    details_lines,
    estimate_tokens,
    feedback_lines,
    fit_view,
    fmt_number,
    focus_view,
    free_lines,
    idea_prompt,
    interface_view,
    load_spec,
    metric_name,
    parse_ideas,
    relevant_lines,
)
from rtlopt.policy._reflect import (
    Case,
    Evidence,
    Lesson,
    Playbook,
    Reflector,
    ReflectStats,
    parse_lessons,
    preflight_reflector,
    reflection_prompt,
)
from rtlopt.policy._registry import PolicyFactory, create_policy, preflight_policy
from rtlopt.policy._scripted import candidate_paths
from rtlopt.policy._thinking import template_kwargs
from rtlopt.policy._types import Completion, Message, Policy, Prompt, Sample, UpdateStats

__all__ = [
    "GPU_DEFAULT_MODEL",
    "candidate_paths",
    "Case",
    "Evidence",
    "Lesson",
    "Playbook",
    "ReflectStats",
    "Reflector",
    "parse_lessons",
    "preflight_reflector",
    "reflection_prompt",
    "EditBlock",
    "EditError",
    "EditResult",
    "answer_format",
    "apply_edits",
    "changed_lines",
    "details_lines",
    "estimate_tokens",
    "fit_view",
    "focus_view",
    "free_lines",
    "has_edit_blocks",
    "idea_prompt",
    "interface_view",
    "parse_edit_blocks",
    "parse_ideas",
    "relevant_lines",
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
    "template_kwargs",
    "build_prompt",
    "create_policy",
    "extract_verilog",
    "in_thought",
    "feedback_lines",
    "fmt_number",
    "load_spec",
    "metric_name",
    "preflight_policy",
    "resolve_model",
    "unfinished_module",
]
