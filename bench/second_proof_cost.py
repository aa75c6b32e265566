#!/usr/bin/env python3
"""Cost of the second, independent proof (rtlopt.formal.second) beside the first, in one run.

Two kept designs: the C910 LZA with a grouped leading-one encoder (combinational; first proof
Yosys SAT, second ``&cec``) and picorv32's core with renamed and reordered registers
(sequential; first proof ``abc lcorr; dprove``, second ``lcorr`` then ``pdr``). For each, the
first proof (``check_equivalence``) and then the second (``confirm_proof``) are timed; prints the
seconds of each and their ratio. ``--assume-first`` skips the first proof of the core (it takes
minutes on a loaded machine) and times the second alone; ``--broken`` times the refutation of
the same core edit with one comparison changed (the first proof's verdict assumed "proven").

    python bench/second_proof_cost.py [--only lza|core] [--assume-first] [--broken]

Data by path: RTLOPT_BENCH_PATH (default ../shared/bench).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "integration"))

from rtlopt.config import FormalConfig, ProjectConfig  # noqa: E402
from rtlopt.formal import check_equivalence  # noqa: E402
from rtlopt.formal.second import confirm_proof  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.frontend.model import Design  # noqa: E402
from rtlopt.results import FormalResult, Verdict  # noqa: E402


def _lza(out: Path, broken: bool) -> tuple[Design, Path]:
    from _harness_designs import lza_design
    from test_formal_equivalence import grouped_lza

    cand = out / "lza.v"
    cand.write_text(grouped_lza(16 if broken else 20))
    return lza_design(), cand


def _core(out: Path, broken: bool) -> tuple[Design, Path]:
    from tests.integration.test_formal_core_renamed import UPSTREAM, renamed_core

    repo = out / "repo"
    repo.mkdir()
    shutil.copy(UPSTREAM, repo / "picorv32.v")
    cand = out / "core.v"
    cand.write_text(renamed_core(UPSTREAM.read_text(), broken=broken))
    return load_design(repo / "picorv32.v", "picorv32", ProjectConfig()), cand


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("lza", "core"), action="append")
    ap.add_argument("--assume-first", action="store_true")
    ap.add_argument("--broken", action="store_true")
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args()
    cfg = FormalConfig(timeout_s=args.timeout)
    for name in args.only or ["lza", "core"]:
        with tempfile.TemporaryDirectory(prefix="rtlopt-second-") as tmp:
            out = Path(tmp)
            design, cand = (_lza if name == "lza" else _core)(out, args.broken)
            t0 = time.monotonic()
            if args.assume_first or args.broken:
                method = "sat miter" if name == "lza" else "abc lcorr; dprove"
                first = FormalResult(Verdict.PROVEN, method, "")
            else:
                first = check_equivalence(design, [cand], out / "first", cfg)
            t1 = time.monotonic() - t0
            t0 = time.monotonic()
            second = confirm_proof(design, [cand], out / "second", cfg, first)
            t2 = time.monotonic() - t0
            ratio = f"{t2 / t1:.2f}x" if t1 > 0.5 else "-"
            print(
                f"{name}: first {first.verdict.value} ({first.method}) {t1:.1f} s; second "
                f"{'agrees' if second.agrees else 'disagrees'} ({second.method}) {t2:.1f} s; "
                f"second/first {ratio} {second.reason}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
