#!/usr/bin/env python3
"""Cost of the non-vacuity checks per evaluation of the C910 LZA, in one run.

The same distinct accepted candidates as ``bench/eval_stages.py`` (each with a unique unused
wire so no cache can answer) go through two default evaluators (one worker, no result cache),
interleaved candidate by candidate so that machine load hits both alike:

    on    the product as it is
    off   the non-vacuity checks switched off in this process only (no drivers check, no
          witness run, no simulation of proven AIG miters): the baseline

Printed per candidate: the verdict, ``FormalResult.timings["vacuity"]`` (the seconds of the
checks, timed where they run), the formal stage and the whole latency of both setups; then the
medians, the share of the checks in the latency, and the ratio of the median latencies
(on / off), which is what the checks cost an evaluation (formal runs beside synthesis, so the
share inside formal is an upper bound):

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


class _Off:
    """The non-vacuity checks switched off (module attributes patched, restored on exit)."""

    def __init__(self) -> None:
        from rtlopt.formal import logparse, scripts, structure
        from rtlopt.formal.engines import abc, structural

        self.patches = [
            (scripts, "witness_lines", lambda *a, **k: []),
            (scripts, "drivers_lines", lambda *a, **k: []),
            (logparse, "witness_problem", lambda w: ""),
            (structural, "witness_problem", lambda w: ""),
            (structure, "drivers_of", lambda wd, s: ""),
            (abc, "aig_witness", lambda aig: ""),
        ]
        self.saved: list[object] = []

    def __enter__(self) -> None:
        self.saved = [getattr(m, n) for m, n, _ in self.patches]
        for m, n, f in self.patches:
            setattr(m, n, f)

    def __exit__(self, *exc: object) -> None:
        for (m, n, _), f in zip(self.patches, self.saved, strict=True):
            setattr(m, n, f)


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
    rows: list[tuple[float, float, float, float]] = []  # vacuity, formal, on, off
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        on = stack.enter_context(Evaluator(design, cfg, Path(tmp) / "on", pdk))
        off = stack.enter_context(Evaluator(design, cfg, Path(tmp) / "off", pdk))
        for ev, ctx in ((on, contextlib.nullcontext()), (off, _Off())):
            with ctx:
                ev.reference()
                ev.evaluate(case.texts[0] + "\n// warm-up\n")
        head = f"{'#':>3s} {'verdict':>8s} {'method':>28s} {'vacuity':>8s} {'formal':>7s}"
        print(head + f" {'on':>7s} {'off':>7s}")
        for i, (text, kind) in enumerate(zip(case.texts, case.kinds, strict=True)):
            if kind != "ok":
                continue
            t0 = time.monotonic()
            r = on.evaluate(text)
            t_on = time.monotonic() - t0
            with _Off():
                t0 = time.monotonic()
                q = off.evaluate(text)
                t_off = time.monotonic() - t0
            f = r.formal
            if f is None or q.status != r.status:
                print(f"{i:3d} differs or no formal result: {r.status} / {q.status} {r.reason}")
                continue
            vac = float(f.timings.get("vacuity", 0.0))
            formal = float(r.timings.get("formal", 0.0))
            rows.append((vac, formal, t_on, t_off))
            print(
                f"{i:3d} {f.verdict.value:>8s} {f.method[:28]:>28s} {vac:8.3f} {formal:7.3f} "
                f"{t_on:7.3f} {t_off:7.3f}"
            )
    if not rows:
        print("no evaluation with a formal result")
        return 1
    vac_med = _q([r[0] for r in rows], 0.5)
    share = _q([r[0] / r[2] for r in rows], 0.5)
    on_med, off_med = _q([r[2] for r in rows], 0.5), _q([r[3] for r in rows], 0.5)
    print(
        f"\nnon-vacuity per LZA evaluation: median {vac_med:.3f} s, {100 * share:.1f}% of the "
        f"latency (upper bound); median latency on {on_med:.3f} s / off {off_med:.3f} s = "
        f"{on_med / off_med:.3f} ({100 * (on_med / off_med - 1):+.1f}%)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
