#!/usr/bin/env python3
"""Whole-evaluation throughput on the C910 LZA: naive stages vs the pipeline, in one run.

Each candidate goes through every stage (screen, compile, interface, simulation against the
reference, Yosys SAT miter, synthesis, timing and power).

naive:    one candidate at a time, one fresh process per stage, each synthesis and timing run
          re-reading the full 12 MB sky130 liberty (flow.persistent = false, one worker).
pipeline: the evaluator as `rtlopt optimize` runs it: a worker pool (one per core), each worker
          with a long-lived OpenSTA process that keeps the liberty loaded and Yosys reading
          per-pass trimmed liberties.

Candidates are distinct (a unique unused wire each) so that no cache is involved. Prints the
median per-candidate latency of both, the pipeline's effective per-candidate time (batch wall
time / candidates), and the ratios.

    python bench/pipeline_throughput.py [--n 8]
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
# The shared benchmark data and liberty files sit beside the checkout unless told otherwise.
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from rtlopt.config import Config, EvalConfig, FlowConfig  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402


def candidates(n: int) -> list[str]:
    base = [
        p.read_text() for p in sorted((REPO / "examples" / "c910_lza_rewrites").glob("0[12]*.v"))
    ]
    out = []
    for i in range(n):
        text = base[i % len(base)]
        cut = text.rindex("endmodule")
        out.append(text[:cut] + f"wire rtlopt_bench_{i} = 1'b0;\n" + text[cut:])
    return out


def run(n: int) -> None:
    bench = Path(os.environ.get("RTLOPT_BENCH_PATH", REPO.parent / "shared" / "bench"))
    target = bench / "c910" / "lza_simd_half" / "ct_vfmau_lza_simd_half.v"
    base_cfg = Config()
    design = load_design(target, "ct_vfmau_lza_simd_half", base_cfg.project)
    pdk = resolve_pdk("sky130hd")
    texts = candidates(n)
    cores = os.cpu_count() or 1
    setups = {
        "naive": dataclasses.replace(
            base_cfg,
            flow=dataclasses.replace(FlowConfig(), metric="adp", persistent=False),
            eval=EvalConfig(workers=1, cache=False),
        ),
        "pipeline": dataclasses.replace(
            base_cfg,
            flow=dataclasses.replace(FlowConfig(), metric="adp", persistent=True),
            eval=EvalConfig(workers=cores, cache=False),
        ),
    }
    results: dict[str, tuple[float, float, list[float]]] = {}
    for name, cfg in setups.items():
        with tempfile.TemporaryDirectory() as tmp, Evaluator(design, cfg, Path(tmp), pdk) as ev:
            ev.reference()
            t0 = time.monotonic()
            res = ev.evaluate_many(texts)
            wall = time.monotonic() - t0
            bad = [r.reason for r in res if not r.accepted]
            if bad:
                raise SystemExit(f"{name}: a candidate was rejected: {bad[0]}")
            lat = [r.duration_s for r in res]
            results[name] = (statistics.median(lat), wall / len(texts), lat)
            adp = {round(r.ppa.adp) for r in res if r.ppa}
            print(
                f"{name:9s} median latency {statistics.median(lat):6.2f} s   "
                f"effective {wall / len(texts):6.2f} s/candidate   ADPs {sorted(adp)}"
            )
    nl, ne, _ = results["naive"]
    pl, pe, _ = results["pipeline"]
    print(f"\ncandidates: {n}, cores: {cores}")
    print(
        f"median per-candidate latency: naive {nl:.2f} s, pipeline {pl:.2f} s, ratio {nl / pl:.2f}x"
    )
    print(
        f"effective per-candidate time: naive {ne:.2f} s, pipeline {pe:.2f} s, ratio {ne / pe:.2f}x"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=8, help="candidates per setup")
    run(ap.parse_args().n)


if __name__ == "__main__":
    main()
