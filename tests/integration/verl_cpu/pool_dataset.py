"""Drive rtlopt's state-pool dataset through verl 0.9.0's own data path, in a Python that has
verl (``--no-deps``) but no vLLM, GPU or torchdata (imported by ``validate_config.py``).

What is verl's own code here: the config composition, ``create_rl_dataset`` (the
``data.custom_cls`` loader and its Dataset check), ``create_rl_sampler``, ``collate_fn`` and
``DataProto`` (``from_single_dict``, ``pop``, ``repeat``, ``union``). What is not: the data
loader is torch's ``DataLoader`` (verl's ``StatefulDataLoader`` is a subclass of it from
torchdata, not installed here; with no workers both fetch a batch when asked; a stand-in
torchdata module lets ``create_rl_sampler`` import, see :func:`_no_torchdata`), the generation is
a fake (no responses: the rollout needs vLLM), the scores are fake (the reward columns rtlopt's
``compute_score`` writes, with scripted values), and the trainer's few lines around them are
copied from ``RayPPOTrainer.fit`` / ``_get_gen_batch`` (verl/trainer/ppo/ray_trainer.py of
0.9.0), whose calls this script also checks are still there.
"""

from __future__ import annotations

import ast
import math
import os
import uuid
from typing import Any

import numpy as np


class FakeTokenizer:
    """A chat template's token count: a byte-level bound (4 bytes a token)."""

    def apply_chat_template(self, msgs: list[dict[str, str]], **kw: Any) -> list[int]:
        return [0] * (sum(len(m["content"]) for m in msgs) // 4 + 8)


def _no_torchdata() -> None:
    """``create_rl_sampler`` imports torchdata's RandomSampler before it looks at
    ``data.shuffle``; torchdata is not installed here, and with ``shuffle=False`` the sampler
    is torch's SequentialSampler, so a stand-in module (whose class is never used) lets verl's
    function run."""
    import sys
    import types

    if "torchdata" in sys.modules:
        return
    for name in ("torchdata", "torchdata.stateful_dataloader"):
        sys.modules[name] = types.ModuleType(name)
    sampler = types.ModuleType("torchdata.stateful_dataloader.sampler")
    sampler.RandomSampler = type("RandomSamplerStandIn", (), {})  # type: ignore[attr-defined]
    sys.modules[sampler.__name__] = sampler


def _source_calls() -> dict[str, bool]:
    """The verl 0.9.0 calls the pool relies on, read from its files (the trainer's module
    imports torchdata, absent here)."""
    import verl.trainer

    root = os.path.dirname(verl.trainer.__file__)

    def read(*parts: str) -> str:
        with open(os.path.join(root, *parts)) as f:
            return f.read()

    trainer = read("ppo", "ray_trainer.py")
    tree = ast.parse(trainer)
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RayPPOTrainer"]
    [fit] = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "fit"]
    fit_src = ast.get_source_segment(trainer, fit) or ""
    main = read("main_ppo.py")
    v0 = read("main_ppo_v0.py")
    return {
        "fit_calls_on_batch_end": "self.train_dataset.on_batch_end(batch=batch)" in fit_src,
        "fit_computes_advantage": "compute_advantage(" in fit_src,
        "use_v1_false_runs_v0": "from verl.trainer.main_ppo_v0 import TaskRunner" in main,
        "v0_builds_datasets": "create_rl_dataset(" in v0 and "train_dataset=train_dataset" in v0,
    }


def _reward_columns(rows: list[tuple[str, float]], keys: list[str]) -> dict[str, np.ndarray]:
    """The columns verl's naive reward manager collects from rtlopt's result dicts (fake
    scores: a module marked GOOD is accepted with PPA numbers)."""
    cols: dict[str, list[Any]] = {k: [] for k in keys}
    for code, score in rows:
        good = "GOOD" in code
        row = {
            "score": score, "accepted": 1.0 if good else 0.0, "r_syn": 1.0, "r_func": 0.0,
            "r_ppa": 0.0, "metric": 400.0 if good else math.nan, "infrastructure_error": 0.0,
            "duplicate": 0.0, "status": "ok" if good else "invalid", "stage": "done",
            "source_hash": f"fake{abs(hash(code)) % 10**6}", "area_um2": 8.0 if good else math.nan,
            "delay_ps": 50.0 if good else math.nan, "power_uw": 1.0 if good else math.nan,
            "feedback": "Syntax: PASS", "code": code,
        }  # fmt: skip
        for k in keys:
            cols[k].append(row[k])
    return {k: np.array(v) for k, v in cols.items()}


def drive(cfg: Any, script: list[list[tuple[str, float]]], keys: list[str]) -> dict[str, Any]:
    """One verl step per entry of ``script`` (the scored answers of the step's rows, in
    order): the parents each step's prompts came from and what the pool holds after."""
    import torch
    from torch.utils.data import DataLoader
    from verl import DataProto
    from verl.trainer.ppo.utils import create_rl_dataset, create_rl_sampler
    from verl.utils.dataset.rl_dataset import collate_fn

    _no_torchdata()
    tok = FakeTokenizer()
    ds = create_rl_dataset(cfg.data.train_files, cfg.data, tok, None, is_train=True)
    create_rl_dataset(cfg.data.val_files, cfg.data, tok, None, is_train=False)  # never iterated
    loader = DataLoader(
        dataset=ds,
        batch_size=cfg.data.get("gen_batch_size", None) or cfg.data.train_batch_size,
        num_workers=cfg.data["dataloader_num_workers"],
        drop_last=True,
        collate_fn=collate_fn,
        sampler=create_rl_sampler(cfg.data, ds),
    )
    n = cfg.actor_rollout_ref.rollout.n
    steps = []
    for epoch in range(len(script)):
        for batch_dict in loader:
            batch = DataProto.from_single_dict(batch_dict)
            batch.non_tensor_batch["uid"] = np.array(
                [str(uuid.uuid4()) for _ in range(len(batch.batch))], dtype=object
            )
            reward_keys = {"data_source", "reward_model", "extra_info", "uid"} & set(
                batch.non_tensor_batch.keys()
            )
            gen_batch = batch.pop(
                batch_keys=[],
                non_tensor_batch_keys=list(set(batch.non_tensor_batch.keys()) - reward_keys),
            )
            gen_batch.non_tensor_batch.update(batch.non_tensor_batch)
            prompts = [list(p) for p in gen_batch.non_tensor_batch["raw_prompt"]]
            batch = batch.repeat(repeat_times=n, interleave=True)
            rep = gen_batch.repeat(repeat_times=n, interleave=True)
            gen_output = DataProto.from_dict(  # the fake rollout: empty responses
                tensors={"responses": torch.zeros(len(batch.batch), 4, dtype=torch.long)},
                non_tensors=dict(rep.non_tensor_batch),
            )
            batch = batch.union(gen_output)
            rows = script[epoch]
            batch.non_tensor_batch.update(_reward_columns(rows, keys))
            steps.append(
                {
                    "states": [
                        int(e["rtlopt_state"]) for e in batch.non_tensor_batch["extra_info"]
                    ],
                    "step": [int(e["rtlopt_step"]) for e in batch.non_tensor_batch["extra_info"]],
                    "prompts": [p[-1]["content"] for p in prompts],
                }
            )
            ds.on_batch_end(batch=batch)
    feeder = ds.feeder
    return {
        "dataset": f"{type(ds).__module__}.{type(ds).__qualname__}",
        "steps": steps,
        "pool": sorted((s.id, s.reward, s.accepted) for s in feeder.pool.states),
        **_source_calls(),
    }
