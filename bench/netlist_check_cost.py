#!/usr/bin/env python3
"""Cost of the netlist check: whole evaluations with and without it, in one run.

For the C910 LZA and every RTLLM v2.0 reference (Nangate45 by default), a cosmetic rewrite of
the reference (the same module with a distinct comment, so the formal check runs in full and no
cache is involved) is evaluated by three evaluators that differ only in ``eval.netlist_check``,
taking turns: ``never`` (the baseline), ``always`` (the check on every candidate: its raw cost)
and ``auto`` (the default: the check runs when the formal check did not prove the candidate).
Each reference is measured first and not timed. Prints per design the median evaluation time of
each mode, the added time and ratio of ``always`` and ``auto`` over ``never``, the check's own
simulation time (it runs beside OpenSTA) and its verdict; then the median added time per
candidate as a ratio of the evaluation without the check (target: within ~15 %).

    python bench/netlist_check_cost.py [--pdk nangate45] [--reps 2] [--only NAME ...]

``formal.require_proof`` is off so that every design reaches synthesis (designs whose formal
check cannot decide are measured too, and there ``auto`` runs the check); ``--formal-timeout``
(default 30 s) bounds the SAT time of the RTLLM designs whose proofs run out of time. Data by
path: RTLOPT_BENCH_PATH (default ../shared/bench) and RTLOPT_PDK_PATH.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from _designs import bench_path, lza_and_rtllm  # noqa: E402

from rtlopt.config import Config, EvalConfig, FormalConfig, ProjectConfig  # noqa: E402
from rtlopt.errors import RtloptError  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.frontend.model import Design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402
from rtlopt.results import EvalResult, Stage, Status  # noqa: E402

designs = lza_and_rtllm


def rewrite(design: Design, i: int) -> str:
    """The target module with a distinct comment: equivalent, not byte-identical."""
    text = design.target.text()
    cut = text.rindex("endmodule")
    return text[:cut] + f"// rtlopt netlist-check bench {i}\n" + text[cut:]


MODES = ("never", "always", "auto")


def config(mode: str, formal_timeout: float, pdk: str) -> Config:
    base = Config()
    return dataclasses.replace(
        base,
        formal=FormalConfig(timeout_s=formal_timeout, require_proof=False),
        flow=dataclasses.replace(base.flow, pdk=pdk),
        eval=EvalConfig(workers=1, cache=False, netlist_check=mode),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdk", default="nangate45")
    ap.add_argument("--reps", type=int, default=2, help="candidates per design and mode")
    ap.add_argument("--formal-timeout", type=float, default=30.0)
    ap.add_argument("--only", nargs="*", help="designs to run (default: all)")
    args = ap.parse_args(argv)

    pdk = resolve_pdk(args.pdk)
    todo = designs(set(args.only) if args.only else None)
    if not todo:
        print(f"no designs found under {bench_path()} (set RTLOPT_BENCH_PATH)")
        return 2
    print(
        f"# PDK {pdk.name}, {args.reps} candidate(s) per design and mode, formal timeout "
        f"{args.formal_timeout:g}s; times in seconds"
    )
    print(
        f"{'design':<20} {'never':>6} {'always':>6} {'auto':>6} {'+always':>8} {'+auto':>7} "
        f"{'check':>6}  formal / netlist check"
    )
    added: dict[str, list[float]] = {"always": [], "auto": []}
    ratios: dict[str, list[float]] = {"always": [], "auto": []}
    base_all: list[float] = []
    fallback: list[str] = []
    for name, path, top in todo:
        try:
            design = load_design(path, top, ProjectConfig())
        except RtloptError as exc:
            print(f"{name:<20} skipped: {exc.one_line()[:80]}")
            continue
        times: dict[str, list[float]] = {m: [] for m in MODES}
        check_s: list[float] = []
        verdict = formal = ""
        with tempfile.TemporaryDirectory(prefix="rtlopt-nlbench-") as tmp:
            evs = {
                m: Evaluator(design, config(m, args.formal_timeout, args.pdk), Path(tmp) / m, pdk)
                for m in MODES
            }
            try:
                try:
                    for ev in evs.values():
                        ev.reference()
                except RtloptError as exc:
                    print(f"{name:<20} skipped: reference: {exc.one_line()[:70]}")
                    continue
                gold = evs["always"].provenance()["netlist_check"]["gold"]
                if "reference's netlist" in gold or gold.startswith("unavailable"):
                    fallback.append(f"{name}: {gold}")
                for i in range(args.reps):
                    order = MODES[i % 3 :] + MODES[: i % 3]
                    for mode in order:
                        res: EvalResult = evs[mode].evaluate(rewrite(design, i))
                        if res.status is not Status.OK and res.stage is not Stage.NETLIST:
                            verdict = f"not measured: {res.stage.value}: {res.reason[:60]}"
                            continue
                        times[mode].append(res.duration_s)
                        formal = res.formal.verdict.value if res.formal else "-"
                        if mode == "always":
                            verdict = (
                                "pass"
                                if res.netlist and res.netlist.passed
                                else f"FAIL: {res.reason[:70]}"
                            )
                            check_s.append(res.netlist.duration_s if res.netlist else 0.0)
            finally:
                for ev in evs.values():
                    ev.close()
        if not all(times.values()):
            print(f"{name:<20} {'-':>6} {'-':>6} {'-':>6} {'-':>8} {'-':>7} {'-':>6}  {verdict}")
            continue
        med = {m: statistics.median(v) for m, v in times.items()}
        base = med["never"]
        base_all.append(base)
        for m in ("always", "auto"):
            added[m].append(med[m] - base)
            ratios[m].append((med[m] - base) / base)
        chk = statistics.median(check_s) if check_s else 0.0
        print(
            f"{name:<20} {base:6.2f} {med['always']:6.2f} {med['auto']:6.2f} "
            f"{(med['always'] - base) / base:+8.1%} {(med['auto'] - base) / base:+7.1%} "
            f"{chk:6.2f}  {formal} / {verdict}",
            flush=True,
        )
    if not base_all:
        print("nothing measured")
        return 1
    print(
        f"\n{len(base_all)} designs measured; median evaluation without the check "
        f"{statistics.median(base_all):.3f} s"
    )
    for m in ("always", "auto"):
        print(
            f"{m:>6}: median added time per candidate {statistics.median(added[m]):+.3f} s "
            f"= {statistics.median(added[m]) / statistics.median(base_all):+.1%} of an "
            f"evaluation; median per-design ratio {statistics.median(ratios[m]):+.1%}"
        )
    if fallback:
        print("\nreferences whose own netlist differs from their RTL:")
        for f in fallback:
            print(f"  {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
