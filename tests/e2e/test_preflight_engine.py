"""Preflight: a missing Yosys stops a run before the first measurement, never a silent switch
to pyosys (a different Yosys/ABC: 55.06 vs 61.71 um^2 on the example); outputs name the
engine that measured."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rtlopt.eda.flow import resolve_engine
from rtlopt.eda.yosys import pyosys_available
from rtlopt.errors import ToolNotFound
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

RUN = ["optimize", "rtl/prio_enc.v", "-m", "prio_enc", "--candidates", "alternatives",
       "--steps", "1", "--parents", "1", "--rollouts", "2", "--no-branch"]  # fmt: skip


@pytest.fixture
def no_yosys(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH has the other tools but no yosys."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("iverilog", "vvp", "sta", "git"):
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    bwrap = shutil.which("bwrap")  # the tool sandbox, when installed
    if bwrap:
        (bin_dir / "bwrap").symlink_to(bwrap)
    env = {k: v for k, v in os.environ.items() if k != "RTLOPT_YOSYS"}
    env["PATH"] = str(bin_dir)
    return env


def _rtlopt(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_rtlopt(args, cwd=cwd, env=env, timeout=600)


def test_auto_never_falls_back_to_pyosys(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("RTLOPT_YOSYS", raising=False)
    for engine in ("auto", "yosys"):  # tools are located on every call
        with pytest.raises(ToolNotFound, match="'yosys' \\(synthesis engine\\)") as info:
            resolve_engine(engine)
        if pyosys_available():
            assert "flow.engine = 'pyosys'" in str(info.value)
    if pyosys_available():
        assert resolve_engine("pyosys") == "pyosys"  # only when asked for


def test_optimize_without_yosys_stops_before_measuring(
    example_repo: Path, no_yosys: dict[str, str]
) -> None:
    r = _rtlopt(RUN, example_repo, no_yosys)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "required tool(s) not found on PATH: yosys" in r.stderr
    assert "reference:" not in r.stdout and not (example_repo / ".rtlopt" / "runs").exists()
    # without the formal check yosys is still the synthesis engine: the same early stop
    env = dict(no_yosys, RTLOPT_FORMAL__ENABLED="false")
    r = _rtlopt(RUN, example_repo, env)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "'yosys' (synthesis engine) was not found" in r.stderr
    assert "reference:" not in r.stdout


def test_evaluate_without_yosys_measures_nothing(
    example_repo: Path, no_yosys: dict[str, str]
) -> None:
    r = _rtlopt(
        ["evaluate", "rtl/prio_enc.v", "--candidate", "alternatives/a_grouped.v", "--no-formal"],
        example_repo,
        no_yosys,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    # the design's read check (native tools or the SystemVerilog view) or the synthesis engine
    # names it first: one line naming yosys and how to install it
    (line,) = r.stderr.strip().splitlines()
    assert "'yosys'" in line and "was not found on PATH" in line and "install" in line, line
    assert "area" not in r.stdout


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_outputs_name_the_engine(example_repo: Path) -> None:
    r = _rtlopt(RUN, example_repo, dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(
        r"^flow: yosys 0\.\d+, OpenSTA [\d.]+, nangate45 typical\nreference: area ", r.stdout, re.M
    ), r.stdout
    r = _rtlopt(
        ["evaluate", "rtl/prio_enc.v", "--candidate", "alternatives/a_grouped.v"],
        example_repo,
        dict(os.environ, COLUMNS="120"),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "flow: yosys 0." in r.stdout and "nangate45 typical" in r.stdout
