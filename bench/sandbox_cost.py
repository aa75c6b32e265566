#!/usr/bin/env python3
"""Cost of the tool sandbox (bubblewrap) per evaluation of the C910 LZA, in one run.

The same distinct candidates (the LZA with a distinct comment: equivalent, not byte-identical,
so no cache answers and every stage runs) are evaluated by two evaluators that differ only in
``sandbox.enabled``, taking turns candidate by candidate so that machine load hits both alike.
Each evaluator's reference and one warm-up candidate are not timed (worker starts). Prints the
median and p90 latency of each, the ratio sandboxed / plain of the medians, the median of each
stage, and checks that both give the same verdict and PPA for every candidate (exit 1 if not).
Also prints the cost of one tool start (``true``) with and without bubblewrap, and how many
jobs the long-lived ABC servers ran warm and how many fell back to a fresh ABC (the sandboxed
warm ABC writes its outputs in its own folder; a fallback would cost time).

    python bench/sandbox_cost.py [--n 8] [--pdk sky130hd]
"""

from __future__ import annotations

import argparse
import contextlib
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

from rtlopt.config import Config, EvalConfig, SandboxConfig  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.evaluate._evaluator import apply_sandbox  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402
from rtlopt.tools import Limits, configure_sandbox, run_tool, sandbox_available  # noqa: E402

STAGES = ("compile", "simulation", "formal", "synthesis", "timing")


def _lza() -> Path:
    root = Path(os.environ.get("RTLOPT_BENCH_PATH", REPO.parent / "shared" / "bench"))
    target = root / "c910" / "lza_simd_half" / "ct_vfmau_lza_simd_half.v"
    if not target.is_file():
        raise SystemExit(f"error: C910 LZA not found at {target} (set RTLOPT_BENCH_PATH)")
    return target


def _cfg(enabled: bool, pdk: str) -> Config:
    base = Config()
    return dataclasses.replace(
        base,
        flow=dataclasses.replace(base.flow, pdk=pdk),
        eval=EvalConfig(workers=1, cache=False),
        sandbox=SandboxConfig(enabled=enabled, require="always" if enabled else "never"),
    )


def _q(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def start_cost(n: int = 40) -> tuple[float, float]:
    """Median seconds of ``run_tool(["true"])`` with and without the sandbox, interleaved."""
    with_s: list[float] = []
    without_s: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for _ in range(n):
            for on, out in ((True, with_s), (False, without_s)):
                configure_sandbox(on, require=on)
                t0 = time.monotonic()
                run_tool(["true"], cwd=d, log_path=d / "t.log", limits=Limits(30))
                out.append(time.monotonic() - t0)
    return statistics.median(with_s), statistics.median(without_s)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=8, help="timed candidates per setup")
    ap.add_argument("--pdk", default="sky130hd")
    args = ap.parse_args(argv)
    why = sandbox_available()
    if why is not None:
        raise SystemExit(f"error: {why}")
    target = _lza()
    design = load_design(target, "ct_vfmau_lza_simd_half", Config().project)
    pdk = resolve_pdk(args.pdk)
    text = design.target.text()
    cut = text.rindex("endmodule")

    def cand(i: int) -> str:
        return text[:cut] + f"// rtlopt sandbox bench {i}\n" + text[cut:]

    setups = {"sandboxed": _cfg(True, args.pdk), "plain": _cfg(False, args.pdk)}
    secs: dict[str, list[float]] = {s: [] for s in setups}
    stages: dict[str, dict[str, list[float]]] = {s: {t: [] for t in STAGES} for s in setups}
    verdicts: dict[str, list[object]] = {s: [] for s in setups}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        evs: dict[str, Evaluator] = {}
        for s, c in setups.items():
            evs[s] = stack.enter_context(Evaluator(design, c, Path(tmp) / s, pdk))
            evs[s].reference()
            evs[s].evaluate(cand(-1))  # warm-up: worker starts
        for i in range(args.n):
            for s, ev in evs.items():
                apply_sandbox(ev.config.sandbox.enabled, ev.config.sandbox.require)
                t0 = time.monotonic()
                r = ev.evaluate(cand(i))
                secs[s].append(time.monotonic() - t0)
                verdicts[s].append((r.status, r.stage, r.ppa))
                for t in STAGES:
                    if t in r.timings:
                        stages[s][t].append(r.timings[t])
        for s, ev in evs.items():
            for flow in ev._flows:
                servers = [x for x in (flow._abc, flow._abc_generic) if x is not None]
                jobs = sum(x.jobs for x in servers)
                fallbacks = sum(x.fallbacks for x in servers)
                print(f"{s}: long-lived ABC jobs warm {jobs}, fresh fallbacks {fallbacks}")
    print(f"\nC910 LZA ({args.pdk}), {args.n} candidates per setup, interleaved")
    print(f"{'':12s}{'median s':>10s}{'p90 s':>9s}  " + "".join(f"{t:>11s}" for t in STAGES))
    for s in setups:
        cells = "".join(
            f"{statistics.median(v):11.3f}" if (v := stages[s][t]) else f"{'-':>11s}"
            for t in STAGES
        )
        print(f"{s:12s}{_q(secs[s], 0.5):10.3f}{_q(secs[s], 0.9):9.3f}  {cells}")
    on, off = start_cost()
    print(f"one tool start (true): {on * 1e3:.1f} ms sandboxed, {off * 1e3:.1f} ms plain")
    a, b = _q(secs["sandboxed"], 0.5), _q(secs["plain"], 0.5)
    print(f"ratio sandboxed/plain, median latency: {a:.3f} s / {b:.3f} s = {a / b:.3f}x")
    if verdicts["sandboxed"] != verdicts["plain"]:
        print("DIFFERS: the sandboxed and plain verdicts/PPA differ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
