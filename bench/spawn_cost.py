#!/usr/bin/env python3
"""Cost of starting a tool from a process that holds memory, by the two start paths, in one run.

The optimize loop evaluates candidates while the policy's model is loaded (hundreds of MB to
GB resident), and every evaluation starts about ten tools. A tool started with a
``preexec_fn`` makes Python ``fork`` the whole process (page tables copied, the parent's pages
made copy-on-write); util-linux ``prlimit`` setting the same limits lets Python ``vfork``
(``rtlopt.tools.limited``). This script holds ``--hold-mb`` of touched memory and, taking turns
so that load hits both alike, times:

* ``--starts`` tool starts of ``true`` through ``run_tool`` by each path (wall, and this
  process's plus its children's system CPU);
* ``--n`` distinct LZA candidates evaluated by each path (median wall per candidate).

Prints each median and the ratio preexec / prlimit.

    python bench/spawn_cost.py [--hold-mb 1500] [--starts 40] [--n 3]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from rtlopt.tools import Limits, _process, run_tool  # noqa: E402

PATHS = ("prlimit", "preexec_fn")
TOP = "ct_vfmau_lza_simd_half"


@contextlib.contextmanager
def start_path(name: str) -> Iterator[None]:
    """Force one start path (the other is the fallback of ``limited``)."""
    saved = _process._prlimit
    if name == "preexec_fn":
        _process._prlimit = lambda: None  # type: ignore[assignment]
    try:
        yield
    finally:
        _process._prlimit = saved


def _sys_cpu() -> float:
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_stime + kids.ru_stime


def time_starts(path: str, work: Path, starts: int) -> tuple[float, float]:
    """Wall and system CPU seconds per start of ``true``."""
    with start_path(path):
        t0, s0 = time.perf_counter(), _sys_cpu()
        for i in range(starts):
            run_tool(["true"], cwd=work, log_path=work / f"{path}{i}.log", limits=Limits(30))
        return (time.perf_counter() - t0) / starts, (_sys_cpu() - s0) / starts


def lza_evaluations(n: int, work: Path) -> dict[str, list[float]]:
    """Wall seconds per distinct LZA candidate, the two paths taking turns."""
    from rtlopt.config import Config
    from rtlopt.evaluate import Evaluator
    from rtlopt.frontend import load_design
    from rtlopt.pdk import resolve_pdk

    bench = Path(os.environ.get("RTLOPT_BENCH_PATH", REPO.parent / "shared" / "bench"))
    base = Config()
    config = dataclasses.replace(base, eval=dataclasses.replace(base.eval, workers=1, cache=False))
    design = load_design(bench / "c910" / "lza_simd_half" / f"{TOP}.v", TOP, config.project)
    text = design.target.text()
    cut = text.rindex("endmodule")
    times: dict[str, list[float]] = {p: [] for p in PATHS}
    with Evaluator(design, config, work / "eval", resolve_pdk("nangate45")) as evaluator:
        evaluator.reference()
        evaluator.evaluate(text[:cut] + "// warm-up\n" + text[cut:])  # worker starts
        for i in range(n):
            for path in PATHS:
                with start_path(path):
                    t0 = time.perf_counter()
                    res = evaluator.evaluate(text[:cut] + f"// {path} {i}\n" + text[cut:])
                    times[path].append(time.perf_counter() - t0)
                if res.status != "ok":
                    raise SystemExit(f"error: the LZA candidate was not accepted: {res.reason}")
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hold-mb", type=int, default=1500, help="resident memory held (MB)")
    ap.add_argument("--starts", type=int, default=40, help="tool starts per path")
    ap.add_argument("--n", type=int, default=3, help="LZA candidates per path (0: none)")
    args = ap.parse_args()
    held = bytearray(args.hold_mb * 1024 * 1024)
    for i in range(0, len(held), 4096):  # resident, as a loaded model's weights are
        held[i] = 1
    print(f"holding {args.hold_mb} MB; load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="rtlopt-spawn-") as tmp:
        work = Path(tmp)
        rows = {p: time_starts(p, work, args.starts) for p in PATHS}
        for p, (wall, sys_s) in rows.items():
            print(
                f"tool start via {p:10s}: {wall * 1000:7.2f} ms wall, {sys_s * 1000:7.2f} ms system"
            )
        print(
            f"ratio preexec_fn / prlimit (wall): {rows['preexec_fn'][0] / rows['prlimit'][0]:.1f}x"
        )
        if args.n:
            times = lza_evaluations(args.n, work)
            med = {p: statistics.median(t) for p, t in times.items()}
            for p in PATHS:
                print(f"LZA candidate via {p:10s}: median {med[p]:.3f} s over {args.n}")
            print(f"ratio preexec_fn / prlimit (LZA): {med['preexec_fn'] / med['prlimit']:.2f}x")
    del held
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
