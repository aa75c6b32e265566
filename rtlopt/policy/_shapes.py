"""The shape of a model that its memory depends on: the dimensions of a llama-family decoder,
read from the model's ``config.json`` or from rtlopt's table of the models it suggests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.policy._preflight import ResolvedModel, _hf_cache_dir


@dataclass(frozen=True)
class ModelShape:
    """The dimensions of a llama-family decoder that memory depends on."""

    name: str
    hidden: int
    intermediate: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    tied: bool
    context: int | None = None
    dtype: str | None = None

    @property
    def q_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.kv_heads * self.head_dim

    @property
    def params(self) -> int:
        """Parameter count (attention, gated MLP, norms, embeddings, untied head)."""
        h = self.hidden
        attn = h * self.q_dim + 2 * h * self.kv_dim + self.q_dim * h
        mlp = 3 * h * self.intermediate
        per_layer = attn + mlp + 2 * h
        heads = 1 if self.tied else 2
        return self.layers * per_layer + heads * self.vocab * h + h

    def kv_bytes_per_token(self, dtype_bytes: int = 2) -> int:
        """KV cache per token: K and V for every layer."""
        return 2 * self.layers * self.kv_dim * dtype_bytes

    def lora_params(self, rank: int) -> int:
        """Trainable LoRA parameters on every linear layer of the blocks (``train.lora_targets
        = all-linear``): q, k, v, o and the MLP's gate, up and down projections."""
        h, q, kv, i = self.hidden, self.q_dim, self.kv_dim, self.intermediate
        return rank * self.layers * ((h + q) + 2 * (h + kv) + (q + h) + 3 * (h + i))

    def vllm_lora_slot_bytes(self, max_rank: int, dtype_bytes: int = 2) -> int:
        """One vLLM LoRA slot: A and B stacks for every LoRA-capable linear layer at max rank."""
        h, q, kv, i = self.hidden, self.q_dim, self.kv_dim, self.intermediate
        ins_outs = (h + q + 2 * kv) + (q + h) + (h + 2 * i) + (i + h)
        return max_rank * self.layers * ins_outs * dtype_bytes

    def activation_bytes_per_token(self, dtype_bytes: int) -> int:
        """One layer's live activations per token (residual, q/k/v, gate/up/act, output)."""
        return (
            2 * self.hidden + self.q_dim + 2 * self.kv_dim + 3 * self.intermediate
        ) * dtype_bytes

    @classmethod
    def from_config(cls, name: str, cfg: dict[str, Any]) -> ModelShape:
        """Read a Hugging Face ``config.json`` (nested ``text_config`` too).

        Raises:
            KeyError: a required field is missing.
        """
        c = cfg.get("text_config") or cfg
        heads = int(c["num_attention_heads"])
        hidden = int(c["hidden_size"])
        return cls(
            name=name,
            hidden=hidden,
            intermediate=int(c["intermediate_size"]),
            layers=int(c["num_hidden_layers"]),
            heads=heads,
            kv_heads=int(c.get("num_key_value_heads") or heads),
            head_dim=int(c.get("head_dim") or hidden // heads),
            vocab=int(c["vocab_size"]),
            tied=bool(c.get("tie_word_embeddings", cfg.get("tie_word_embeddings", False))),
            context=int(c["max_position_embeddings"]) if c.get("max_position_embeddings") else None,
            dtype=str(c.get("torch_dtype") or c.get("dtype") or cfg.get("torch_dtype") or "")
            or None,
        )


def _qwen3(name: str, hidden: int, inter: int, layers: int, heads: int, tied: bool) -> ModelShape:
    return ModelShape(name, hidden, inter, layers, heads, 8, 128, 151936, tied, 40960, "bfloat16")


def _coder(name: str, hidden: int, inter: int, layers: int, heads: int, kv: int) -> ModelShape:
    tied = hidden < 2048  # the 0.5B, 1.5B and 3B models tie their embeddings
    vocab = 151936 if tied else 152064
    return ModelShape(name, hidden, inter, layers, heads, kv, 128, vocab, tied, 32768, "bfloat16")


KNOWN_SHAPES: dict[str, ModelShape] = {
    s.name: s
    for s in (
        # From each model's config.json on the Hugging Face hub (hidden_size,
        # intermediate_size, num_hidden_layers, num_attention_heads, num_key_value_heads,
        # head_dim, vocab_size, tie_word_embeddings, max_position_embeddings, torch_dtype).
        _qwen3("Qwen/Qwen3-0.6B", 1024, 3072, 28, 16, True),
        _qwen3("Qwen/Qwen3-1.7B", 2048, 6144, 28, 16, True),
        _qwen3("Qwen/Qwen3-4B", 2560, 9728, 36, 32, True),
        _qwen3("Qwen/Qwen3-8B", 4096, 12288, 36, 32, False),
        _qwen3("Qwen/Qwen3-14B", 5120, 17408, 40, 40, False),
        _coder("Qwen/Qwen2.5-Coder-1.5B-Instruct", 1536, 8960, 28, 12, 2),
        _coder("Qwen/Qwen2.5-Coder-7B-Instruct", 3584, 18944, 28, 28, 4),
        _coder("Qwen/Qwen2.5-Coder-14B-Instruct", 5120, 13824, 48, 40, 8),
        ModelShape(
            "HuggingFaceTB/SmolLM2-135M-Instruct",
            576,
            1536,
            30,
            9,
            3,
            64,
            49152,
            True,
            8192,
            "bfloat16",
        ),  # fmt: skip
    )
}
"""Shapes of models rtlopt suggests, for planning before they are downloaded (a local
``config.json`` wins: :func:`model_shape`)."""


def shape_source(resolved: ResolvedModel) -> str:
    """Where :func:`model_shape` takes the numbers from, for the plan's reader."""
    cfg = _config_json(resolved)
    if cfg is not None and resolved.gguf_file is None:
        return str(cfg)
    return "rtlopt's table of known configs (policy/_memory.py: KNOWN_SHAPES)"


def _config_json(resolved: ResolvedModel) -> Path | None:
    path = Path(resolved.name_or_path).expanduser()
    if path.is_dir():
        return path / "config.json" if (path / "config.json").is_file() else None
    snaps = _hf_cache_dir() / f"models--{resolved.name_or_path.replace('/', '--')}" / "snapshots"
    if snaps.is_dir():
        for snap in sorted(snaps.iterdir()):
            if (snap / "config.json").is_file():
                return snap / "config.json"
    return None


def model_shape(resolved: ResolvedModel) -> ModelShape | None:
    """The shape of a resolved model: its local ``config.json``, else the built-in table.

    The CPU smoke model (a GGUF file of SmolLM2-135M) maps to its table entry.
    """
    cfg = _config_json(resolved)
    if cfg is not None and resolved.gguf_file is None:
        try:
            return ModelShape.from_config(resolved.label, json.loads(cfg.read_text()))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    if resolved.name_or_path in KNOWN_SHAPES:
        return KNOWN_SHAPES[resolved.name_or_path]
    if resolved.gguf_file is not None and "smollm2-135m" in resolved.gguf_file.lower():
        return KNOWN_SHAPES["HuggingFaceTB/SmolLM2-135M-Instruct"]
    return None


DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}


def _weight_dtype(dtype: str | None, dtype_bytes: int | None, cuda: bool) -> tuple[int, str]:
    """Bytes per weight and the dtype's name: the name when given, else the bytes when given,
    else bf16 on CUDA and fp32 on the CPU."""
    db = DTYPE_BYTES[dtype] if dtype in DTYPE_BYTES else dtype_bytes or (2 if cuda else 4)
    return db, dtype or {4: "float32"}.get(db, "bfloat16")


def vllm_dtype(policy_dtype: str, shape: ModelShape | None) -> str:
    """The dtype vLLM loads the weights in: ``policy.dtype`` when set, else bfloat16, the
    trainer's on a GPU, so the sampler and the scorer compute in the same precision (a
    float16 checkpoint is served in bfloat16 too: the trainer would score it so)."""
    if policy_dtype != "auto":
        return policy_dtype
    return "bfloat16"
