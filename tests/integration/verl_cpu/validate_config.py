"""Run in a Python that has verl (``--no-deps``) but no vLLM or GPU: for each list of
overrides in the JSON list argv[1], compose verl's own ``ppo_trainer`` config with them, run
verl's own ``validate_config``, and print one ``RESULT`` line of JSON: a few resolved values,
or ``{"error": ...}`` with verl's message. With a second argument (a JSON script of scored
answers), the first set's state-pool dataset is then driven through verl's data path
(``pool_dataset.py``) and its outcome printed as one more ``RESULT`` line.

verl's LoRA check imports vLLM's module of its rollout (which needs vLLM and a GPU); its one
function, ``get_vllm_max_lora_rank``, is taken from verl's file as it is and run alone.
"""

import ast
import json
import os
import sys
import types
from typing import Any, Literal, get_args

import verl
import verl.trainer
from hydra import compose, initialize_config_dir


def _real_lora_rank_check() -> None:
    pkg_dir = os.path.join(os.path.dirname(verl.__file__), "workers", "rollout", "vllm_rollout")
    path = os.path.join(pkg_dir, "utils.py")
    tree = ast.parse(open(path).read())
    [fn] = [
        n
        for n in tree.body
        if isinstance(n, ast.FunctionDef) and n.name == "get_vllm_max_lora_rank"
    ]
    mod = types.ModuleType("verl.workers.rollout.vllm_rollout.utils")
    mod.__dict__.update(Literal=Literal, get_args=get_args)
    exec(compile(ast.Module(body=[fn], type_ignores=[]), path, "exec"), mod.__dict__)
    pkg = types.ModuleType("verl.workers.rollout.vllm_rollout")
    pkg.__path__ = [pkg_dir]  # its __init__ imports vLLM: not run
    sys.modules[pkg.__name__] = pkg
    sys.modules[mod.__name__] = mod


def main() -> None:
    _real_lora_rank_check()
    sets = json.loads(sys.argv[1])
    for overrides in sets:
        try:
            out = check(overrides)
        except Exception as exc:
            out = {"error": f"{type(exc).__name__}: {exc}"}
        print("RESULT " + json.dumps(out), flush=True)
    if len(sys.argv) > 2:  # drive the state-pool dataset of the first set (pool_dataset.py)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from pool_dataset import drive

        plan = json.loads(sys.argv[2])
        print("RESULT " + json.dumps(drive(_compose(sets[0]), plan["script"], plan["keys"])))


def _compose(overrides: list[str]) -> Any:
    cfgdir = os.path.join(os.path.dirname(verl.trainer.__file__), "config")
    with initialize_config_dir(config_dir=cfgdir, version_base=None):
        return compose(config_name="ppo_trainer", overrides=overrides)


def check(overrides: list[str]) -> dict[str, Any]:
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import validate_config

    cfg = _compose(overrides)
    validate_config(
        config=cfg, use_reference_policy=need_reference_policy(cfg), use_critic=need_critic(cfg)
    )
    rollout = cfg.actor_rollout_ref.rollout
    out: dict[str, Any] = {
        "verl": verl.__version__,
        "train_files": str(cfg.data.train_files),
        "val_files": str(cfg.data.val_files),
        "adv_estimator": str(cfg.algorithm.adv_estimator),
        "rtlopt_delta": float(cfg.algorithm.rtlopt_delta),
        "setup_hook": str(cfg.ray_kwargs.ray_init.runtime_env.worker_process_setup_hook),
        "prompt_length": int(rollout.prompt_length),
        "response_length": int(rollout.response_length),
        "max_model_len": rollout.max_model_len,
        "reward_path": str(cfg.reward.custom_reward_function.path),
        "reward_manager": str(cfg.reward.reward_manager.name),
        "use_v1": bool(cfg.trainer.use_v1),
        "num_workers": int(cfg.data.dataloader_num_workers),
        "shuffle": bool(cfg.data.shuffle),
        "use_kl_loss": bool(cfg.actor_rollout_ref.actor.use_kl_loss),
        "kl_loss_coef": float(cfg.actor_rollout_ref.actor.kl_loss_coef),
        "use_ref": bool(need_reference_policy(cfg)),
    }
    custom = cfg.data.custom_cls  # loaded by verl's own loader in pool_dataset.py (slow)
    out["dataset_cls"] = f"{custom.get('path')}:{custom.get('name')}"
    return out


if __name__ == "__main__":
    main()
