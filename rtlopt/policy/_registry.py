"""The policy factory Protocol, preflight and construction (the table is ``POLICIES``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.plugins import POLICIES
from rtlopt.policy._types import Policy

log = logging.getLogger(__name__)


class PolicyFactory(Protocol):
    """What the :data:`~rtlopt.plugins.POLICIES` registry holds (entry points
    ``rtlopt.policies``); usually the backend class, with ``preflight`` a classmethod.

    ``preflight`` runs before any tool or model starts, so it must be cheap: no model loads,
    no generation. Calling the factory loads the backend.
    """

    def __call__(self, cfg: PolicyConfig, train: TrainConfig, *, seed: int) -> Policy:
        """Load the backend (models, engines, connections)."""
        ...

    def preflight(self, cfg: PolicyConfig) -> None:
        """Check that the model, GPU, endpoint or candidate path exist.

        Raises:
            UsageError: one line with a fix.
        """
        ...


def preflight_policy(cfg: PolicyConfig) -> None:
    """Cheap checks before any work: the backend exists and its model/GPU/endpoint/path do.

    Raises:
        UsageError: one line with a fix (unknown backend, missing model, no GPU for a GPU-only
            backend, unreachable endpoint, missing candidate path).
    """
    factory: PolicyFactory = POLICIES.get(cfg.backend)  # the table is untyped: bind its type
    factory.preflight(cfg)


def create_policy(cfg: PolicyConfig, train: TrainConfig, *, seed: int) -> Policy:
    """Run :func:`preflight_policy`, then load the backend."""
    factory: PolicyFactory = POLICIES.get(cfg.backend)
    factory.preflight(cfg)
    policy = factory(cfg, train, seed=seed)
    log.info("policy backend %s ready (trainable=%s)", cfg.backend, policy.trainable)
    return policy


if TYPE_CHECKING:  # the built-ins named in rtlopt.plugins.POLICIES are PolicyFactory values
    from rtlopt.policy._openai import OpenAIPolicy
    from rtlopt.policy._scripted import ScriptedPolicy
    from rtlopt.policy._transformers import TransformersPolicy
    from rtlopt.policy._vllm import VllmPolicy

    _BUILTINS: tuple[PolicyFactory, ...] = (
        TransformersPolicy,
        VllmPolicy,
        OpenAIPolicy,
        ScriptedPolicy,
    )
