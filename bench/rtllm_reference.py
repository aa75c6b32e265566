#!/usr/bin/env python3
"""Reference PPA of the 50 RTLLM v2.0 designs on Nangate45, beside the TTT-RTL paper's flow.

Prints one row per design (area, delay, power, status, reason for any failure), then the nine
designs of the paper's appendix B table 5 with the paper's local-flow area and delay and our
deviation, and how many meet |dA| <= 3% and |dD| <= 15% (target: at least 7 of 9).

    python bench/rtllm_reference.py [--pdk nangate45] [--period 10] [--only NAME ...]

Data by path: RTLOPT_BENCH_PATH (default ../shared/bench) and RTLOPT_PDK_PATH (default
../shared/pdk), relative to the repository root.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from _designs import bench_path  # noqa: E402

from rtlopt.config import FlowConfig, ProjectConfig, SandboxConfig  # noqa: E402
from rtlopt.eda.flow import PpaFlow  # noqa: E402
from rtlopt.errors import RtloptError  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402

TABLE5 = Path(__file__).resolve().parent / "paper_table5.csv"


@dataclass
class Row:
    design: str
    top: str = ""
    clocks: tuple[str, ...] = ()
    area: float | None = None
    delay_ns: float | None = None
    power_uw: float | None = None
    status: str = "ok"
    reason: str = ""
    seconds: float = 0.0


def measure_design(flow: PpaFlow, folder: Path, work: Path) -> Row:
    """PPA of one RTLLM reference (``verified_*.v``) with the frontend's top and clocks."""
    row = Row(folder.name)
    refs = sorted(p for p in folder.glob("*.v") if p.name != "testbench.v")
    if not refs:
        row.status, row.reason = "skipped", "no reference file"
        return row
    start = time.monotonic()
    try:
        design = load_design(refs[0], None, ProjectConfig())
        row.top, row.clocks = design.target.name, tuple(design.target.clocks)
        m = flow.measure(list(design.closure), row.top, row.clocks, work / folder.name)
        row.area, row.delay_ns, row.power_uw = (
            m.ppa.area_um2,
            m.ppa.delay_ps / 1000.0,
            m.ppa.power_uw,
        )
        if m.sta is not None and m.sta.warnings:
            row.reason = "; ".join(m.sta.warnings)
    except RtloptError as exc:
        row.status = {"EvaluationTimeout": "timeout", "ToolFailed": "tool_error"}.get(
            type(exc).__name__, "error"
        )
        row.reason = exc.message.splitlines()[0][:90]
    row.seconds = time.monotonic() - start
    return row


def fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdk", default="nangate45")
    ap.add_argument("--period", type=float, default=10.0, help="clock period in ns")
    ap.add_argument("--only", nargs="*", help="designs to run (default: all)")
    ap.add_argument("--not-persistent", action="store_true", help="one process per stage")
    args = ap.parse_args(argv)

    os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
    root = bench_path() / "rtllm"
    if not root.is_dir():
        print(f"RTLLM benchmark not found at {root} (set RTLOPT_BENCH_PATH)")
        return 2
    pdk = resolve_pdk(args.pdk)
    cfg = replace(
        FlowConfig(pdk=args.pdk), clock_period_ns=args.period, persistent=not args.not_persistent
    )
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    if args.only:
        folders = [p for p in folders if p.name in set(args.only)]
    rows: list[Row] = []
    with (
        tempfile.TemporaryDirectory(prefix="rtlopt-rtllm-") as tmp,
        PpaFlow(pdk, cfg, SandboxConfig()) as flow,
    ):
        prov = flow.provenance()
        print(
            f"# PDK {pdk.name} ({pdk.liberty.name}), engine {prov['engine']}, "
            f"tools {prov['tool_versions']}, clock {args.period} ns"
        )
        print(
            f"{'design':<24} {'top':<28} {'area_um2':>10} {'delay_ns':>9} {'power_uW':>10} "
            f"{'status':<12} {'s':>5}  reason"
        )
        for folder in folders:
            row = measure_design(flow, folder, Path(tmp))
            rows.append(row)
            print(
                f"{row.design:<24} {row.top:<28} {fmt(row.area, '10.2f')} "
                f"{fmt(row.delay_ns, '9.3f')} {fmt(row.power_uw, '10.2f')} {row.status:<12} "
                f"{row.seconds:5.1f}  {row.reason}",
                flush=True,
            )
    ok = sum(r.status == "ok" for r in rows)
    print(f"\n{ok}/{len(rows)} designs measured")

    by_name = {r.design: r for r in rows}
    print("\n# Paper appendix B table 5 (local flow) vs this flow")
    print(
        f"{'design':<18} {'A_paper':>9} {'A_ours':>9} {'dA':>7} {'D_paper':>8} {'D_ours':>8} "
        f"{'dD':>7}  within(3%/15%)"
    )
    meets = total = 0
    with TABLE5.open() as f:
        for rec in csv.DictReader(line for line in f if not line.startswith("#")):
            r = by_name.get(rec["design"])
            if r is None:
                continue
            a_p, d_p = float(rec["area_local"]), float(rec["delay_local_ns"])
            outlier = rec["outlier"] == "1"
            if r.area is None or r.delay_ns is None:
                print(
                    f"{rec['design']:<18} {a_p:9.1f} {'-':>9} {'-':>7} {d_p:8.2f} {'-':>8} "
                    f"{'-':>7}  no ({r.status})"
                )
                total += 0 if outlier else 1
                continue
            da, dd = (r.area - a_p) / a_p, (r.delay_ns - d_p) / d_p
            good = abs(da) <= 0.03 and abs(dd) <= 0.15
            if not outlier:
                total += 1
                meets += good
            tag = "outlier (not counted)" if outlier else ("yes" if good else "no")
            print(
                f"{rec['design']:<18} {a_p:9.1f} {r.area:9.1f} {da:+7.1%} {d_p:8.2f} "
                f"{r.delay_ns:8.3f} {dd:+7.1%}  {tag}"
            )
    if total:
        print(f"\n{meets}/{total} table-5 designs within 3% area and 15% delay (target >= 7/9)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
