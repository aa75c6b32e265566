"""``rtlopt`` run in the test's own process (no interpreter start), and ``rtlopt evaluate`` of
a candidate in a new git repository built from texts: the helpers tests share."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rtlopt.cli import main


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``rtlopt ARGV`` in this process (its environment and signal handlers restored):
    (exit code, standard output)."""
    env = dict(os.environ)
    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    old = sys.argv
    sys.argv = ["rtlopt", *argv]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = old
        os.environ.clear()
        os.environ.update(env)
        for s, h in saved.items():
            signal.signal(s, h)
    return code, capsys.readouterr().out


def evaluate_in_repo(
    tmp: Path,
    files: dict[str, str],
    target: str,
    candidate: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    pdk: str = "sky130hd",
) -> tuple[int, str]:
    """``rtlopt evaluate repo/<target file> --module <target> --candidate cand.v`` in a new git
    repository holding ``files``; ``target`` is ``file:module``."""
    repo = tmp / "repo"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (tmp / "cand.v").write_text(candidate)
    monkeypatch.chdir(tmp)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp / "cache"))
    path, module = target.split(":")
    argv = ["evaluate", f"repo/{path}", "--module", module, "--candidate", "cand.v"]
    return run_main([*argv, "--pdk", pdk], capsys)
