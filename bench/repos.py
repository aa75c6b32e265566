#!/usr/bin/env python3
"""rtlopt on real repositories, as a new user runs it: the acceptance cases measured.

The cases, the commands each runs (inspect; self, equivalent and broken evaluations; `rtlopt
check` on a staged equivalent and a staged broken edit) and their classification live in
``tests/acceptance/runner.py``, shared with the acceptance tests (``pytest -m acceptance``).
This script runs them all (or ``--only`` some), keeps one JSON result per case (the run resumes
where it stopped; a stored case missing a command runs that command only), and prints a
markdown table (module, kind, the six outcomes, formal engine/verdict, wall and CPU seconds),
summary counts, and every non-success with its failure class and the error line.

    python bench/repos.py [--jobs 2] [--only 'serv/*' ...] [--rerun] [--out DIR]

Data by path: ``--repos-path``, else ``$RTLOPT_BENCH_PATH/repos``, else ``../shared/bench/repos``
beside the checkout; liberty files from ``$RTLOPT_PDK_PATH`` (default ``../shared/pdk``).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.acceptance.runner import (  # noqa: E402  (the checkout on the path first)
    CASES,
    FIXTURES,
    FORMAT,
    REPOS,
    STEPS,
    Case,
    _git,
    candidate_text,
    default_repos_path,
    failure_classes,
    load_cases,
    prepare_repo,
    product_version,
    render,
    repo_env,
    repo_source,
    run_case,
    stored_any,
    summarize,
)

__all__ = [
    "CASES",
    "FIXTURES",
    "REPOS",
    "STEPS",
    "Case",
    "candidate_text",
    "default_repos_path",
    "load_cases",
    "main",
    "prepare_repo",
    "repo_env",
    "repo_source",
]


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[1])
    ap.add_argument(
        "--repos-path",
        type=Path,
        default=None,
        help="folder holding picorv32/ serv/ ibex/ cv32e40p/ "
        "(default: $RTLOPT_BENCH_PATH/repos or ../shared/bench/repos)",
    )
    ap.add_argument(
        "--out",
        type=Path,
        default=REPO / ".rtlopt" / "bench" / "repos",
        help="results, logs and repository copies (default: .rtlopt/bench/repos)",
    )
    ap.add_argument("--jobs", type=int, default=1, help="cases run in parallel")
    ap.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="glob patterns on REPO/MODULE (e.g. 'serv/*' '*/ibex_alu')",
    )
    ap.add_argument(
        "--steps",
        nargs="*",
        choices=STEPS,
        default=list(STEPS),
        help="the commands to run (default: all six)",
    )
    ap.add_argument("--rerun", action="store_true", help="ignore stored per-case results")
    ap.add_argument("--pdk", default="nangate45")
    ap.add_argument(
        "--timeout",
        type=float,
        default=1800.0,
        help="the benchmark's own limit per command, seconds",
    )
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument(
        "--report-only",
        action="store_true",
        help="render the table from stored results without running anything",
    )
    return ap


def _stored(results: Path, c: Case) -> dict[str, Any] | None:
    f = results / f"{c.repo}__{c.module}.json"
    try:
        rec: dict[str, Any] = json.loads(f.read_text())
    except (OSError, ValueError):
        return None
    return rec if rec.get("format") == FORMAT else None


def _env() -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    env.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
    # WebAssembly Yosys compiled to machine code (minutes, once per machine) is not a
    # result: every case's fresh cache folder would compile it again
    env.setdefault(
        "YOWASP_CACHE_DIR",
        os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "YoWASP"),
    )
    return env


def _line(c: Case, rec: dict[str, Any]) -> str:
    steps = rec["steps"]
    secs = sum(s["seconds"] for s in steps.values())
    cpu = sum(s.get("cpu", 0.0) for s in steps.values())
    cells = " ".join(
        f"{n}={steps[n]['outcome']}" + (f"[{steps[n]['class']}]" if steps[n]["class"] else "")
        for n in STEPS
        if n in steps
    )
    return f"{c.name:<40} {cells} {secs:.0f}s ({cpu:.0f} CPU s)"


def _run(
    todo: dict[str, tuple[Case, list[str], dict[str, Any] | None]],
    src_root: Path,
    out: Path,
    args: argparse.Namespace,
) -> None:
    """Run the missing commands of each case; merge them into its stored record."""
    results = out / "results"
    env = _env()
    cases = [c for c, _, _ in todo.values()]
    roots = {
        r: prepare_repo(repo_source(src_root, r), out / "work" / r)
        for r in sorted({c.repo for c in cases})
    }
    heads = {r: _git(p, "rev-parse", "HEAD").strip() for r, p in roots.items()}
    print(f"{len(todo)} case(s) to run; jobs {args.jobs}", flush=True)
    commit = product_version()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {
            pool.submit(
                run_case,
                c,
                roots[c.repo],
                out,
                {**env, **repo_env(c.repo, roots[c.repo])},
                args.pdk,
                args.timeout,
                steps,
            ): name
            for name, (c, steps, _) in todo.items()
        }
        for fut in as_completed(futs):
            c, _, old = todo[futs[fut]]
            rec = fut.result()
            if old is not None:  # the commands run before stay, the new ones are added
                rec = {**old, "steps": {**old["steps"], **rec["steps"]}}
            rec["rtlopt_commit"], rec["date"] = commit, time.strftime("%Y-%m-%d %H:%M")
            (results / f"{c.repo}__{c.module}.json").write_text(json.dumps(rec, indent=1))
            print(_line(c, rec), flush=True)
    # Nothing the user owns is modified: the copies must still be clean.
    for repo, path in roots.items():
        dirty = _git(path, "status", "--porcelain").strip()
        if dirty or _git(path, "rev-parse", "HEAD").strip() != heads[repo]:
            print(f"WARNING: the copy of {repo} was modified by rtlopt:\n{dirty}", file=sys.stderr)


def _report(cases: list[Case], out: Path, pdk: str, jobs: int) -> str:
    records = [r for c in cases if (r := stored_any(out / "results", c)) is not None]
    tools = next((s["tools"] for r in records for s in r["steps"].values() if s.get("tools")), None)
    commits = sorted({str(r.get("rtlopt_commit", "?")) for r in records})
    dates = sorted(str(r.get("date", "?")) for r in records)
    meta = {
        "date": f"{dates[0]} .. {dates[-1]}" if dates else "",
        "pdk": pdk,
        "jobs": jobs,
        "tools": tools,
        "commit": ", ".join(commits),
        "out": str(out),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    text = render(records, meta)
    text += f"\n(load average at the end of the run: {meta['load']})\n"
    (out / "table.md").write_text(text)
    (out / "summary.json").write_text(
        json.dumps(
            {"meta": meta, "summary": summarize(records), "classes": failure_classes(records)},
            indent=1,
        )
    )
    return text


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    cases = load_cases()
    if args.only:
        cases = [c for c in cases if any(fnmatch.fnmatch(c.name, p) for p in args.only)]
    if args.list:
        for c in cases:
            print(f"{c.name:<40} {c.kind:<40} {c.target}")
        return 0
    src_root = (args.repos_path or default_repos_path()).resolve()
    out: Path = args.out.resolve()
    (out / "results").mkdir(parents=True, exist_ok=True)
    todo: dict[str, tuple[Case, list[str], dict[str, Any] | None]] = {}
    for c in cases:
        old = None if args.rerun else _stored(out / "results", c)
        steps = [s for s in args.steps if old is None or s not in old["steps"]]
        if steps:
            todo[c.name] = (c, steps, old)
    if todo and not args.report_only:
        missing = sorted({c.repo for c, _, _ in todo.values()} - _present(src_root))
        if missing:
            print(
                f"repositories not found under {src_root}: {', '.join(missing)} "
                "(pass --repos-path or set RTLOPT_BENCH_PATH)",
                file=sys.stderr,
            )
            return 2
        _run(todo, src_root, out, args)
    print(_report(cases, out, args.pdk, args.jobs))
    print(f"(results in {out})")
    return 0


def _present(src_root: Path) -> set[str]:
    names = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    return names | {r for r in REPOS if repo_source(src_root, r).is_dir()}


if __name__ == "__main__":
    sys.exit(main())
