"""The policy-gradient step (paper eq. 7) on a tiny randomly initialised Llama (real torch).

No download: the network is built from a config. The real SmolLM2 path is covered by the
model-marked tests in tests/integration/test_policy_transformers.py.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from rtlopt.train._step import TokenizedSample, policy_gradient_step  # noqa: E402


def _tiny() -> Any:
    torch.manual_seed(0)
    cfg = transformers.LlamaConfig(
        vocab_size=40,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
    return transformers.LlamaForCausalLM(cfg)


SAMPLES = [
    TokenizedSample((1, 5, 6), (7, 8, 2), 1.5),
    TokenizedSample((1, 5), (9, 9, 9, 2), -0.5),
    TokenizedSample((1, 4, 4, 4), (3,), 0.0),
]


def _seq_logp(model: Any, s: TokenizedSample, temperature: float = 1.0) -> Any:
    ids = torch.tensor([list(s.prompt_ids) + list(s.completion_ids)])
    lp = torch.log_softmax(model(input_ids=ids).logits[0, :-1].float() / temperature, dim=-1)
    tgt = ids[0, 1:]
    tok = lp.gather(1, tgt[:, None])[:, 0]
    return tok[len(s.prompt_ids) - 1 :].sum()


def test_loss_is_minus_logprob_times_advantage_over_nonzero_samples() -> None:
    """The mean is over every sample handed in (the zero-advantage one counts, as in verl's
    seq-mean-token-sum over the batch); only the two non-zero ones take a backward pass."""
    model = _tiny()
    expected = -sum(float(_seq_logp(model, s)) * s.advantage for s in SAMPLES) / 3
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    st = policy_gradient_step(model, opt, SAMPLES, pad_id=0, device="cpu", micro_batch=2)
    assert st.loss == pytest.approx(expected, rel=1e-5)
    assert st.n_samples == 2 and st.tokens == 3 + 4
    assert st.grad_norm is not None and st.grad_norm > 0
    assert st.kl_ref is None


@pytest.mark.parametrize("temp", [0.6, 1.3])
def test_loss_scores_tokens_at_the_sampling_temperature(temp: float) -> None:
    model = _tiny()
    expected = -sum(float(_seq_logp(model, s, temp)) * s.advantage for s in SAMPLES) / 3
    plain = -sum(float(_seq_logp(model, s)) * s.advantage for s in SAMPLES) / 3
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    st = policy_gradient_step(model, opt, SAMPLES, pad_id=0, device="cpu", temperature=temp)
    assert st.loss == pytest.approx(expected, rel=1e-5)
    assert abs(expected - plain) > 1e-3
    with pytest.raises(ValueError, match="temperature must be positive"):
        policy_gradient_step(model, opt, SAMPLES, pad_id=0, device="cpu", temperature=0.0)


def test_gradient_matches_autograd_of_eq7_and_micro_batching_is_exact() -> None:
    ref = _tiny()
    loss = -sum(_seq_logp(ref, s) * s.advantage for s in SAMPLES) / 3
    loss.backward()
    want = {n: p.grad.clone() for n, p in ref.named_parameters()}
    for mb in (1, 3):
        model = _tiny()
        opt = torch.optim.SGD(model.parameters(), lr=0.0)
        grads: dict[str, Any] = {}
        named = list(model.named_parameters())
        opt.register_step_pre_hook(
            lambda *_a, named=named, grads=grads: grads.update(
                {n: p.grad.clone() for n, p in named}
            )
        )
        policy_gradient_step(
            model, opt, SAMPLES, pad_id=0, device="cpu", micro_batch=mb, max_grad_norm=0.0
        )
        for n, g in want.items():
            assert torch.allclose(grads[n], g, atol=1e-5), (mb, n)


def test_all_zero_advantages_change_nothing() -> None:
    model = _tiny()
    before = copy.deepcopy(model.state_dict())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    zero = [TokenizedSample(s.prompt_ids, s.completion_ids, 0.0) for s in SAMPLES]
    st = policy_gradient_step(model, opt, zero, pad_id=0, device="cpu")
    assert st.loss is None and st.grad_norm is None and st.n_samples == 0
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert not opt.state


def test_update_raises_the_probability_of_positive_samples() -> None:
    model = _tiny()
    good, bad = SAMPLES[0], SAMPLES[1]
    lp_good, lp_bad = float(_seq_logp(model, good)), float(_seq_logp(model, bad))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for _ in range(5):
        policy_gradient_step(model, opt, [good, bad], pad_id=0, device="cpu")
    assert float(_seq_logp(model, good)) > lp_good
    assert float(_seq_logp(model, bad)) < lp_bad


def test_kl_to_reference_zero_at_start_positive_after_update_and_penalty_pulls_back() -> None:
    model = _tiny()
    frozen = copy.deepcopy(model).eval()

    def ref_logits(ids: Any, attn: Any) -> Any:
        return frozen(input_ids=ids, attention_mask=attn).logits

    opt = torch.optim.AdamW(model.parameters(), lr=5e-2)
    st0 = policy_gradient_step(model, opt, SAMPLES, pad_id=0, device="cpu", ref_logits=ref_logits)
    assert st0.kl_ref == pytest.approx(0.0, abs=1e-6)
    st1 = policy_gradient_step(model, opt, SAMPLES, pad_id=0, device="cpu", ref_logits=ref_logits)
    assert st1.kl_ref is not None and st1.kl_ref > 1e-4
    # kl_ref is measured on zero-advantage samples too (forward only).
    only_zero = policy_gradient_step(
        model, opt, [SAMPLES[2]], pad_id=0, device="cpu", ref_logits=ref_logits
    )
    assert only_zero.loss is None and only_zero.kl_ref is not None and only_zero.kl_ref > 0
    # With a large penalty, the loss grows by kl_coef * KL.
    opt0 = torch.optim.SGD(model.parameters(), lr=0.0)
    plain = policy_gradient_step(
        model, opt0, SAMPLES, pad_id=0, device="cpu", ref_logits=ref_logits
    )
    pen = policy_gradient_step(
        model, opt0, SAMPLES, pad_id=0, device="cpu", ref_logits=ref_logits, kl_coef=10.0
    )
    assert plain.loss is not None and pen.loss is not None and pen.loss > plain.loss


def test_kl_coef_without_reference_is_an_error() -> None:
    model = _tiny()
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    with pytest.raises(ValueError, match="reference"):
        policy_gradient_step(model, opt, SAMPLES, pad_id=0, device="cpu", kl_coef=0.1)
