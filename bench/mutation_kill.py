#!/usr/bin/env python3
"""Mutation testing of the soundness code with cosmic-ray: the kill rate per package.

The hand-made mutant lists (`scripts/mutate.py`) only show that the bugs somebody thought of are
caught. This job lets a mutation-testing tool, cosmic-ray (MIT), make the mutants: every
operator cosmic-ray has (comparison, arithmetic and boolean operators swapped, constants
changed, `break`/`continue` exchanged, conditions negated, ...) applied at every site of the
package's files, and runs the FAST test files that cover the package against each mutant
(`pytest -x -q -n 0 -p no:randomly -m "not slow"`: a killed mutant stops at its first failing
test). A mutant the tests do not fail is a *survivor*: a mechanism no test guards.

    python bench/mutation_kill.py --package formal --sample 20 --seed 13
    python bench/mutation_kill.py --sample 20 --seed 13          # every package
    python bench/mutation_kill.py --package params --sample 0     # every mutant of params
    python bench/mutation_kill.py --package check --list          # sites and tests, no run

Mutants run one at a time under `nice` (``--nice``, default 15): the machine is shared. The
job runs in a copy of the checkout (`git worktree` at HEAD, removed at the end), never in the
checkout itself, so commit the tests first. A sample draws mutants uniformly (``--seed``) from
a package's sites after dropping the sites on a logging call's first line (a message only; the
count is printed); a kill rate from a sample is an estimate, printed with its 95 % Wilson
interval. A timeout (``--timeout``, default 4x the baseline + 60 s) is counted apart from the
kills and excluded from the rate. The unmutated tests run first (the baseline); a package whose
baseline fails is not measured. Survivors are printed with their diff and written, with every
result, to `<out>/mutation_<package>.json`. This is a bench job: CI never runs it.

Needs cosmic-ray (`pip install 'rtlopt[dev]'`), the EDA tools and ../shared (or
RTLOPT_BENCH_PATH / RTLOPT_PDK_PATH).
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import math
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
#: The fast tests only: a mutant's run must stay in seconds (the slow tests are the bench's).
MARKS = "not slow and not gpu and not model"
#: A mutation site on a line that starts a logging call changes a message only.
LOG_CALL = re.compile(r"^\s*(_?log|_?logger|LOG)\.(debug|info|warning|error|exception)\(")


@dataclass(frozen=True)
class Package:
    """A package of soundness code and the fast test files that claim to guard it (unit tests
    first: ``-x`` stops at the first failure, so the cheap tests kill most mutants)."""

    modules: tuple[str, ...]
    tests: tuple[str, ...]
    #: the tests' marker expression (a package whose guard is a slow test file runs it)
    marks: str = MARKS


PACKAGES: dict[str, Package] = {
    "formal": Package(
        modules=("rtlopt/formal",),
        tests=(
            "tests/unit/formal",
            "tests/integration/test_formal_tool_crash.py",
            "tests/integration/test_formal_equivalence.py",
            "tests/integration/test_formal_verdict_hostile.py",
            "tests/integration/test_formal_noreset.py",
            "tests/integration/test_formal_unreached.py",
            "tests/integration/test_formal_second.py",
            "tests/integration/test_x_unreset.py",
        ),
    ),
    "harness": Package(
        modules=("rtlopt/harness",),
        tests=(
            "tests/unit/harness",
            "tests/integration/test_harness_iverilog.py",
            "tests/integration/test_x_policy_simulation.py",
            "tests/integration/test_sim_channel.py",
            "tests/integration/test_hostile_candidates.py",
            "tests/integration/test_harness_references.py",
            "tests/integration/test_semantics_models.py",
        ),
    ),
    "check": Package(
        modules=("rtlopt/check",),
        tests=(
            "tests/unit/check",
            "tests/e2e/test_check_noreset.py",
            "tests/e2e/test_check_trailers.py",
            "tests/e2e/test_check_summary_escaped.py",
            "tests/e2e/test_check_table.py",
            "tests/e2e/test_check_tool_errors.py",
            "tests/e2e/test_check_gate_rules.py",
            "tests/integration/test_attack_w9.py",  # a file replaced by a symlink (_gate.py)
        ),
    ),
    "params": Package(
        modules=("rtlopt/evaluate/_params.py", "rtlopt/evaluate/_param_scope.py"),
        tests=(
            "tests/unit/evaluate/test_params_cost.py",
            "tests/unit/evaluate/test_configs.py",
            "tests/unit/core/test_result_configurations.py",
            "tests/integration/test_param_scope.py",
        ),
        marks="not gpu and not model",  # the probes' guard is test_param_scope.py (slow, 70 s)
    ),
    "fingerprint": Package(
        modules=("rtlopt/evaluate/_sources.py", "rtlopt/evaluate/_cache.py"),
        tests=(
            "tests/unit/core/test_inputs.py",
            "tests/unit/frontend/test_frontend_sources.py",
            "tests/unit/check/test_check_filelist_order.py",
            "tests/unit/evaluate/test_preprocess.py",
            "tests/unit/cli/test_cached_evaluate.py",
            "tests/integration/test_fingerprint_reads.py",
            "tests/unit/evaluate/test_sources_cache.py",
        ),
    ),
}


def _python_files(root: Path, entries: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for e in entries:
        p = root / e
        files = sorted(p.rglob("*.py")) if p.is_dir() else [p]
        out += [str(f.relative_to(root)) for f in files if f.name != "__init__.py"]
    return out


def _pytest(pkg: Package) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-n",
        "0",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "-m",
        pkg.marks,
        *pkg.tests,
    ]


def _config(root: Path, pkg: Package, timeout: float) -> str:
    cmd = shlex.join(_pytest(pkg))
    mods = ", ".join(json.dumps(m) for m in _python_files(root, pkg.modules))
    return (
        "[cosmic-ray]\n"
        f"module-path = [{mods}]\n"
        f"timeout = {timeout}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(cmd)}\n\n"
        '[cosmic-ray.distributor]\nname = "local"\n'
    )


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    env["RTLOPT_TEST_WORKERS"] = "1"
    env.setdefault("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))
    env.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
    return env


@functools.cache
def _annotations(path: Path) -> tuple[tuple[int, int, int, int], ...]:
    """The spans (line, column, end line, end column) of a file's type annotations."""
    spans = []
    for node in ast.walk(ast.parse(path.read_text())):
        notes = []
        if isinstance(node, ast.arg | ast.AnnAssign):
            notes.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            notes.append(node.returns)
        for a in notes:
            if a is not None and a.end_lineno is not None and a.end_col_offset is not None:
                spans.append((a.lineno, a.col_offset, a.end_lineno, a.end_col_offset))
    return tuple(spans)


def _unjudged(root: Path, item: Any) -> str | None:
    """Why a site is not sampled: ``log`` (the first line of a logging call: a message only)
    or ``annotation`` (a type annotation, never evaluated under ``from __future__ import
    annotations``: an equivalent mutant by construction); None for every other site."""
    m = item.mutations[0]
    path = root / m.module_path
    if LOG_CALL.match(path.read_text().splitlines()[m.start_pos[0] - 1]):
        return "log"
    at = tuple(m.start_pos)
    if any((a, b) <= at < (c, d) for a, b, c, d in _annotations(path)):
        return "annotation"
    return None


def _sample(session: Path, root: Path, n: int, seed: int) -> tuple[int, int, dict[str, int]]:
    """Keep ``n`` work items of the session (0: all), drawn with ``seed`` from the sites
    `_unjudged` keeps: (all sites, the sample's size, the count of each kind dropped)."""
    from cosmic_ray.work_db import WorkDB, use_db

    with use_db(str(session), WorkDB.Mode.open) as db:
        items = sorted(db.work_items, key=lambda i: i.job_id)
        why = {i.job_id: _unjudged(root, i) for i in items}
        usable = [i for i in items if why[i.job_id] is None]
        dropped = {k: sum(w == k for w in why.values()) for k in ("log", "annotation")}
        usable.sort(
            key=lambda i: (str(i.mutations[0].module_path), i.mutations[0].start_pos, i.job_id)
        )
        keep = random.Random(seed).sample(usable, n) if 0 < n < len(usable) else usable
        db.clear()
        db.add_work_items(keep)
        return len(items), len(keep), dropped


def _outcome(result: Any) -> str:
    """killed, survived, timeout or incompetent (cosmic-ray counts a timeout as a kill)."""
    test = None if result.test_outcome is None else str(result.test_outcome.value)
    if test == "killed" and result.output == "timeout":
        return "timeout"
    return test or str(result.worker_outcome.value)


def _results(session: Path) -> list[dict[str, object]]:
    from cosmic_ray.work_db import WorkDB, use_db

    out: list[dict[str, object]] = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            m = item.mutations[0]
            out.append(
                {
                    "job": item.job_id,
                    "file": str(m.module_path),
                    "line": m.start_pos[0],
                    "operator": m.operator_name,
                    "occurrence": m.occurrence,
                    "outcome": _outcome(result),
                    "diff": result.diff,
                    "tail": (result.output or "")[-1500:],
                }
            )
    return sorted(out, key=lambda r: (str(r["file"]), int(str(r["line"]))))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a proportion k / n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _baseline(root: Path, pkg: Package, env: dict[str, str]) -> float | None:
    """Seconds of the unmutated tests, None when they fail."""
    t0 = time.monotonic()
    base = subprocess.run(_pytest(pkg), cwd=root, env=env, capture_output=True, text=True)
    if base.returncode != 0:
        print(f"the unmutated tests fail; not measured\n{base.stdout[-2000:]}")
        return None
    return time.monotonic() - t0


def _exec(cfg: Path, session: Path, root: Path, env: dict[str, str], stop_at: float) -> None:
    """``cosmic-ray exec``, stopped at the wall-clock time ``stop_at`` (0: never): the mutants
    run so far keep their results, the rest are reported as not run."""
    proc = subprocess.Popen(
        ["cosmic-ray", "exec", str(cfg), str(session)], cwd=root, env=env, start_new_session=True
    )
    try:
        proc.wait(timeout=max(1.0, stop_at - time.time()) if stop_at else None)
    except subprocess.TimeoutExpired:
        print("the time budget is spent: the mutants not run yet are left out", flush=True)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def run_package(name: str, root: Path, args: argparse.Namespace, out: Path) -> dict[str, object]:
    pkg = PACKAGES[name]
    work = out / f"cr_{name}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    cfg, session = work / "config.toml", work / "session.sqlite"
    env = _env(root)
    t0 = time.monotonic()
    base_s = _baseline(root, pkg, env)
    if base_s is None:
        return {"package": name, "baseline": "failed"}
    timeout = args.timeout or round(4 * base_s + 60)
    print(f"{name}: baseline {base_s:.0f} s, timeout {timeout} s per mutant", flush=True)
    cfg.write_text(_config(root, pkg, timeout))
    subprocess.run(["cosmic-ray", "init", str(cfg), str(session)], cwd=root, env=env, check=True)
    total, kept, dropped = _sample(session, root, args.sample, args.seed)
    _exec(cfg, session, root, env, args.stop_at)
    res = _results(session)
    count = {k: sum(r["outcome"] == k for r in res) for k in OUTCOMES}
    judged = count["killed"] + count["survived"]
    lo, hi = wilson(count["killed"], judged)
    summary: dict[str, object] = {
        "package": name,
        "modules": list(pkg.modules),
        "tests": list(pkg.tests),
        "seed": args.seed,
        "sites": total,
        "sites_dropped": dropped,
        "sampled": kept,
        "run": len(res),
        **count,
        "kill_rate": count["killed"] / judged if judged else None,
        "interval95": [lo, hi],
        "baseline_s": round(base_s, 1),
        "timeout_s": timeout,
        "wall_s": round(time.monotonic() - t0, 1),
        "results": res,
    }
    (out / f"mutation_{name}.json").write_text(json.dumps(summary, indent=1))
    for r in res:
        if r["outcome"] != "killed":
            print(f"{str(r['outcome']).upper()} {r['file']}:{r['line']} {r['operator']}")
            print(r["diff"])
    return summary


OUTCOMES = ("killed", "survived", "timeout", "incompetent")


def _worktree(tmp: Path) -> Path:
    root = tmp / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "-q", str(root), "HEAD"], cwd=REPO, check=True
    )
    return root


def _table(rows: list[dict[str, object]]) -> None:
    print(
        f"\n{'package':<12} {'sites':>6} {'run':>4} {'killed':>6} {'surv':>5} {'t/o':>4}"
        f" {'rate':>5}  95% interval"
    )
    for r in rows:
        if r.get("baseline") == "failed":
            print(f"{r['package']:<12} baseline failed")
            continue
        rate = r["kill_rate"]
        lo, hi = r["interval95"]  # type: ignore[misc]
        shown = "-" if rate is None else f"{rate:.0%}"
        print(
            f"{r['package']:<12} {r['sites']:>6} {r['run']:>4} {r['killed']:>6}"
            f" {r['survived']:>5} {r['timeout']:>4} {shown:>5}  [{lo:.0%}, {hi:.0%}]"
        )


def _list(names: list[str]) -> None:
    for name in names:
        pkg = PACKAGES[name]
        print(f"{name}: {' '.join(_python_files(REPO, pkg.modules))}")
        print(f"  tests: {shlex.join(_pytest(pkg)[1:])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--package", action="append", choices=sorted(PACKAGES), default=None)
    ap.add_argument("--sample", type=int, default=20, help="mutants per package (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=0.0, help="seconds per mutant's tests")
    ap.add_argument("--nice", type=int, default=15, help="niceness of the run (0: as is)")
    ap.add_argument("--out", type=Path, default=Path("mutation-results"))
    ap.add_argument("--list", action="store_true", help="print the files and tests, run nothing")
    ap.add_argument(
        "--budget-min", type=float, default=0.0, help="stop after this many minutes (0: never)"
    )
    args = ap.parse_args()
    args.stop_at = time.time() + 60 * args.budget_min if args.budget_min else 0.0
    names = args.package or sorted(PACKAGES)
    if args.list:
        _list(names)
        return 0
    if shutil.which("cosmic-ray") is None:
        print("cosmic-ray is not installed: pip install 'rtlopt[dev]'", file=sys.stderr)
        return 2
    if args.nice:
        os.nice(args.nice)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="rtlopt-mut-") as tmp:
        root = _worktree(Path(tmp))
        try:
            for name in names:
                if args.stop_at and time.time() >= args.stop_at:
                    print(f"{name}: not run (the time budget is spent)")
                    continue
                rows.append(run_package(name, root, args, args.out.resolve()))
                # a mutant stopped by the budget may have left its file mutated
                subprocess.run(["git", "checkout", "-q", "--", "."], cwd=root)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(root)], cwd=REPO)
    _table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
