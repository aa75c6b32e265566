#!/usr/bin/env python3
"""Mutation testing of the soundness code with cosmic-ray: the kill rate per package.

The hand-made mutant lists (`scripts/mutate.py`) only show that the bugs somebody thought of are
caught. This job lets a mutation-testing tool, cosmic-ray (MIT), make the mutants: every
operator cosmic-ray has (comparison, arithmetic and boolean operators swapped, constants
changed, `break`/`continue` exchanged, conditions negated, ...) applied at every site of the
package's files, and runs the test files that cover the package against each mutant. A
mutant the tests do not fail is a *survivor*: a mechanism no test guards.

    python bench/mutation_kill.py                       # every package, 20 mutants each
    python bench/mutation_kill.py --package formal --sample 0       # every mutant of formal/
    python bench/mutation_kill.py --package params --sample 40 --seed 3 --jobs 2

It runs in a copy of the checkout (`git worktree` at HEAD, removed at the end), never in the
checkout itself. A sample draws mutants uniformly (seeded) from all of a package's sites, so a
kill rate from a sample is an estimate: the table prints its 95 % interval (Wilson). The
unmutated tests run first (the baseline); a package whose baseline fails is not measured.
Survivors are printed with their diff and written, with every result, to
`<out>/mutation_<package>.json`. Cost: one run of the package's tests per mutant (``-x``, so a
killed mutant usually stops early): minutes per mutant for formal/, hence the sample. This is a
bench job: CI never runs it.

Needs cosmic-ray (`pip install 'rtlopt[dev]'`), the EDA tools and ../shared (or
RTLOPT_BENCH_PATH / RTLOPT_PDK_PATH).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Package:
    """A package of soundness code and the test files that claim to guard it."""

    modules: tuple[str, ...]
    tests: tuple[str, ...]


PACKAGES: dict[str, Package] = {
    "formal": Package(
        modules=("rtlopt/formal",),
        tests=(
            "tests/unit/formal",
            "tests/integration/test_formal_equivalence.py",
            "tests/integration/test_formal_redteam.py",
            "tests/integration/test_formal_verdict_hostile.py",
            "tests/integration/test_formal_noreset.py",
            "tests/integration/test_x_unreset.py",
            "tests/integration/test_soundness_hostile.py",
        ),
    ),
    "harness": Package(
        modules=("rtlopt/harness",),
        tests=(
            "tests/unit/harness",
            "tests/integration/test_harness_iverilog.py",
            "tests/integration/test_hostile_candidates.py",
            "tests/integration/test_semantics_models.py",
            "tests/integration/test_x_policy_simulation.py",
        ),
    ),
    "check": Package(
        modules=("rtlopt/check",),
        tests=(
            "tests/e2e/test_check_context.py",
            "tests/e2e/test_check_table.py",
            "tests/e2e/test_check_tool_errors.py",
            "tests/e2e/test_check_sv_context.py",
            "tests/integration/test_attack_w9.py",
        ),
    ),
    "params": Package(
        modules=(
            "rtlopt/frontend/_params.py",
            "rtlopt/frontend/_param_deps.py",
            "rtlopt/evaluate/_params.py",
        ),
        tests=(
            "tests/unit/frontend/test_frontend_params.py",
            "tests/integration/test_param_redteam.py",
        ),
    ),
    "fingerprint": Package(
        modules=("rtlopt/evaluate/_sources.py", "rtlopt/evaluate/_cache.py"),
        tests=(
            "tests/integration/test_fingerprint_reads.py",
            "tests/unit/evaluate",
            "tests/unit/core/test_sources.py",
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


def _config(root: Path, pkg: Package, timeout: float) -> str:
    tests = " ".join(pkg.tests)
    cmd = f"{sys.executable} -m pytest -x -q -p no:randomly -p no:cacheprovider {tests}"
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


def _sample(session: Path, n: int, seed: int) -> int:
    """Keep ``n`` work items of the session, drawn with ``seed`` (0: keep all)."""
    from cosmic_ray.work_db import WorkDB, use_db

    with use_db(str(session), WorkDB.Mode.open) as db:
        items = list(db.work_items)
        if n and n < len(items):
            keep = random.Random(seed).sample(items, n)
            db.clear()
            db.add_work_items(keep)
        return len(items)


def _results(session: Path) -> list[dict[str, object]]:
    from cosmic_ray.work_db import WorkDB, use_db

    out: list[dict[str, object]] = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            m = item.mutations[0]
            out.append(
                {
                    "file": str(m.module_path),
                    "line": m.start_pos[0],
                    "operator": m.operator_name,
                    "occurrence": m.occurrence,
                    "worker": str(result.worker_outcome.value),
                    "test": None if result.test_outcome is None else str(result.test_outcome.value),
                    "diff": result.diff,
                }
            )
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a proportion k / n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def run_package(name: str, root: Path, args: argparse.Namespace, out: Path) -> dict[str, object]:
    pkg = PACKAGES[name]
    work = out / f"cr_{name}"
    work.mkdir(parents=True, exist_ok=True)
    cfg, session = work / "config.toml", work / "session.sqlite"
    cfg.write_text(_config(root, pkg, args.timeout))
    env = _env(root)
    t0 = time.monotonic()
    base = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly", *pkg.tests],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    if base.returncode != 0:
        print(f"{name}: the unmutated tests fail; not measured\n{base.stdout[-2000:]}")
        return {"package": name, "baseline": "failed"}
    base_s = time.monotonic() - t0
    subprocess.run(["cosmic-ray", "init", str(cfg), str(session)], cwd=root, env=env, check=True)
    total = _sample(session, args.sample, args.seed)
    subprocess.run(["cosmic-ray", "exec", str(cfg), str(session)], cwd=root, env=env, check=True)
    res = _results(session)
    judged = [r for r in res if r["test"] in ("killed", "survived")]
    killed = sum(r["test"] == "killed" for r in judged)
    lo, hi = wilson(killed, len(judged))
    summary = {
        "package": name,
        "sites": total,
        "run": len(res),
        "judged": len(judged),
        "killed": killed,
        "kill_rate": killed / len(judged) if judged else None,
        "interval95": [lo, hi],
        "baseline_s": round(base_s, 1),
        "wall_s": round(time.monotonic() - t0, 1),
        "results": res,
    }
    (out / f"mutation_{name}.json").write_text(json.dumps(summary, indent=1))
    for r in judged:
        if r["test"] == "survived":
            print(f"SURVIVED {r['file']}:{r['line']} {r['operator']}\n{r['diff']}")
    return summary


def _worktree(tmp: Path) -> Path:
    root = tmp / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "-q", str(root), "HEAD"], cwd=REPO, check=True
    )
    return root


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--package", action="append", choices=sorted(PACKAGES), default=None)
    ap.add_argument("--sample", type=int, default=20, help="mutants per package (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per mutant's tests")
    ap.add_argument("--out", type=Path, default=Path("mutation-results"))
    args = ap.parse_args()
    if shutil.which("cosmic-ray") is None:
        print("cosmic-ray is not installed: pip install 'rtlopt[dev]'", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="rtlopt-mut-") as tmp:
        root = _worktree(Path(tmp))
        try:
            for name in args.package or sorted(PACKAGES):
                rows.append(run_package(name, root, args, args.out.resolve()))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(root)], cwd=REPO)
    print(f"\n{'package':<12} {'sites':>6} {'judged':>6} {'killed':>6} {'rate':>6}  95% interval")
    for r in rows:
        if r.get("baseline") == "failed":
            print(f"{r['package']:<12} baseline failed")
            continue
        rate = r["kill_rate"]
        lo, hi = r["interval95"]  # type: ignore[misc]
        shown = "-" if rate is None else f"{rate:.0%}"
        print(
            f"{r['package']:<12} {r['sites']:>6} {r['judged']:>6} {r['killed']:>6} {shown:>6}"
            f"  [{lo:.0%}, {hi:.0%}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
