"""Loading the CPU/GPU model: a GGUF file is converted once and the result cached (see
``_model_cache``), its conversion progress logged on the progress channel."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rtlopt.policy._model_cache import cached_folder
from rtlopt.policy._preflight import ResolvedModel


def _gguf_cache_dir(resolved: ResolvedModel) -> Path | None:
    """Where the dequantized copy of a GGUF checkpoint is kept, or None for other checkpoints.

    Dequantizing the GGUF file takes most of a CPU load (~10-30 s); the converted weights are
    saved once (``$RTLOPT_MODEL_CACHE`` or ``$XDG_CACHE_HOME/rtlopt/models``) and read back in
    about a second. The key covers the file's path, size and modification time.
    """
    if resolved.gguf_file is None:
        return None
    src = Path(resolved.name_or_path) / resolved.gguf_file
    try:
        st = src.stat()
    except OSError:
        return None
    key = hashlib.sha256(f"{src.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()
    base = os.environ.get("RTLOPT_MODEL_CACHE") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rtlopt" / "models"
    )
    return Path(base) / f"{src.stem}-{key[:12]}"


PROGRESS_EVERY = 0.10
"""The GGUF conversion logs its progress at every tenth of its tensors."""


class _LoggedProgress:
    """Stands in for transformers' tqdm bar over the GGUF tensors: the same iteration, its
    progress as rtlopt's own log lines (no carriage returns in a pipe)."""

    def __init__(self, iterable: Any = None, desc: str | None = None, **_: Any) -> None:
        self.items = list(iterable) if iterable is not None else []

    def __iter__(self) -> Any:
        total = len(self.items)
        step = max(1, int(total * PROGRESS_EVERY))
        t0 = time.perf_counter()
        for i, item in enumerate(self.items, 1):
            yield item
            if i % step == 0 or i == total:
                logging.getLogger("rtlopt.progress").info(
                    "converting the GGUF model (once; kept in the model cache): %d/%d tensors, "
                    "%.0f s",
                    i,
                    total,
                    time.perf_counter() - t0,
                )

    def __len__(self) -> int:
        return len(self.items)


@contextlib.contextmanager
def gguf_progress() -> Iterator[None]:
    """Replace transformers' GGUF conversion bar by :class:`_LoggedProgress` meanwhile."""
    try:
        import transformers.modeling_gguf_pytorch_utils as gguf_utils
    except ImportError:  # no GGUF support in this transformers: nothing to replace
        yield
        return
    saved = getattr(gguf_utils, "tqdm", None)
    gguf_utils.tqdm = _LoggedProgress
    try:
        yield
    finally:
        if saved is not None:
            gguf_utils.tqdm = saved


def _load_model(resolved: ResolvedModel, dtype: Any) -> tuple[Any, Any]:
    """Model and tokenizer, from the dequantized cache when a GGUF file was converted before.

    The cache is filled under a lock by whichever process gets there first; the others wait
    and read it (see ``rtlopt.policy._model_cache``).
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    def convert() -> tuple[Any, Any]:
        kw: dict[str, Any] = {}
        if resolved.gguf_file is not None:
            kw["gguf_file"] = resolved.gguf_file
        with gguf_progress():
            tok = AutoTokenizer.from_pretrained(resolved.name_or_path, **kw)
            model: Any = AutoModelForCausalLM.from_pretrained(
                resolved.name_or_path, dtype=dtype, **kw
            )
        return model, tok

    cache = _gguf_cache_dir(resolved)
    if cache is None:
        return convert()

    def read(folder: Path) -> tuple[Any, Any]:
        if not (folder / "config.json").is_file():
            raise OSError(f"no config.json in {folder}")
        tok: Any = AutoTokenizer.from_pretrained(str(folder))
        model: Any = AutoModelForCausalLM.from_pretrained(str(folder), dtype=dtype)
        return model, tok

    def write(value: tuple[Any, Any], folder: Path) -> None:
        model, tok = value
        # Once dequantized the weights are plain tensors: drop the GGUF quantizer marker so
        # that transformers agrees to serialize them.
        model.hf_quantizer = None
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(str(folder))
        tok.save_pretrained(str(folder))

    return cached_folder(cache, read, convert, write)
