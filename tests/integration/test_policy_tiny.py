"""transformers backend on a tiny randomly initialised Llama saved to disk (no GGUF, no hub).

Exercises the safetensors loading path, full fine-tuning (frozen reference copy), the frozen
policy (lr = 0) and re-tokenisation of completions the policy did not sample itself, in seconds.
The tokenizer is byte-level, built in memory (tests/tiny_llama.py).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy import Prompt, Sample, create_policy
from tests.tiny_llama import write_tiny_llama

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("transformers") is None or importlib.util.find_spec("peft") is None,
    reason="transformers / peft not installed",
)

PROMPT: Prompt = (
    {"role": "system", "content": "You design RTL."},
    {"role": "user", "content": "Write an inverter."},
)


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny-llama"))


def _cfg(d: Path) -> PolicyConfig:
    return PolicyConfig(model=str(d), device="cpu", max_new_tokens=6, cpu_threads=1)


def _weights(pol: Any) -> dict[str, Any]:
    return {k: v.detach().clone() for k, v in pol.model.state_dict().items()}


def test_full_finetuning_updates_base_weights_and_measures_kl(tiny_model_dir: Path) -> None:
    import torch

    pol = create_policy(
        _cfg(tiny_model_dir), TrainConfig(lora=False, learning_rate=1e-2, delta="adaptive"), seed=0
    )
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
        st = pol.update(
            [Sample(PROMPT, "module m; endmodule", 1.0), Sample(PROMPT, "nothing", -1.0)]
        )
        assert st.loss is None and st.n_samples == 0
        assert all(torch.equal(before[k], v) for k, v in _weights(pol).items())
        pol.save(tmp_path / "p")
        assert (tmp_path / "p" / "frozen.json").is_file()
    finally:
        pol.close()


def test_lora_on_unsampled_text_retokenizes(tiny_model_dir: Path) -> None:
    pol = create_policy(_cfg(tiny_model_dir), TrainConfig(learning_rate=1e-2, lora_r=2), seed=0)
    try:
        st = pol.update(
            [Sample(PROMPT, "module m(input a); endmodule", 1.0), Sample(PROMPT, "I cannot.", -1.0)]
        )
        assert st.n_samples == 2 and st.tokens > 4 and st.loss is not None
    finally:
        pol.close()


def test_every_rollout_sampled_with_its_own_seed(tiny_model_dir: Path) -> None:
    cfg = PolicyConfig(
        model=str(tiny_model_dir), device="cpu", max_new_tokens=12, cpu_threads=1, temperature=1.0
    )
    pol = create_policy(cfg, TrainConfig(learning_rate=0.0), seed=0)
    try:
        # The `none` sampler's batch: the same prompt several times.
        out = pol.generate([PROMPT] * 3, 4, seed=11)
        seeds = [c.seed for g in out for c in g]
        assert len(set(seeds)) == 12
        texts = [c.text for g in out for c in g]
        assert len(set(texts)) >= 11  # repeated prompts, distinct samples
        assert [c.text for g in pol.generate([PROMPT] * 3, 4, seed=11) for c in g] == texts
        # A rollout depends on its own seed only, not on the other rows of its batch.
        p_ids = pol.prompt_ids(PROMPT)
        alone = pol.sample(p_ids, [seeds[5]])[0][0]
        batch = pol.sample(p_ids, [seeds[0], seeds[5], 123])[1][0]
        assert alone == batch
    finally:
        pol.close()


def test_loss_scores_the_sampling_distribution(tiny_model_dir: Path) -> None:
    import torch

    from rtlopt.train._step import token_logprobs

    for temp in (0.5, 1.7):
        cfg = PolicyConfig(
            model=str(tiny_model_dir),
            device="cpu",
            max_new_tokens=10,
            cpu_threads=1,
            temperature=temp,
        )
        pol = create_policy(cfg, TrainConfig(learning_rate=1e-3, lora_r=2), seed=0)
        try:
            p_ids = pol.prompt_ids(PROMPT)
            c_ids, sampled_lp, _ = pol.sample(p_ids, [99])[0]
            # The update's loss (one sample, A = 1, no KL) is -sum log p of the sampled tokens
            # under the sampling distribution (LoRA B = 0: the policy is still the base).
            pol.record_tokens(PROMPT, "x", p_ids, c_ids)
            stats = pol.update([Sample(PROMPT, "x", 1.0)])
            assert stats.loss == pytest.approx(-sum(sampled_lp), rel=1e-4)
            ids = torch.tensor([p_ids + c_ids])
            with torch.no_grad(), pol.model.disable_adapter():
                logits = pol.model(input_ids=ids).logits
            targets = ids[:, 1:]
            first = len(p_ids) - 1
            scored = token_logprobs(logits, targets, temp)[0, first:].tolist()
            assert scored == pytest.approx(sampled_lp, abs=1e-4)
            plain = token_logprobs(logits, targets)[0, first:].tolist()
            assert max(abs(a - b) for a, b in zip(plain, sampled_lp, strict=True)) > 1e-2
        finally:
            pol.close()


def test_overlong_prompt_yields_error_completions(tiny_model_dir: Path) -> None:
    cfg = PolicyConfig(
        model=str(tiny_model_dir),
        device="cpu",
        max_new_tokens=4,
        cpu_threads=1,
        max_prompt_tokens=20,
    )
    pol = create_policy(cfg, TrainConfig(learning_rate=0.0), seed=0)
    try:
        out = pol.generate([PROMPT], 2, seed=0)
        assert [c.text for c in out[0]] == ["", ""]
        assert all(c.error and "max_prompt_tokens = 20" in c.error for c in out[0])
        assert len({c.seed for c in out[0]}) == 2
    finally:
        pol.close()
