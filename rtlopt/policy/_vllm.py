"""vllm backend: rollouts in vLLM, training with the transformers trainer on the same GPU.

One card holds two copies of the base weights: vLLM's (rollouts) and the trainer's (policy
gradient). They take turns:

* vLLM is built first, with sleep mode on and ``gpu_memory_utilization`` set to the share the
  memory preflight (``rtlopt.policy._memory``) leaves after the trainer's resident memory (or
  ``policy.gpu_memory_utilization``); vLLM checks at start-up that this much is free.
* Around every update: ``llm.sleep(level=1)`` (weights to CPU RAM, KV cache dropped; level 1
  because the base weights never change, only the adapter does), the trainer's step,
  ``torch.cuda.empty_cache()`` (the trainer's cached blocks go back to the driver), then
  ``llm.wake_up()``. When the memory plan fits the update beside the awake engine
  (``MemoryPlan.update_awake``), vLLM stays awake: a level-1 cycle of an 8B model costs
  seconds per step.
* Each request asks for the sampled token's log-probability (``SamplingParams(logprobs=0)``,
  ``logprobs_mode = "processed_logprobs"``: after the temperature, the distribution the trainer
  scores; with ``top_p < 1`` also after the nucleus cut). The trainer weights each token by the
  truncated importance ratio ``min(pi_train / pi_vllm, train.is_cap)`` and reports the
  logprob gap (``rtlopt.train._step``). ``finish_reason == "length"`` marks an answer cut off
  at ``policy.max_new_tokens`` (``Completion.truncated``).
* Thinking (``rtlopt.policy._thinking``): the trainer renders the prompt ids with
  ``policy.enable_thinking``. With a think budget each request first asks for ``budget``
  tokens; an answer that used them all continues in a second request from its own token ids,
  after the tokens that close its think block when it is still thinking (those forced tokens
  stay out of the loss).

Requests: every rollout is its own request with ``n = 1`` and its own seed
(``rtlopt.policy._seeds``; vLLM's parallel sampling would give the children of a request with
seed s the seeds s, s+1, ..., colliding across prompts). Prompts go in as token ids
(``TokensPrompt``), the same ids the trainer scores, so a chat template that already holds a
BOS token does not get a second one from vLLM's tokenizer; ``answer_prefix`` (part of those
ids) is put back in front of vLLM's text, as the transformers backend does. Prompts longer than
``policy.max_prompt_tokens`` are shortened by the trainer's rule; one that cannot fit is not
sent and its rollouts carry an ``error`` (an infrastructure error, not a bad sample).

After every update the trainer writes its LoRA adapter to ``<workdir>/lora/step-<k>`` (only the
last :data:`KEEP_ADAPTERS` folders are kept) and the next ``generate`` sends a
``LoRARequest(name, id, path)`` with a new integer id, so vLLM loads the new weights instead of
serving a cached adapter; an update that trains nothing re-serves the same folder under a new
id, so no adapter is trusted across a sleep. ``max_lora_rank`` is the LoRA rank rounded up to
a value vLLM accepts. Before the first update the adapter is the identity (LoRA B = 0) and
requests carry no adapter. Full fine-tuning is not supported here (vLLM would need the whole
model reloaded every step): use the transformers backend.
"""

from __future__ import annotations

import gc
import importlib
import logging
import math
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.policy._extract import extract_verilog
from rtlopt.policy._memory import (
    MemoryPlan,
    cuda_card_bytes,
    host_available_bytes,
    model_shape,
    plan_for,
    vllm_dtype,
    vllm_max_lora_rank,
)
from rtlopt.policy._preflight import cuda_available, require_package, resolve_model
from rtlopt.policy._seeds import rollout_seed, rollout_seeds
from rtlopt.policy._thinking import ThinkBudget
from rtlopt.policy._types import Completion, Prompt, Sample, UpdateStats, frozen_stats
from rtlopt.policy._versions import require_min_version

log = logging.getLogger(__name__)

FALLBACK_GPU_MEMORY_UTILIZATION = 0.45
"""vLLM's share when neither the setting nor the preflight gives one (unknown model shape)."""

SLEEP_LEVEL = 1
"""vLLM sleep level during updates: 1 keeps the (unchanging) base weights in CPU RAM."""

KEEP_ADAPTERS = 3
"""How many ``lora/step-*`` folders (~60 MB each for Qwen3-8B at rank 16) are kept."""

_STEP_DIR = re.compile(r"step-(\d+)\Z")


@dataclass(frozen=True)
class _Request:
    """One rollout's request: the prompt ``i``, rollout ``j``, its prompt ids and seed, and
    the think budget of its prompt."""

    i: int
    j: int
    ids: list[int]
    seed: int
    think: ThinkBudget | None


@dataclass(frozen=True)
class _Answer:
    """A completion as vLLM returned it (or two requests' joined)."""

    text: str
    ids: list[int]
    logprobs: list[float] | None
    finish: str | None
    forced: tuple[int, ...] = ()

    @classmethod
    def of(cls, o: Any) -> _Answer:
        ids = [int(t) for t in o.token_ids]
        return cls(o.text, ids, sampled_logprobs(o, ids), getattr(o, "finish_reason", None))

    def then(self, close: list[int], close_text: str, rest: _Answer) -> _Answer:
        """This answer, the forced ``close`` tokens, then ``rest``."""
        lps = (
            [*self.logprobs, *([math.nan] * len(close)), *rest.logprobs]
            if self.logprobs is not None and rest.logprobs is not None
            else None
        )
        at = len(self.ids)
        return _Answer(
            text=self.text + close_text + rest.text,
            ids=[*self.ids, *close, *rest.ids],
            logprobs=lps,
            finish=rest.finish,
            forced=tuple(range(at, at + len(close))),
        )


def continuation_seed(seed: int) -> int:
    """The seed of the second request of a rollout (after its think budget): another stream
    than the first request's, a function of it."""
    return rollout_seed(seed, 0, 0, salt=1)


class Trainer(Protocol):
    """What the vLLM backend needs from the trainer (``TransformersPolicy`` provides it)."""

    trainable: bool
    answer_prefix: str

    def fitted_prompt_ids(self, prompt: Prompt) -> list[int] | None: ...

    def overlong_error(self, prompt: Prompt) -> str: ...

    def record_tokens(
        self,
        prompt: Prompt,
        completion: str,
        prompt_ids: Sequence[int],
        completion_ids: Sequence[int],
        logprobs: Sequence[float] | None = None,
        forced: Sequence[int] = (),
    ) -> None: ...

    def update(self, samples: Sequence[Sample]) -> UpdateStats: ...

    def save_adapter(self, path: Path) -> Path: ...

    def save(self, path: Path) -> None: ...

    def load(self, path: Path) -> None: ...

    def close(self) -> None: ...


def sampled_logprobs(output: Any, token_ids: Sequence[int]) -> list[float] | None:
    """The log-probability of each sampled token from a vLLM ``CompletionOutput`` (its
    ``logprobs``: one ``{token_id: Logprob}`` per position); None when not reported."""
    per_pos = getattr(output, "logprobs", None)
    if not per_pos or len(per_pos) < len(token_ids):
        return None
    out: list[float] = []
    for tok, entry in zip(token_ids, per_pos, strict=False):
        lp: Any = entry.get(tok) if isinstance(entry, dict) else None
        if lp is None:
            return None
        out.append(float(getattr(lp, "logprob", lp)))
    return out


def release_cuda_cache() -> None:
    """Return this process's cached CUDA blocks to the driver (no-op without CUDA)."""
    try:
        import torch
    except ImportError:
        return
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def shutdown_engine(llm: Any) -> None:
    """Stop a vLLM engine now instead of at garbage collection.

    ``LLM.shutdown()`` where it exists; otherwise the V1 engine core's ``shutdown()`` (the
    separate engine process and its GPU memory go with it).
    """
    shutdown = getattr(llm, "shutdown", None)
    if callable(shutdown):
        shutdown()
        return
    core = getattr(getattr(llm, "llm_engine", None), "engine_core", None)
    stop = getattr(core, "shutdown", None)
    if callable(stop):
        stop()
    else:
        log.debug("vllm: no shutdown method found; the engine stops when collected")


def vllm_memory_plan(
    cfg: PolicyConfig, train: TrainConfig, capacity: int | None
) -> MemoryPlan | None:
    """The memory plan of this backend on a card of ``capacity`` bytes (None: unknown shape)."""
    shape = model_shape(resolve_model(cfg, gpu=True))
    if shape is None:
        return None
    return plan_for(
        cfg,
        train,
        backend="vllm",
        device="cuda",
        capacity=capacity,
        shape=shape,
        host_capacity=host_available_bytes(),
    )


class VllmPolicy:
    """vLLM rollouts with a LoRA adapter hot-loaded after every update.

    Args:
        cfg: Model and sampling settings.
        train: Training settings (LoRA is required).
        seed: Engine seed.
        trainer: The trainer; default: a :class:`TransformersPolicy` on the same GPU, built
            after the engine.
        workdir: Where adapters are written; default: a temporary folder.
    """

    name = "vllm"

    @classmethod
    def preflight(cls, cfg: PolicyConfig) -> None:
        """A CUDA GPU, recent enough vllm / transformers / peft, and the model on disk."""
        if not cuda_available():
            raise UsageError(
                "the vllm backend needs a CUDA GPU and none is visible",
                hint="use --policy transformers on this machine; `rtlopt doctor` shows the plan",
            )
        require_package("vllm", "the vllm backend", "pip install 'rtlopt[vllm]'")
        for dist in ("vllm", "transformers", "peft"):
            require_min_version(dist)
        resolved = resolve_model(cfg, gpu=True)
        if resolved.gguf_file is not None:
            raise UsageError(
                "the vllm backend does not load GGUF models here",
                hint="pass a safetensors model with --model",
            )

    def __init__(
        self,
        cfg: PolicyConfig,
        train: TrainConfig,
        *,
        seed: int,
        trainer: Trainer | None = None,
        workdir: Path | None = None,
    ) -> None:
        if not train.lora and train.learning_rate > 0:
            raise UsageError(
                "the vllm backend trains LoRA adapters only",
                hint="set train.lora = true or use --policy transformers",
            )
        try:
            max_rank = vllm_max_lora_rank(train.lora_r)
        except ValueError as exc:
            raise UsageError(str(exc), hint="set train.lora_r to 512 or less") from exc
        self.cfg = cfg
        self.train_cfg = train
        self._vllm = importlib.import_module("vllm")
        self._lora_request_cls = importlib.import_module("vllm.lora.request").LoRARequest
        self._tokens_prompt_cls = importlib.import_module("vllm.inputs").TokensPrompt
        model = resolve_model(cfg, gpu=True).name_or_path
        self.memory_plan = vllm_memory_plan(cfg, train, cuda_card_bytes())
        share = cfg.gpu_memory_utilization
        if self.memory_plan is not None:
            if not self.memory_plan.fits:
                raise UsageError(
                    self.memory_plan.problems[0],
                    hint="`rtlopt doctor` prints the whole memory plan",
                )
            share = share or (self.memory_plan.gpu_memory_utilization or 0.0)
        share = share or FALLBACK_GPU_MEMORY_UTILIZATION
        self.gpu_memory_utilization = share
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if workdir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="rtlopt-vllm-")
            workdir = Path(self._tmp.name)
        self.workdir = workdir
        # The engine first: vLLM checks that its share of the card is free at start-up and
        # profiles its activation peak on a card it has to itself.
        log.info(
            "vllm: %s, gpu_memory_utilization %.2f, max_lora_rank %d (LoRA rank %d)",
            model,
            share,
            max_rank,
            train.lora_r,
        )
        self.llm: Any = self._vllm.LLM(
            model=model,
            enable_lora=True,
            max_lora_rank=max_rank,
            max_loras=1,
            seed=seed,
            dtype=self.memory_plan.dtype if self.memory_plan else vllm_dtype(cfg.dtype, None),
            gpu_memory_utilization=share,
            max_model_len=cfg.max_prompt_tokens + cfg.max_new_tokens,
            enable_sleep_mode=True,
            # log-probabilities after the temperature (the distribution the trainer scores)
            logprobs_mode="processed_logprobs",
        )
        if trainer is None:
            from rtlopt.policy._transformers import FrozenTrainer, TransformersPolicy

            # lr = 0: tokenizer only, no second copy of the model on the GPU
            cls = TransformersPolicy if train.learning_rate > 0 else FrozenTrainer
            trainer = cls(cfg, train, seed=seed)
        self.trainer = trainer
        self.trainable = trainer.trainable
        self.step = 0
        self._lora_id = 0
        self.lora_request: Any = None

    def _sampling(self, seed: int, max_tokens: int | None = None) -> Any:
        return self._vllm.SamplingParams(
            n=1,
            temperature=self.cfg.temperature,
            top_p=self.cfg.top_p,
            seed=seed,
            max_tokens=max_tokens or self.cfg.max_new_tokens,
            logprobs=0,  # the sampled token's log-probability: the update's IS correction
        )

    def _think_budget(self, prompt: Prompt) -> ThinkBudget | None:
        budget = getattr(self.trainer, "think_budget", None)
        return budget(prompt) if callable(budget) else None

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        """Sample ``n`` completions per prompt, one request per rollout with its own seed."""
        seeds = rollout_seeds(seed, len(prompts), n)
        slots: list[list[Completion | None]] = [[None] * n for _ in prompts]
        requests: list[_Request] = []
        for i, prompt in enumerate(prompts):
            ids = self.trainer.fitted_prompt_ids(prompt)
            if ids is None:
                err = self.trainer.overlong_error(prompt)
                slots[i] = [Completion(text="", verilog=None, seed=s, error=err) for s in seeds[i]]
                continue
            think = self._think_budget(prompt)
            requests.extend(_Request(i, j, ids, seeds[i][j], think) for j in range(n))
        for req, ans in zip(requests, self._answers(requests), strict=True):
            text = self.trainer.answer_prefix + ans.text
            self.trainer.record_tokens(
                prompts[req.i], text, req.ids, ans.ids, ans.logprobs, ans.forced
            )
            slots[req.i][req.j] = Completion(
                text=text,
                verilog=extract_verilog(text),
                prompt_tokens=len(req.ids),
                completion_tokens=len(ans.ids),
                seed=req.seed,
                truncated=ans.finish == "length",
                think_closed=bool(ans.forced),
            )
        return [[c for c in row if c is not None] for row in slots]

    def _run(self, prompts: list[list[int]], params: list[Any]) -> list[Any]:
        outputs = self.llm.generate(
            [self._tokens_prompt_cls(prompt_token_ids=ids) for ids in prompts],
            params,
            lora_request=self.lora_request,
            use_tqdm=False,
        )
        return [out.outputs[0] for out in outputs]

    def _answers(self, requests: Sequence[_Request]) -> list[_Answer]:
        """Every request's answer. A request with a think budget asks for ``budget`` tokens
        first; an answer that used them all goes on in a second request from its own token
        ids, after the tokens that close its think block when it is still thinking (their
        log-probabilities NaN, their positions ``forced``)."""
        if not requests:
            return []
        first = self._run(
            [r.ids for r in requests],
            [self._sampling(r.seed, r.think.tokens if r.think else None) for r in requests],
        )
        answers = [_Answer.of(o) for o in first]
        more: list[tuple[int, list[int]]] = []
        for k, (r, a) in enumerate(zip(requests, answers, strict=True)):
            if r.think is None or a.finish != "length" or len(a.ids) != r.think.tokens:
                continue
            close = list(r.think.close_ids) if r.think.thinking(a.ids) else []
            if len(a.ids) + len(close) < self.cfg.max_new_tokens:
                more.append((k, close))
        if not more:
            return answers
        second = self._run(
            [[*requests[k].ids, *answers[k].ids, *close] for k, close in more],
            [
                self._sampling(
                    continuation_seed(requests[k].seed),
                    self.cfg.max_new_tokens - len(answers[k].ids) - len(close),
                )
                for k, close in more
            ],
        )
        for (k, close), o in zip(more, second, strict=True):
            think = requests[k].think
            assert think is not None
            answers[k] = answers[k].then(close, think.decode(close), _Answer.of(o))
        return answers

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        """Sleep vLLM, train, publish the adapter, release the trainer's cache, wake vLLM."""
        if not self.trainable:
            return self.trainer.update(samples)
        if not any(s.advantage != 0.0 for s in samples):
            return frozen_stats()  # nothing to learn: no sleep / wake-up cycle, no step
        if self.memory_plan is not None and self.memory_plan.update_awake:
            # the plan fits the update beside the awake engine: no sleep / wake-up cycle
            stats = self.trainer.update(samples)
            if stats.n_samples > 0:
                self._publish_adapter()
            release_cuda_cache()
            return stats
        self.llm.sleep(level=SLEEP_LEVEL)
        published = False
        try:
            stats = self.trainer.update(samples)
            if stats.n_samples > 0:
                self._publish_adapter()
                published = True
        finally:
            release_cuda_cache()
            self.llm.wake_up()
        if not published and self.lora_request is not None:
            # Same adapter, new id: vLLM loads it again instead of trusting the LoRA slots it
            # held across the sleep (vllm-project/vllm#53888: an adapter that silently stopped
            # applying after a level-1 wake).
            self._serve(Path(self.lora_request.lora_path))
        return stats

    def _serve(self, path: Path) -> None:
        """Point the next requests at the adapter in ``path`` under a new integer id."""
        # vLLM caches adapters by id: a new id makes it load the folder.
        self._lora_id += 1
        self.lora_request = self._lora_request_cls(
            lora_name=f"rtlopt-{self._lora_id}", lora_int_id=self._lora_id, lora_path=str(path)
        )
        log.debug("vllm: serving adapter %s as id %d", path, self._lora_id)

    def _publish_adapter(self) -> None:
        """Save the trainer's adapter as the next step and point the next requests at it."""
        self.step += 1
        self._serve(self.trainer.save_adapter(self.workdir / "lora" / f"step-{self.step}"))
        self._prune_adapters()

    def _prune_adapters(self) -> None:
        root = self.workdir / "lora"
        for folder in root.iterdir() if root.is_dir() else ():
            m = _STEP_DIR.match(folder.name)
            if m and int(m.group(1)) <= self.step - KEEP_ADAPTERS:
                shutil.rmtree(folder, ignore_errors=True)

    def save(self, path: Path) -> None:
        """The trainer's state (adapter and optimizer)."""
        self.trainer.save(path)

    def load(self, path: Path) -> None:
        """Restore the trainer and serve its adapter from the next request on."""
        self.trainer.load(path)
        if self.trainable:
            self._publish_adapter()

    def close(self) -> None:
        """Shut the engine down, release the trainer and the adapter folder."""
        llm, self.llm = self.llm, None
        if llm is not None:
            shutdown_engine(llm)
            del llm
            gc.collect()
        self.trainer.close()
        release_cuda_cache()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
