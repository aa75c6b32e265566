#!/usr/bin/env python3
"""Cost of the x-faithfulness proof (``rtlopt.formal.xfaith``) on acceptance targets.

None of the acceptance targets is fed x by its repository today (``bench/x_inputs.py``), so
the proof never runs there. This measures what it would cost if it were: for each case, the
case's equivalent rewrite is evaluated by the real CLI twice, in fresh caches: as the
repository is, and with ``open_inputs`` replaced (in the CLI's process only) by one reporting
the given ports as fed x (``--ports``; default every input of the target but its clocks and
resets, the worst case). Prints wall seconds of both runs, the proof's own seconds
(``formal.timings.x_faith``) and the verdicts.

    python bench/xfaith_cost.py --only 'serv/serv_ctrl' [--ports 'a,b'] [--out DIR]
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.acceptance.runner import (  # noqa: E402
    candidate_text,
    default_repos_path,
    load_cases,
    prepare_repo,
    repo_env,
    repo_source,
)

#: Run in the CLI's process: ``open_inputs`` reports RTLOPT_BENCH_X_PORTS as fed x.
_PATCH = """
import os, runpy, sys
from pathlib import Path
import rtlopt.frontend._open_inputs as oi
ports = [p for p in os.environ["RTLOPT_BENCH_X_PORTS"].split(",") if p]
oi.open_inputs = lambda design: [oi.OpenInput("bench", p, Path("bench"), 0, "1'bx") for p in ports]
sys.argv = ["rtlopt", *sys.argv[1:]]
runpy.run_module("rtlopt", run_name="__main__", alter_sys=True)
"""


def _ports(root: Path, target: str, module: str) -> list[str]:
    from rtlopt.config import load_config
    from rtlopt.frontend import load_design

    cfg = load_config(root / target).config.project
    t = load_design(root / target, module, cfg, root=root).target
    return [p.name for p in t.inputs if p.name not in t.clocks and p.name not in t.resets]


def _run(root: Path, args: list[str], env: dict[str, str], ports: list[str] | None) -> dict:
    env = {**env, "XDG_CACHE_HOME": tempfile.mkdtemp(prefix="xf-cache-")}
    cmd = [sys.executable, "-m", "rtlopt", *args]
    if ports is not None:
        env["RTLOPT_BENCH_X_PORTS"] = ",".join(ports)
        cmd = [sys.executable, "-c", _PATCH, *args]
    t0 = time.monotonic()
    run = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=3600)
    took = time.monotonic() - t0
    try:
        cand = json.loads(run.stdout)["candidate"]
    except (ValueError, KeyError):
        return {"seconds": took, "verdict": "no result", "reason": run.stderr[-400:]}
    formal = cand.get("formal") or {}
    return {
        "seconds": took,
        "status": cand.get("status"),
        "verdict": formal.get("verdict"),
        "x_faith_s": (formal.get("timings") or {}).get("x_faith"),
        "reason": str(cand.get("reason") or formal.get("reason"))[:300],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", required=True)
    ap.add_argument("--ports", default="", help="comma-separated ports fed x (default: all)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.mkdtemp(prefix="xf-cost-")))
    ap.add_argument("--pdk", default="nangate45")
    a = ap.parse_args()
    cases = [c for c in load_cases() if any(fnmatch.fnmatch(c.name, p) for p in a.only)]
    for case in cases:
        home = a.out / case.name.replace("/", "_")
        root = prepare_repo(repo_source(default_repos_path(), case.repo), home / "repo")
        cand = home / "equiv.v"
        cand.write_text(candidate_text(case, "equiv", root / case.target))
        ports = a.ports.split(",") if a.ports else _ports(root, case.target, case.module)
        env = {**os.environ, **repo_env(case.repo, root)}
        args = ["evaluate", case.target, "--module", case.module, "--candidate", str(cand)]
        args += ["--pdk", a.pdk, "--json"]
        base = _run(root, [*args, "--workdir", str(home / "w0")], env, None)
        fed = _run(root, [*args, "--workdir", str(home / "w1")], env, ports)
        print(f"{case.name}: x-fed {','.join(ports)}")
        print(f"  as is:      {json.dumps(base)}")
        print(f"  x-fed:      {json.dumps(fed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
