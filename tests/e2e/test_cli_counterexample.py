"""`rtlopt evaluate` on a refuted candidate: the compact per-cycle table at 80 columns, the
kept VCD named in the table and in --json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.tools

REF = """module acc(input clk, input rst, input [3:0] a, input en, output reg [7:0] y);
  always @(posedge clk) if (rst) y <= 0; else if (en) y <= y + a;
endmodule
"""
BAD = REF.replace("y <= y + a;", "y <= (y == 8'd200 && a == 4'd9) ? 8'd1 : y + a;")


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp / "acc.v").write_text(REF)
    (tmp / "bad.v").write_text(BAD)
    env = dict(os.environ, COLUMNS="80", TERM="dumb", TMPDIR=str(tmp))
    cmd = [sys.executable, "-m", "rtlopt", "evaluate", "acc.v", "--candidate", "bad.v"]
    return subprocess.run(
        [*cmd, "--vectors", "20", *args],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_evaluate_prints_the_counterexample_table(tmp_path: Path) -> None:
    r = _run(tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("cycle"))
    caption = next(ln for ln in lines[start:] if ln.startswith("counterexample"))
    table = lines[start : lines.index(caption)]
    assert all(len(ln) <= 80 for ln in table), "\n".join(table)
    header = table[0].split()
    # only inputs that change are shown: rst and en stay constant over the last rows
    assert header == ["cycle", "a", "y", "ref", "y", "cand"], table[0]
    last = table[-1].split()
    assert last[0] == "15+" and last[-2] != last[-1], table[-1]  # the differing row
    assert len(table) <= 2 + 16
    wave = lines[lines.index(caption) + 1]
    vcd = wave.removeprefix("waveform: ").strip()
    assert vcd.endswith("trace.vcd") and Path(vcd).is_file()  # kept after the scratch is gone
    assert "inputs rst@0" not in r.stdout  # no one-line dump of the whole trace


def test_evaluate_json_names_the_trace(tmp_path: Path) -> None:
    r = _run(tmp_path, "--json", "--workdir", str(tmp_path / "w"))
    assert r.returncode == 1, r.stderr
    logs = json.loads(r.stdout)["candidate"]["logs"]
    for key in ("trace", "trace_vcd", "trace_testbench", "trace_replay"):
        assert Path(logs[key]).is_file(), key
        assert Path(logs[key]).is_relative_to(tmp_path / "w")


def test_check_shows_the_failing_input(example_repo: Path) -> None:
    from tests.e2e.conftest import git

    f = example_repo / "rtl" / "prio_enc.v"
    text = f.read_text()
    assert "casez (v)" in text
    f.write_text(text.replace("casez (v)", "casez (v ^ 16'h0100)"))
    git(example_repo, "add", "-A")
    env = dict(os.environ, COLUMNS="80", TERM="dumb", TMPDIR=str(example_repo.parent))
    r = subprocess.run(
        [sys.executable, "-m", "rtlopt", "check"],
        cwd=example_repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    inp = next(ln for ln in r.stdout.splitlines() if "failing input" in ln)
    assert "vec=" in inp, inp
    wave = next(ln for ln in r.stdout.splitlines() if "waveform:" in ln)
    assert Path(wave.rsplit("waveform: ", 1)[1].strip()).is_file()


def test_a_formal_trace_marks_the_reset_its_replay_asserts(tmp_path: Path) -> None:
    """Held-out trial 50: the proof starts from the reset state and its counterexample says
    `rst@0=0`, while the replay asserts the reset at step 0 to reach that state; the table
    marks the forced value and the caption says why, so the two do not contradict."""
    ref = (
        "module m(input clk, input rst, input [31:0] a, output y, output reg q);\n"
        "  always @(posedge clk) if (rst) q <= 1'b0; else q <= a[0];\n"
        "  assign y = a < 32'h00012345;\nendmodule\n"
    )
    (tmp_path / "m.v").write_text(ref)
    (tmp_path / "c.v").write_text(ref.replace("a < 32'h", "a <= 32'h"))
    env = dict(os.environ, COLUMNS="100", TERM="dumb", TMPDIR=str(tmp_path))
    r = subprocess.run(
        [sys.executable, "-m", "rtlopt", "evaluate", "m.v", "--candidate", "c.v"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 1 and "formally not equivalent" in r.stdout, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("cycle"))
    assert lines[start + 2].split()[:2] == ["0", "1*"], lines[start : start + 3]
    assert "'*': the reset the proof starts from" in r.stdout, r.stdout
