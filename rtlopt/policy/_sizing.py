"""A default run the machine can finish: the CPU path sized to the cores it has.

The defaults of ``search.parents`` (4), ``run.rollouts`` (4), ``policy.max_new_tokens`` (2048)
and ``policy.max_prompt_tokens`` (8192) are the paper's GPU budget. On a CPU the transformers
backend generates, scores and trains every token of every rollout itself: the paper's step took
451 s on two cores (issue 25). :func:`size_for_hardware` scales what the user left at its
default to the cores of this machine; anything set in a file, the environment or on the command
line is kept. No torch import: whether a GPU is there is read from the NVIDIA device files.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from rtlopt.config import Config

__all__ = ["CPU_ANSWER_TOKENS", "CPU_PROMPT_TOKENS", "has_nvidia_gpu", "size_for_hardware"]

log = logging.getLogger(__name__)

CPU_ANSWER_TOKENS = 512
"""Longest answer on the CPU (the bundled examples' modules take 150-400 tokens)."""

CPU_PROMPT_TOKENS = 4096
"""Prompt budget on the CPU (within the CPU model's 8192-token context with the answer)."""


def has_nvidia_gpu() -> bool:
    """An NVIDIA GPU on this machine (its device files)."""
    return Path("/dev/nvidia0").exists() or Path("/proc/driver/nvidia/gpus").is_dir()


def _on_cpu(cfg: Config) -> bool:
    p = cfg.policy
    if p.backend != "transformers":
        return False
    return p.device == "cpu" or (p.device == "auto" and not has_nvidia_gpu())


def size_for_hardware(
    cfg: Config, sources: Mapping[str, str], cores: int | None = None
) -> tuple[Config, str | None]:
    """``cfg`` with the paper-sized defaults scaled to a CPU run, and a sentence saying what
    changed (None when nothing did: a GPU, another backend, or every value set by the user).

    On ``cores`` CPU cores (default: this machine's): ``search.parents`` = ``max(1, cores //
    4)`` up to 4, ``run.rollouts`` = 2 below 8 cores (the least a group advantage needs), else
    4, answers up to :data:`CPU_ANSWER_TOKENS` and prompts up to :data:`CPU_PROMPT_TOKENS`.
    """
    if not _on_cpu(cfg):
        return cfg, None
    n = cores or os.cpu_count() or 1
    want = {
        "search.parents": min(4, max(1, n // 4)),
        "run.rollouts": 2 if n < 8 else 4,
        "policy.max_new_tokens": min(cfg.policy.max_new_tokens, CPU_ANSWER_TOKENS),
        "policy.max_prompt_tokens": min(cfg.policy.max_prompt_tokens, CPU_PROMPT_TOKENS),
    }
    changed = {k: v for k, v in want.items() if k not in sources and _get(cfg, k) != v}
    if not changed:
        return cfg, None
    out = cfg
    for key, value in changed.items():
        section, field = key.split(".")
        sub = dataclasses.replace(getattr(out, section), **{field: value})
        out = dataclasses.replace(out, **{section: sub})
    note = (
        f"CPU run sized for {n} core(s): "
        + ", ".join(f"{k} = {v}" for k, v in changed.items())
        + " (set them to override; the paper's budget needs a GPU)"
    )
    log.info("%s", note)
    return out, note


def _get(cfg: Config, key: str) -> object:
    section, field = key.split(".")
    return getattr(getattr(cfg, section), field)
