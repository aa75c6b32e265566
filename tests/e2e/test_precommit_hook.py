"""The `rtlopt-check` hook installed by pre-commit from this checkout in a temporary repository.

pre-commit builds the hook's virtualenv from a snapshot of this checkout's WORKING TREE (tracked
and untracked files, not ignored ones) committed into a one-commit repository, exactly as a
user's `.pre-commit-config.yaml` would install a released revision. The snapshot commit is
deterministic (fixed author and dates), so its hash depends on the content only: pre-commit's
environment is built once per state of the code and rebuilt when the code changes. The hook
runs without this process's PYTHONPATH, so it imports the copy pre-commit installed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, git

pytestmark = [pytest.mark.tools, pytest.mark.slow]

_CACHE = Path(os.environ.get("RTLOPT_TEST_CACHE", "/tmp/rtlopt-test-cache"))
# One cache per checkout: several worktrees on one machine never wipe each other's.
_CHECKOUT = hashlib.sha256(str(REPO).encode()).hexdigest()[:10]
PRE_COMMIT_HOME = _CACHE / f"pre-commit-{_CHECKOUT}"
SNAPSHOTS = _CACHE / f"precommit-src-{_CHECKOUT}"
_FIXED = {
    "GIT_AUTHOR_NAME": "rtlopt-test",
    "GIT_AUTHOR_EMAIL": "test@localhost",
    "GIT_COMMITTER_NAME": "rtlopt-test",
    "GIT_COMMITTER_EMAIL": "test@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}


def _working_tree_files() -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted({f for f in out.split("\0") if f and (REPO / f).is_file()})


def working_tree_snapshot() -> Path:
    """A one-commit repository holding the current working tree (reused while unchanged)."""
    files = _working_tree_files()
    h = hashlib.sha256()
    for f in files:
        h.update(f.encode() + b"\0" + (REPO / f).read_bytes() + b"\0")
    dest = SNAPSHOTS / h.hexdigest()[:16]
    if (dest / ".git").is_dir():
        return dest
    # A new state of the code: drop older snapshots and their pre-commit environments.
    shutil.rmtree(SNAPSHOTS, ignore_errors=True)
    shutil.rmtree(PRE_COMMIT_HOME, ignore_errors=True)
    tmp = SNAPSHOTS / f".{dest.name}.{os.getpid()}.tmp"
    for f in files:
        (tmp / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / f, tmp / f)
    env = {**os.environ, **_FIXED}
    for cmd in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"]):
        subprocess.run(["git", "-C", str(tmp), *cmd], check=True, env=env)
    tmp.rename(dest)
    return dest


def _try_repo(repo: Path, *files: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed")
    snap = working_tree_snapshot()
    head = git(snap, "rev-parse", "HEAD").strip()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PRE_COMMIT_HOME"] = str(PRE_COMMIT_HOME)
    # what `pre-commit try-repo` writes, run with the kept store: try-repo opens a new store in
    # a temporary folder every time, so it would build the hook's environment for every test
    config = repo.parent / f"{repo.name}-pre-commit-config.yaml"
    config.write_text(  # JSON strings are YAML strings: any path is quoted
        f"repos:\n- repo: {json.dumps(str(snap))}\n  rev: {head}\n  hooks:\n  - id: rtlopt-check\n"
    )
    return subprocess.run(
        ["pre-commit", "run", "--config", str(config), "rtlopt-check", "--files", *files],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def test_snapshot_is_the_working_tree_not_the_last_commit(tmp_path: Path) -> None:
    snap = working_tree_snapshot()
    for f in _working_tree_files():
        assert (snap / f).read_bytes() == (REPO / f).read_bytes(), f
    assert working_tree_snapshot() == snap  # unchanged code: the same snapshot, no rebuild


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
