#!/usr/bin/env python3
"""What one candidate costs on each RTLLM v2.0 design, and what that makes the benchmark cost.

For every design (Nangate45, the paper's RTLLM library; one worker, no result cache) the
evaluator measures the reference, then scores two probes through the product's pipeline:

* *accepted*: the reference with a comment appended (not byte-identical, so every stage runs:
  compile, simulation against the reference, the Yosys proof, synthesis, the netlist check when
  the proof is not complete, timing and power) - the most expensive kind of candidate;
* *rejected*: the mean of up to three mutants of the reference (an operator, constant or term
  changed, as bench/mutation_analysis.py makes them) that the evaluator rejects - mostly at
  simulation, what most rollouts of a young policy cost. A mutant that runs into a time limit
  (a timeout: no verdict) is named in the note column and left out of the mean.

Printed: one row per design (seconds per probe), the distribution, the evaluation CPU time of
the whole benchmark at the paper's budget (100 steps x 4 parents x 4 rollouts = 1,600 rollouts
per design) for an accepted fraction ``--accepted`` (default 0.5), and the expected wall time
on 1, 8 and 64 nodes (``--cores`` CPU cores and 8 GPUs each) in two settings: evaluation only
(a frozen policy or scripted candidates, ``rtlopt bench --executor ray``), and test-time
training at the paper's GPU cost (2 h per design on 8 GPUs, i.e. 72 s per step, measured by the
paper on A800s; not measurable here) with the evaluation of each step on Ray.

    python bench/rtllm_candidate_cost.py [--only NAME ...] [--cores 64] [--accepted 0.5]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))

from mutation_analysis import generate_mutants  # noqa: E402

from rtlopt import session  # noqa: E402
from rtlopt.benchmark import load_suite  # noqa: E402
from rtlopt.errors import RtloptError  # noqa: E402
from rtlopt.evaluate import Evaluator, Status  # noqa: E402

ROLLOUTS = 100 * 4 * 4  # steps x parents x rollouts per parent (the paper's RTLLM budget)
STEPS = 100
PER_STEP = 16
GPU_STEP_S = 2 * 3600 / STEPS  # the paper: ~2 h per design on 8 A800 GPUs


@dataclasses.dataclass
class Cost:
    design: str
    accepted_s: float | None = None
    rejected_s: float | None = None
    note: str = ""


def measure(d: object, work: Path) -> Cost:
    name = d.name  # type: ignore[attr-defined]
    row = Cost(name)
    try:
        target = session.open_target(
            session.TargetSpec(
                d.reference_file,
                d.module,  # type: ignore[attr-defined]
                overrides={"flow.pdk": "nangate45", "eval.cache": False, "eval.workers": 1},
            )
        )
        with Evaluator(target.design, target.config, work / name, target.pdk) as ev:
            ref = ev.reference()
            if ref.ppa is None:
                row.note = "no PPA"
                return row
            text = target.design.target.text()
            res = ev.evaluate(text + "\n// rtlopt cost probe\n")
            row.accepted_s = res.duration_s
            if not res.accepted:
                row.note = f"probe {res.status}: {res.reason[:60]}"
            results = [ev.evaluate(m.text) for m in generate_mutants(name, text, 3, seed=1)]
            times = [r.duration_s for r in results if r.status is Status.INVALID]
            if times:
                row.rejected_s = statistics.mean(times)
            # a mutant that hangs costs the time limit: real, but not a rejection's cost
            slow = [
                f"{r.stage} {r.status} after {r.duration_s:.0f} s"
                for r in results
                if r.is_infrastructure_error
            ]
            row.note = "; ".join(filter(None, [row.note, *slow]))
    except (RtloptError, OSError, ValueError) as exc:
        row.note = f"{type(exc).__name__}: {str(exc)[:60]}"
    return row


def hms(s: float) -> str:
    return f"{s / 3600:.1f} h" if s >= 3600 else f"{s / 60:.0f} min"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--cores", type=int, default=64, help="CPU cores per node")
    ap.add_argument(
        "--accepted", type=float, default=0.5, help="fraction of rollouts that pass every stage"
    )
    args = ap.parse_args()
    suite = load_suite("rtllm", Path(os.environ["RTLOPT_BENCH_PATH"]) / "rtllm", args.only)
    print(
        f"{len(suite)} designs; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n"
    )
    print(f"{'design':24s} {'accepted':>9s} {'rejected':>9s}  note")
    rows: list[Cost] = []
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for d in suite:
            c = measure(d, Path(tmp))
            rows.append(c)
            a = f"{c.accepted_s:8.2f}s" if c.accepted_s is not None else "        -"
            r = f"{c.rejected_s:8.2f}s" if c.rejected_s is not None else "        -"
            print(f"{c.design:24s} {a} {r}  {c.note}", flush=True)
    acc = [c.accepted_s for c in rows if c.accepted_s is not None]
    rej = [c.rejected_s for c in rows if c.rejected_s is not None]
    print(f"\nmeasured in {time.monotonic() - t0:.0f} s")
    for label, xs in (("accepted", acc), ("rejected", rej)):
        if xs:
            q = statistics.quantiles(xs, n=10, method="inclusive")
            print(
                f"{label}: n={len(xs)} median {statistics.median(xs):.2f} s, mean "
                f"{statistics.mean(xs):.2f} s, p90 {q[-1]:.2f} s, max {max(xs):.2f} s"
            )
    if not acc:
        return 1
    rej_mean = statistics.mean(rej) if rej else statistics.mean(acc)
    # per design: the expected cost of one rollout, and the slowest candidate of a step
    per_design = {
        c.design: args.accepted * c.accepted_s
        + (1 - args.accepted) * (c.rejected_s if c.rejected_s is not None else rej_mean)
        for c in rows
        if c.accepted_s is not None
    }
    slowest = {c.design: c.accepted_s for c in rows if c.accepted_s is not None}
    n = len(per_design)
    cpu = sum(ROLLOUTS * v for v in per_design.values())
    print(
        f"\nevaluation CPU time at the paper's budget ({n} designs x {ROLLOUTS} rollouts, "
        f"{args.accepted:.0%} accepted): {cpu / 3600:.1f} core-hours"
    )
    print(
        f"\n| nodes ({args.cores} cores, 8 GPUs each) | evaluation only | "
        "test-time training (paper's GPU cost) |"
    )
    print("|---:|---:|---:|")
    for nodes in (1, 8, 64):
        cores = nodes * args.cores
        # evaluation only: all designs' steps spread over the cores, but a design's step
        # cannot finish before its slowest candidate (steps are sequential)
        floor = max(STEPS * v for v in slowest.values())
        eval_only = max(cpu / cores, floor)
        # training: one design per node (8 GPUs), ceil(n / nodes) waves of designs; a step
        # is the paper's GPU time plus its 16 candidates on the node's cores
        waves = math.ceil(n / nodes)
        step_eval = {k: math.ceil(PER_STEP / args.cores) * slowest[k] for k in slowest}
        per_design_wall = sorted(STEPS * (GPU_STEP_S + v) for v in step_eval.values())
        train = waves * statistics.mean(per_design_wall)
        print(f"| {nodes} | {hms(eval_only)} | {hms(train)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
