"""tests/fork_run.py: a forked ``rtlopt`` answers as a new interpreter does (exit code, both
streams, working folder, environment, TMPDIR, warnings not turned into errors)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from tests import fork_run


def _both(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[object, object]:
    os.environ["RTLOPT_TEST_FORK"] = "0"
    try:
        new = fork_run.run_rtlopt(args, cwd=cwd, env=env, timeout=120)
    finally:
        os.environ["RTLOPT_TEST_FORK"] = "1"
    forked = fork_run.run_rtlopt(args, cwd=cwd, env=env, timeout=120)
    return new, forked


def test_a_forked_command_answers_as_a_new_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_TEST_FORK", "1")
    (tmp_path / "ref.v").write_text("module m(input a, output y); assign y = a; endmodule\n")
    env = {**os.environ, "COLUMNS": "77", "TMPDIR": str(tmp_path)}
    for args in (["evaluate", "ref.v", "--candidate", "nothing.v"], ["config", "show"]):
        new, forked = _both(args, tmp_path, env)
        assert isinstance(new, subprocess.CompletedProcess)
        assert isinstance(forked, subprocess.CompletedProcess)
        assert (forked.returncode, forked.stdout, forked.stderr) == (
            new.returncode,
            new.stdout,
            new.stderr,
        )
    assert new.returncode == 0 and new.stdout  # config show ran
    assert fork_run._forkable(["evaluate"], None)
    assert not fork_run._forkable(["train"], None)
    assert not fork_run._forkable(["check"], {**os.environ, "PYTHONPATH": "/elsewhere"})


def test_a_forked_command_past_its_time_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    def sleeper(*_: object) -> None:
        time.sleep(30)
        os._exit(0)

    monkeypatch.setattr(fork_run, "_child", sleeper)
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        fork_run.run_rtlopt(["evaluate"], timeout=0.5)
    assert time.monotonic() - start < 10
