#!/usr/bin/env python3
"""Whole-evaluation throughput on the C910 LZA: the two pipeline factors, measured apart.

Each candidate goes through every stage (screen, compile, interface, simulation against the
reference, Yosys SAT miter, synthesis, timing and power). Four setups, all in one run, on the
same distinct candidates (a unique unused wire each, and no result cache):

    setup        persistent tools   workers
    naive        no                 1        a fresh Yosys/OpenSTA per candidate, full liberty
    persistent   yes                1        long-lived OpenSTA, per-pass trimmed liberties
    workers      no                 cores
    pipeline     yes                cores    what `rtlopt optimize` runs

Printed: per setup the median per-candidate latency and the effective time per candidate
(batch wall time / candidates); then each factor's ratio against its own baseline measured in
this run (persistent tools at one worker; workers with and without persistent tools) and the
combined ratio. Every candidate's area, delay, power and ADP must be identical in the four
setups: a difference is printed and the script exits 1.

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
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
# The shared benchmark data and liberty files sit beside the checkout unless told otherwise.
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from rtlopt.config import Config, EvalConfig, FlowConfig  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.frontend.model import Design  # noqa: E402
from rtlopt.pdk import PdkInfo, resolve_pdk  # noqa: E402
from rtlopt.results import PPA  # noqa: E402


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


@dataclass(frozen=True)
class Measured:
    """One setup's timings and the PPA of each candidate (in input order)."""

    median_latency: float
    effective: float
    ppa: list[PPA]


def measure(name: str, cfg: Config, design: Design, pdk: PdkInfo, texts: list[str]) -> Measured:
    with tempfile.TemporaryDirectory() as tmp, Evaluator(design, cfg, Path(tmp), pdk) as ev:
        ev.reference()
        t0 = time.monotonic()
        res = ev.evaluate_many(texts)
        wall = time.monotonic() - t0
    bad = [r.reason for r in res if not r.accepted or r.ppa is None]
    if bad:
        raise SystemExit(f"{name}: a candidate was rejected: {bad[0]}")
    lat = [r.duration_s for r in res]
    m = Measured(statistics.median(lat), wall / len(texts), [r.ppa for r in res if r.ppa])
    print(
        f"{name:10s} median latency {m.median_latency:6.2f} s   "
        f"effective {m.effective:6.2f} s/candidate",
        flush=True,
    )
    return m


def run(n: int) -> int:
    bench = Path(os.environ.get("RTLOPT_BENCH_PATH", REPO.parent / "shared" / "bench"))
    target = bench / "c910" / "lza_simd_half" / "ct_vfmau_lza_simd_half.v"
    if not target.is_file():
        raise SystemExit(f"error: C910 LZA not found at {target} (set RTLOPT_BENCH_PATH)")
    base_cfg = Config()
    design = load_design(target, "ct_vfmau_lza_simd_half", base_cfg.project)
    pdk = resolve_pdk("sky130hd")
    texts = candidates(n)
    cores = os.cpu_count() or 1

    def cfg(persistent: bool, workers: int) -> Config:
        return dataclasses.replace(
            base_cfg,
            flow=dataclasses.replace(FlowConfig(), metric="adp", persistent=persistent),
            eval=EvalConfig(workers=workers, cache=False),
        )

    setups = {
        "naive": cfg(False, 1),
        "persistent": cfg(True, 1),
        "workers": cfg(False, cores),
        "pipeline": cfg(True, cores),
    }
    got = {name: measure(name, c, design, pdk, texts) for name, c in setups.items()}

    print(f"\ncandidates: {n}, cores (workers): {cores}")

    def ratio(label: str, base: str, new: str, attr: str) -> None:
        a, b = getattr(got[base], attr), getattr(got[new], attr)
        print(f"{label:58s} {base} {a:.2f} s / {new} {b:.2f} s = {a / b:.2f}x")

    ratio(
        "persistent tools, per-candidate latency (1 worker):",
        "naive",
        "persistent",
        "median_latency",
    )
    ratio("workers, effective time, fresh tools:", "naive", "workers", "effective")
    ratio("workers, effective time, persistent tools:", "persistent", "pipeline", "effective")
    ratio("both (naive -> pipeline), effective time:", "naive", "pipeline", "effective")

    ref = got["naive"].ppa
    diffs = [
        (name, i, p, ref[i]) for name, m in got.items() for i, p in enumerate(m.ppa) if p != ref[i]
    ]
    for name, i, p, r in diffs:
        print(f"PPA differs: candidate {i} {name} {p} vs naive {r}")
    if diffs or any(len(m.ppa) != len(ref) for m in got.values()):
        print("FAIL: the setups do not give identical PPA")
        return 1
    adps = sorted({round(p.adp, 3) for p in ref})
    print(f"identical area, delay, power and ADP in all four setups (ADPs {adps} um^2*ps)")
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=8, help="candidates per setup")
    raise SystemExit(run(ap.parse_args().n))


if __name__ == "__main__":
    main()
