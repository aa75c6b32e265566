"""Minimum versions of the model packages, in one place: the extras in pyproject.toml pin the
same numbers (a test keeps them equal) and the preflight refuses older installs with a fix.

Why each minimum:

* transformers 4.56: ``from_pretrained(dtype=...)`` (the keyword replaced ``torch_dtype`` in
  4.56; Qwen3, the GPU default model, needs 4.51).
* peft 0.12: adapters cast to fp32 by default (``autocast_adapter_dtype``), which the memory
  preflight assumes; ``save_pretrained(save_embedding_layers=False)`` and ``all-linear`` are
  older.
* vllm 0.11.1: one engine (V1) whose ``gpu_memory_utilization`` counts only its own memory,
  sleep mode (``LLM(enable_sleep_mode=True)``, ``sleep(level=1)``, ``wake_up()``), and
  ``max_lora_rank`` values {1, 8, 16, 32, 64, 128, 256, 320, 512} (rank 1 since 0.11.1).
* gguf 0.10 and accelerate 0.30: loading the CPU smoke model's GGUF file.

Only ``importlib.metadata`` is used: nothing heavy is imported.
"""

from __future__ import annotations

import importlib.metadata
import re

from rtlopt.errors import UsageError

MIN_VERSIONS: dict[str, str] = {
    "transformers": "4.56",
    "peft": "0.12",
    "gguf": "0.10",
    "accelerate": "0.30",
    "vllm": "0.11.1",
}
"""Distribution name -> lowest supported version (pyproject.toml's extras say the same)."""

EXTRA_OF: dict[str, str] = {
    "transformers": "train",
    "peft": "train",
    "gguf": "train",
    "accelerate": "train",
    "vllm": "vllm",
}
"""Distribution name -> the rtlopt extra that installs it."""


def parse_version(text: str) -> tuple[int, ...]:
    """The leading numeric release of a version string: ``"4.56.0.dev0"`` -> ``(4, 56, 0)``.

    Pre-release and local suffixes are dropped, so ``4.56.0rc1`` counts as 4.56.0 (a pin is a
    floor for features, not a release-quality statement).
    """
    m = re.match(r"\s*v?(\d+(?:\.\d+)*)", text)
    if m is None:
        return ()
    return tuple(int(p) for p in m.group(1).split("."))


def version_at_least(installed: str, minimum: str) -> bool:
    """``installed >= minimum`` on release numbers (missing parts count as 0)."""
    a, b = parse_version(installed), parse_version(minimum)
    width = max(len(a), len(b))
    return a + (0,) * (width - len(a)) >= b + (0,) * (width - len(b))


def installed_version(dist: str) -> str | None:
    """The installed version of distribution ``dist``, or None."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def require_min_version(dist: str) -> None:
    """Raise a UsageError when ``dist`` is installed but older than :data:`MIN_VERSIONS`.

    A missing package is left to the caller's own check (which names what needs it).
    """
    have = installed_version(dist)
    need = MIN_VERSIONS[dist]
    if have is not None and not version_at_least(have, need):
        extra = EXTRA_OF.get(dist, "train")
        raise UsageError(
            f"{dist} {have} is installed; rtlopt needs {dist}>={need}",
            hint=f"pip install -U 'rtlopt[{extra}]'",
        )
