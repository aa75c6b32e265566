#!/usr/bin/env python3
"""Cost of flow.power_mode = "activity": whole evaluations in each power mode, in one run.

For each design (default: a few RTLLM references and the C910 LZA), a cosmetic rewrite of the
reference (a distinct comment: equivalent, no cache hit) is evaluated by two evaluators that
differ only in ``flow.power_mode``, taking turns. The references are measured first, untimed.
Prints per design the CPU seconds per evaluation (this process plus its tool processes,
``getrusage``), the ratio activity / vectorless, the activity step's own wall time, and both
power numbers; then the median ratio. CPU seconds, not wall time: the machine is shared.

    python bench/activity_power_cost.py [--pdk sky130hd] [--reps 2] [--only NAME ...]

Data by path: RTLOPT_BENCH_PATH (default ../shared/bench) and RTLOPT_PDK_PATH.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from _designs import lza_and_rtllm  # noqa: E402

from rtlopt.config import Config, EvalConfig, FlowConfig, FormalConfig  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402

DEFAULT = ["counter_12", "JC_counter", "adder_16bit", "LFSR", "c910_lza"]
MODES = ("vectorless", "activity")


def cpu() -> float:
    """CPU seconds of this process, its finished children (getrusage) and its live
    descendants (the long-lived OpenSTA worker and ABC servers, through psutil when
    installed: without them the vectorless mode's timing would not be counted)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    total = s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
    try:
        import psutil
    except ImportError:
        return total
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pdk", default="sky130hd")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    pdk = resolve_pdk(args.pdk)
    ratios: list[float] = []
    print(
        f"{'design':14} {'vectorless cpu s':>16} {'activity cpu s':>14} {'ratio':>6} "
        f"{'act step s':>10} {'P vl uW':>9} {'P act uW':>9}"
    )
    for name, path, top in lza_and_rtllm(set(args.only or DEFAULT)):
        design = load_design(path, top, Config().project)
        with tempfile.TemporaryDirectory() as tmp:
            evs = {}
            for mode in MODES:
                cfg = dataclasses.replace(
                    Config(),
                    flow=FlowConfig(pdk=args.pdk, power_mode=mode),
                    eval=EvalConfig(cache=False, workers=1),
                    formal=FormalConfig(require_proof=False, timeout_s=30.0),
                )
                evs[mode] = Evaluator(design, cfg, Path(tmp) / mode, pdk=pdk)
                evs[mode].reference()
            spent = {m: [] for m in MODES}
            last = {}
            text = design.target.text()
            cut = text.rindex("endmodule")
            for i in range(args.reps):
                for mode in MODES:
                    t0 = cpu()
                    last[mode] = evs[mode].evaluate(text[:cut] + f"// bench {i}\n" + text[cut:])
                    spent[mode].append(cpu() - t0)
            for ev in evs.values():
                ev.close()
        vl, act = (statistics.median(spent[m]) for m in MODES)
        r = last["activity"]
        ratio = act / vl if vl > 0 else float("nan")
        ratios.append(ratio)
        p_vl = r.ppa.power_vectorless_uw if r.ppa else None
        p_act = r.ppa.power_activity_uw if r.ppa else None
        print(
            f"{name:14} {vl:16.2f} {act:14.2f} {ratio:6.2f} {r.timings.get('activity', 0):10.2f} "
            f"{p_vl or 0:9.3f} {p_act or 0:9.3f}  {r.status.value}@{r.stage.value}"
        )
    if ratios:
        print(f"median CPU ratio activity / vectorless: {statistics.median(ratios):.2f}")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
