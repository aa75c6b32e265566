"""transformers backend on a tiny randomly initialised Llama saved to disk (no GGUF, no hub).

Exercises the safetensors loading path, full fine-tuning (frozen reference copy), the frozen
policy (lr = 0) and re-tokenisation of completions the policy did not sample itself, in seconds.
The tokenizer is byte-level, built in memory.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy import Prompt, Sample, create_policy

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("transformers") is None or importlib.util.find_spec("peft") is None,
    reason="transformers / peft not installed")

PROMPT: Prompt = ({"role": "system", "content": "You design RTL."},
                  {"role": "user", "content": "Write an inverter."})


CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def _byte_tokenizer() -> Any:
    """A byte-level tokenizer with a chat template, built in memory (no files, no hub)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {ch: i for i, ch in enumerate(sorted(alphabet))}
    tk = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tk.decoder = decoders.ByteLevel()
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, eos_token="<|im_end|>",
                                  bos_token="<|im_start|>", pad_token="<pad>")
    tok.chat_template = CHAT_TEMPLATE
    return tok


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tok = _byte_tokenizer()
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(tok), hidden_size=16, intermediate_size=32,
                      num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                      max_position_embeddings=512, bos_token_id=tok.bos_token_id,
                      eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    d = tmp_path_factory.mktemp("tiny-llama")
    LlamaForCausalLM(cfg).save_pretrained(str(d))
    tok.save_pretrained(str(d))
    return d


def _cfg(d: Path) -> PolicyConfig:
    return PolicyConfig(model=str(d), device="cpu", max_new_tokens=6, cpu_threads=1)


def _weights(pol: Any) -> dict[str, Any]:
    return {k: v.detach().clone() for k, v in pol.model.state_dict().items()}


def test_full_finetuning_updates_base_weights_and_measures_kl(tiny_model_dir: Path) -> None:
    import torch

    pol = create_policy(_cfg(tiny_model_dir), TrainConfig(lora=False, learning_rate=1e-2, delta="adaptive"),
                        seed=0)
    try:
        assert pol.trainable
        out = pol.generate([PROMPT], 2, seed=0)[0]
        before = _weights(pol)
        st = pol.update([Sample(PROMPT, out[0].text, 1.0), Sample(PROMPT, out[1].text, -1.0)])
        assert st.n_samples == 2 and st.loss is not None
        after = _weights(pol)
        assert any(not torch.equal(before[k], after[k]) for k in before)
        st2 = pol.update([Sample(PROMPT, out[0].text, 1.0), Sample(PROMPT, out[1].text, -1.0)])
        assert st2.kl_ref is not None and st2.kl_ref > 0
    finally:
        pol.close()


def test_frozen_policy_never_changes(tiny_model_dir: Path, tmp_path: Path) -> None:
    import torch

    pol = create_policy(_cfg(tiny_model_dir), TrainConfig(learning_rate=0.0), seed=0)
    try:
        assert not pol.trainable
        before = _weights(pol)
        st = pol.update([Sample(PROMPT, "module m; endmodule", 1.0),
                         Sample(PROMPT, "nothing", -1.0)])
        assert st.loss is None and st.n_samples == 0
        assert all(torch.equal(before[k], v) for k, v in _weights(pol).items())
        pol.save(tmp_path / "p")
        assert (tmp_path / "p" / "frozen.json").is_file()
    finally:
        pol.close()


def test_lora_on_unsampled_text_retokenizes(tiny_model_dir: Path) -> None:
    pol = create_policy(_cfg(tiny_model_dir), TrainConfig(learning_rate=1e-2, lora_r=2),
                        seed=0)
    try:
        st = pol.update([Sample(PROMPT, "module m(input a); endmodule", 1.0),
                         Sample(PROMPT, "I cannot.", -1.0)])
        assert st.n_samples == 2 and st.tokens > 4 and st.loss is not None
    finally:
        pol.close()
