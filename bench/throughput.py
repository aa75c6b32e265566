#!/usr/bin/env python3
"""Per-candidate PPA time on the C910 LZA: naive flow vs the pipeline, measured in one run.

naive:    a fresh Yosys process reading the full liberty in dfflibmap, abc and stat, then a
          fresh OpenSTA process reading the liberty again (one process per stage).
pipeline: ``PpaFlow`` with long-lived workers: one OpenSTA process that keeps the liberty
          loaded, Yosys reading per-pass trimmed liberties.

Prints the median of each, their ratio, and checks both give the same PPA.

    python bench/throughput.py [--pdk sky130hd] [--n 7]

``naive_candidate`` / ``pipeline_candidate`` are importable for larger pipeline benchmarks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rtlopt.config import FlowConfig, SandboxConfig  # noqa: E402
from rtlopt.eda.flow import PpaFlow  # noqa: E402
from rtlopt.eda.opensta import run_sta  # noqa: E402
from rtlopt.eda.yosys import SynthLibraries, synthesize  # noqa: E402
from rtlopt.pdk import PdkInfo, resolve_pdk  # noqa: E402
from rtlopt.results import PPA  # noqa: E402

TOP = "ct_vfmau_lza_simd_half"


def c910_files() -> list[Path]:
    bench = Path(os.environ.get("RTLOPT_BENCH_PATH", REPO.parent / "shared" / "bench"))
    d = bench / "c910" / "lza_simd_half"
    return [d / "ct_vfmau_lza_42.v", d / "ct_vfmau_lza_simd_half.v"]


def naive_candidate(
    pdk: PdkInfo,
    files: list[Path],
    top: str,
    clocks: list[str],
    workdir: Path,
    period_ns: float = 10.0,
) -> PPA:
    """One candidate through fresh processes, each reading the full liberty."""
    syn = synthesize(
        files,
        top,
        workdir,
        SynthLibraries.single(pdk.liberty_plain),
        tie_hi=pdk.tie_hi,
        tie_lo=pdk.tie_lo,
    )
    sta = run_sta(pdk.liberty_plain, syn.netlist, top, clocks, period_ns, workdir, power=True)
    return PPA(syn.area_um2, sta.delay_ps, sta.power_uw, syn.cells)


def pipeline_candidate(
    flow: PpaFlow, files: list[Path], top: str, clocks: list[str], workdir: Path
) -> PPA:
    """One candidate through a ``PpaFlow`` with long-lived workers."""
    return flow.measure(files, top, clocks, workdir).ppa


def timed(fn: Callable[[Path], PPA], n: int, root: Path, tag: str) -> tuple[list[float], PPA]:
    times: list[float] = []
    ppa: PPA | None = None
    for i in range(n):
        start = time.perf_counter()
        ppa = fn(root / f"{tag}{i}")
        times.append(time.perf_counter() - start)
    assert ppa is not None
    return times, ppa


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdk", default="sky130hd")
    ap.add_argument("--n", type=int, default=7, help="candidates per flow")
    args = ap.parse_args(argv)
    os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
    pdk = resolve_pdk(args.pdk)
    files = c910_files()
    cfg = replace(FlowConfig(pdk=args.pdk), persistent=True)
    with (
        tempfile.TemporaryDirectory(prefix="rtlopt-tp-") as tmp,
        PpaFlow(pdk, cfg, SandboxConfig()) as flow,
    ):
        root = Path(tmp)
        pipeline_candidate(flow, files, TOP, [], root / "warm")  # worker start, liberty caches
        # interleave the two flows so machine load affects both alike
        naive_t: list[float] = []
        pipe_t: list[float] = []
        naive_ppa = pipe_ppa = None
        for i in range(args.n):
            t, naive_ppa = timed(
                lambda d: naive_candidate(pdk, files, TOP, [], d), 1, root, f"naive{i}-"
            )
            naive_t += t
            t, pipe_ppa = timed(
                lambda d: pipeline_candidate(flow, files, TOP, [], d), 1, root, f"pipe{i}-"
            )
            pipe_t += t
    naive_med, pipe_med = statistics.median(naive_t), statistics.median(pipe_t)
    print(f"C910 LZA on {pdk.name}, {args.n} candidates per flow")
    print(f"naive    (fresh yosys + fresh sta, full liberty each): median {naive_med:.3f} s")
    print(f"pipeline (PpaFlow, long-lived sta, trimmed liberties): median {pipe_med:.3f} s")
    print(f"speed-up naive/pipeline: {naive_med / pipe_med:.2f}x")
    print(f"PPA naive    {naive_ppa}")
    print(f"PPA pipeline {pipe_ppa}")
    same = naive_ppa == pipe_ppa
    print("same PPA in both flows:", "yes" if same else "NO")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
