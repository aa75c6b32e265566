"""Memory arithmetic of the policy: what the model, the LoRA adapter, the KV cache and one update
need, per phase, on one GPU (vLLM + trainer) or on the CPU.

The single-GPU path keeps two copies of the base weights: vLLM's (rollouts) and the trainer's
(policy gradient). They take turns: vLLM sleeps (level 1: weights to CPU RAM, KV cache dropped)
while the trainer updates, and the trainer's cached blocks are released before vLLM wakes up.
So the card must hold, at every moment, the larger of

* generation: trainer resident (weights, LoRA parameters, gradients, Adam state, CUDA context)
  + vLLM's share (``gpu_memory_utilization`` x card: weights, LoRA slots, runtime, KV cache);
* update: trainer resident + what a sleeping vLLM keeps + the update's activations.

Every number here is an estimate from the model's shape (``config.json``), not a measurement:
the runtime and context constants below are rounded up from published vLLM and PyTorch figures,
and a margin is kept free. :func:`plan_memory` returns the parts, the two phase totals, the
vLLM share to use, and what to change when something does not fit. ``rtlopt doctor`` prints it
and docs/gpu.md walks through the same arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy._machine import cpu_ram_bytes as cpu_ram_bytes
from rtlopt.policy._machine import cuda_card_bytes as cuda_card_bytes
from rtlopt.policy._machine import host_available_bytes as host_available_bytes
from rtlopt.policy._shapes import DTYPE_BYTES as DTYPE_BYTES
from rtlopt.policy._shapes import KNOWN_SHAPES as KNOWN_SHAPES
from rtlopt.policy._shapes import ModelShape as ModelShape
from rtlopt.policy._shapes import _weight_dtype
from rtlopt.policy._shapes import model_shape as model_shape
from rtlopt.policy._shapes import shape_source as shape_source
from rtlopt.policy._shapes import vllm_dtype as vllm_dtype

GiB = 1 << 30

VLLM_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)
"""The values vLLM accepts for ``max_lora_rank`` (``MaxLoRARanks`` in vllm/config/lora.py)."""

TORCH_CONTEXT_BYTES = GiB // 2
"""CUDA context, cuBLAS workspace and allocator slack of one process (the trainer's)."""

VLLM_RUNTIME_BYTES = 3 * GiB // 2
"""vLLM's own non-weight, non-KV memory awake: CUDA context, CUDA graphs, sampler buffers."""

VLLM_ASLEEP_BYTES = GiB
"""What a vLLM engine at sleep level 1 still holds (context, CUDA graph pool)."""

VLLM_PROFILE_TOKENS = 8192
"""Tokens of vLLM's profiling forward pass (``max_num_batched_tokens``); its activation peak is
reserved inside the vLLM share."""

VLLM_MAX_SHARE = 0.90
"""Never give vLLM more of the card than this (vLLM's own default)."""

KV_HEADROOM = 0.10
"""KV cache given to vLLM beyond the step's need (all rollouts of a step at full length at
once): block rounding and prefix-cache slack."""

HOST_MARGIN_BYTES = 4 * GiB
"""Host memory kept free beside the sleeping engine's weights (the OS, Python, the tools)."""


def vllm_max_lora_rank(rank: int) -> int:
    """The smallest ``max_lora_rank`` vLLM accepts that can serve a rank-``rank`` adapter.

    Raises:
        ValueError: ``rank`` is not positive or above 512, the largest rank vLLM serves.
    """
    if rank <= 0:
        raise ValueError(f"LoRA rank must be positive, got {rank}")
    for allowed in VLLM_LORA_RANKS:
        if rank <= allowed:
            return allowed
    raise ValueError(f"vLLM serves LoRA ranks up to {VLLM_LORA_RANKS[-1]}, got {rank}")


@dataclass(frozen=True)
class MemoryPart:
    """One consumer of memory."""

    name: str
    bytes: int
    note: str = ""


@dataclass(frozen=True)
class Phase:
    """What is in memory at the same time during one phase of a step."""

    name: str
    parts: tuple[MemoryPart, ...]

    @property
    def total(self) -> int:
        return sum(p.bytes for p in self.parts)


@dataclass(frozen=True)
class MemoryPlan:
    """The memory estimate of one configuration on one device.

    Attributes:
        device: ``cuda`` or ``cpu``.
        capacity: Bytes of the card (or of RAM on the CPU), None when unknown.
        model: Model name.
        params: Parameter count.
        phases: Generation and update, each with its parts.
        gpu_memory_utilization: The vLLM share to pass to ``LLM`` (vLLM backend only).
        kv_tokens: Tokens vLLM's KV cache holds (vLLM backend only).
        max_model_len: Longest sequence (prompt + answer) in tokens.
        problems: What does not fit, each with the change that makes it fit. Empty: it fits.
        notes: What fits but deserves a word (e.g. fewer sequences at once than rollouts).
        kv_need_tokens: Tokens all rollouts of a step need at once at full length (vLLM).
        host_bytes: Host memory the sleeping engine's weights take (vLLM sleep level 1).
        host_capacity: Host memory available, None when unknown.
        dtype: The weights' dtype.
        update_awake: (vLLM) the update fits beside the awake engine (its weights and KV
            cache stay on the card): the backend then skips the sleep / wake-up cycle.
    """

    device: str
    capacity: int | None
    model: str
    params: int
    phases: tuple[Phase, ...]
    max_model_len: int
    gpu_memory_utilization: float | None = None
    kv_tokens: int | None = None
    problems: tuple[str, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = field(default_factory=tuple)
    kv_need_tokens: int | None = None
    host_bytes: int | None = None
    host_capacity: int | None = None
    dtype: str = "bfloat16"
    update_awake: bool = False

    @property
    def fits(self) -> bool:
        return not self.problems

    @property
    def peak(self) -> int:
        return max(p.total for p in self.phases)

    @property
    def headroom(self) -> int | None:
        """Memory free at the busiest phase (the margin is part of it); None without a card."""
        return None if self.capacity is None else self.capacity - self.peak


def gib(n: float) -> str:
    """Bytes as GiB with one decimal: ``16.4 GiB``."""
    return f"{n / GiB:.1f} GiB"


def margin_bytes(capacity: int) -> int:
    """Memory left free for fragmentation and what the estimate misses: 1 GiB or 3 %."""
    return max(GiB, int(0.03 * capacity))


def _update_parts(
    shape: ModelShape,
    *,
    seq_len: int,
    completion: int,
    micro_batch: int,
    dtype_bytes: int,
    checkpointing: bool,
    ref_forward: bool,
) -> list[MemoryPart]:
    """Activations of one micro-batch of the policy-gradient step (rtlopt.train._step).

    With gradient checkpointing only each layer's input is kept, plus one layer recomputed in
    the backward pass; without it every layer's activations are kept. The vocabulary head runs
    on completion positions only (``logits_to_keep``): bf16 logits, their fp32 copy and the
    fp32 gradient of the log-softmax; the reference forward adds its logits when the KL is
    measured.
    """
    mb = max(1, micro_batch)
    act = shape.activation_bytes_per_token(dtype_bytes)
    if checkpointing:
        kept = shape.layers * seq_len * shape.hidden * dtype_bytes * mb
        layer = 2 * seq_len * act * mb
        parts = [
            MemoryPart("update: layer inputs kept (checkpointing)", kept),
            MemoryPart("update: one layer recomputed + its gradients", layer),
        ]
    else:
        parts = [
            MemoryPart("update: activations of every layer", shape.layers * seq_len * act * mb * 2)
        ]
    parts.append(
        MemoryPart(
            "update: logits on completion tokens",
            completion * shape.vocab * (dtype_bytes + 8) * mb,
            f"{completion} tokens x {shape.vocab} vocabulary",
        )
    )
    if ref_forward:
        parts.append(
            MemoryPart(
                "update: reference-policy logits (KL)",
                completion * shape.vocab * (dtype_bytes + 4) * mb,
            )
        )
    return parts


def _trainer_resident(
    shape: ModelShape, *, lora: bool, lora_rank: int, dtype_bytes: int, cuda: bool
) -> list[MemoryPart]:
    w = shape.params * dtype_bytes
    parts = [
        MemoryPart("trainer weights", w, f"{shape.params / 1e9:.2f} B params x {dtype_bytes} bytes")
    ]
    if lora:
        lp = shape.lora_params(lora_rank)
        parts.append(
            MemoryPart(
                "trainer LoRA params + grads + Adam (fp32)",
                16 * lp,
                f"{lp / 1e6:.1f} M params x 16 bytes, rank {lora_rank}",
            )
        )
    else:
        parts.append(MemoryPart("trainer gradients + Adam state", 3 * w, "full fine-tuning"))
        parts.append(MemoryPart("frozen reference copy", w, "full fine-tuning"))
    if cuda:
        parts.append(MemoryPart("trainer CUDA context", TORCH_CONTEXT_BYTES))
    return parts


def _context_findings(
    shape: ModelShape, seq: int, max_new_tokens: int, backend: str
) -> tuple[list[str], list[str]]:
    """The plan's first ``(problems, notes)``: a sequence longer than the model's context.
    vLLM refuses a ``max_model_len`` beyond it at start-up (a problem); transformers runs on,
    with positions the model never saw (a note)."""
    problems: list[str] = []
    notes: list[str] = []
    if shape.context is not None and seq > shape.context:
        (problems if backend == "vllm" else notes).append(
            f"policy.max_prompt_tokens + policy.max_new_tokens = {seq} tokens exceed the "
            f"model's context of {shape.context} (max_position_embeddings): set "
            f"policy.max_prompt_tokens to at most {max(shape.context - max_new_tokens, 0)}"
        )
    return problems, notes


def _vllm_fixed(
    shape: ModelShape, lora_rank: int, db: int, dtype: str, problems: list[str]
) -> list[MemoryPart]:
    """What vLLM holds whatever its share: the weights, the LoRA slot, its runtime."""
    try:
        max_rank = vllm_max_lora_rank(lora_rank)
    except ValueError as exc:
        problems.append(f"{exc}: set train.lora_r to 512 or less")
        max_rank = VLLM_LORA_RANKS[-1]
    runtime = VLLM_RUNTIME_BYTES + VLLM_PROFILE_TOKENS * shape.activation_bytes_per_token(2)
    return [
        MemoryPart("vLLM weights", shape.params * db, f"{dtype}"),
        MemoryPart(
            "vLLM LoRA slot", shape.vllm_lora_slot_bytes(max_rank), f"max_lora_rank {max_rank}"
        ),
        MemoryPart("vLLM runtime (context, CUDA graphs, profiling peak)", runtime),
    ]


def _vllm_share(
    capacity: int,
    res_total: int,
    margin: int,
    fixed_total: int,
    kv_need: int,
    gpu_memory_utilization: float,
    problems: list[str],
) -> float:
    """vLLM's share of the card: the one set (checked against what the trainer needs), else
    the step's KV need (``kv_need`` bytes) plus headroom, never everything left over."""
    most = math.floor(100 * (capacity - res_total - margin) / capacity) / 100
    if gpu_memory_utilization > 0:
        share = gpu_memory_utilization
        if share * capacity + res_total + margin > capacity:
            problems.append(
                f"policy.gpu_memory_utilization = {share:.2f} leaves "
                f"{gib(capacity * (1 - share))} for the trainer, which needs "
                f"{gib(res_total + margin)}: set it to at most {max(most, 0):.2f} "
                "(or 0 to choose)"
            )
        return share
    kv_alloc = int(kv_need * (1 + KV_HEADROOM))
    share = math.ceil(1000 * (fixed_total + kv_alloc) / capacity) / 1000
    return min(share, most, VLLM_MAX_SHARE)


@dataclass(frozen=True)
class _KVCache:
    """vLLM's KV cache: its part of the plan, the share that gives it, the tokens it holds."""

    part: MemoryPart
    share: float | None = None
    tokens: int | None = None


def _vllm_kv_cache(
    shape: ModelShape,
    *,
    seq: int,
    sequences: int,
    capacity: int | None,
    res_total: int,
    margin: int,
    fixed_total: int,
    gpu_memory_utilization: float,
    problems: list[str],
    notes: list[str],
) -> _KVCache:
    """The KV cache left in vLLM's share after the weights and runtime (``fixed_total``);
    without a capacity, one sequence's. ``sequences``: the rollouts of a step."""
    per_seq = seq * shape.kv_bytes_per_token()
    if not capacity:
        return _KVCache(
            MemoryPart(
                "vLLM KV cache (one sequence)",
                per_seq,
                f"{seq} tokens x {shape.kv_bytes_per_token() // 1024} KiB",
            )
        )
    kv_need = sequences * seq * shape.kv_bytes_per_token()
    share = _vllm_share(
        capacity, res_total, margin, fixed_total, kv_need, gpu_memory_utilization, problems
    )
    pool = int(max(share, 0.0) * capacity)
    kv = pool - fixed_total
    kv_tokens = max(kv, 0) // shape.kv_bytes_per_token()
    if kv < per_seq:
        problems.append(
            f"vLLM's share ({gib(pool)}) holds the weights and runtime "
            f"({gib(fixed_total)}) but not one {seq}-token sequence "
            f"({gib(per_seq)} of KV cache): use a smaller model or lower "
            "policy.max_prompt_tokens / policy.max_new_tokens"
        )
    elif kv < sequences * per_seq:
        notes.append(
            f"the KV cache holds {kv // per_seq} full-length sequences at once; the "
            f"{sequences} rollouts of a step run in waves (slower, still correct)"
        )
    part = MemoryPart(
        "vLLM KV cache",
        max(kv, 0),
        f"{kv_tokens:,} tokens at {shape.kv_bytes_per_token() // 1024} KiB/token",
    )
    return _KVCache(part, share, kv_tokens)


def _vllm_phases(
    resident: list[MemoryPart],
    fixed: list[MemoryPart],
    kv_part: MemoryPart,
    update: list[MemoryPart],
    frozen: bool,
    capacity: int | None = None,
    margin: int = 0,
) -> tuple[tuple[Phase, ...], bool]:
    """Generation (vLLM awake) and update (vLLM asleep); a frozen policy generates only. Also
    whether the update fits beside the awake engine (then it need not sleep)."""
    generation = Phase("generation (vLLM awake, trainer idle)", tuple(resident + fixed + [kv_part]))
    if frozen:
        return (
            Phase("generation (frozen policy: no trainer, no update)", generation.parts),
        ), False
    awake = bool(capacity) and generation.total + sum(p.bytes for p in update) + margin <= (
        capacity or 0
    )
    asleep = MemoryPart("vLLM asleep (level 1)", VLLM_ASLEEP_BYTES)
    update_phase = Phase("update (vLLM asleep, level 1)", tuple(resident + [asleep] + update))
    return (generation, update_phase), awake


def _check_host(host: int, host_capacity: int | None, problems: list[str]) -> None:
    """Sleep level 1 copies vLLM's weights (``host`` bytes) to pinned host memory."""
    if host and host_capacity is not None and host + HOST_MARGIN_BYTES > host_capacity:
        problems.append(
            f"sleep level 1 copies vLLM's weights ({gib(host)}) to pinned host memory at "
            f"every update, but the host has {gib(host_capacity)} available "
            f"(+{gib(HOST_MARGIN_BYTES)} kept free): add host memory or use a smaller model"
        )


def _check_phases(
    phases: Sequence[Phase], capacity: int | None, margin: int, cuda: bool, problems: list[str]
) -> None:
    """A phase that does not fit the card (or RAM) with the margin, with what to change
    (no verdict without a capacity)."""
    if not capacity:
        return
    for ph in phases:
        if ph.total + margin > capacity:
            what = "card" if cuda else "RAM"
            fix = (
                "lower policy.max_new_tokens or policy.max_prompt_tokens, keep "
                "train.micro_batch = 1" + (" and train.gradient_checkpointing on" if cuda else "")
                if ph.name.startswith("update")
                else "use a smaller model"
            )
            problems.append(
                f"{ph.name} needs {gib(ph.total)} (+{gib(margin)} margin) "
                f"but the {what} has {gib(capacity)}: {fix}"
            )


def _transformers_phases(
    shape: ModelShape,
    resident: list[MemoryPart],
    update: list[MemoryPart],
    seq: int,
    db: int,
    rollouts: int,
) -> tuple[Phase, ...]:
    """Generation (one prompt's rollouts at once) and update, beside the trainer's memory."""
    rows = max(1, rollouts)
    gen_kv = MemoryPart(
        "generation KV cache (one prompt's rollouts)",
        seq * shape.kv_bytes_per_token(db) * rows,
        f"{rows} sequences x {seq} tokens",
    )
    return (
        Phase("generation", tuple(resident + [gen_kv])),
        Phase("update", tuple(resident + update)),
    )


def plan_memory(
    shape: ModelShape,
    *,
    backend: str,
    device: str,
    capacity: int | None,
    lora: bool = True,
    lora_rank: int = 16,
    max_prompt_tokens: int = 8192,
    max_new_tokens: int = 2048,
    parents: int = 4,
    rollouts: int = 4,
    micro_batch: int = 1,
    ref_forward: bool = False,
    gradient_checkpointing: bool = True,
    gpu_memory_utilization: float = 0.0,
    dtype_bytes: int | None = None,
    host_capacity: int | None = None,
    dtype: str | None = None,
    frozen: bool = False,
) -> MemoryPlan:
    """Estimate the memory of a run; see the module docstring.

    Args:
        shape: The model.
        backend: ``vllm`` (vLLM + trainer on one GPU) or ``transformers``.
        device: ``cuda`` or ``cpu`` (the transformers backend only runs on the CPU here).
        capacity: Card (or RAM) size in bytes; None: report the parts without a verdict.
        lora: LoRA (True) or full fine-tuning.
        lora_rank: LoRA rank.
        max_prompt_tokens: Prompt budget; with ``max_new_tokens`` it sets ``max_model_len``.
        max_new_tokens: Longest answer.
        parents, rollouts: Parent prompts per step and rollouts per parent prompt.
        micro_batch: Sequences per forward/backward pass.
        ref_forward: Whether the update also runs the reference policy (KL penalty or the
            adaptive controller).
        gradient_checkpointing: Recompute activations (the trainer does on CUDA).
        gpu_memory_utilization: vLLM share; 0 chooses the largest that leaves the trainer its
            resident memory and the margin.
        dtype_bytes: Bytes per weight; default 2 on CUDA (bf16), 4 on the CPU (fp32).
        host_capacity: Host memory available (vLLM: the sleeping engine's weights go there).
        dtype: The weights' dtype by name (wins over ``dtype_bytes``).
        frozen: ``learning_rate = 0``: with vLLM no trainer copy and no update phase.
    """
    cuda = device == "cuda"
    db, dtype = _weight_dtype(dtype, dtype_bytes, cuda)
    seq = max_prompt_tokens + max_new_tokens
    problems, notes = _context_findings(shape, seq, max_new_tokens, backend)
    resident = _trainer_resident(shape, lora=lora, lora_rank=lora_rank, dtype_bytes=db, cuda=cuda)
    if frozen and backend == "vllm":
        resident = []  # the vLLM backend keeps only a tokenizer beside a frozen engine
    update = _update_parts(
        shape,
        seq_len=seq,
        completion=max_new_tokens,
        micro_batch=micro_batch,
        dtype_bytes=db,
        checkpointing=gradient_checkpointing and cuda,
        ref_forward=ref_forward,
    )
    margin = margin_bytes(capacity) if capacity else 0
    # sleep level 1 copies the weights to the host; a frozen engine never sleeps
    host = (0 if frozen else shape.params * db) if backend == "vllm" else None
    if backend == "vllm":
        fixed = _vllm_fixed(shape, lora_rank, db, dtype, problems)
        kv = _vllm_kv_cache(
            shape,
            seq=seq,
            sequences=parents * rollouts,
            capacity=capacity,
            res_total=sum(p.bytes for p in resident),
            margin=margin,
            fixed_total=sum(p.bytes for p in fixed),
            gpu_memory_utilization=gpu_memory_utilization,
            problems=problems,
            notes=notes,
        )
        phases, awake = _vllm_phases(resident, fixed, kv.part, update, frozen, capacity, margin)
        share, kv_tokens = kv.share, kv.tokens
        _check_host(host or 0, host_capacity, problems)
    else:
        phases = _transformers_phases(shape, resident, update, seq, db, rollouts)
        share, kv_tokens, awake = None, None, False
    _check_phases(phases, capacity, margin, cuda, problems)
    return MemoryPlan(
        device=device,
        capacity=capacity,
        model=shape.name,
        params=shape.params,
        phases=phases,
        max_model_len=seq,
        gpu_memory_utilization=share,
        kv_tokens=kv_tokens,
        problems=tuple(problems),
        notes=tuple(notes),
        kv_need_tokens=parents * rollouts * seq if backend == "vllm" else None,
        host_bytes=host,
        host_capacity=host_capacity if backend == "vllm" else None,
        dtype=dtype,
        update_awake=awake,
    )


def plan_for(
    policy: PolicyConfig,
    train: TrainConfig,
    *,
    backend: str,
    device: str,
    capacity: int | None,
    shape: ModelShape,
    parents: int = 4,
    rollouts: int = 4,
    host_capacity: int | None = None,
) -> MemoryPlan:
    """:func:`plan_memory` with the settings of a configuration."""
    return plan_memory(
        shape,
        backend=backend,
        device=device,
        capacity=capacity,
        lora=train.lora,
        lora_rank=train.lora_r,
        max_prompt_tokens=policy.max_prompt_tokens,
        max_new_tokens=policy.max_new_tokens,
        parents=parents,
        rollouts=rollouts,
        micro_batch=train.micro_batch,
        ref_forward=train.kl_coef > 0 or train.delta == "adaptive",
        gradient_checkpointing=train.gradient_checkpointing,
        gpu_memory_utilization=policy.gpu_memory_utilization,
        dtype=vllm_dtype(policy.dtype, shape) if device == "cuda" else None,
        dtype_bytes=DTYPE_BYTES.get(policy.dtype),
        host_capacity=host_capacity,
        frozen=train.learning_rate == 0,
    )
