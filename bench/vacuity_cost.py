#!/usr/bin/env python3
"""Cost of the non-vacuity checks per evaluation of the C910 LZA, in one run.

The same distinct accepted candidates as ``bench/eval_stages.py`` (each with a unique unused
wire so no cache can answer) go through the default evaluator (one worker, no result cache).
For every proven candidate the formal check reports the seconds of its non-vacuity steps in
``FormalResult.timings["vacuity"]`` (Yosys ``check`` on both designs, the witness ``sat`` run,
the simulation of a proven AIG miter, each timed where it runs); printed per candidate beside
the formal stage and the whole evaluation latency, then the median share of each:

    python bench/vacuity_cost.py [--n 6]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from eval_stages import _q, lza_case  # noqa: E402

from rtlopt.config import Config, EvalConfig  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=6, help="accepted candidates to evaluate")
    args = ap.parse_args(argv)
    case = lza_case(args.n)
    base = Config()
    fields = {f.name for f in dataclasses.fields(EvalConfig)}
    kw = {k: v for k, v in {"workers": 1, "cache": False}.items() if k in fields}
    cfg = dataclasses.replace(base, eval=EvalConfig(**kw))  # type: ignore[arg-type]
    design = load_design(case.file, case.module, base.project)
    pdk = resolve_pdk(case.pdk)
    rows: list[tuple[float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        ev = stack.enter_context(Evaluator(design, cfg, Path(tmp) / "ev", pdk))
        ev.reference()
        ev.evaluate(case.texts[0] + "\n// warm-up\n")
        print(
            f"{'#':>3s} {'verdict':>9s} {'method':>34s} {'vacuity':>9s} {'formal':>8s} {'eval':>8s}"
        )
        for i, (text, kind) in enumerate(zip(case.texts, case.kinds, strict=True)):
            if kind != "ok":
                continue
            t0 = time.monotonic()
            r = ev.evaluate(text)
            total = time.monotonic() - t0
            f = r.formal
            if f is None:
                print(f"{i:3d} no formal result: {r.status} {r.reason}")
                continue
            vac = float(f.timings.get("vacuity", 0.0))
            formal = float(r.timings.get("formal", 0.0))
            rows.append((vac, formal, total))
            print(
                f"{i:3d} {f.verdict.value:>9s} {f.method[:34]:>34s} {vac:9.3f} "
                f"{formal:8.3f} {total:8.3f}"
            )
    if not rows:
        print("no evaluation with a formal result")
        return 1
    vac_med = _q([r[0] for r in rows], 0.5)
    share_eval = _q([r[0] / r[2] for r in rows], 0.5)
    share_formal = _q([r[0] / r[1] for r in rows if r[1] > 0], 0.5)
    print(
        f"\nnon-vacuity per LZA evaluation: median {vac_med:.3f} s = {100 * share_eval:.1f}% of "
        f"the evaluation latency (median {_q([r[2] for r in rows], 0.5):.2f} s), "
        f"{100 * share_formal:.1f}% of the formal stage"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
