"""Data types and the ``Policy`` protocol shared by every backend."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypedDict, runtime_checkable


class Message(TypedDict):
    """One chat message."""

    role: str
    content: str


Prompt = tuple[Message, ...]
"""A chat prompt: system message then user message(s)."""


@dataclass(frozen=True)
class Completion:
    """One sampled answer.

    Attributes:
        text: The raw answer text (reasoning, fences and all).
        verilog: The extracted Verilog, or None when the answer holds no module.
        prompt_tokens: Tokens in the prompt (0 when the backend cannot tell).
        completion_tokens: Tokens in the answer (0 when the backend cannot tell).
        seed: The sampling seed of this rollout (None when the backend does not sample).
        error: Why no answer was sampled (e.g. a prompt that cannot fit the model's context
            even shortened); None for a normal sample. The run records such a rollout as an
            infrastructure error: no reward, no gradient.
        source: Where the answer came from when it has a name (the scripted policy's file),
            shown in the report beside the candidate's hash.
        truncated: Sampling stopped at ``policy.max_new_tokens`` before the model ended its
            answer (the step's truncation rate; ``train.mask_truncated`` says which stay out
            of the loss, as DAPO's overlong filtering does).
        think_closed: The think block reached ``policy.think_budget`` and was closed for the
            model (``rtlopt.policy._thinking``); the answer after it is the model's own.
    """

    text: str
    verilog: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seed: int | None = None
    error: str | None = None
    source: str | None = None
    truncated: bool = False
    think_closed: bool = False


@dataclass(frozen=True)
class Sample:
    """One rollout to learn from: the prompt, the raw completion text and its advantage."""

    prompt: Prompt
    completion: str
    advantage: float


@dataclass(frozen=True)
class UpdateStats:
    """What one policy update did.

    Attributes:
        loss: Mean policy-gradient loss over non-degenerate samples; None when nothing was
            trained (frozen policy, or every advantage zero).
        kl_ref: Mean per-token KL estimate of the policy to the reference policy on the
            sampled tokens (a controller signal, computed even when the KL penalty is off);
            None when it was not measured.
        n_samples: Samples with a non-zero advantage that entered the loss.
        tokens: Completion tokens in those samples.
        grad_norm: Gradient norm before clipping, None when no step was taken.
        time_s: Wall-clock time of the update.
        logprob_gap: Mean absolute difference, per completion token of the samples in the
            loss, between the log-probability the sampler reported and the one the trainer
            computes before its step (0 when both are the same model in the same precision;
            a vLLM sampler or another dtype shows here); None when not measured.
        is_clipped: Fraction of those tokens whose importance weight
            ``pi_train / pi_sampler`` was truncated at ``train.is_cap``; None when no sampler
            log-probabilities were available.
    """

    loss: float | None
    kl_ref: float | None
    n_samples: int
    tokens: int
    grad_norm: float | None
    time_s: float
    logprob_gap: float | None = None
    is_clipped: float | None = None

    @property
    def updated(self) -> bool:
        """Whether the weights changed (a loss was computed and a step taken)."""
        return (
            self.loss is not None and self.grad_norm is not None and math.isfinite(self.grad_norm)
        )


@runtime_checkable
class Policy(Protocol):
    """A language model that proposes rewrites and (optionally) learns from rewards."""

    name: str
    trainable: bool

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        """Sample ``n`` completions for each prompt (outer list follows ``prompts``)."""
        ...

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        """One policy-gradient step; frozen backends return stats with ``loss=None``."""
        ...

    def save(self, path: Path) -> None:
        """Write the trainable state (adapter, optimizer) to the folder ``path``."""
        ...

    def load(self, path: Path) -> None:
        """Restore the state written by :meth:`save` (for resume)."""
        ...

    def close(self) -> None:
        """Release models, engines and connections."""
        ...


def frozen_stats(time_s: float = 0.0) -> UpdateStats:
    """The stats a frozen policy returns from ``update``."""
    return UpdateStats(loss=None, kl_ref=None, n_samples=0, tokens=0, grad_norm=None, time_s=time_s)
