"""verl integration: rtlopt's evaluator as verl's reward, its estimators in verl's trainer, and
the launch (``rtlopt train --engine verl``).

docs/scale.md explains how the test-time-training loop maps onto verl 0.9. Nothing here imports
verl, Ray or torch when the module is imported (verl pulls torch and vLLM; CPU installs of
rtlopt do not have it).

Reward. verl 0.9's reward loop calls ``compute_score(data_source, solution_str, ground_truth,
extra_info)`` per rollout (its ``naive`` reward manager; :func:`compute_score_async` is the
coroutine it awaits). verl 0.9 has no batch reward manager, so rtlopt offers none. A row's
``ground_truth`` (or ``extra_info["rtlopt"]``) names the design as JSON (:class:`RewardTask`).
The answer is extracted exactly as ``rtlopt optimize`` does (:func:`rtlopt.policy.answer_code`)
and scored by the design's :class:`~rtlopt.evaluate.Evaluator`, which stays open (warm tools,
cache) across calls. Identical answers of concurrent calls are evaluated once.

Every row's result is a dict with the same keys (verl collects each key into a column):
``score`` (rtlopt's reward), ``accepted``, ``r_syn``, ``r_func``, ``r_ppa``, ``metric`` (the
figure of merit, NaN without PPA), ``infrastructure_error``, ``duplicate``, ``status``,
``stage``, ``source_hash``. A tool crash or timeout is not a verdict on the answer: its
``score`` is NaN, which rtlopt's estimators leave out of their group (advantage 0); with
another estimator, pass ``infrastructure_score`` (verl: ``reward.custom_reward_function.
reward_kwargs``) to give such rows a number instead.

Advantages. verl 0.9 loads the reward file only inside its reward-loop workers, but computes
advantages in the trainer's task runner, another Ray actor. :func:`setup_worker` registers
rtlopt's estimators (:mod:`rtlopt.train._verl`) and is given to Ray as the job's
``worker_process_setup_hook`` (``+ray_kwargs.ray_init.runtime_env.worker_process_setup_hook``),
so every worker process of the job, the task runner included, has them before it runs.

Launch. :func:`plan_verl_launch` writes the pool spec (the design and its measured reference,
from which :mod:`rtlopt.run.verl_dataset` builds each batch's prompts out of the state pool:
:mod:`rtlopt.run._verl_pool`) and the Hydra overrides of ``python -m verl.trainer.main_ppo``:
the pool dataset and the trainer that calls it back between batches, lengths from the prompt
budget, micro-batch sizes, no foreign data set, ``+algorithm.rtlopt_delta``.
"""

from __future__ import annotations

import asyncio
import atexit
import dataclasses
import logging
import shlex
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rtlopt.config import Config, PolicyConfig, TrainConfig, lora_target_modules
from rtlopt.errors import UsageError
from rtlopt.policy import Prompt, answer_format, build_prompt, load_spec, template_kwargs
from rtlopt.run._verl_pool import PoolSpec
from rtlopt.run._verl_scorer import REWARD_KEYS as REWARD_KEYS
from rtlopt.run._verl_scorer import RewardScorer as RewardScorer
from rtlopt.run._verl_scorer import RewardTask as RewardTask
from rtlopt.train._verl import (
    ESTIMATOR_NAMES,
    entropic_advantage,
    expected_advantage,
    register_advantage_estimators,
)

__all__ = [
    "ESTIMATOR_NAMES",
    "REWARD_KEYS",
    "SETUP_HOOK",
    "RewardScorer",
    "RewardTask",
    "DATASET_CLASS",
    "PoolSpec",
    "VerlLaunch",
    "compute_score",
    "compute_score_async",
    "entropic_advantage",
    "expected_advantage",
    "plan_verl_launch",
    "pool_spec",
    "register_advantage_estimators",
    "root_prompt",
    "setup_worker",
]

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------ the scorer


_SCORER: RewardScorer | None = None
_SCORER_LOCK = threading.Lock()


def _scorer() -> RewardScorer:
    global _SCORER
    with _SCORER_LOCK:
        if _SCORER is None:
            _SCORER = RewardScorer()
            atexit.register(_SCORER.close)
        return _SCORER


def _with_score(row: dict[str, Any], infrastructure_score: float | None) -> dict[str, Any]:
    if infrastructure_score is not None and row["infrastructure_error"]:
        return {**row, "score": float(infrastructure_score)}
    return row


# ------------------------------------------------------------------------------------ verl API


def compute_score(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Any = None,
    *,
    infrastructure_score: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """verl's per-rollout reward function: rtlopt's reward of one answer.

    Args:
        data_source: The row's data source (not used).
        solution_str: The model's answer.
        ground_truth: The row's :class:`RewardTask` JSON.
        extra_info: The row's extra info (``extra_info["rtlopt"]`` wins over ground_truth).
        infrastructure_score: ``score`` of a tool crash or timeout (default NaN).
        kwargs: Other arguments verl passes (ignored).
    """
    task = RewardTask.from_row(ground_truth, extra_info)
    [row] = _scorer().score(task, [solution_str])
    return _with_score(row, infrastructure_score)


async def compute_score_async(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Any = None,
    *,
    infrastructure_score: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """:func:`compute_score` for verl's asynchronous reward loop (runs in a thread)."""
    return await asyncio.to_thread(
        compute_score,
        data_source,
        solution_str,
        ground_truth,
        extra_info,
        infrastructure_score=infrastructure_score,
    )


# ------------------------------------------------------------------------ the trainer's processes

SETUP_HOOK = "rtlopt.run.verl.setup_worker"
"""The import path Ray calls in every worker process of the job (``worker_process_setup_hook``)."""


def setup_worker() -> None:
    """Ray's ``worker_process_setup_hook``: register rtlopt's advantage estimators in this
    worker process (verl's task runner computes advantages in one of them). A worker without
    verl (an rtlopt evaluation actor) has nothing to register."""
    try:
        names = register_advantage_estimators()
    except UsageError:
        return
    log.debug("registered %s with verl in this process", ", ".join(names))


# ---------------------------------------------------------------------------------- the launch

PROMPT_ROUND = 64
"""Prompt and response lengths are rounded up to a multiple of this many tokens."""

TEMPLATE_TOKENS = 32
"""Chat-template tokens counted per message when no tokenizer is at hand (role markers)."""


def bytes_upper_bound(prompt: Prompt) -> int:
    """An upper bound of the prompt's tokens for a byte-level BPE tokenizer (Qwen, Llama,
    GPT-2 families): every token covers at least one UTF-8 byte, plus the template's markers."""
    return sum(len(m["content"].encode()) + TEMPLATE_TOKENS for m in prompt)


def _round_up(n: int, step: int = PROMPT_ROUND) -> int:
    return -(-n // step) * step


@dataclasses.dataclass(frozen=True)
class VerlLaunch:
    """What ``rtlopt train --engine verl`` starts: verl's PPO entry point with these overrides.

    Attributes:
        spec_file: The pool spec the dataset reads (``data.train_files``).
        overrides: Hydra overrides of ``python -m verl.trainer.main_ppo``.
        prompt_tokens: ``data.max_prompt_length``: the prompt budget
            (``policy.max_prompt_tokens``), or the root prompt if it is longer
            (``token_count`` says how it was counted).
        token_count: How prompts were counted: the model's tokenizer, or a byte upper bound.
        response_tokens: ``data.max_response_length``.
    """

    spec_file: Path
    overrides: tuple[str, ...]
    prompt_tokens: int
    token_count: str
    response_tokens: int

    def argv(self) -> list[str]:
        return [sys.executable, "-m", "verl.trainer.main_ppo", *self.overrides]

    def command(self) -> str:
        return shlex.join(self.argv())

    def override(self, key: str) -> str:
        """The value given to ``key`` (with or without its ``+``)."""
        for o in self.overrides:
            k, _, v = o.partition("=")
            if k.lstrip("+") == key:
                return v
        raise KeyError(key)


@dataclasses.dataclass(frozen=True)
class VerlResources:
    """Where verl runs: GPUs per node, nodes, the model, and vLLM's share of each GPU."""

    model: str
    gpus_per_node: int = 8
    nodes: int = 1
    gpu_memory_utilization: float = 0.5
    max_model_len: int | None = None


def _check_batches(batch: int, rollouts: int, gpus: int, micro: int) -> None:
    """verl's own checks (``validate_config``, the FSDP worker's mini-batch split) before any
    GPU starts, with what to change."""
    total = batch * rollouts
    if total % gpus:
        raise UsageError(
            f"{batch} prompts x {rollouts} rollouts = {total} sequences per step do not divide "
            f"over {gpus} GPUs (verl needs an equal share per GPU)",
            hint="choose --gpus that divides parents x rollouts, or change search.parents",
        )
    share = total // gpus
    if share % micro:
        raise UsageError(
            f"each GPU's {share} sequences do not divide into micro-batches of {micro}",
            hint=f"set train.micro_batch to a divisor of {share}",
        )


DATASET_CLASS = ("pkg://rtlopt.run.verl_dataset", "PoolDataset")
"""``data.custom_cls.path`` and ``.name`` of the state-pool dataset."""


def verl_overrides(
    cfg: Config,
    res: VerlResources,
    spec_file: Path,
    out_dir: Path,
    prompt_tokens: int,
    experiment: str,
) -> tuple[str, ...]:
    """The Hydra overrides of verl 0.9's ``ppo_trainer`` config for one rtlopt run."""
    t, batch, n = cfg.train, cfg.search.parents, cfg.run.rollouts
    micro = t.micro_batch
    _check_batches(batch, n, res.gpus_per_node * res.nodes, micro)
    response = _round_up(cfg.policy.max_new_tokens)
    temperature = cfg.search.temperature or cfg.policy.temperature
    # the in-process trainer's and vLLM's dtype on a GPU (rtlopt.policy._memory.vllm_dtype)
    dtype = cfg.policy.dtype if cfg.policy.dtype != "auto" else "bfloat16"
    ar = "actor_rollout_ref"
    kl_signal = t.delta == "adaptive"  # the controller's KL brake (P1) reads ref log-probs
    out = [
        f"data.train_files={spec_file}",
        f"data.val_files={spec_file}",  # never verl's default (another data set)
        f"data.custom_cls.path={DATASET_CLASS[0]}",
        f"data.custom_cls.name={DATASET_CLASS[1]}",
        # the dataset lives in the trainer's process: no loader workers holding copies of it,
        # and its rows in order (row i: the step's i-th parent)
        "data.dataloader_num_workers=0",
        "data.shuffle=False",
        # verl 0.9's legacy trainer calls the dataset's on_batch_end after each step; the v1
        # trainer (its default) calls no dataset hook
        "trainer.use_v1=False",
        f"data.train_batch_size={batch}",
        f"data.max_prompt_length={prompt_tokens}",
        f"data.max_response_length={response}",
        # the chat template's thinking switch, as the in-process backends render prompts
        f"+data.apply_chat_template_kwargs.enable_thinking={cfg.policy.enable_thinking}",
        f"{ar}.model.path={res.model}",
        f"{ar}.actor.optim.lr={t.learning_rate}",
        f"{ar}.actor.ppo_epochs=1",
        f"{ar}.actor.ppo_mini_batch_size={batch}",
        f"{ar}.actor.ppo_micro_batch_size_per_gpu={micro}",
        f"{ar}.actor.use_kl_loss={t.kl_coef > 0 or kl_signal}",
        f"{ar}.actor.kl_loss_coef={t.kl_coef}",
        f"{ar}.actor.loss_agg_mode=seq-mean-token-sum",  # the in-process step's normalisation
        f"{ar}.actor.grad_clip={t.max_grad_norm}",
        f"{ar}.rollout.name=vllm",
        f"{ar}.rollout.n={n}",
        f"{ar}.rollout.temperature={temperature}",
        f"{ar}.rollout.top_p={cfg.policy.top_p}",
        f"{ar}.rollout.gpu_memory_utilization={res.gpu_memory_utilization}",
        f"{ar}.rollout.max_model_len={res.max_model_len or prompt_tokens + response}",
        f"{ar}.rollout.log_prob_micro_batch_size_per_gpu={micro}",
        f"{ar}.rollout.dtype={dtype}",  # one precision for sampling and scoring
        f"{ar}.actor.fsdp_config.model_dtype={dtype}",
        f"{ar}.rollout.calculate_log_probs=True",
        f"{ar}.ref.log_prob_micro_batch_size_per_gpu={micro}",
        f"algorithm.adv_estimator=rtlopt_{t.advantage}",
        f"+algorithm.rtlopt_delta={t.adaptive.delta0 if kl_signal else t.delta_fixed}",
        "algorithm.use_kl_in_reward=False",
        "reward.custom_reward_function.path=pkg://rtlopt.run.verl",
        "reward.custom_reward_function.name=compute_score_async",
        f"+ray_kwargs.ray_init.runtime_env.worker_process_setup_hook={SETUP_HOOK}",
        f"trainer.n_gpus_per_node={res.gpus_per_node}",
        f"trainer.nnodes={res.nodes}",
        f"trainer.total_epochs={cfg.run.steps}",
        f"trainer.total_training_steps={cfg.run.steps}",
        "trainer.val_before_train=False",
        "trainer.test_freq=-1",
        "trainer.logger=[console]",
        "trainer.project_name=rtlopt",
        f"trainer.experiment_name={experiment}",
        f"trainer.default_local_dir={out_dir / 'checkpoints'}",
    ]
    if t.is_cap > 0:  # the in-process step's truncated importance weights
        out += [
            "algorithm.rollout_correction.rollout_is=token",
            f"algorithm.rollout_correction.rollout_is_threshold={t.is_cap}",
        ]
    if t.lora:
        out += [
            f"{ar}.model.lora_rank={t.lora_r}",
            f"{ar}.model.lora_alpha={t.lora_alpha}",
            f"{ar}.model.target_modules={verl_target_modules(t)}",
        ]
    return tuple(out)


def verl_target_modules(train: TrainConfig) -> str:
    """``train.lora_targets`` as a verl override value: ``all-linear`` or ``[a,b]``, the
    modules the in-process trainer adapts (:func:`rtlopt.config.lora_target_modules`)."""
    targets = lora_target_modules(train)
    return targets if isinstance(targets, str) else "[" + ",".join(targets) + "]"


def plan_verl_launch(
    spec: PoolSpec,
    cfg: Config,
    out_dir: Path,
    res: VerlResources,
    count_tokens: Callable[[Prompt], int] | None = None,
) -> VerlLaunch:
    """Write the pool spec and build the overrides of a verl run of ``spec``'s design.

    Args:
        spec: The design and its measured reference (:func:`pool_spec`).
        cfg: The resolved configuration (search.*, run.rollouts, run.steps, train.*, policy.*).
        out_dir: Where the spec, the pool's state and verl's checkpoints go.
        res: GPUs, nodes, the model and vLLM's memory share.
        count_tokens: The model's tokenizer with its chat template; None: a byte upper bound.

    Raises:
        UsageError: a batch verl would refuse; a prompt plus answer beyond
            ``res.max_model_len``; a search strategy or answer format the pool dataset
            cannot feed.
    """
    counter = count_tokens or bytes_upper_bound
    how = "the model's tokenizer" if count_tokens else "UTF-8 bytes (an upper bound)"
    root = root_prompt_of(spec, cfg)
    prompt_tokens = _round_up(max(counter(root), cfg.policy.max_prompt_tokens))
    response = _round_up(cfg.policy.max_new_tokens)
    if res.max_model_len is not None and prompt_tokens + response > res.max_model_len:
        raise UsageError(
            f"the prompt budget ({prompt_tokens} tokens by {how}) plus the answer "
            f"({response}) exceed the model's context of {res.max_model_len} tokens",
            hint="lower policy.max_new_tokens or policy.max_prompt_tokens",
        )
    spec = dataclasses.replace(spec, out_dir=out_dir, max_prompt_tokens=prompt_tokens)
    _check_pool(spec, cfg)
    spec_file = out_dir / "pool-spec.json"
    spec.write(spec_file)
    overrides = verl_overrides(
        cfg, res, spec_file, out_dir, prompt_tokens, Path(spec.task.file).stem
    )
    return VerlLaunch(spec_file, overrides, prompt_tokens, how, response)


def _check_pool(spec: PoolSpec, cfg: Config) -> None:
    """The pool dataset's own refusals (strategy, answer format), before anything starts."""
    from rtlopt.run._verl_pool import PoolFeeder

    PoolFeeder(spec, config=cfg)


def pool_spec(task: RewardTask, scorer: RewardScorer | None = None) -> PoolSpec:
    """The design's pool spec: its reference measured by the same evaluator the reward uses,
    the reference's code and the specification ``rtlopt optimize`` shows."""
    ev = (scorer or _scorer()).evaluator(task)
    ref = ev.reference()
    if ref.ppa is None:
        raise UsageError(
            f"the reference of {task.file} has no PPA ({ref.status}: {ref.reason})",
            hint="rtlopt evaluate the module first",
        )
    cfg, target = ev.config, ev.design.target
    spec = load_spec(cfg.project.spec, target.header_comment)
    return PoolSpec(task, ref, target.text(), spec, ev.metric_kind, Path("."), 0)


def root_prompt_of(spec: PoolSpec, cfg: Config) -> Prompt:
    """The prompt ``rtlopt optimize`` sends for the design's reference (its first step)."""
    assert spec.reference.ppa is not None
    fmt = answer_format(spec.code, cfg.policy.answer_format, cfg.policy.edit_min_lines)
    return build_prompt(spec.code, spec.reference.ppa, spec.spec, spec.metric, None, answer=fmt)


def root_prompt(task: RewardTask, scorer: RewardScorer | None = None) -> Prompt:
    """The prompt ``rtlopt optimize`` sends for the design's reference, with the reference
    measured by the same evaluator the reward uses."""
    scorer = scorer or _scorer()
    return root_prompt_of(pool_spec(task, scorer), scorer.evaluator(task).config)


def tokenizer_counter(
    model: str, policy: PolicyConfig | None = None
) -> Callable[[Prompt], int] | None:
    """Count a prompt's tokens with ``model``'s own tokenizer and chat template (with
    ``policy.enable_thinking`` where the template reads it), if it is on this machine (no hub
    access); None otherwise (the caller falls back to a byte bound)."""
    try:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(model, local_files_only=True)
    except Exception as exc:  # not installed, not cached, no tokenizer: the byte bound
        log.info("no local tokenizer of %s (%s); prompts counted by bytes", model, exc)
        return None

    def count(prompt: Prompt) -> int:
        msgs = [{"role": m["role"], "content": m["content"]} for m in prompt]
        extra = template_kwargs(tok, policy or PolicyConfig())
        ids = tok.apply_chat_template(msgs, tokenize=True, add_generation_prompt=True, **extra)
        return len(ids)

    return count
