#!/usr/bin/env python3
"""Which acceptance targets the repository feeds x (``frontend/_open_inputs.py``), measured.

For every case of ``bench/repos.py`` (a fresh copy of its repository) this prints one row:
the inputs of the target's instances the walk finds fed x or z (:func:`open_inputs`), the
kinds of x among them (:attr:`OpenInput.kind`: ``unconnected``, ``z``, ``x``, ``run``,
``powerup``), the distinct sources (the net or variable where the x is made, with its file
and line, or the run-time reason's place) and the seconds the walk took; then the walk's
time per repository.

    python bench/x_inputs.py [--only 'ibex/*' ...] [--all]
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.acceptance.runner import (  # noqa: E402
    default_repos_path,
    load_cases,
    prepare_repo,
    repo_source,
)


def source(o: Any, root: Path) -> str:
    """Where the x of ``o`` (an :class:`OpenInput`) is made, shortly."""
    from rtlopt.frontend._run_x import MayBeX

    if isinstance(o.value, MayBeX) and o.value.places:
        path, line = o.value.places[0]
        if getattr(o, "kind", "") == "powerup":
            return f"{o.value.split(chr(39))[1]}@{_rel(path, root)}:{line}"
        return f"{getattr(o, 'kind', '') or 'run'}@{_rel(path, root)}:{line}"
    if o.net:
        return f"{o.net}@{_rel(o.net_file or o.file, root)}:{o.net_line}={o.value or 'z'}"
    return f"{o.port}@{_rel(o.file, root)}:{o.line}={o.value or 'open'}"


def _rel(path: Path, root: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return str(path)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="glob patterns on REPO/MODULE")
    ap.add_argument("--all", action="store_true", help="every source, not the first 4")
    args = ap.parse_args()
    from rtlopt.frontend._open_inputs import open_inputs
    from rtlopt.session import TargetSpec, open_target

    cases = [
        c
        for c in load_cases()
        if not args.only or any(fnmatch.fnmatch(c.name, p) for p in args.only)
    ]
    roots: dict[str, Path] = {}
    spent: dict[str, list[float]] = {}
    flagged = 0
    with tempfile.TemporaryDirectory(prefix="x_inputs_") as tmp:
        for c in cases:
            if c.repo not in roots:
                src = repo_source(default_repos_path(), c.repo)
                roots[c.repo] = prepare_repo(src, Path(tmp) / c.repo)
            t = open_target(TargetSpec(roots[c.repo] / c.target, c.module, with_pdk=False))
            start = time.monotonic()
            try:
                found = open_inputs(t.design)
                error = ""
            except RuntimeError as exc:
                found, error = [], str(exc)
            took = time.monotonic() - start
            spent.setdefault(c.repo, []).append(took)
            flagged += bool(found or error)
            kinds = sorted({getattr(o, "kind", "") or "?" for o in found})
            srcs = list(dict.fromkeys(source(o, t.design.root) for o in found))
            shown = srcs if args.all else srcs[:4]
            more = f" (+{len(srcs) - len(shown)})" if len(srcs) > len(shown) else ""
            what = f"error {error}" if error else f"{','.join(kinds) or '-'} {'; '.join(shown)}"
            print(f"{c.name}: {len(found)} inputs {what}{more} [{took:.1f} s]")
    for repo, times in spent.items():
        print(f"walk {repo}: {sum(times):.1f} s for {len(times)} targets (max {max(times):.1f} s)")
    print(f"cases {len(cases)}; fed x {flagged}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
