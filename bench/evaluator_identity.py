"""Verdicts and PPA of two rtlopt source trees on the same candidates, compared in one run.

For a refactor that must not change any result (the evaluator in parts, issue 21): the RTLLM
references (and the C910 LZA when present) are each evaluated with the reference itself, the
reference with a comment, and a few mutants, once by the ``--old`` tree and once by this
checkout, in child processes (``PYTHONPATH`` set to each tree, no evaluation cache). Prints one
row per candidate whose status, stage, reason, formal verdict or PPA differ, and the counts.

    python bench/evaluator_identity.py --old /tmp/rtlopt-base [--only adder_8bit ...] [--limit 12]

Exit status 0 when every result is identical, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _designs import REPO, lza_and_rtllm

CHILD = r"""
import json, sys
from pathlib import Path
from rtlopt import session
from rtlopt.evaluate import Evaluator
jobs = json.loads(Path(sys.argv[1]).read_text())
work = Path(sys.argv[2])
out = []
for job in jobs:
    target = session.open_target(session.TargetSpec(
        Path(job["file"]), job["top"],
        overrides={"flow.pdk": "nangate45", "eval.cache": False, "eval.workers": 1},
    ))
    with Evaluator(target.design, target.config, work / job["name"], target.pdk) as ev:
        ref = ev.reference()
        rows = [("reference", ref)] + [(k, ev.evaluate(t)) for k, t in job["texts"]]
        for kind, r in rows:
            out.append({
                "design": job["name"], "candidate": kind, "status": str(r.status),
                "stage": str(r.stage), "reason": r.reason.replace(str(work), "<work>"),
                "formal": None if r.formal is None else [str(r.formal.verdict), r.formal.method],
                "ppa": None if r.ppa is None else [r.ppa.area_um2, r.ppa.delay_ps, r.ppa.power_uw],
                "reward": r.reward,
            })
print(json.dumps(out))
"""


def _jobs(only: set[str] | None, limit: int | None) -> list[dict[str, object]]:
    sys.path.insert(0, str(REPO))
    from rtlopt.benchmark.mutants import generate_mutants
    from rtlopt.verilog import module_spans

    jobs: list[dict[str, object]] = []
    for name, file, top in lza_and_rtllm(only)[:limit]:
        text = file.read_text(errors="replace")
        spans = module_spans(text)
        span = next((s for s in spans if top is None or s.name == top), None)
        if span is None:
            continue
        mod = text[span.start : span.end]
        texts = [("self", mod), ("comment", mod + "\n// rtlopt identity probe\n")]
        texts += [(f"mutant{i}", m.text) for i, m in enumerate(generate_mutants(name, mod, 3, 1))]
        jobs.append({"name": name, "file": str(file), "top": top, "texts": texts})
    return jobs


def _run(tree: Path, jobs_file: Path, work: Path) -> list[dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(jobs_file), str(work)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rows: list[dict[str, object]] = json.loads(proc.stdout.strip().splitlines()[-1])
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="the other source tree")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--limit", type=int, default=None, help="first N designs")
    args = ap.parse_args()
    jobs = _jobs(set(args.only) if args.only else None, args.limit)
    with tempfile.TemporaryDirectory(prefix="rtlopt-identity-") as tmp:
        jobs_file = Path(tmp) / "jobs.json"
        jobs_file.write_text(json.dumps(jobs))
        old = _run(args.old, jobs_file, Path(tmp) / "old")
        new = _run(REPO, jobs_file, Path(tmp) / "new")
    differ = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    for a, b in differ:
        print(f"DIFF {a['design']} {a['candidate']}:\n  old {a}\n  new {b}")
    statuses: dict[str, int] = {}
    for r in new:
        statuses[str(r["status"])] = statuses.get(str(r["status"]), 0) + 1
    print(
        f"{len(jobs)} designs, {len(new)} results ({statuses}): "
        f"{len(new) - len(differ)} identical, {len(differ)} different"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
