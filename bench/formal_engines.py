#!/usr/bin/env python3
"""Formal engines: the product's check without ABC (``formal.abc = false``) against with it.

For each case (a reference and a candidate file), runs ``check_equivalence`` twice under the
same time limit and prints a markdown table: verdict, deciding engine and seconds of each, and
whether ABC turned an "unknown" into a proof. A proof that the other run refutes (or the
reverse) is a soundness failure: the script then exits 1.

* ``rtllm/<name>``: an RTLLM v2.0 reference against a non-identical copy of itself (a dummy
  wire added), as in the references' self-check;
* ``rewrite/<design>/<file>``: the hand-written rewrites in ``examples/rtllm_rewrites``;
* ``repos/<repo>/<module>/{equiv,broken}``: the rewrites of ``bench/repos.py`` (Verilog
  repositories), in a copy of the repository with its example ``rtlopt.toml``.

    python bench/formal_engines.py [--only 'rtllm/multi_8bit' ...] [--timeout 120]

Data by path: RTLOPT_BENCH_PATH (default ../shared/bench).
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))

from rtlopt.benchmark.suite import load_suite  # noqa: E402
from rtlopt.config import FormalConfig, ProjectConfig  # noqa: E402
from rtlopt.formal import check_equivalence  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.frontend.model import Design  # noqa: E402
from rtlopt.results import Verdict  # noqa: E402


@dataclass(frozen=True)
class Case:
    name: str
    design: Design
    candidate: Path


def _rtllm(name: str, work: Path) -> Design:
    bench = Path(os.environ["RTLOPT_BENCH_PATH"])
    (sd,) = load_suite("rtllm", bench / "rtllm", [name])
    repo = work / "repos" / name
    repo.mkdir(parents=True, exist_ok=True)
    target = repo / sd.reference_file.name
    shutil.copy(sd.reference_file, target)
    return load_design(target, sd.module, ProjectConfig())


def _copy(design: Design, work: Path) -> Path:
    text = design.target.file.read_text(errors="replace")
    end = design.target.end - len("endmodule")
    cand = work / f"{design.target.name}_copy.v"
    cand.write_text(text[:end] + "\nwire zz_unused_w;\n" + text[end:])
    return cand


def cases(work: Path) -> list[Case]:
    bench = Path(os.environ["RTLOPT_BENCH_PATH"])
    out: list[Case] = []
    for folder in sorted((bench / "rtllm").iterdir()):
        if not folder.is_dir():
            continue
        try:
            d = _rtllm(folder.name, work)
        except Exception as exc:  # noqa: BLE001 - a benchmark that does not load is skipped
            print(f"skip rtllm/{folder.name}: {exc}", file=sys.stderr)
            continue
        out.append(Case(f"rtllm/{folder.name}", d, _copy(d, work)))
    for folder in sorted((REPO / "examples" / "rtllm_rewrites").iterdir()):
        if not folder.is_dir():
            continue
        d = _rtllm(folder.name, work)
        for f in sorted(folder.glob("*.v")):
            out.append(Case(f"rewrite/{folder.name}/{f.stem}", d, f))
    return out


def repo_cases(work: Path, patterns: list[str] | None) -> list[Case]:
    """The Verilog cases of ``bench/repos.py`` (picorv32, serv) matching ``patterns``."""
    sys.path.insert(0, str(REPO / "bench"))
    import repos as rb  # the benchmark's own case list and repository copies

    from rtlopt.session import TargetSpec, open_target

    out: list[Case] = []
    roots: dict[str, Path] = {}
    for c in rb.load_cases():
        if c.repo not in ("picorv32", "serv"):
            continue
        names = [f"repos/{c.repo}/{c.module}/{k}" for k in ("equiv", "broken")]
        if patterns and not any(fnmatch.fnmatch(n, p) for n in names for p in patterns):
            continue
        if c.repo not in roots:
            roots[c.repo] = rb.prepare_repo(
                rb.default_repos_path() / c.repo, work / "repocopies" / c.repo
            )
        t = open_target(TargetSpec(roots[c.repo] / c.target, c.module, with_pdk=False))
        for n, k in zip(names, ("equiv", "broken"), strict=True):
            out.append(Case(n, t.design, c.folder / f"{k}.v"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, help="case name patterns (fnmatch)")
    ap.add_argument("--timeout", type=float, default=120.0, help="formal.timeout_s")
    ap.add_argument("--changed", action="store_true", help="print only rows that differ")
    args = ap.parse_args()
    bad = 0
    gained = 0
    with tempfile.TemporaryDirectory(prefix="rtlopt-engines-") as tmp:
        work = Path(tmp)
        pats = args.only
        all_cases = [] if pats and all(p.startswith("repos/") for p in pats) else cases(work)
        all_cases += (
            repo_cases(work, pats)
            if not pats or any(p.startswith(("repos", "*")) for p in pats)
            else []
        )
        if pats:
            all_cases = [c for c in all_cases if any(fnmatch.fnmatch(c.name, p) for p in pats)]
        print("| case | without ABC | s | with ABC | engine | s |")
        print("|---|---|---|---|---|---|")
        for case in all_cases:
            wd = work / case.name.replace("/", "__")
            row = []
            verdicts = []
            for abc in (False, True):
                t0 = time.monotonic()
                r = check_equivalence(
                    case.design,
                    [case.candidate],
                    wd / f"abc{int(abc)}",
                    FormalConfig(timeout_s=args.timeout, abc=abc),
                )
                verdicts.append(r.verdict)
                row.append((r, time.monotonic() - t0))
            (r0, s0), (r1, s1) = row
            if {Verdict.PROVEN, Verdict.REFUTED} <= set(verdicts):
                bad += 1
            if r0.verdict is Verdict.UNKNOWN and r1.verdict is Verdict.PROVEN:
                gained += 1
            if args.changed and r0.verdict is r1.verdict and r0.method == r1.method:
                continue
            print(
                f"| {case.name} | {r0.verdict.value} | {s0:.1f} | {r1.verdict.value} | "
                f"{r1.method} | {s1:.1f} |",
                flush=True,
            )
    print(
        f"\n{len(all_cases)} cases; unknown before, proven with ABC: {gained}; "
        f"contradictions: {bad}"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
