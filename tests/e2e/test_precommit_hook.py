"""The `rtlopt-check` hook installed by pre-commit's own `try-repo` in a temporary repository.

pre-commit builds the hook's virtualenv from this repository's committed HEAD (once per machine:
PRE_COMMIT_HOME is shared between tests), exactly as a user's `.pre-commit-config.yaml` would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, git

pytestmark = [pytest.mark.tools, pytest.mark.slow]

PRE_COMMIT_HOME = Path(os.environ.get("RTLOPT_TEST_CACHE", "/tmp/rtlopt-test-cache")) / "pre-commit"


def _try_repo(repo: Path, *files: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed")
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    env = {**os.environ, "PRE_COMMIT_HOME": str(PRE_COMMIT_HOME)}
    return subprocess.run(
        ["pre-commit", "try-repo", str(REPO), "rtlopt-check", "--ref", head, "--files", *files],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def _edit(repo: Path, old: str, new: str) -> None:
    f = repo / "rtl" / "prio_enc.v"
    text = f.read_text()
    assert old in text
    f.write_text(text.replace(old, new))
    git(repo, "add", "-A")


def test_renaming_internal_wires_passes(example_repo: Path) -> None:
    f = example_repo / "rtl" / "prio_enc.v"
    f.write_text(
        f.read_text()
        .replace("wire [15:0] v = ", "wire [15:0] masked = ")
        .replace("casez (v)", "casez (masked)")
        .replace("~|v;", "~|masked;")
    )
    git(example_repo, "add", "-A")
    r = _try_repo(example_repo, "rtl/prio_enc.v")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Passed" in r.stdout


def test_breaking_equivalence_fails_with_counterexample(example_repo: Path) -> None:
    _edit(example_repo, "pos = 5'd15;", "pos = 5'd14;")
    r = _try_repo(example_repo, "rtl/prio_enc.v")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Failed" in r.stdout and "expected" in r.stdout and "inputs" in r.stdout


def test_ppa_regression_over_threshold_fails(example_repo: Path) -> None:
    # parity16 is not optimization-only, so a functional change is allowed; it costs area and
    # delay far beyond the default 2 % threshold.
    _edit(example_repo, "assign p = ^d;", "assign p = ^d ^ (&d[7:0]) ^ (|(d[15:8] & d[7:0]));")
    r = _try_repo(example_repo, "rtl/prio_enc.v")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "parity16" in r.stdout and "worse by" in r.stdout and "threshold 2.0%" in r.stdout


def test_syntax_error_exits_2(example_repo: Path) -> None:
    _edit(example_repo, "assign zero = ~|v;", "assign zero = ~|v")
    r = _try_repo(example_repo, "rtl/prio_enc.v")
    assert "exit code: 2" in r.stdout, r.stdout + r.stderr
    assert "prio_enc.v:" in r.stdout
