"""The policy registry, preflight and construction."""

from __future__ import annotations

import logging
from typing import Any

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy._types import Policy
from rtlopt.registry import Registry

log = logging.getLogger(__name__)

POLICIES: Registry[Policy] = Registry("policy", "rtlopt.policies", {
    "transformers": "rtlopt.policy._transformers:TransformersPolicy",
    "vllm": "rtlopt.policy._vllm:VllmPolicy",
    "openai": "rtlopt.policy._openai:OpenAIPolicy",
    "scripted": "rtlopt.policy._scripted:ScriptedPolicy",
})
"""Policy backends by name; plugins add more through the ``rtlopt.policies`` entry points.

A backend is a callable ``(cfg: PolicyConfig, train: TrainConfig, *, seed: int) -> Policy``;
if it has a ``preflight(cfg)`` attribute, :func:`preflight_policy` calls it.
"""


def preflight_policy(cfg: PolicyConfig) -> None:
    """Cheap checks before any work: the backend exists and its model/GPU/endpoint/path do.

    Raises:
        UsageError: one line with a fix (unknown backend, missing model, no GPU for a GPU-only
            backend, unreachable endpoint, missing candidate path).
    """
    factory: Any = POLICIES.get(cfg.backend)
    check = getattr(factory, "preflight", None)
    if callable(check):
        check(cfg)


def create_policy(cfg: PolicyConfig, train: TrainConfig, *, seed: int) -> Policy:
    """Run :func:`preflight_policy`, then load the backend."""
    preflight_policy(cfg)
    factory = POLICIES.get(cfg.backend)
    policy = factory(cfg, train, seed=seed)
    log.info("policy backend %s ready (trainable=%s)", cfg.backend, policy.trainable)
    return policy
