#!/usr/bin/env python3
"""Which acceptance targets the repository's testbenches and other builds feed x
(:func:`rtlopt.evaluate._tb_x.tb_x_inputs`: the x literals and absent writes of another
build's configuration, the testbenches rtlopt does not elaborate), measured.

For every case of ``tests/acceptance`` (a fresh copy of its repository) this prints one row:
the inputs fed, the first source and the seconds the analysis took; then the count of x-fed
targets (the cost: a rule of this analysis must not grow it without reason).

    python bench/tb_x_fed.py [--only 'ibex/*' ...]
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.acceptance.runner import (  # noqa: E402
    default_repos_path,
    load_cases,
    prepare_repo,
    repo_source,
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="glob patterns on REPO/MODULE")
    args = ap.parse_args()
    from rtlopt.evaluate._tb_x import tb_x_inputs
    from rtlopt.session import TargetSpec, open_target

    cases = [
        c
        for c in load_cases()
        if not args.only or any(fnmatch.fnmatch(c.name, p) for p in args.only)
    ]
    roots: dict[str, Path] = {}
    fed = 0
    with tempfile.TemporaryDirectory(prefix="tb_x_fed_") as tmp:
        for c in cases:
            if c.repo not in roots:
                src = repo_source(default_repos_path(), c.repo)
                roots[c.repo] = prepare_repo(src, Path(tmp) / c.repo)
            t = open_target(TargetSpec(roots[c.repo] / c.target, c.module, with_pdk=False))
            start = time.monotonic()
            got = tb_x_inputs(t.design)
            took = time.monotonic() - start
            fed += bool(got.ports)
            what = f"{','.join(got.ports)} <- {got.source}" if got.ports else "-"
            print(f"{c.name}: {what} [{took:.1f} s]", flush=True)
    print(f"cases {len(cases)}; x-fed {fed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
