"""CI mode: with a tool missing, the tools tests fail instead of skipping.

Runs pytest itself in a subprocess on one tools test with a PATH that has every executable of
this machine except ``yosys``. Without CI mode the test is skipped (a developer's machine); with
``RTLOPT_REQUIRE_TOOLS=1`` (or ``CI=true``) the run fails and names the missing tool. The same
holds for a skip raised inside a test (missing shared data): in CI mode it is a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO

pytestmark = pytest.mark.slow

TOOLS_TEST = "tests/e2e/test_proof_rule.py::test_evaluate_rejects_unknown_verdict_by_default"


def _path_without(tmp_path: Path, *names: str) -> str:
    """A one-folder PATH linking every executable on the current PATH except ``names``."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or not os.path.isdir(folder):
            continue
        for entry in os.scandir(folder):
            link = bindir / entry.name
            if entry.name in names or link.exists() or link.is_symlink():
                continue
            if entry.is_file() and os.access(entry.path, os.X_OK):
                link.symlink_to(entry.path)
    return str(bindir)


def _pytest(env: dict[str, str], tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest on ``args`` with its own temporary folder under ``tmp`` (the shared one would make
    the inner run clean up the old runs' folders, and could reach the suite's own)."""
    base = [f"--basetemp={tmp / 'inner'}"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs", *base, *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _env(path: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "RTLOPT_REQUIRE_TOOLS")}
    env.update(PATH=path, **extra)
    return env


def test_missing_yosys_skips_on_a_developer_machine(tmp_path: Path) -> None:
    path = _path_without(tmp_path, "yosys")
    env = _env(path)
    assert subprocess.run(["which", "yosys"], env=env, capture_output=True).returncode != 0
    r = _pytest(env, tmp_path, TOOLS_TEST)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 skipped" in r.stdout and "yosys" in r.stdout


@pytest.mark.parametrize(
    "switch", [{"RTLOPT_REQUIRE_TOOLS": "1"}, {"CI": "true"}], ids=["RTLOPT_REQUIRE_TOOLS", "CI"]
)
def test_missing_yosys_fails_in_ci_mode(tmp_path: Path, switch: dict[str, str]) -> None:
    r = _pytest(_env(_path_without(tmp_path, "yosys"), **switch), tmp_path, TOOLS_TEST)
    assert r.returncode == 1, r.stdout + r.stderr
    # A failure in set-up is reported as an error: red either way, never a skip.
    assert ("1 error" in r.stdout or "1 failed" in r.stdout) and "skipped" not in r.stdout
    assert "EDA tools not on PATH: yosys" in r.stdout


def test_missing_shared_data_fails_in_ci_mode(tmp_path: Path) -> None:
    # A test that skips itself when the C910 benchmark is absent.
    test = "tests/integration/test_flow.py::test_c910_nangate45"
    env = _env(os.environ.get("PATH", ""), RTLOPT_BENCH_PATH=str(tmp_path / "nothing"))
    dev = _pytest(env, tmp_path, test)
    assert dev.returncode == 0 and "1 skipped" in dev.stdout, dev.stdout + dev.stderr
    ci = _pytest({**env, "RTLOPT_REQUIRE_TOOLS": "1"}, tmp_path, test)
    assert ci.returncode == 1 and "1 failed" in ci.stdout, ci.stdout + ci.stderr
    assert "benchmark data not found" in ci.stdout
