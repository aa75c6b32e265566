"""vllm backend: rollouts in vLLM, training with the transformers trainer on the same GPU.

After every update the trainer writes its LoRA adapter to ``<workdir>/lora/step-<k>`` and the
next ``generate`` sends a ``LoRARequest(name, k, path)`` with a new integer id, so vLLM loads
the new weights instead of serving a cached adapter. Before the first update the adapter is the
identity (LoRA B = 0) and requests carry no adapter. Full fine-tuning is not supported here
(vLLM would need the whole model reloaded every step): use the transformers backend.
"""

from __future__ import annotations

import importlib
import logging
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.policy._extract import extract_verilog
from rtlopt.policy._preflight import cuda_available, require_package, resolve_model
from rtlopt.policy._types import Completion, Prompt, Sample, UpdateStats

log = logging.getLogger(__name__)

GPU_MEMORY_UTILIZATION = 0.45
"""Share of GPU memory vLLM may take; the trainer needs the rest."""


class Trainer(Protocol):
    """What the vLLM backend needs from the trainer (``TransformersPolicy`` provides it)."""

    trainable: bool

    def chat_text(self, prompt: Prompt) -> str: ...

    def record_tokens(self, prompt: Prompt, completion: str, prompt_ids: Sequence[int],
                      completion_ids: Sequence[int]) -> None: ...

    def update(self, samples: Sequence[Sample]) -> UpdateStats: ...

    def save_adapter(self, path: Path) -> Path: ...

    def save(self, path: Path) -> None: ...

    def load(self, path: Path) -> None: ...

    def close(self) -> None: ...


class VllmPolicy:
    """vLLM rollouts with a LoRA adapter hot-loaded after every update.

    Args:
        cfg: Model and sampling settings.
        train: Training settings (LoRA is required).
        seed: Engine seed.
        trainer: The trainer; default: a :class:`TransformersPolicy` on the same GPU.
        workdir: Where adapters are written; default: a temporary folder.
    """

    name = "vllm"

    @classmethod
    def preflight(cls, cfg: PolicyConfig) -> None:
        """A CUDA GPU, the vllm package, and the model on disk."""
        if not cuda_available():
            raise UsageError("the vllm backend needs a CUDA GPU and none is visible",
                             hint="use --backend transformers on this machine")
        require_package("vllm", "the vllm backend", "pip install 'rtlopt[vllm]'")
        resolved = resolve_model(cfg, gpu=True)
        if resolved.gguf_file is not None:
            raise UsageError("the vllm backend does not load GGUF models here",
                             hint="pass a safetensors model with --model")

    def __init__(self, cfg: PolicyConfig, train: TrainConfig, *, seed: int,
                 trainer: Trainer | None = None, workdir: Path | None = None) -> None:
        if not train.lora and train.learning_rate > 0:
            raise UsageError("the vllm backend trains LoRA adapters only",
                             hint="set train.lora = true or use --backend transformers")
        self.cfg = cfg
        self.train_cfg = train
        self._vllm = importlib.import_module("vllm")
        self._lora_request_cls = importlib.import_module("vllm.lora.request").LoRARequest
        model = resolve_model(cfg, gpu=True).name_or_path
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if workdir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="rtlopt-vllm-")
            workdir = Path(self._tmp.name)
        self.workdir = workdir
        if trainer is None:
            from rtlopt.policy._transformers import TransformersPolicy

            trainer = TransformersPolicy(cfg, train, seed=seed)
        self.trainer = trainer
        self.trainable = trainer.trainable
        self.llm: Any = self._vllm.LLM(
            model=model, enable_lora=True, max_lora_rank=train.lora_r, max_loras=1,
            seed=seed, dtype="bfloat16", gpu_memory_utilization=GPU_MEMORY_UTILIZATION,
            max_model_len=cfg.max_prompt_tokens + cfg.max_new_tokens,
        )
        self.step = 0
        self.lora_request: Any = None

    def _sampling(self, n: int, seed: int) -> Any:
        return self._vllm.SamplingParams(n=n, temperature=self.cfg.temperature,
                                         top_p=self.cfg.top_p, seed=seed,
                                         max_tokens=self.cfg.max_new_tokens)

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        """Sample ``n`` completions per prompt (prompt i seeded with seed + i)."""
        texts = [self.trainer.chat_text(p) for p in prompts]
        params = [self._sampling(n, seed + i) for i in range(len(prompts))]
        outputs = self.llm.generate(texts, params, lora_request=self.lora_request,
                                    use_tqdm=False)
        result: list[list[Completion]] = []
        for prompt, out in zip(prompts, outputs, strict=True):
            p_ids = list(out.prompt_token_ids or [])
            group = []
            for o in out.outputs:
                c_ids = list(o.token_ids)
                self.trainer.record_tokens(prompt, o.text, p_ids, c_ids)
                group.append(Completion(text=o.text, verilog=extract_verilog(o.text),
                                        prompt_tokens=len(p_ids), completion_tokens=len(c_ids)))
            result.append(group)
        return result

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        """Train with the trainer, then save the adapter and point the next requests at it."""
        stats = self.trainer.update(samples)
        if stats.n_samples > 0:
            self.step += 1
            path = self.trainer.save_adapter(self.workdir / "lora" / f"step-{self.step}")
            # A new integer id every step: vLLM caches adapters by id.
            self.lora_request = self._lora_request_cls(f"rtlopt-step-{self.step}", self.step,
                                                       str(path))
            log.debug("vllm: hot-loading adapter %s as id %d", path, self.step)
        return stats

    def save(self, path: Path) -> None:
        """The trainer's state (adapter and optimizer)."""
        self.trainer.save(path)

    def load(self, path: Path) -> None:
        """Restore the trainer and serve its adapter from the next request on."""
        self.trainer.load(path)
        if self.trainable:
            self.step += 1
            adapter = self.trainer.save_adapter(self.workdir / "lora" / f"step-{self.step}")
            self.lora_request = self._lora_request_cls(f"rtlopt-step-{self.step}", self.step,
                                                       str(adapter))

    def close(self) -> None:
        """Release the engine, the trainer and the adapter folder."""
        self.llm = None
        self.trainer.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
