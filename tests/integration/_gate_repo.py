"""A one-module repository whose gate requires every module to stay equivalent, and the
gate run on its staged change (the gate tests of rounds 79 and later)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
M = "module m(input [7:0] a, output [7:0] y);\n  assign y = a + 8'd1;\nendmodule\n"
BASE = {"rtlopt.toml": CONFIG, "m.v": M}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *GIT_ID, "-C", str(repo), *args], check=True, capture_output=True)


def gate_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    return committed_repo(tmp_path / "repo", BASE | files, monkeypatch, tmp_path / "cache")


def check_staged(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    git(repo, "add", "-A")
    return run_rtlopt(repo, "check", "--no-ppa", *args)
