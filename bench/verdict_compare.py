#!/usr/bin/env python3
"""Verdicts and PPA of two rtlopt versions on the same cases, in one run.

A refactoring must not change what rtlopt says. This script checks out ``--before`` (a git
revision of this repository, default ``HEAD~1``) into a temporary worktree, and runs
``rtlopt evaluate --json`` for every case with both that checkout and this one (each through
``python -m rtlopt`` with its own tree first on ``PYTHONPATH``, each with a fresh cache), then
compares status, stage, formal verdict and engine, and area / delay / power.

Cases:

* ``rtllm``: every RTLLM v2.0 reference against a copy whose lines are re-indented (the same
  design, not byte-identical, so the whole pipeline runs: simulation, formal proof,
  synthesis), and against a one-operator mutant of it (the first ``+``/``&``/``|`` flipped).
* ``repos``: the hand-written equivalent and broken rewrites of ``tests/acceptance/cases``
  (applied as ``bench/repos.py`` applies them).

    python bench/verdict_compare.py --before c586b5f [--rtllm 10] [--repos 'serv/*'] [--jobs 2]

Prints one line per case and the count of identical results; exit 1 when any differs.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))


@dataclass(frozen=True)
class Case:
    """One evaluation: a target file (in its own folder) and a candidate text."""

    name: str
    target: Path
    module: str
    candidate: str
    cwd: Path
    env: tuple[tuple[str, str], ...] = ()


def _bench_path() -> Path:
    env = os.environ.get("RTLOPT_BENCH_PATH")
    return Path(env) if env else REPO.parent / "shared" / "bench"


def _reindent(text: str) -> str:
    return "\n".join(("  " + line if line.strip() else line) for line in text.splitlines()) + "\n"


_FLIP = {"+": "-", "&": "|", "|": "&"}


def _mutant(text: str) -> str | None:
    """The first binary ``+``, ``&`` or ``|`` of an assignment (``assign``, ``=``, ``<=``)
    flipped (a likely bug)."""
    m = re.search(r"((?:assign\s|[^<>=!]=\s|<=\s)[^;]*?[\w\])]\s*)([+&|])(\s*[\w(~])", text)
    if not m:
        return None
    return text[: m.start(2)] + _FLIP[m.group(2)] + text[m.end(2) :]


def rtllm_cases(limit: int, scratch: Path) -> Iterator[Case]:
    root = _bench_path() / "rtllm"
    seen = 0
    for ref in sorted(root.glob("*/verified_*.v")):
        if seen >= limit:
            return
        text = ref.read_text(errors="replace")
        mods = re.findall(r"^\s*module\s+(\w+)", text, flags=re.M)
        if not mods:
            continue
        folder = scratch / "rtllm" / ref.parent.name
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ref.name
        target.write_text(text)
        seen += 1
        name = ref.parent.name
        module = next((m for m in (f"verified_{name}", name) if m in mods), mods[0])
        yield Case(f"rtllm/{ref.parent.name}/equiv", target, module, _reindent(text), folder)
        bad = _mutant(text)
        if bad is not None:
            yield Case(f"rtllm/{ref.parent.name}/broken", target, module, bad, folder)


def repo_cases(pattern: str, scratch: Path) -> Iterator[Case]:
    import repos  # bench/repos.py: the same cases, prepared the same way

    for case in repos.load_cases():
        if not fnmatch.fnmatch(case.name, pattern):
            continue
        root = repos.prepare_repo(
            repos.default_repos_path() / case.repo, scratch / "repos" / case.name
        )
        for kind in ("equiv", "broken"):
            text = repos.candidate_text(case, kind, root / case.target)
            env = tuple(repos.repo_env(case.repo, root).items())
            yield Case(f"{case.name}/{kind}", root / case.target, case.module, text, root, env)


def evaluate(tree: Path, case: Case, cache: Path, pdk: str) -> dict[str, Any]:
    cand = cache / "candidate.v"
    cache.mkdir(parents=True, exist_ok=True)
    cand.write_text(case.candidate)
    env = {
        **os.environ,
        **dict(case.env),
        "PYTHONPATH": str(tree),
        "XDG_CACHE_HOME": str(cache / "xdg-cache"),
        "XDG_CONFIG_HOME": str(cache / "xdg-config"),
    }
    argv = [sys.executable, "-m", "rtlopt", "evaluate", str(case.target), "--module"]
    argv += [case.module, "--candidate", str(cand), "--pdk", pdk, "--json"]
    proc = subprocess.run(argv, cwd=case.cwd, env=env, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        return {"error": f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"}
    return summary(json.loads(proc.stdout)["candidate"])


def summary(res: dict[str, Any]) -> dict[str, Any]:
    formal = res.get("formal") or {}
    ppa = res.get("ppa") or {}
    return {
        "status": res.get("status"),
        "stage": res.get("stage"),
        "verdict": formal.get("verdict"),
        "engine": formal.get("method"),
        "area": ppa.get("area_um2"),
        "delay": ppa.get("delay_ps"),
        "power": ppa.get("power_uw"),
    }


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default="HEAD~1", help="git revision to compare against")
    ap.add_argument("--rtllm", type=int, default=50, help="RTLLM designs (0: none)")
    ap.add_argument("--repos", default="", help="glob over repo/module (empty: none)")
    ap.add_argument("--pdk", default="sky130hd")
    ap.add_argument("--jobs", type=int, default=2)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rtlopt-verdicts-") as tmp:
        scratch = Path(tmp)
        before = scratch / "before"
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(before), args.before],
            check=True,
        )
        try:
            cases = list(rtllm_cases(args.rtllm, scratch)) if args.rtllm else []
            if args.repos:
                cases += list(repo_cases(args.repos, scratch))

            def both(i: int) -> tuple[dict[str, Any], dict[str, Any]]:
                c = cases[i]
                old = evaluate(before, c, scratch / "cache" / f"{i}-before", args.pdk)
                new = evaluate(REPO, c, scratch / "cache" / f"{i}-after", args.pdk)
                return old, new

            same = 0
            with ThreadPoolExecutor(max_workers=args.jobs) as pool:
                for case, (old, new) in zip(cases, pool.map(both, range(len(cases))), strict=True):
                    ok = old == new
                    same += ok
                    line = f"{'same' if ok else 'DIFF'}  {case.name}: {new}"
                    if not ok:
                        line += f"\n      before: {old}"
                    print(line, flush=True)
            print(f"{same}/{len(cases)} identical (before = {args.before}, after = working tree)")
            return 0 if same == len(cases) else 1
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(before)], check=False
            )


if __name__ == "__main__":
    sys.exit(main())
