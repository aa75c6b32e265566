#!/usr/bin/env python3
"""The suite's longest cases at full size beside the size the suite runs, in one run.

The suite keeps each case at the smallest size that still exercises its path; this script runs
the same test at both sizes (``RTLOPT_TEST_FULL_SIZE=1`` selects the full one), interleaved
round by round so that both see the same machine load, and prints wall and CPU seconds (the
test process and its children) with the ratio full / suite:

    edit    tests/e2e/test_large_module_edit.py  picorv32's core with its own parameter
            defaults (the suite: 16 registers, no counters), Yosys's structural proof
    model   tests/e2e/test_model_run.py          the CPU-model run killed and resumed on the
            C910 LZA with sky130hd (the suite: RTLLM counter_12 with nangate45)
    refute  tests/integration/test_formal_commute_mul.py::test_different_products_still_refuted
            different products refuted on the 24x24 / 16x12 MAC (the suite: 8x8 / 6x4)
    refs    tests/integration/test_harness_references.py::test_every_rtllm_reference
            every RTLLM reference against its own harness and proof (the suite: a quarter)
    bench   tests/e2e/test_bench_cli.py::test_bench_interrupted_resumes_where_it_stopped
            two designs benchmarked with the CPU model, interrupted and resumed (the suite:
            one design, scripted candidates)
    tbs     tests/integration/test_bench_suite.py::test_rtllm_all_references
            every RTLLM reference against RTLLM's own testbench (the suite: a quarter)
    mutants tests/integration/test_mutants.py (the sampled mutants)
            mutants of four designs judged by the ground truth and the product (the suite: two)
    reflect tests/integration/test_reflection_loop.py (the learning generator with reflection)
            two learning steps with reflection (the suite: one)
    stimulus tests/integration/test_stimulus_opcode.py (the stimulus sets judged by mutants)
            ten sampled mutants and the broken opcode path (the suite: four)

    python bench/long_tests.py [--only edit,model,refute] [--rounds 1]

Needs the EDA tools, the CPU model (scripts/setup.sh) and ../shared/bench (or
RTLOPT_BENCH_PATH).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CASES = {
    "edit": "tests/e2e/test_large_module_edit.py",
    "model": "tests/e2e/test_model_run.py",
    "refute": "tests/integration/test_formal_commute_mul.py::test_different_products_still_refuted",
    "refs": "tests/integration/test_harness_references.py::test_every_rtllm_reference",
    "bench": "tests/e2e/test_bench_cli.py::test_bench_interrupted_resumes_where_it_stopped",
    "tbs": "tests/integration/test_bench_suite.py::test_rtllm_all_references",
    "mutants": (
        "tests/integration/test_mutants.py::test_sampled_mutants_judged_independently_and_rejected"
    ),
    "reflect": (
        "tests/integration/test_reflection_loop.py"
        "::test_reflection_with_the_on_device_generator_learning"
    ),
    "stimulus": (
        "tests/integration/test_stimulus_opcode.py::test_judge_keeps_the_set_that_kills_more_mutants"
    ),
}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_case(test: str, full: bool) -> tuple[float, float, bool]:
    """Wall and CPU seconds of one pytest run of ``test``, and whether it passed."""
    env = {**os.environ, "RTLOPT_TEST_FULL_SIZE": "1" if full else "0"}
    env.setdefault("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))
    env.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    cpu0, t0 = _children_cpu(), time.monotonic()
    proc = subprocess.run([*argv, test], cwd=REPO, env=env, capture_output=True, text=True)
    wall, cpu = time.monotonic() - t0, _children_cpu() - cpu0
    if proc.returncode != 0:
        print(proc.stdout[-3000:] + proc.stderr[-2000:], file=sys.stderr)
    return wall, cpu, proc.returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(CASES), help="cases, comma separated")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each size per case")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"unknown case(s): {', '.join(unknown)} (known: {', '.join(CASES)})")
        return 2
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'case':<6} {'size':<6} {'wall s':>8} {'cpu s':>8}  passed")
    failed = False
    for name in names:
        sums = {False: [0.0, 0.0], True: [0.0, 0.0]}
        for _ in range(args.rounds):
            for full in (False, True):
                wall, cpu, ok = run_case(CASES[name], full)
                failed |= not ok
                sums[full][0] += wall
                sums[full][1] += cpu
                size = "full" if full else "suite"
                print(f"{name:<6} {size:<6} {wall:8.1f} {cpu:8.1f}  {ok}", flush=True)
        (sw, sc), (fw, fc) = sums[False], sums[True]
        print(f"{name:<6} ratio full / suite: wall {fw / sw:.2f}x, cpu {fc / max(sc, 1e-9):.2f}x")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
