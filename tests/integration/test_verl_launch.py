"""rtlopt's verl launch against verl 0.9.0's own code (issue 25, finding 1).

The real tests run verl's config composition, ``validate_config``, advantage-estimator
registry and (for the state-pool dataset) its dataset loader, sampler, collate function and
``DataProto`` in a Python that has verl 0.9.0 without vLLM or a GPU (``scripts/verl-cpu-env.sh``;
``RTLOPT_VERL_PYTHON`` or /opt/rtlopt-verl-cpu); they skip where it is missing. The ``fake``
tests check the same overrides against verl 0.9.0's config keys recorded in
tests/fixtures/verl-0.9.0-ppo_trainer-keys.txt. Not run anywhere here: verl's trainer, vLLM
rollouts and FSDP updates (GPU).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import Config, PolicyConfig, RunConfig, SearchConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.results import PPA, EvalResult, Stage, Status
from rtlopt.run import verl as rv
from rtlopt.run.verl import PoolSpec, RewardTask, VerlResources, plan_verl_launch

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "verl_cpu"
KEYS = REPO / "tests" / "fixtures" / "verl-0.9.0-ppo_trainer-keys.txt"
VERL_PYTHON = Path(os.environ.get("RTLOPT_VERL_PYTHON", "/opt/rtlopt-verl-cpu/bin/python"))
needs_verl = pytest.mark.skipif(
    not VERL_PYTHON.is_file(), reason="no verl 0.9 CPU env (bash scripts/verl-cpu-env.sh)"
)

GOOD = "module m(input a, output y);\n  assign y = a;  // GOOD\nendmodule\n"
WRONG = "module m(input a, output y);\n  assign y = ~a;\nendmodule\n"
CODE = "module m(input a, output y);\n" + "  assign y = a;  // keep\n" * 40 + "endmodule\n"
TASK = RewardTask("/repo/rtl/m.v", overrides={"flow.pdk": "nangate45"})
REFERENCE = EvalResult(Status.OK, Stage.DONE, reward=11.0, ppa=PPA(10.0, 50.0, 1.0))
SPEC = PoolSpec(TASK, REFERENCE, CODE, "A buffer.", "adp", Path("."), 0)


def plan(tmp_path: Path, cfg: Config | None = None, **res: object) -> rv.VerlLaunch:
    resources = VerlResources(model="Qwen/Qwen2.5-Coder-7B-Instruct", **res)  # type: ignore[arg-type]
    return plan_verl_launch(SPEC, cfg or Config(), tmp_path, resources)


def verl_validate(
    *sets: list[str] | tuple[str, ...], drive: dict[str, object] | None = None
) -> list[dict[str, Any]]:
    """verl's own config composition and validate_config on each set of overrides (one
    process: importing verl takes most of the time); ``drive``: then the first set's pool
    dataset through verl's data path (verl_cpu/pool_dataset.py)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    extra = [json.dumps(drive)] if drive is not None else []
    proc = subprocess.run(
        [
            str(VERL_PYTHON),
            str(HERE / "validate_config.py"),
            json.dumps([list(o) for o in sets]),
            *extra,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return results(proc)


def results(proc: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    return [json.loads(x[len("RESULT ") :]) for x in lines]


# ---------------------------------------------------------------------- verl's own validation

OLD_DOCS_COMMAND = [
    "data.train_files=/data/rows.parquet",
    "data.train_batch_size=4",
    "actor_rollout_ref.model.path=Qwen/Qwen3-8B",
    "actor_rollout_ref.rollout.name=vllm",
    "actor_rollout_ref.rollout.n=4",
    "actor_rollout_ref.actor.ppo_epochs=1",
    "actor_rollout_ref.actor.ppo_mini_batch_size=4",
    "actor_rollout_ref.actor.use_kl_loss=False",
    "actor_rollout_ref.actor.loss_agg_mode=seq-mean-token-sum",
    "algorithm.adv_estimator=rtlopt_entropic",
    "algorithm.use_kl_in_reward=False",
    "trainer.n_gpus_per_node=8",
    "trainer.nnodes=1",
]


@dataclasses.dataclass(frozen=True)
class DryRun:
    """``rtlopt train --dry-run`` on the priority encoder (the reference measured by the real
    tools): the command's outcome, its output folder and the verl arguments of its launch."""

    proc: subprocess.CompletedProcess[str]
    rtl: Path
    out: Path
    argv: list[str]


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> DryRun:
    import shlex

    src = REPO / "examples" / "priority_encoder"
    rtl = next(src.rglob("*.v"))
    out = tmp_path_factory.mktemp("dry") / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "rtlopt", "train", str(rtl), "--model", "Qwen/Qwen3-8B",
         "--gpus", "4", "--pdk", "nangate45", "--out", str(out), "--dry-run"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
    )  # fmt: skip
    launch = out / "launch.sh"
    argv = shlex.split(launch.read_text().splitlines()[1])[1:] if launch.is_file() else []
    return DryRun(proc, rtl, out, argv)


@dataclasses.dataclass(frozen=True)
class VerlChecked:
    """One verl process for the module (importing verl and its data path costs most of each
    run): the launches' override sets through verl's validation, then the default launch's
    state-pool dataset through verl's data path."""

    base: Path
    plan: rv.VerlLaunch
    launch: dict[str, Any]
    old: dict[str, Any]
    bare: dict[str, Any]
    adaptive: dict[str, Any]
    dry: dict[str, Any] | None
    pool: dict[str, Any]


@pytest.fixture(scope="module")
def verl_checked(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> VerlChecked:
    base = tmp_path_factory.mktemp("verl")
    launch = plan(base)
    adaptive = plan(base / "adaptive", Config(train=TrainConfig(delta="adaptive")))
    no_plus = [o.lstrip("+") if "rtlopt_delta" in o else o for o in launch.overrides]
    sets: list[list[str] | tuple[str, ...]] = [
        launch.overrides,
        OLD_DOCS_COMMAND,
        no_plus,
        adaptive.overrides,
    ]
    dry: DryRun = request.getfixturevalue("dry_run")
    if dry.argv:  # the dry run's own test says why when it wrote no launch
        sets.append(dry.argv[3:])
    n = RunConfig().rollouts * SearchConfig().parents
    script = [[(GOOD, 14.0)] + [(WRONG, 1.0)] * (n - 1), [(WRONG, 1.0)] * n]
    out = verl_validate(*sets, drive={"script": script, "keys": list(rv.REWARD_KEYS)})
    assert len(out) == len(sets) + 1, out
    launch_out, old, bare, adapt = out[:4]
    dry_out = out[4] if dry.argv else None
    return VerlChecked(base, launch, launch_out, old, bare, adapt, dry_out, out[-1])


@needs_verl
def test_launch_overrides_pass_verl_0_9_validate_config(verl_checked: VerlChecked) -> None:
    """Ours pass verl's own checks; the command docs/scale.md showed before (no micro-batch
    sizes) and ours with ``rtlopt_delta`` lacking its ``+`` are refused by them."""
    out, old, bare, adapt = (
        verl_checked.launch,
        verl_checked.old,
        verl_checked.bare,
        verl_checked.adaptive,
    )
    assert "error" not in out, out
    assert out["verl"] == "0.9.0"
    spec = str(verl_checked.base / "pool-spec.json")
    assert out["train_files"] == out["val_files"] == spec  # no foreign data set
    # the state pool's dataset (verl's own loader takes it: the slow test below), in the
    # trainer that calls its on_batch_end, with no loader workers holding copies of it
    assert out["dataset_cls"] == "pkg://rtlopt.run.verl_dataset:PoolDataset"
    assert (out["use_v1"], out["num_workers"], out["shuffle"]) == (False, 0, False)
    assert out["use_kl_loss"] is False
    # the adaptive controller's KL signal: reference log-probs, no KL term in the loss
    assert "error" not in adapt, adapt
    assert (adapt["use_kl_loss"], adapt["kl_loss_coef"], adapt["use_ref"]) == (True, 0.0, True)
    assert out["adv_estimator"] == "rtlopt_entropic"
    assert out["rtlopt_delta"] == pytest.approx(TrainConfig().delta_fixed)
    assert out["setup_hook"] == "rtlopt.run.verl.setup_worker"
    assert out["prompt_length"] == verl_checked.plan.prompt_tokens
    assert out["reward_manager"] == "naive" and out["reward_path"] == "pkg://rtlopt.run.verl"
    assert "ppo_micro_batch_size_per_gpu" in str(old["error"])
    assert "rtlopt_delta" in str(bare["error"])


@needs_verl
@pytest.mark.slow
def test_fake_rollouts_pool_dataset_runs_through_verls_own_data_path(
    verl_checked: VerlChecked,
) -> None:
    """Issue 32: the state-pool dataset through verl 0.9.0's create_rl_dataset, sampler,
    collate_fn and DataProto (fake rollouts and scores): step 1 starts from the root; its
    accepted answer enters the pool and step 2's prompts are built from it; verl's legacy
    trainer still calls the hook the pool relies on. Slow: importing verl's data path takes
    ~25 s here, on top of its config (the run is the module's one verl process)."""
    out, pool = verl_checked.launch, verl_checked.pool
    n = RunConfig().rollouts * SearchConfig().parents
    assert "error" not in out, out
    assert pool["dataset"] == "rtlopt.run.verl_dataset.PoolDataset"
    first, second = pool["steps"]
    assert set(first["states"]) == {0} and set(first["step"]) == {1}
    assert set(second["step"]) == {2} and len(second["states"]) == n
    [good] = [sid for sid, _reward, acc in pool["pool"] if acc]
    assert good in second["states"]
    assert any("GOOD" in p for p in second["prompts"])
    assert not any("GOOD" in p for p in first["prompts"])
    for call in (
        "fit_calls_on_batch_end",
        "fit_computes_advantage",
        "use_v1_false_runs_v0",
        "v0_builds_datasets",
    ):
        assert pool[call], call


def _estimator_in_actor(*hooks: str) -> list[dict[str, object]]:
    """``estimator_in_actor.py HOOK`` for each hook, the processes at the same time (each
    starts a Ray of its own and waits on it most of its ~12 s), their results in order."""
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    }
    procs = [
        subprocess.Popen(
            [str(VERL_PYTHON), str(HERE / "estimator_in_actor.py"), hook],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=REPO,
        )
        for hook in hooks
    ]
    outs = []
    try:
        for p in procs:
            stdout, stderr = p.communicate(timeout=300)
            assert p.returncode == 0, stderr[-3000:]
            [out] = results(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
            outs.append(out)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return outs


@needs_verl
@pytest.mark.slow
def test_estimator_is_found_in_verls_registry_in_another_ray_process() -> None:
    """verl 0.9 computes advantages in its TaskRunner actor, not where it loads the reward
    file: with rtlopt's setup hook in the job's runtime_env the real registry there has the
    estimator and it computes rtlopt's numbers; without it, verl's own error."""
    from rtlopt.train._advantage import make_advantage

    got, bare = _estimator_in_actor("hook", "none")
    assert got["pid"] != got["driver_pid"] and got["fn"] == "rtlopt.train._verl"
    want = make_advantage(TrainConfig())([1.0, 3.0, 0.0, 2.0], 0.5).advantages
    assert got["advantages"] == pytest.approx(list(want), rel=1e-5)
    assert "Unknown advantage estimator" in str(bare["error"])


# ------------------------------------------------------------------------------------- fakes


def _schema() -> set[str]:
    return {x for x in KEYS.read_text().splitlines() if x and not x.startswith("#")}


def test_fake_verl_0_9_schema_every_plain_override_exists_and_every_plus_one_is_new(
    tmp_path: Path,
) -> None:
    keys = _schema()
    for o in plan(tmp_path).overrides:
        key = o.partition("=")[0]
        if key.startswith("+"):
            assert key[1:] not in keys, f"{key}: verl has the key, '+' would fail"
        else:
            assert key in keys, f"{key}: not in verl 0.9's schema, needs '+'"
    for need in (
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu",
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
        "data.val_files",
    ):
        assert any(o.startswith(need + "=") for o in plan(tmp_path).overrides), need


def test_no_batch_reward_function_is_offered() -> None:
    """verl 0.9's reward loop has no batch reward manager (naive, dapo, gdpo, remote)."""
    assert not hasattr(rv, "compute_score_batch")
    assert "compute_score_batch" not in (REPO / "docs" / "scale.md").read_text()


def test_lengths_come_from_the_prompt_budget_and_the_root_prompt(tmp_path: Path) -> None:
    """data.max_prompt_length is the prompt budget (pool prompts show a parent too), or the
    root prompt when that is longer; the dataset reads the spec written beside it."""
    launch = plan(tmp_path)
    assert launch.prompt_tokens == PolicyConfig().max_prompt_tokens  # 8192: a multiple of 64
    assert launch.override("data.max_prompt_length") == str(launch.prompt_tokens)
    assert launch.override("data.max_response_length") == str(PolicyConfig().max_new_tokens)
    small = Config(policy=PolicyConfig(max_prompt_tokens=200))
    tight = plan(tmp_path / "tight", small)
    root = rv.bytes_upper_bound(rv.root_prompt_of(SPEC, small))
    assert root > 200 and root <= tight.prompt_tokens < root + rv.PROMPT_ROUND
    spec = PoolSpec.read(launch.spec_file)
    assert (spec.task, spec.code, spec.metric) == (TASK, CODE, "adp")
    assert spec.reference.ppa == REFERENCE.ppa and spec.out_dir == tmp_path
    assert spec.max_prompt_tokens == launch.prompt_tokens
    assert launch.override("data.train_batch_size") == str(SearchConfig().parents)
    with pytest.raises(UsageError, match="context of 4096"):
        plan(tmp_path, max_model_len=4096)
    with pytest.raises(UsageError, match="whole search strategy"):
        plan(tmp_path, Config(search=SearchConfig(sampler="mcts")))


def test_batches_verl_would_refuse_are_refused_first(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="do not divide over 3 GPUs"):
        plan(tmp_path, gpus_per_node=3)
    cfg = Config(train=TrainConfig(micro_batch=3), run=RunConfig(rollouts=4))
    with pytest.raises(UsageError, match="micro-batches of 3"):
        plan(tmp_path, cfg, gpus_per_node=4)


def test_train_layer_imports_no_policy() -> None:
    """Issue 21: train/ never imports policy/ (the verl reward side lives in run/)."""
    code = (
        "import sys, rtlopt.train._verl, rtlopt.train\n"
        "bad = sorted(m for m in sys.modules if m.startswith('rtlopt.policy')"
        " or m in ('verl', 'torch', 'ray', 'vllm'))\n"
        "print(bad)\nsys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.tools
@pytest.mark.slow
def test_rtlopt_train_dry_run_writes_a_launch_verl_accepts(
    dry_run: DryRun, request: pytest.FixtureRequest
) -> None:
    """`rtlopt train --dry-run` on a real module (reference measured by the real tools): the
    prompt it writes is the one rtlopt builds, and its launch passes verl's validation (in
    the module's one verl process)."""
    proc, rtl, out, argv = dry_run.proc, dry_run.rtl, dry_run.out, dry_run.argv
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert argv[1:3] == ["-m", "verl.trainer.main_ppo"]
    from rtlopt.run._verl_pool import PoolFeeder

    spec = PoolSpec.read(out / "pool-spec.json")
    first = PoolFeeder(spec).item(0)  # the dataset's first row: the reference's prompt
    assert rtl.read_text().strip().splitlines()[-1] in first["raw_prompt"][-1]["content"]
    if VERL_PYTHON.is_file():
        checked: VerlChecked = request.getfixturevalue("verl_checked")
        assert checked.dry is not None and "error" not in checked.dry, checked.dry


def _override(overrides: tuple[str, ...], key: str) -> str:
    (value,) = [o.partition("=")[2] for o in overrides if o.partition("=")[0] == key]
    return value


@pytest.mark.parametrize("targets", ["all-linear", "q_proj,v_proj"])
def test_fake_verl_both_engines_adapt_the_same_modules(tmp_path: Path, targets: str) -> None:
    """The verl launch and the in-process peft trainer read one setting, train.lora_targets:
    all linear layers by default (verl's target_modules and peft's adapted modules), the same
    loss normalisation and precision, and the truncated importance correction."""
    from rtlopt.policy._transformers import TransformersPolicy
    from tests.tiny_llama import write_tiny_llama

    train = TrainConfig(lora_r=4, lora_targets=targets)
    overrides = plan(tmp_path, Config(train=train)).overrides
    keys = _schema()
    assert all(o.partition("=")[0] in keys for o in overrides if not o.startswith("+"))
    verl_value = _override(overrides, "actor_rollout_ref.model.target_modules")
    assert _override(overrides, "actor_rollout_ref.actor.loss_agg_mode") == "seq-mean-token-sum"
    assert _override(overrides, "actor_rollout_ref.rollout.dtype") == "bfloat16"
    assert _override(overrides, "actor_rollout_ref.actor.fsdp_config.model_dtype") == "bfloat16"
    assert _override(overrides, "algorithm.rollout_correction.rollout_is_threshold") == "2.0"
    trainer = TransformersPolicy(
        PolicyConfig(model=str(write_tiny_llama(tmp_path / "tiny")), device="cpu", cpu_threads=1),
        TrainConfig(lora_r=4, learning_rate=1e-3, lora_targets=targets),
        seed=0,
    )
    adapted = {
        n.rsplit(".", 1)[-1] for n, _ in trainer.model.named_modules() if n.endswith("_proj")
    }
    lora = {
        n.split(".lora_A")[0].rsplit(".", 1)[-1]
        for n, _ in trainer.model.named_parameters()
        if ".lora_A." in n
    }
    if targets == "all-linear":
        assert verl_value == "all-linear"
        assert lora == adapted >= {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "down_proj"}
    else:
        assert verl_value == "[q_proj,v_proj]"
        assert lora == {"q_proj", "v_proj"}
    trainer.close()


def test_launch_renders_prompts_with_the_thinking_switch(tmp_path: Path) -> None:
    """verl's dataset and agent loop read ``data.apply_chat_template_kwargs``: the same switch
    as the in-process backends' chat template."""
    key = "data.apply_chat_template_kwargs.enable_thinking"
    assert plan(tmp_path).override(key) == "False"  # the default: Qwen3-8B answers at once
    on = dataclasses.replace(Config(), policy=PolicyConfig(enable_thinking=True))
    assert plan(tmp_path, on).override(key) == "True"
