"""Run in a Python that has verl (``--no-deps``) and Ray: start a local Ray as verl's
``run_ppo`` does (argv[1] "hook": with rtlopt's ``worker_process_setup_hook`` in the job's
runtime_env, "none": without), and in a Ray actor, the process layout of verl 0.9's
``TaskRunner`` that computes advantages, look the estimator up in verl's real registry
(``get_adv_estimator_fn``) and call it with the keyword arguments verl's ``compute_advantage``
passes. Prints ``RESULT`` and JSON.
"""

import json
import os
import sys

import ray


@ray.remote(num_cpus=0)
class TaskRunnerLike:
    def advantages(self, name: str) -> dict:
        import torch
        from verl.trainer.ppo import core_algos

        try:
            fn = core_algos.get_adv_estimator_fn(name)
        except ValueError as exc:
            return {"pid": os.getpid(), "error": str(exc)}
        rewards = torch.zeros(4, 3)
        rewards[:, -1] = torch.tensor([1.0, 3.0, 0.0, 2.0])
        adv, ret = fn(
            token_level_rewards=rewards,
            response_mask=torch.ones(4, 3),
            config={"rtlopt_delta": 0.5},
            index=["g"] * 4,
        )
        return {"pid": os.getpid(), "advantages": adv[:, 0].tolist(), "fn": fn.__module__}


def main() -> None:
    env = {"env_vars": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}}
    if sys.argv[1] == "hook":
        from rtlopt.run.verl import SETUP_HOOK

        env["worker_process_setup_hook"] = SETUP_HOOK
    ray.init(
        num_cpus=1,
        include_dashboard=False,
        runtime_env=env,
        _node_ip_address="127.0.0.1",
    )
    try:
        out = ray.get(TaskRunnerLike.remote().advantages.remote("rtlopt_entropic"))
    finally:
        ray.shutdown()
    out["driver_pid"] = os.getpid()
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
