"""A tiny randomly initialised Llama with a byte-level tokenizer, written to disk in seconds.

Real transformers code paths (safetensors loading, chat template, generation, LoRA) without
the hub or a GGUF conversion. The chat template starts with the BOS token and the tokenizer
adds a BOS of its own when asked for special tokens, like Llama-family tokenizers: feeding the
rendered text back through the tokenizer with special tokens would double the BOS.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHAT_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def byte_tokenizer() -> Any:
    """A byte-level tokenizer with a chat template, built in memory (no files, no hub)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {ch: i for i, ch in enumerate(sorted(alphabet))}
    specials = ["<|im_start|>", "<|im_end|>", "<pad>", "<s>"]
    for s in specials:
        vocab[s] = len(vocab)
    tk = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tk.decoder = decoders.ByteLevel()
    tk.add_special_tokens(specials)
    tk.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", vocab["<s>"])]
    )
    tok = PreTrainedTokenizerFast(
        tokenizer_object=tk, eos_token="<|im_end|>", bos_token="<s>", pad_token="<pad>"
    )
    tok.chat_template = CHAT_TEMPLATE
    return tok


def write_tiny_llama(d: Path, seed: int = 0) -> Path:
    """Save a one-layer Llama and its tokenizer to ``d``; returns ``d``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tok = byte_tokenizer()
    torch.manual_seed(seed)
    cfg = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )
    d.mkdir(parents=True, exist_ok=True)
    LlamaForCausalLM(cfg).save_pretrained(str(d))
    tok.save_pretrained(str(d))
    return d
