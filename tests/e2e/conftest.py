"""Fixtures for end-to-end CLI tests: the bundled example as a fresh git repository."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.fork_run import run_rtlopt

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "priority_encoder"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def rtlopt(
    args: Sequence[str], cwd: Path, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a subprocess, as a user would."""
    return run_rtlopt(args, cwd=cwd, timeout=timeout)


def tree_digest(repo: Path) -> dict[str, str]:
    """Hashes of every file of the work tree and the index (excluding .git internals but index)."""
    out: dict[str, str] = {}
    for p in sorted(repo.rglob("*")):
        rel = p.relative_to(repo).as_posix()
        if p.is_file() and not rel.startswith(".git/") and not rel.startswith(".rtlopt/"):
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    out[".git/index"] = hashlib.sha256((repo / ".git" / "index").read_bytes()).hexdigest()
    out["HEAD"] = git(repo, "rev-parse", "HEAD").strip()
    return out


@pytest.fixture
def example_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "example"
    shutil.copytree(EXAMPLE, repo)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "example")
    return repo
