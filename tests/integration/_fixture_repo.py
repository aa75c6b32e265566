"""A fixture folder as a user's repository, and the real CLI run in it (shared by the
filelist and clock-gate integration tests)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def fixture_repo(src: Path, dest: Path, monkeypatch: pytest.MonkeyPatch, cache: Path) -> Path:
    """Copy ``src`` to ``dest`` as a one-commit git repository; ``CODE_BASE_PATH`` points at it
    (the filelists' variable) and the user cache goes to ``cache``."""
    shutil.copytree(src, dest)
    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], check=True)
    subprocess.run(["git", "-C", str(dest), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(dest), "commit", "-q", "-m", "fixture"], check=True)
    monkeypatch.setenv("CODE_BASE_PATH", str(dest))
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return dest


def run_rtlopt(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m rtlopt ARGS`` in ``repo``."""
    return subprocess.run(
        [sys.executable, "-m", "rtlopt", *args],
        cwd=repo,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=900,
    )


def evaluate_json(repo: Path, target: str, cand: str) -> tuple[int, dict[str, object]]:
    """``rtlopt evaluate TARGET --candidate CAND --json`` on nangate45: (exit code, report)."""
    r = run_rtlopt(repo, "evaluate", target, "--candidate", cand, "--pdk", "nangate45", "--json")
    assert r.returncode in (0, 1), f"exit {r.returncode}: {r.stderr.strip()[-800:]}"
    return r.returncode, json.loads(r.stdout)
