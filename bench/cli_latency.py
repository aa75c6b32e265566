#!/usr/bin/env python3
"""Whole-process latency of the short commands, this checkout beside a baseline, in one run.

Each command is run as a fresh process several times (min / median / max wall time), the
checkouts interleaved so that both see the same machine load:

    python -c pass                  the interpreter's own start (the floor)
    rtlopt --help
    rtlopt evaluate --json          C910 LZA, sky130hd, a candidate already in the cache
    rtlopt check --json             a git repository with one changed module (RTLLM adder_16bit,
                                    nangate45), already in the cache
    rtlopt check --json (2 changed) two changed modules, not cached: evaluated in parallel

Each checkout has its own cache folder, filled by one warm-up run first (not timed). Also
printed: whether `import rtlopt.cli` loads torch, transformers or pyslang. With
``--baseline DIR`` (another checkout, e.g. the main branch) the ratio baseline / this is
printed per command.

Compiled modules: by default each checkout keeps them in a temporary ``PYTHONPYCACHEPREFIX``
(filled by the warm-up), as an installed package has them; ``--bytecode env`` keeps the
environment's setting (``PYTHONDONTWRITEBYTECODE=1`` recompiles rtlopt's sources every run).

    python bench/cli_latency.py [--runs 5] [--baseline /work/main] [--bytecode cache|env]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
HEAVY = ("torch", "transformers", "pyslang", "rich")


def bench_root() -> Path:
    return Path(os.environ.get("RTLOPT_BENCH_PATH", SHARED / "bench"))


def make_repo(root: Path, n_changed: int, tag: str = "") -> Path:
    """A git repository with RTLLM modules committed and ``n_changed`` of them staged changed."""
    repo = root / f"repo{n_changed}"
    (repo / "rtl").mkdir(parents=True)
    names = ["adder_16bit", "adder_8bit"][: max(1, n_changed)]
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
    }
    files = []
    for name in names:
        src = next((bench_root() / "rtllm" / name).glob("verified_*.v"))
        dst = repo / "rtl" / src.name
        shutil.copy(src, dst)
        files.append(dst)

    def git(*a: str) -> None:
        subprocess.run(["git", *a], cwd=repo, env=env, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "base")
    for i, f in enumerate(files[:n_changed]):
        text = f.read_text()
        cut = text.rindex("endmodule")
        f.write_text(text[:cut] + f"wire rtlopt_cli_bench_{i}{tag} = 1'b0;\n" + text[cut:])
    git("add", "-A")
    return repo


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the process and the tools it waited for:
    less sensitive to other jobs on the machine than wall time)."""
    c0 = _children_cpu()
    t0 = time.monotonic()
    p = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    dt = time.monotonic() - t0
    if p.returncode not in (0, 1):
        raise SystemExit(f"failed ({p.returncode}): {' '.join(argv)}\n{p.stderr[-2000:]}")
    return dt, _children_cpu() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--baseline", type=Path, default=None, help="another checkout to compare")
    ap.add_argument(
        "--bytecode",
        choices=("cache", "env"),
        default="cache",
        help="cache: compiled modules are kept (a temporary PYTHONPYCACHEPREFIX per checkout, "
        "filled by the warm-up), as in a pip install, which compiles them; env: as the "
        "environment says (PYTHONDONTWRITEBYTECODE=1 recompiles rtlopt's sources every run)",
    )
    a = ap.parse_args()
    lza = bench_root() / "c910" / "lza_simd_half" / "ct_vfmau_lza_simd_half.v"
    cand = REPO / "examples" / "c910_lza_rewrites" / "01_grouped_encoder.v"
    tmp = Path(tempfile.mkdtemp(prefix="rtlopt-cli-bench-"))
    checkouts = {"this": REPO}
    if a.baseline is not None:
        checkouts["baseline"] = a.baseline.resolve()
    py = sys.executable
    commands: dict[str, tuple[list[str], bool, str]] = {
        # name: (argv, cached after warm-up, cwd kind)
        "python -c pass": ([py, "-c", "pass"], True, "tmp"),
        "rtlopt --help": ([py, "-m", "rtlopt", "--help"], True, "tmp"),
        "evaluate (cached)": (
            [
                py,
                "-m",
                "rtlopt",
                "evaluate",
                str(lza),
                "-c",
                str(cand),
                "--pdk",
                "sky130hd",
                "--json",
            ],
            True,
            "tmp",
        ),
        "check 1 changed (cached)": (
            [py, "-m", "rtlopt", "check", "--pdk", "nangate45", "--json"],
            True,
            "repo1",
        ),
        "check 2 changed (uncached)": (
            [py, "-m", "rtlopt", "check", "--pdk", "nangate45", "--json"],
            False,
            "repo2",
        ),
    }
    envs: dict[str, dict[str, str]] = {}
    repos: dict[str, dict[str, Path]] = {}
    try:
        for name, path in checkouts.items():
            home = tmp / name
            home.mkdir()
            envs[name] = {
                **os.environ,
                "PYTHONPATH": str(path),
                "XDG_CACHE_HOME": str(home / "cache"),
                "RTLOPT_PDK_PATH": os.environ.get("RTLOPT_PDK_PATH", str(SHARED / "pdk")),
            }
            if a.bytecode == "cache":
                envs[name].pop("PYTHONDONTWRITEBYTECODE", None)
                envs[name]["PYTHONPYCACHEPREFIX"] = str(home / "pycache")
            repos[name] = {"repo1": make_repo(home, 1), "tmp": tmp}
            for argv, cached, where in commands.values():  # warm-up: fill the cache
                if cached:
                    run(argv, envs[name], repos[name][where])
            probe = (
                f"import sys, rtlopt.cli; print(','.join(m for m in {HEAVY!r} "
                "if m in sys.modules) or 'none')"
            )
            out = subprocess.run(
                [py, "-c", probe], env=envs[name], capture_output=True, text=True
            ).stdout.strip()
            print(f"{name}: heavy modules after `import rtlopt.cli`: {out}")
        times: dict[tuple[str, str], list[float]] = {}
        cpus: dict[tuple[str, str], list[float]] = {}
        for i in range(a.runs):
            for cmd, (argv, _cached, where) in commands.items():
                for name in checkouts:
                    cwd = (
                        repos[name][where]
                        if where != "repo2"
                        else make_repo(tmp / name / f"r{i}", 2, tag=f"_{i}")
                    )
                    dt, cpu = run(argv, envs[name], cwd)
                    times.setdefault((cmd, name), []).append(dt)
                    cpus.setdefault((cmd, name), []).append(cpu)
        print(
            f"\nwall seconds over {a.runs} runs (min / median / max); machine load "
            f"{os.getloadavg()[0]:.1f}; bytecode: {a.bytecode}"
        )
        for cmd in commands:
            cells = []
            for name in checkouts:
                xs = times[(cmd, name)]
                cells.append(f"{name}: {min(xs):.3f} / {statistics.median(xs):.3f} / {max(xs):.3f}")
            line = f"{cmd:28s} " + "   ".join(cells)
            if "baseline" in checkouts:
                b = statistics.median(times[(cmd, "baseline")])
                t = statistics.median(times[(cmd, "this")])
                line += f"   ratio {b / t:.2f}x"
            print(line)
        print("\nCPU seconds (user + system, median; tools that exited included)")
        for cmd in commands:
            cells = [f"{name}: {statistics.median(cpus[(cmd, name)]):.3f}" for name in checkouts]
            line = f"{cmd:28s} " + "   ".join(cells)
            if "baseline" in checkouts:
                b = statistics.median(cpus[(cmd, "baseline")])
                t = statistics.median(cpus[(cmd, "this")])
                line += f"   ratio {b / t:.2f}x"
            print(line)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
