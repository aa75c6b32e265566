#!/usr/bin/env python3
"""Loading a large repository: `inspect` and `evaluate` on a generated C910-style tree.

Writes the 500-file tree of ``tests/c910_tree.py`` (a filelist with nested ``-f`` lists, a
header listed as a source, include folders, ~250 lines per file) into a temporary git
repository, then times whole processes, as a user runs them:

    inspect cold    a fresh cache folder (no module index, no harness cache)
    inspect warm    the same command again
    evaluate cold   self-evaluation (the target's own file as the candidate), fresh cache
    evaluate warm   the same again (results cached: the parse dominates)

With ``--baseline DIR`` (another checkout, e.g. /work/main) every command also runs with that
checkout's code, interleaved, and the ratio baseline / this is printed.

    python bench/repo_load.py [--files 500] [--runs 3] [--baseline /work/main] [--no-evaluate]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from tests.c910_tree import write_tree  # noqa: E402


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _run(code: Path, args: list[str], cwd: Path, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its tools) of one command."""
    env = {**os.environ, "PYTHONPATH": str(code), "XDG_CACHE_HOME": str(cache)}
    t0, c0 = time.monotonic(), _cpu()
    r = subprocess.run(
        [sys.executable, "-m", "rtlopt", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    dt, dc = time.monotonic() - t0, _cpu() - c0
    if r.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed ({r.returncode}) with {code}:\n{r.stderr}")
    return dt, dc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline", type=Path, default=None)
    ap.add_argument("--no-evaluate", action="store_true")
    a = ap.parse_args()
    codes = {"this": HERE}
    if a.baseline is not None:
        codes["baseline"] = a.baseline.resolve()
    with tempfile.TemporaryDirectory(prefix="rtlopt-bench-tree-") as tmp:
        tree = write_tree(Path(tmp) / "c910", a.files)
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "tree"]):
            subprocess.run(
                ["git", "-c", "user.name=b", "-c", "user.email=b@l", "-C", str(tree.root), *cmd],
                check=True,
            )
        target = str(tree.target.relative_to(tree.root))
        commands = {"inspect": ["inspect", target]}
        if not a.no_evaluate:
            commands["evaluate"] = ["evaluate", target, "-c", target, "--json"]
        times: dict[tuple[str, str, str], list[float]] = {}
        cpu: dict[tuple[str, str, str], list[float]] = {}
        for run in range(a.runs):
            for name, args in commands.items():
                for label, code in codes.items():
                    cache = Path(tmp) / f"cache-{label}-{name}-{run}"
                    cold, cold_cpu = _run(code, args, tree.root, cache)
                    warm, warm_cpu = _run(code, args, tree.root, cache)
                    times.setdefault((name, "cold", label), []).append(cold)
                    times.setdefault((name, "warm", label), []).append(warm)
                    cpu.setdefault((name, "cold", label), []).append(cold_cpu)
                    cpu.setdefault((name, "warm", label), []).append(warm_cpu)
        print(
            f"C910-style tree: {tree.files} Verilog files, target {tree.module}; "
            f"{a.runs} runs, median (min-max) wall seconds"
        )
        for name in commands:
            for phase in ("cold", "warm"):
                row = f"  {name:8s} {phase:4s}"
                for label in codes:
                    v = times[(name, phase, label)]
                    c = statistics.median(cpu[(name, phase, label)])
                    row += (
                        f"  {label}: {statistics.median(v):6.2f} ({min(v):.2f}-{max(v):.2f})"
                        f" cpu {c:.2f}"
                    )
                if "baseline" in codes:
                    ratio = statistics.median(times[(name, phase, "baseline")]) / statistics.median(
                        times[(name, phase, "this")]
                    )
                    row += f"  baseline/this: {ratio:.1f}x"
                print(row)
        print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
