"""An Icarus command file with ``+libdir+`` (``iverilog -c cmds.txt top.v``) is read as the
command file it is, never as a Verilog text of the build's compilation unit: slang crashed
reading it (exit 139, no message; ``frontend/_unit_decls.py``). A text slang crashes on is a
one-line error naming the file (exit 2), never a crash of rtlopt nor an accept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.tools]

TOP = """module top(input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] t;
  andcell u(.a(a), .b(b), .y(t));
  assign y = t ^ a;
endmodule
"""
CELL = """module andcell(input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = a & b;
endmodule
"""


def _evaluate(tmp: Path, files: dict[str, str], candidate: str) -> tuple[int, str]:
    """``rtlopt evaluate repo/top.v`` in a child process (a crash of slang would end this
    one): (exit code, standard output and error)."""
    repo = tmp / "repo"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (tmp / "cand.v").write_text(candidate)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache")}
    argv = ["evaluate", "repo/top.v", "--module", "top", "--candidate", "cand.v"]
    run = subprocess.run(
        [sys.executable, "-m", "rtlopt", *argv, "--pdk", "sky130hd"],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    return run.returncode, run.stdout + run.stderr


@pytest.mark.parametrize("cmds", ["+libdir+lib\n", "+libext+.v\n+libdir+lib+lib2\n-y lib\n"])
def test_command_file_with_libdir_is_read_as_one(tmp_path: Path, cmds: str) -> None:
    files = {
        "top.v": TOP,
        "lib/andcell.v": CELL,
        "cmds.txt": cmds,
        "Makefile": "sim:\n\tiverilog -o sim.vvp -c cmds.txt top.v\n\tvvp -n sim.vvp\n",
    }
    cand = TOP.replace("t ^ a", "a ^ t")
    code, out = _evaluate(tmp_path, files, cand)
    assert code == 0 and "ACCEPTED" in out, out


def test_a_text_slang_crashes_on_is_a_one_line_error(tmp_path: Path) -> None:
    files = {
        "top.v": TOP,
        "lib/andcell.v": CELL,
        "junk.inc": "a+b\n",
        "Makefile": "sim:\n\tiverilog -o sim.vvp -y lib junk.inc top.v\n\tvvp -n sim.vvp\n",
    }
    cand = TOP.replace("t ^ a", "a ^ t")
    code, text = _evaluate(tmp_path, files, cand)
    assert code == 2, text
    assert "Traceback" not in text and "junk.inc" in text and "slang" in text, text
