"""verl's training dataset fed by rtlopt's state pool (``data.custom_cls``).

verl 0.9 builds its dataset as ``cls(data_files=..., tokenizer=..., processor=...,
config=data_config, max_samples=...)`` and requires a ``torch.utils.data.Dataset``
(``verl.utils.dataset.rl_dataset.get_dataset_class``); this module is the one rtlopt module
that imports torch when imported, and only verl imports it
(``data.custom_cls.path=pkg://rtlopt.run.verl_dataset``, ``data.custom_cls.name=PoolDataset``).
Everything it does is :class:`rtlopt.run._verl_pool.PoolFeeder`'s; see there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch
from torch.utils.data import Dataset

from rtlopt.errors import UsageError
from rtlopt.policy import Prompt
from rtlopt.run._verl_pool import PoolFeeder, PoolSpec, outcomes

__all__ = ["PoolDataset", "kl_to_reference"]


class PoolDataset(Dataset[dict[str, Any]]):  # type: ignore[misc]  # torch is read as Any (pyproject: mypy)
    """One batch of prompts per step from the pool; verl's ``on_batch_end`` feeds it back.

    ``len`` is ``data.train_batch_size``: the launch sets ``trainer.total_epochs`` to the
    steps, so each epoch is one batch, fetched after the previous step's ``on_batch_end``.
    The pool is built on the first item, so the validation copy verl also builds (never
    iterated: ``trainer.test_freq=-1``, no validation before training) costs nothing.
    """

    def __init__(
        self,
        data_files: str | Sequence[str],
        tokenizer: Any,
        processor: Any = None,
        config: Any = None,
        max_samples: int = -1,
        **kwargs: Any,
    ) -> None:
        files = [data_files] if isinstance(data_files, str | Path) else list(data_files)
        if len(files) != 1:
            raise UsageError(
                f"the pool dataset reads one spec file, got {len(files)}",
                hint="data.train_files=<out>/pool-spec.json (rtlopt train writes it)",
            )
        self.spec = PoolSpec.read(Path(files[0]))
        self.tokenizer = tokenizer
        self.batch_size = int(_get(config, "train_batch_size", 0) or 0)
        if self.batch_size < 1:
            raise UsageError("data.train_batch_size must be set for the pool dataset")
        self._feeder: PoolFeeder | None = None

    @property
    def feeder(self) -> PoolFeeder:
        if self._feeder is None:
            self._feeder = PoolFeeder(self.spec, self._count if self.tokenizer else None)
        return self._feeder

    def _count(self, prompt: Prompt) -> int:
        msgs = [{"role": m["role"], "content": m["content"]} for m in prompt]
        ids = self.tokenizer.apply_chat_template(msgs, tokenize=True, add_generation_prompt=True)
        return len(ids)

    def __len__(self) -> int:
        return self.batch_size

    def __getitem__(self, i: int) -> dict[str, Any]:
        row = self.feeder.item(int(i))
        # the keys verl's own RLHFDataset gives a text row (its dummy tensor keeps the
        # collated batch's tensor part non-empty)
        return {
            **row,
            "dummy_tensor": torch.tensor([0], dtype=torch.uint8),
            "index": int(i),
            "tools_kwargs": {},
            "interaction_kwargs": {},
        }

    def on_batch_end(self, batch: Any) -> None:
        """verl's hook after a step: the scored answers go to the pool and the schedule."""
        rows = outcomes(batch.non_tensor_batch, self.spec.metric)
        self.feeder.observe(rows, kl_to_reference(batch.batch))


def _get(config: Any, key: str, default: Any) -> Any:
    if config is None:
        return default
    if isinstance(config, Mapping):
        return config.get(key, default)
    getter = getattr(config, "get", None)
    return getter(key, default) if callable(getter) else getattr(config, key, default)


def kl_to_reference(tensors: Any) -> float | None:
    """Mean per-token k3 estimate of KL(policy || reference) over the response tokens, as
    ``rtlopt optimize`` measures it (``exp(r) - r - 1`` with ``r = ref - policy`` log-prob),
    from verl's ``old_log_probs`` and ``ref_log_prob``; None when verl computed no reference
    log-probs (no KL loss)."""
    keys = set(tensors.keys())
    if not {"old_log_probs", "ref_log_prob", "response_mask"} <= keys:
        return None
    mask = tensors["response_mask"].float()
    r = (tensors["ref_log_prob"] - tensors["old_log_probs"]).float()
    k3 = (torch.exp(r) - r - 1.0) * mask
    n = float(mask.sum())
    return float(k3.sum()) / n if n else None
