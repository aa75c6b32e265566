"""Where the shared benchmark data is, and the designs the per-candidate benchmarks time.

Imported by the scripts of this folder (``python bench/<script>.py`` puts the folder first on
``sys.path``).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def bench_path() -> Path:
    """``$RTLOPT_BENCH_PATH``, else ``../shared/bench`` beside the checkout."""
    return Path(os.environ.get("RTLOPT_BENCH_PATH", REPO.parent / "shared" / "bench"))


def lza_and_rtllm(only: set[str] | None) -> list[tuple[str, Path, str | None]]:
    """(name, file, top) of the C910 LZA and every RTLLM reference, those in ``only`` if set;
    top ``None``: the frontend picks it."""
    out: list[tuple[str, Path, str | None]] = []
    lza = bench_path() / "c910" / "lza_simd_half" / "ct_vfmau_lza_simd_half.v"
    if lza.is_file():
        out.append(("c910_lza", lza, "ct_vfmau_lza_simd_half"))
    root = bench_path() / "rtllm"
    for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        refs = sorted(p for p in folder.glob("*.v") if p.name != "testbench.v")
        if refs:
            out.append((folder.name, refs[0], None))
    return [d for d in out if only is None or d[0] in only]
