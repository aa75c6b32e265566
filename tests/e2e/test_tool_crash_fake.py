"""A proof tool killed by a signal is a tool error with its log, never a rejected candidate.

The Yosys used here is a fake wrapper: it runs the real Yosys for everything but the proof's
scripts (those that mark their phases), where it aborts itself with SIGABRT, as Yosys 0.23 did
on a real core. Simulation, synthesis and timing run the real tools.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import git
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

_FAKE = """#!{python}
import os, signal, sys
real = {real!r}
if "-s" in sys.argv:
    with open(sys.argv[sys.argv.index("-s") + 1]) as f:
        if "RTLOPT_PHASE" in f.read():
            print("fake yosys: aborting", flush=True)
            os.kill(os.getpid(), signal.SIGABRT)
os.execv(real, [real, *sys.argv[1:]])
"""


@pytest.fixture
def aborting_yosys(tmp_path: Path) -> dict[str, str]:
    real = shutil.which("yosys")
    assert real is not None
    fake = tmp_path / "bin" / "yosys"
    fake.parent.mkdir()
    fake.write_text(_FAKE.format(python=sys.executable, real=real))
    fake.chmod(0o755)
    env = dict(os.environ, TERM="dumb", COLUMNS="200")
    env.pop("RTLOPT_YOSYS", None)
    env["PATH"] = f"{fake.parent}{os.pathsep}{env.get('PATH', '')}"  # found first on PATH
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_rtlopt(args, cwd=cwd, env=env, timeout=300)


def test_fake_yosys_abort_in_evaluate_is_exit_3_with_its_log(
    example_repo: Path, aborting_yosys: dict[str, str]
) -> None:
    args = ["evaluate", "rtl/prio_enc.v", "-m", "prio_enc", "--candidate"]
    r = _run([*args, "alternatives/b_loop.v"], example_repo, aborting_yosys)
    out = r.stdout + r.stderr
    assert r.returncode == 3, out
    assert "SIGABRT" in out and "could not check" in out, out
    assert "REJECTED" not in out
    log = next(w for w in out.replace("(", " ").replace(")", " ").split() if w.endswith(".out"))
    assert "fake yosys: aborting" in Path(log).read_text()  # the log named is kept
    # a broken candidate is no different: a crash says nothing about it
    r = _run([*args, "alternatives/c_wrong_last_group.v"], example_repo, aborting_yosys)
    assert r.returncode in (1, 3), r.stdout + r.stderr  # simulation may refute it first
    if r.returncode == 3:
        assert "SIGABRT" in r.stdout + r.stderr


def test_fake_yosys_abort_in_check_says_could_not_check(
    example_repo: Path, aborting_yosys: dict[str, str]
) -> None:
    f = example_repo / "rtl" / "prio_enc.v"
    f.write_text(f.read_text().replace("casez (v)", "casez (v | 16'h0)"))
    git(example_repo, "add", "-A")
    r = _run(["check", "--no-ppa"], example_repo, aborting_yosys)
    out = r.stdout + r.stderr
    assert r.returncode == 3, out
    assert "could not check the change" in out and "SIGABRT" in out, out
    assert "not checked" in out and "FAIL" not in out, out
