"""verl's advantage estimators: rtlopt's group advantages in verl's estimator signature.

:func:`entropic_advantage` and :func:`expected_advantage` have the signature of verl's
advantage estimators (``token_level_rewards``, ``response_mask``, ``index``, ``config``) and
compute rtlopt's group advantages (:mod:`rtlopt.train._advantage`) per group of rollouts of one
prompt; :func:`register_advantage_estimators` registers them with verl as ``rtlopt_entropic``
and ``rtlopt_expected``. verl 0.9 computes advantages in its trainer's task runner (a Ray actor
of its own), not in the process that loads the reward file: :mod:`rtlopt.run.verl` registers
them in every Ray worker of the job (``worker_process_setup_hook``).

Nothing here imports verl or torch when the module is imported; this module imports no layer
above ``train`` (the reward side, which needs the policy's answer extraction, is
:mod:`rtlopt.run.verl`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rtlopt.config import LN2, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.train._advantage import make_advantage

if TYPE_CHECKING:
    import torch

__all__ = [
    "ESTIMATOR_NAMES",
    "budget_override",
    "set_budget",
    "entropic_advantage",
    "expected_advantage",
    "register_advantage_estimators",
]

ESTIMATOR_NAMES = ("rtlopt_entropic", "rtlopt_expected")
"""The names rtlopt's estimators have in verl's registry (``algorithm.adv_estimator``)."""


# ------------------------------------------------------------------------------------ the budget

_BUDGET: list[float] = []


def set_budget(delta: float | None) -> None:
    """The KL budget of the coming step, set by the state-pool dataset's controller
    (:mod:`rtlopt.run._verl_pool`) in this process; ``None``: the launch's
    ``algorithm.rtlopt_delta`` again.

    verl 0.9's legacy trainer (``RayPPOTrainer.fit``) builds its datasets, computes advantages
    and calls the dataset's ``on_batch_end`` in one process (its TaskRunner), so the budget the
    dataset sets between batches is the one the estimators read in the next step.
    """
    _BUDGET.clear()
    if delta is not None:
        _BUDGET.append(float(delta))


def budget_override() -> float | None:
    """The budget :func:`set_budget` set in this process, if any."""
    return _BUDGET[0] if _BUDGET else None


# ------------------------------------------------------------------------------------ advantages


def _group_advantages(
    name: str,
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: Sequence[Any],
    config: Any,
) -> tuple[torch.Tensor, torch.Tensor]:
    import torch

    override = budget_override()
    delta = override if override is not None else float(_setting(config, "rtlopt_delta", LN2))
    estimator = make_advantage(TrainConfig(advantage=name))
    scores = token_level_rewards.sum(dim=-1).detach().cpu().tolist()
    groups: dict[Any, list[int]] = {}
    for i, g in enumerate(index):
        groups.setdefault(g, []).append(i)
    adv = [0.0] * len(scores)
    for rows in groups.values():
        rewards = [scores[i] if math.isfinite(scores[i]) else None for i in rows]
        stats = estimator(rewards, delta)
        for i, a in zip(rows, stats.advantages, strict=True):
            adv[i] = a
    out = torch.tensor(adv, dtype=token_level_rewards.dtype, device=token_level_rewards.device)
    out = out.unsqueeze(-1) * response_mask
    return out, out


def _setting(config: Any, key: str, default: float) -> Any:
    if config is None:
        return default
    if isinstance(config, Mapping):
        return config.get(key, default)
    getter = getattr(config, "get", None)
    if callable(getter):
        return getter(key, default)
    return getattr(config, key, default)


def entropic_advantage(
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: Sequence[Any],
    config: Any = None,
    **kwargs: Any,
) -> tuple[torch.Tensor, torch.Tensor]:
    """rtlopt's entropic leave-one-out advantage per group (rollouts sharing ``index``), at
    KL budget ``config.rtlopt_delta`` (default ln 2). A row whose reward is NaN (tool error)
    gets 0 and takes no part in its group. Returns ``(advantages, returns)``, both
    ``(batch, response_length)`` and masked."""
    return _group_advantages("entropic", token_level_rewards, response_mask, index, config)


def expected_advantage(
    token_level_rewards: torch.Tensor,
    response_mask: torch.Tensor,
    index: Sequence[Any],
    config: Any = None,
    **kwargs: Any,
) -> tuple[torch.Tensor, torch.Tensor]:
    """rtlopt's expected-reward (GRPO) advantage per group, NaN rewards left out."""
    return _group_advantages("expected", token_level_rewards, response_mask, index, config)


def register_advantage_estimators() -> tuple[str, ...]:
    """Register :func:`entropic_advantage` and :func:`expected_advantage` with verl as
    ``rtlopt_entropic`` and ``rtlopt_expected`` (``algorithm.adv_estimator``); idempotent.

    Raises:
        UsageError: verl is not installed.
    """
    try:
        from verl.trainer.ppo.core_algos import register_adv_est
    except ImportError as exc:
        raise UsageError("verl is not installed", hint="pip install verl (GPU machines)") from exc
    for name, fn in zip(ESTIMATOR_NAMES, (entropic_advantage, expected_advantage), strict=True):
        register_adv_est(name)(fn)
    return ESTIMATOR_NAMES
