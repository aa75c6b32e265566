"""A fixture folder as a user's repository, and the real CLI run in it (shared by the
filelist and clock-gate integration tests)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.fork_run import run_rtlopt as forked_rtlopt


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
    return forked_rtlopt(args, cwd=repo, timeout=900)


def evaluate_json(repo: Path, target: str, cand: str) -> tuple[int, dict[str, object]]:
    """``rtlopt evaluate TARGET --candidate CAND --json`` on nangate45: (exit code, report)."""
    r = run_rtlopt(repo, "evaluate", target, "--candidate", cand, "--pdk", "nangate45", "--json")
    assert r.returncode in (0, 1), f"exit {r.returncode}: {r.stderr.strip()[-800:]}"
    return r.returncode, json.loads(r.stdout)


GIT_ID = ("-c", "user.email=t@t", "-c", "user.name=t")


def committed_repo(
    repo: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch, cache: Path
) -> Path:
    """``files`` (relative path -> text) written into ``repo`` as a one-commit git repository
    on ``main``; the user cache goes to ``cache``."""
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "commit", "-q", "-m", "base"], check=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return repo


def evaluate_text(
    repo: Path, target: str, text: str, folder: Path | None = None
) -> tuple[int, dict[str, object]]:
    """``rtlopt evaluate TARGET`` of ``text`` as a candidate file inside ``repo`` (or in
    ``folder``; removed after), nangate45: (exit code, report)."""
    cand = (folder or repo / "cand") / "c.v"
    cand.parent.mkdir(parents=True, exist_ok=True)
    cand.write_text(text)
    r = run_rtlopt(
        repo, "evaluate", target, "--candidate", str(cand), "--pdk", "nangate45", "--json"
    )
    cand.unlink()
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


def module_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: str, candidate: str
) -> tuple[int, str]:
    """``reference`` as ``m.v`` of a one-commit repository and ``candidate`` evaluated
    against it: (exit code, the candidate's reason)."""
    repo = committed_repo(tmp_path / "repo", {"m.v": reference}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", candidate, tmp_path / "candidate")
    return rc, str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]


def repo_verdict(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    target: str,
    candidate: str,
) -> tuple[int, str]:
    """``files`` as a one-commit repository and ``candidate`` evaluated against its
    ``target`` (a candidate file outside the repository): (exit code, the candidate's
    reason)."""
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, target, candidate, tmp_path / "candidate")
    return rc, str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
