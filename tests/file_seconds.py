"""Seconds each long test file took in a whole-suite run, for the order the suite's files go to
the xdist workers in (tests/conftest.py, ``long_modules_first``): the longest first, so that
no worker ends on a long file while the others idle.

``file_seconds.json`` holds the files of 10 s or more (relative numbers: a run on a loaded
machine is fine); refresh it after a change of the suite's shape with

    python3 -m pytest -m "not gpu" -q -p no:randomly --durations=0 > durations.txt
    python3 -m tests.file_seconds durations.txt
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

JSON = Path(__file__).with_suffix(".json")
#: files below this total are left out (their marks place them: see ``long_modules_first``)
KEPT = 10.0
_LINE = re.compile(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(\S+)")


def recorded() -> dict[str, float]:
    """Test file (as in a node id) -> its seconds in the recorded run; {} when unreadable."""
    try:
        data = json.loads(JSON.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}


def per_file(durations: str) -> dict[str, float]:
    """The seconds of each file in a ``--durations=0`` report (setup, call and teardown)."""
    total: dict[str, float] = {}
    for line in durations.splitlines():
        m = _LINE.match(line)
        if m:
            f = m.group(2).split("::")[0]
            total[f] = total.get(f, 0.0) + float(m.group(1))
    return {f: round(s) for f, s in sorted(total.items()) if s >= KEPT}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m tests.file_seconds DURATIONS.txt", file=sys.stderr)
        return 2
    seconds = per_file(Path(argv[0]).read_text())
    JSON.write_text(json.dumps(seconds, indent=0, sort_keys=True) + "\n")
    print(f"{JSON}: {len(seconds)} files, {sum(seconds.values()):.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
