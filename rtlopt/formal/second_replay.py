"""The second proof's replay folder: the miter and its sources, and a script that proves it
with stock ``yosys-abc`` without rtlopt (:mod:`rtlopt.formal.second`)."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["ENGINES", "replay_files", "replay_script"]

#: ABC commands after reading ``miter.aig`` (``{t}``: seconds).
ENGINES: dict[str, str] = {
    "cec": "&get -n; &cec -m",
    "dsat": "dsat",
    "dprove": "dprove -T {t}",
    "pdr": "pdr -T {t}",
    # latch correspondence by induction from the initial state (a sound reduction: on a
    # renamed core it merges the two copies), then property-directed reachability
    "lcorr_pdr": "lcorr; pdr -T {t}",
}


def replay_script(module: str, engine: str, timeout_s: float, *, stated: bool = False) -> str:
    """A POSIX shell script that proves ``miter.aig`` (beside it) with stock ``yosys-abc``:
    prints PROVEN and exits 0, or exits 1. ``$YOSYS_ABC`` names another binary. ``stated``:
    the miter starts from the stated power-up values (no reset period)."""
    commands = "read miter.aig; strash; " + ENGINES[engine].format(t=int(timeout_s))
    when = (
        "from the stated power-up values on (resets free)" if stated else "(after the reset period)"
    )
    return "\n".join(
        [
            "#!/bin/sh",
            f"# rtlopt: replays the equivalence proof of module {module!r} without rtlopt.",
            "# miter.aig (AIGER): the reference and the candidate side by side; its output is 1",
            f"# in a cycle where they differ {when}. The sources it was built",
            "# from are the numbered files here (WebAssembly Yosys 0.70, read_slang).",
            "set -u",
            'cd "$(dirname "$0")" || exit 2',
            'ABC="${YOSYS_ABC:-yosys-abc}"',
            "rm -f replay_status.txt",
            f'"$ABC" -c {shlex.quote(commands + "; write_status replay_status.txt")} '
            "> replay_abc.log 2>&1",
            'word="$(head -n 1 replay_status.txt 2>/dev/null | cut -d" " -f1)"',
            'if [ "$word" = snl_UNSAT ]; then',
            f'  echo "PROVEN: {module} (abc {engine})"',
            "  exit 0",
            "fi",
            'echo "NOT PROVEN: see replay_abc.log"',
            "exit 1",
            "",
        ]
    )


def replay_files(
    out: Path, design: Design, engine: str, timeout_s: float, stated: bool, files: list[Path]
) -> Path:
    """``out`` with the replay script for stock ``yosys-abc`` and a copy of every file the
    miter was built from."""
    (out / "replay.sh").write_text(
        replay_script(design.target.name, engine, timeout_s, stated=stated)
    )
    (out / "replay.sh").chmod(0o755)
    for i, f in enumerate(files):
        shutil.copyfile(f, out / f"{i:02d}_{Path(f).name}")
    return out
