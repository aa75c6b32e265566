"""The on-device policy-gradient step of TTT-RTL (paper eq. 7), in torch.

loss = (1 / N) * sum_i [ -(sum_t log pi(v_i,t | x_i, v_i,<t)) * A_i + kl_coef * KL_i ]

where pi is the distribution the tokens were sampled from: ``softmax(logits / T)`` at the
sampling temperature T (verl divides the logits by the temperature in its actor the same way);
at T = 1 that is the model itself.

where N is the number of rollouts handed to the step (those with A = 0 included: they add
nothing to the sum but count in the mean, as verl's ``loss_agg_mode = seq-mean-token-sum`` over
the batch does, so both engines normalise the same way; the run loop hands every rewarded
rollout of the step, degenerate groups' with A = 0), with no importance-ratio clip. Only the
rollouts with A != 0 go through the backward pass. KL_i is the k3 estimate ``exp(r) - r - 1`` with
``r = log pi_ref - log pi`` summed over the sampled completion tokens, where pi_ref is the
policy with its LoRA adapters disabled (or a frozen copy under full fine-tuning). The mean
per-token KL estimate is reported on every step, penalty or not: the adaptive KL-budget
controller reads it.

Truncated importance sampling. When the sampler reported each completion token's
log-probability (``TokenizedSample.sample_logprobs``: vLLM, or the in-process sampler), each
token's term is weighted by ``w_t = min(pi_train(v_t) / pi_sampler(v_t), is_cap)`` (detached),
where ``pi_train`` is the policy before this step: the truncated importance-sampling correction
of verl's rollout correction and TRL's vLLM importance sampling (cap 2 by default). A sampler in
another precision or engine than the trainer makes the two differ; with the same model in the
same precision ``w_t`` is 1. The mean ``|log pi_train - log pi_sampler|`` per token is reported
as the logprob gap, and the fraction of capped weights as ``is_clipped``.

torch is imported lazily so that ``import rtlopt.train`` works without it.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

log = logging.getLogger(__name__)

RefLogits = Callable[["torch.Tensor", "torch.Tensor"], "torch.Tensor"]
"""(input_ids, attention_mask) -> logits of the reference policy (called under no_grad)."""


@dataclass(frozen=True)
class TokenizedSample:
    """One rollout as token ids.

    Attributes:
        prompt_ids: The prompt as the policy saw it (chat template applied).
        completion_ids: The sampled completion tokens (with the end-of-sequence token if the
            model stopped on its own).
        advantage: Its advantage A_i.
        sample_logprobs: The sampler's log-probability of each completion token (at the
            sampling temperature), or None when the sampler did not report them.
        forced: Positions in ``completion_ids`` that were written into the answer rather than
            sampled (the think budget's close, ``rtlopt.policy._thinking``): they stay out of
            the loss, the KL and the importance weights, and their ``sample_logprobs`` entries
            are ignored.
    """

    prompt_ids: tuple[int, ...]
    completion_ids: tuple[int, ...]
    advantage: float
    sample_logprobs: tuple[float, ...] | None = None
    forced: tuple[int, ...] = ()

    def scored_logprobs(self) -> tuple[float, ...] | None:
        """The sampler's log-probabilities of the tokens that enter the loss (forced ones
        dropped), in order."""
        if self.sample_logprobs is None or not self.forced:
            return self.sample_logprobs
        skip = set(self.forced)
        return tuple(lp for k, lp in enumerate(self.sample_logprobs) if k not in skip)


@dataclass(frozen=True)
class StepStats:
    """What :func:`policy_gradient_step` did (see ``rtlopt.policy.UpdateStats``)."""

    loss: float | None
    kl_ref: float | None
    n_samples: int
    tokens: int
    grad_norm: float | None
    time_s: float
    logprob_gap: float | None = None
    is_clipped: float | None = None


def _batch(
    samples: Sequence[TokenizedSample], pad_id: int, device: Any
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Right-padded input ids, attention mask, next-token targets and completion mask."""
    import torch

    seqs = [list(s.prompt_ids) + list(s.completion_ids) for s in samples]
    width = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    attn = torch.zeros((len(seqs), width), dtype=torch.long)
    cmask = torch.zeros((len(seqs), width - 1), dtype=torch.float32)
    for i, (s, seq) in enumerate(zip(samples, seqs, strict=True)):
        ids[i, : len(seq)] = torch.tensor(seq, dtype=torch.long)
        attn[i, : len(seq)] = 1
        p = len(s.prompt_ids)
        # target position t predicts token t+1: completion tokens are targets p-1 .. len-2
        cmask[i, p - 1 : len(seq) - 1] = 1.0
        for k in s.forced:  # written by the think budget, not sampled: no loss term
            if 0 <= k < len(s.completion_ids):
                cmask[i, p - 1 + k] = 0.0
    targets = ids[:, 1:].clone()
    return ids.to(device), attn.to(device), targets.to(device), cmask.to(device)


def token_logprobs(
    logits: torch.Tensor, targets: torch.Tensor, temperature: float = 1.0
) -> torch.Tensor:
    """log p(target) per position from logits ``[B, T, V]`` (the last position dropped), under
    ``softmax(logits / temperature)``."""
    import torch.nn.functional as F  # noqa: N812

    lg = logits[:, :-1, :].float()
    if temperature != 1.0:
        lg = lg / temperature
    b, t, v = lg.shape
    nll = F.cross_entropy(lg.reshape(b * t, v), targets.reshape(b * t), reduction="none")
    return -nll.view(b, t)


def _first_target(samples: Sequence[TokenizedSample]) -> int:
    """The first position whose next token is a completion token, over a micro-batch."""
    return max(0, min(len(s.prompt_ids) for s in samples) - 1)


def _call_logits(fn: Callable[..., Any], ids: torch.Tensor, attn: torch.Tensor, keep: int) -> Any:
    """The last ``keep`` positions' logits: only completion positions need the vocabulary head.

    Long prompts (a whole reference module) would otherwise spend most of the step on logits
    nobody reads. Callables that do not take ``keep`` get their output sliced.
    """
    try:
        out = fn(ids, attn, keep=keep)
    except TypeError:
        out = fn(ids, attn)
    return out[:, -keep:, :] if out.shape[1] > keep else out


def _model_fn(model: Any) -> Callable[..., Any]:
    def call(ids: torch.Tensor, attn: torch.Tensor, keep: int | None = None) -> Any:
        if keep is None:
            return model(input_ids=ids, attention_mask=attn).logits
        try:
            return model(input_ids=ids, attention_mask=attn, logits_to_keep=keep).logits
        except TypeError:
            return model(input_ids=ids, attention_mask=attn).logits[:, -keep:, :]

    return call


@dataclass(frozen=True)
class _Pass:
    """How a micro-batch goes through the policy and the reference."""

    fwd: Callable[..., Any]  # the policy's logits (see _model_fn)
    ref_logits: RefLogits | None
    pad_id: int
    device: Any
    temperature: float

    def tensors(
        self, chunk: Sequence[TokenizedSample]
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, int]:
        """Input ids, attention mask, targets and completion mask from the first completion
        target on, and how many positions' logits that needs (``keep``)."""
        ids, attn, targets, cmask = _batch(chunk, self.pad_id, self.device)
        first = _first_target(chunk)
        keep = ids.shape[1] - first
        return ids, attn, targets[:, first:], cmask[:, first:], keep

    def logprobs(
        self,
        fn: Callable[..., Any],
        ids: torch.Tensor,
        attn: torch.Tensor,
        keep: int,
        targets: torch.Tensor,
    ) -> torch.Tensor:
        """log p(target) per kept position under ``fn``'s logits at the sampling temperature."""
        return token_logprobs(_call_logits(fn, ids, attn, keep), targets, self.temperature)


@dataclass
class _OffPolicy:
    """Sampler-vs-trainer log-probabilities: the truncated importance weights and their gap."""

    cap: float
    gap: float = 0.0
    clipped: int = 0
    tokens: int = 0

    def weights(
        self, chunk: Sequence[TokenizedSample], logp: torch.Tensor, cmask: torch.Tensor
    ) -> torch.Tensor | None:
        """Per-position weights ``min(exp(logp - sampler logp), cap)`` on completion tokens
        (1 elsewhere, and for samples without sampler log-probabilities); None when no sample
        of ``chunk`` has them."""
        import torch

        if all(s.sample_logprobs is None for s in chunk):
            return None
        old = torch.zeros_like(logp)
        have = torch.zeros_like(cmask)
        for i, s in enumerate(chunk):
            lps = s.scored_logprobs()
            if lps is None:
                continue
            pos = (cmask[i] > 0).nonzero().flatten()
            n = min(len(pos), len(lps))
            vals = torch.tensor(lps[:n], dtype=logp.dtype, device=logp.device)
            old[i, pos[:n]] = vals
            have[i, pos[:n]] = 1.0
        diff = (logp.detach() - old) * have
        ratio = torch.exp(diff)
        capped = torch.clamp(ratio, max=self.cap) if self.cap > 0 else ratio
        self.gap += float(diff.abs().sum())
        self.clipped += int(((ratio > self.cap) & (have > 0)).sum()) if self.cap > 0 else 0
        self.tokens += int(have.sum())
        return torch.where(have > 0, capped, torch.ones_like(capped)) if self.cap > 0 else None


@dataclass
class _KL:
    """The k3 estimate of KL(policy || reference), summed over completion tokens."""

    total: float = 0.0
    tokens: int = 0

    def add(self, ref_lp: torch.Tensor, logp: torch.Tensor, cmask: torch.Tensor) -> torch.Tensor:
        """Add a micro-batch's estimate; returns its per-token k3 terms (masked)."""
        import torch

        r = (ref_lp - logp) * cmask
        k3 = (torch.exp(r) - r - 1.0) * cmask
        self.total += float(k3.detach().sum())
        self.tokens += int(cmask.sum())
        return k3


def _measure_kl(
    run: _Pass, ref_logits: RefLogits, passive: Sequence[TokenizedSample], mb: int, kl: _KL
) -> None:
    """Forward only: the KL to the reference of samples that do not enter the loss."""
    import torch

    with torch.no_grad():
        for start in range(0, len(passive), mb):
            ids, attn, targets, cmask, keep = run.tensors(passive[start : start + mb])
            logp = run.logprobs(run.fwd, ids, attn, keep, targets)
            ref_lp = run.logprobs(ref_logits, ids, attn, keep, targets)
            kl.add(ref_lp, logp, cmask)


def _accumulate_gradients(
    run: _Pass,
    active: Sequence[TokenizedSample],
    mb: int,
    kl_coef: float,
    kl: _KL,
    off: _OffPolicy,
    norm: int,
) -> tuple[float, int]:
    """Backward passes of the loss over ``active`` in micro-batches (each term divided by
    ``norm``, the number of samples handed to the step, so the gradients sum to the whole
    batch's).

    Returns:
        The loss and the number of completion tokens it covers.
    """
    import torch

    n = max(norm, len(active))  # the mean's denominator: every sample handed in
    loss_total = 0.0
    tokens = 0
    for start in range(0, len(active), mb):
        chunk = active[start : start + mb]
        ids, attn, targets, cmask, keep = run.tensors(chunk)
        adv = torch.tensor([s.advantage for s in chunk], dtype=torch.float32, device=run.device)
        logits = _call_logits(run.fwd, ids, attn, keep)
        logp = token_logprobs(logits, targets, run.temperature)
        del logits
        w = off.weights(chunk, logp, cmask)
        seq_logp = (logp * cmask * (w if w is not None else 1.0)).sum(dim=1)
        loss = -(seq_logp * adv).sum() / n
        if run.ref_logits is not None:
            with torch.no_grad():
                ref_lp = run.logprobs(run.ref_logits, ids, attn, keep, targets)
            k3 = kl.add(ref_lp, logp, cmask)
            if kl_coef > 0:
                loss = loss + kl_coef * k3.sum() / n
        loss.backward()
        loss_total += float(loss.detach())
        tokens += int(cmask.sum())
    return loss_total, tokens


def _clip_and_step(optimizer: Any, max_grad_norm: float) -> float:
    """Clip the gradients (``max_grad_norm <= 0``: measure only), step unless their norm is
    not finite, clear them. Returns the norm before clipping."""
    import torch

    params = [p for g in optimizer.param_groups for p in g["params"] if p.grad is not None]
    if max_grad_norm > 0:
        gn = torch.nn.utils.clip_grad_norm_(params, max_grad_norm)
    else:
        gn = torch.linalg.vector_norm(
            torch.stack([torch.linalg.vector_norm(p.grad.detach()) for p in params])
        )
    grad_norm = float(gn)
    if math.isfinite(grad_norm):
        optimizer.step()
    else:
        log.warning("non-finite gradient norm %s: step skipped", grad_norm)
    optimizer.zero_grad(set_to_none=True)
    return grad_norm


def policy_gradient_step(
    model: Any,
    optimizer: Any,
    samples: Sequence[TokenizedSample],
    *,
    pad_id: int,
    device: Any,
    micro_batch: int = 1,
    max_grad_norm: float = 1.0,
    kl_coef: float = 0.0,
    ref_logits: RefLogits | None = None,
    measure_kl_on_all: bool = True,
    temperature: float = 1.0,
    is_cap: float = 2.0,
) -> StepStats:
    """One optimizer step of the entropic policy gradient over ``samples``.

    Args:
        model: A causal LM (``model(input_ids=, attention_mask=).logits``), in train mode.
        optimizer: Optimizer over the trainable parameters.
        samples: Rollouts with advantages; those with ``A == 0`` do not enter the loss.
        pad_id: Padding token id.
        device: Where the tensors go.
        micro_batch: Sequences per forward/backward pass; gradients accumulate over the rest.
        max_grad_norm: Clip the total gradient norm to this (<= 0: no clipping).
        kl_coef: Weight of the KL penalty to the reference policy.
        ref_logits: Logits of the reference policy; None: no KL penalty and no kl_ref.
        measure_kl_on_all: Also measure kl_ref on zero-advantage samples (forward only).
        temperature: The sampling temperature: logits (policy and reference) are divided by it
            so the loss scores the distribution the tokens came from.
        is_cap: Cap of the truncated importance weights (module docstring); <= 0: no
            correction (the gap is still measured).

    Returns:
        StepStats; ``loss`` and ``grad_norm`` are None when no sample had a non-zero advantage
        (then the weights and the optimizer state are left untouched).
    """
    t0 = time.perf_counter()
    mb = max(1, micro_batch)
    active = [
        s for s in samples if s.advantage != 0.0 and math.isfinite(s.advantage) and s.completion_ids
    ]
    active_ids = {id(s) for s in active}
    passive = (
        [s for s in samples if id(s) not in active_ids and s.completion_ids]
        if measure_kl_on_all and ref_logits is not None
        else []
    )
    n = len(active)
    if kl_coef > 0 and ref_logits is None:
        raise ValueError("kl_coef > 0 needs a reference policy")
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    run = _Pass(_model_fn(model), ref_logits, pad_id, device, temperature)
    kl = _KL()
    off = _OffPolicy(is_cap)
    # Before the step, so every sample's KL refers to the same (pre-update) policy.
    if passive and ref_logits is not None:
        _measure_kl(run, ref_logits, passive, mb, kl)
    loss_total, tokens = 0.0, 0
    grad_norm: float | None = None
    if n:
        optimizer.zero_grad(set_to_none=True)
        norm = sum(1 for s in samples if s.completion_ids)
        loss_total, tokens = _accumulate_gradients(run, active, mb, kl_coef, kl, off, norm)
        grad_norm = _clip_and_step(optimizer, max_grad_norm)
    return StepStats(
        loss=loss_total if n else None,
        kl_ref=kl.total / kl.tokens if kl.tokens else None,
        n_samples=n,
        tokens=tokens,
        grad_norm=grad_norm,
        time_s=time.perf_counter() - t0,
        logprob_gap=off.gap / off.tokens if off.tokens else None,
        is_clipped=off.clipped / off.tokens if off.tokens else None,
    )
