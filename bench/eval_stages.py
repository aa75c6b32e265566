#!/usr/bin/env python3
"""Per-stage latency of one evaluation, the pipeline beside the naive flow, in one run.

For each design (the C910 LZA on sky130hd and a few RTLLM designs on nangate45) the same
distinct candidates (accepted rewrites, each with a unique unused wire so no cache can answer;
a candidate that does not compile; a non-equivalent one where the data has one) are evaluated
by two evaluators with one worker and no result cache, interleaved candidate by candidate:

    naive     a fresh Yosys and OpenSTA per candidate reading the full liberty, stages one
              after the other (flow.persistent = false, eval.overlap = false)
    pipeline  the default flow: long-lived OpenSTA, trimmed liberties for Yosys, formal and
              synthesis concurrently once simulation passes (what `rtlopt optimize` runs)

Printed per design and setup: the median and p90 of each stage's time (``EvalResult.timings``),
the median and p90 of the whole latency per candidate, and the ratio naive / pipeline of the
median latency; then the same for the failing-compile candidates alone. The two setups must
give identical verdicts (status, stage) and identical area, delay, power and ADP for every
candidate: a difference is printed and the script exits 1.

    python bench/eval_stages.py [--n 8] [--designs lza,adder_16bit,...] [--netlist-check auto]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from rtlopt.config import Config, EvalConfig, FlowConfig  # noqa: E402
from rtlopt.evaluate import EvalResult, Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402

STAGES = (
    "screen",
    "cache",
    "compile",
    "interface",
    "simulation",
    "formal",
    "parameters",
    "synthesis",
    "netlist",
    "timing",
)
RTLLM_DEFAULT = ("adder_16bit", "alu", "counter_12", "edge_detect")


def bench_root() -> Path:
    return Path(os.environ.get("RTLOPT_BENCH_PATH", REPO.parent / "shared" / "bench"))


@dataclass(frozen=True)
class Case:
    """One design and its candidates."""

    name: str
    file: Path
    module: str
    pdk: str
    texts: list[str]
    kinds: list[str]  # "ok", "broken", "wrong" per text (what it is meant to exercise)


def _with_wire(text: str, i: int) -> str:
    cut = text.rindex("endmodule")
    return text[:cut] + f"wire rtlopt_bench_{i} = 1'b0;\n" + text[cut:]


def _broken(text: str, i: int) -> str:
    # a missing semicolon after a new declaration: compiles nowhere, unique per candidate
    cut = text.rindex("endmodule")
    return text[:cut] + f"wire rtlopt_broken_{i} = 1'b0\nwire rtlopt_x_{i};\n" + text[cut:]


def lza_case(n: int) -> Case:
    target = bench_root() / "c910" / "lza_simd_half" / "ct_vfmau_lza_simd_half.v"
    if not target.is_file():
        raise SystemExit(f"error: C910 LZA not found at {target} (set RTLOPT_BENCH_PATH)")
    ex = REPO / "examples" / "c910_lza_rewrites"
    good = [p.read_text() for p in sorted(ex.glob("0[12]*.v"))]
    wrong = (ex / "03_grouped_wrong_last_group.v").read_text()
    texts = [_with_wire(good[i % len(good)], i) for i in range(n)]
    kinds = ["ok"] * n
    texts += [_with_wire(wrong, n), _broken(good[0], n + 1), _broken(good[1], n + 2)]
    kinds += ["wrong", "broken", "broken"]
    return Case("c910_lza", target, "ct_vfmau_lza_simd_half", "sky130hd", texts, kinds)


def rtllm_case(name: str, n: int) -> Case:
    d = bench_root() / "rtllm" / name
    files = sorted(d.glob("verified_*.v"))
    if not files:
        raise SystemExit(f"error: no RTLLM design {name} under {d}")
    text = files[0].read_text()
    texts = [_with_wire(text, i) for i in range(n)] + [_broken(text, n), _broken(text, n + 1)]
    kinds = ["ok"] * n + ["broken", "broken"]
    return Case(name, files[0], "", "nangate45", texts, kinds)


def _q(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


@dataclass(frozen=True)
class Measured:
    results: list[EvalResult]
    seconds: list[float]  # wall time of each evaluate() call


def measure(case: Case, cfgs: dict[str, Config]) -> dict[str, Measured]:
    """Every candidate through every setup, the setups interleaved candidate by candidate so
    that a change in machine load hits both alike."""
    base = Config()
    design = load_design(case.file, case.module or None, base.project)
    pdk = resolve_pdk(case.pdk)
    res: dict[str, list[EvalResult]] = {s: [] for s in cfgs}
    secs: dict[str, list[float]] = {s: [] for s in cfgs}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        evs = {
            s: stack.enter_context(Evaluator(design, c, Path(tmp) / s, pdk))
            for s, c in cfgs.items()
        }
        for ev in evs.values():
            ev.reference()
            ev.evaluate(case.texts[0] + "\n// warm-up\n")  # first-use costs (worker start)
        for t in case.texts:
            for s, ev in evs.items():
                t0 = time.monotonic()
                res[s].append(ev.evaluate(t))
                secs[s].append(time.monotonic() - t0)
    return {s: Measured(res[s], secs[s]) for s in cfgs}


def setups(netlist_check: str) -> dict[str, Config]:
    base = Config()
    fields = {f.name for f in dataclasses.fields(EvalConfig)}

    def ev(**kw: object) -> EvalConfig:
        return EvalConfig(**{k: v for k, v in kw.items() if k in fields})  # type: ignore[arg-type]

    naive = dataclasses.replace(
        base,
        flow=dataclasses.replace(FlowConfig(), persistent=False),
        eval=ev(workers=1, cache=False, overlap=False, netlist_check=netlist_check),
    )
    pipeline = dataclasses.replace(
        base, eval=ev(workers=1, cache=False, netlist_check=netlist_check)
    )
    return {"naive": naive, "pipeline": pipeline}


def report(case: Case, got: dict[str, Measured]) -> bool:
    print(
        f"\n== {case.name} ({case.pdk}): {case.kinds.count('ok')} accepted-kind, "
        f"{case.kinds.count('broken')} failing-compile, {case.kinds.count('wrong')} wrong"
    )
    ok_idx = [i for i, k in enumerate(case.kinds) if k != "broken"]
    br_idx = [i for i, k in enumerate(case.kinds) if k == "broken"]
    print(f"{'stage (median/p90 s)':22s}" + "".join(f"{s:>19s}" for s in got))
    for st in STAGES:
        cells = []
        for m in got.values():
            xs = [m.results[i].timings.get(st) for i in ok_idx]
            ys = [x for x in xs if x is not None]
            cells.append(f"{_q(ys, 0.5):8.3f} /{_q(ys, 0.9):7.3f}  " if ys else f"{'-':>19s}")
        print(f"{st:22s}" + "".join(f"{c:>19s}" for c in cells))
    med: dict[str, float] = {}
    for label, idx in (("latency (not failing)", ok_idx), ("latency failing-compile", br_idx)):
        cells = []
        for name, m in got.items():
            xs = [m.seconds[i] for i in idx]
            med[f"{label}/{name}"] = _q(xs, 0.5)
            cells.append(f"{_q(xs, 0.5):8.3f} /{_q(xs, 0.9):7.3f}  ")
        print(f"{label:22s}" + "".join(f"{c:>19s}" for c in cells))
    for label in ("latency (not failing)", "latency failing-compile"):
        a, b = med[f"{label}/naive"], med[f"{label}/pipeline"]
        print(f"ratio naive/pipeline, median {label}: {a:.3f} s / {b:.3f} s = {a / b:.2f}x")
    same = True
    ref = got["naive"].results
    for name, m in got.items():
        for i, (r, q) in enumerate(zip(m.results, ref, strict=True)):
            if (r.status, r.stage, r.ppa) != (q.status, q.stage, q.ppa):
                same = False
                print(
                    f"DIFFERS: candidate {i} ({case.kinds[i]}) {name}: {r.status}/{r.stage} "
                    f"{r.ppa} vs naive {q.status}/{q.stage} {q.ppa}: {r.reason or q.reason}"
                )
    for i, (r, k) in enumerate(zip(ref, case.kinds, strict=True)):
        want_ok = k == "ok"
        if r.accepted != want_ok:
            same = False
            print(f"UNEXPECTED: candidate {i} ({k}) {r.status}/{r.stage}: {r.reason}")
    verdicts = sorted({f"{r.status.value}@{r.stage.value}" for r in ref})
    print(
        ("identical verdicts and PPA in both setups: " if same else "MISMATCH; verdicts: ")
        + ", ".join(verdicts)
    )
    return same


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=8, help="accepted-kind candidates per design")
    ap.add_argument(
        "--designs",
        default="lza," + ",".join(RTLLM_DEFAULT),
        help="comma-separated: lza and RTLLM design names",
    )
    ap.add_argument("--netlist-check", default="auto", choices=("auto", "always", "never"))
    a = ap.parse_args()
    cfgs = setups(a.netlist_check)
    ok = True
    for name in a.designs.split(","):
        case = lza_case(a.n) if name == "lza" else rtllm_case(name, max(2, a.n // 2))
        got = measure(case, cfgs)
        ok = report(case, got) and ok
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
