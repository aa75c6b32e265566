#!/usr/bin/env python3
"""Throughput of the Ray executor against the local one, and Ray's overhead per candidate.

Both executors score the same distinct candidates of the C910 LZA (sky130hd; a unique unused
wire each, no result cache) with two workers: the local executor as two threads of this
process, each with its own long-lived OpenSTA; the Ray executor as two actors on a Ray started
for this run on 127.0.0.1 (two CPUs, dashboard and usage statistics off), each holding a warm
evaluator. Printed, all from this one run:

* the Ray start-up and the workers' warm-up (each actor measures the reference once);
* per executor: batch wall time, candidates per second, median per-candidate latency;
* the throughput ratio Ray / local;
* the overhead per candidate: (Ray wall - local wall) / candidates on the full pipeline, and
  the round trip of a candidate that screening rejects (no tool runs) on each executor, which
  isolates the dispatch cost.

Every candidate's area, delay and power must be identical on both executors: a difference is
printed and the script exits 1.

    python bench/ray_throughput.py [--n 16] [--screened 200]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))

from rtlopt.config import Config, EvalConfig  # noqa: E402
from rtlopt.evaluate import EvalResult, Evaluator  # noqa: E402
from rtlopt.evaluate._executor import LocalExecutor  # noqa: E402
from rtlopt.evaluate._ray import RayExecutor, connect  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402

LZA = "ct_vfmau_lza_simd_half"


def candidates(n: int, tag: str) -> list[str]:
    base = [
        p.read_text() for p in sorted((REPO / "examples" / "c910_lza_rewrites").glob("0[12]*.v"))
    ]
    out = []
    for i in range(n):
        text = base[i % len(base)]
        cut = text.rindex("endmodule")
        out.append(text[:cut] + f"wire rtlopt_{tag}_{i} = 1'b0;\n" + text[cut:])
    return out


def screened(n: int, tag: str) -> list[str]:
    """Candidates that screening rejects before any tool runs (a system task)."""
    return [f'module {LZA}(); initial $display("{tag}{i}"); endmodule\n' for i in range(n)]


def timed(
    label: str, executor: object, ev: Evaluator, texts: list[str]
) -> tuple[float, list[EvalResult]]:
    t0 = time.monotonic()
    res = executor.evaluate(ev, texts)  # type: ignore[attr-defined]
    wall = time.monotonic() - t0
    lat = statistics.median(r.duration_s for r in res)
    print(
        f"  {label:24s} {wall:7.2f} s  {len(texts) / wall:6.2f} candidates/s  "
        f"median latency {lat:5.2f} s",
        flush=True,
    )
    return wall, res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=16, help="full-pipeline candidates per executor")
    ap.add_argument(
        "--screened",
        type=int,
        default=200,
        help="screen-rejected candidates for the dispatch overhead",
    )
    args = ap.parse_args()
    src = Path(os.environ["RTLOPT_BENCH_PATH"]) / "c910" / "lza_simd_half"
    cfg = dataclasses.replace(Config(), eval=EvalConfig(workers=2, cache=False))
    design = load_design(next(src.rglob(f"{LZA}.v")), LZA, cfg.project)
    pdk = resolve_pdk("sky130hd")
    print(
        f"C910 LZA, sky130hd, 2 workers, {args.n} candidates; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        ev = Evaluator(design, cfg, Path(tmp), pdk)
        ev.reference()
        local = LocalExecutor(cfg.eval)
        t0 = time.monotonic()
        connect(None, num_cpus=2)
        start = time.monotonic() - t0
        ray_ex = RayExecutor(dataclasses.replace(cfg.eval, executor="ray"))
        t0 = time.monotonic()
        ray_ex.evaluate(ev, candidates(1, "warm"))
        warm = time.monotonic() - t0
        print(
            f"  Ray start {start:.1f} s; 2 workers up and warm in {warm:.1f} s "
            "(includes one candidate)",
            flush=True,
        )
        timed("local (warm-up)", local, ev, candidates(2, "lwarm"))
        lw, lres = timed("local executor", local, ev, candidates(args.n, "local"))
        rw, rres = timed("ray executor", ray_ex, ev, candidates(args.n, "ray"))
        ls, _ = timed("local, screened only", local, ev, screened(args.screened, "l"))
        rs, _ = timed("ray, screened only", ray_ex, ev, screened(args.screened, "r"))
        ray_ex.close()
        ev.close()
    bad = [
        i
        for i, (a, b) in enumerate(zip(lres, rres, strict=True))
        if (a.ppa, a.status, a.reward) != (b.ppa, b.status, b.reward) or not a.accepted
    ]
    print(f"\nthroughput ratio ray / local: {lw / rw:.2f}")
    print(
        f"overhead per candidate, full pipeline: {(rw - lw) / args.n * 1000:+.0f} ms "
        f"(local {lw / args.n:.2f} s, ray {rw / args.n:.2f} s effective per candidate)"
    )
    print(
        f"round trip of a screened candidate: local {ls / args.screened * 1000:.2f} ms, "
        f"ray {rs / args.screened * 1000:.2f} ms"
    )
    if bad:
        print(f"DIFFERENT numbers for candidates {bad}")
        return 1
    print(f"all {args.n} candidates: identical area, delay, power on both executors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
