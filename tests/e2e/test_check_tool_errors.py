"""`rtlopt check` fails the gate when a tool crashes or times out on a changed module.

A tool error is no verdict: the module could not be checked, so the commit must not pass
(exit 1, the module listed with "could not be checked"). The tools are wrappers around the real
iverilog and Yosys ("fake" only in that they crash or hang on a marked candidate): the real
tool runs for everything else, so the reference and the rest of the check are real.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import git
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

MARK = "rtlopt_tool_error_here"


def _wrapper(tmp_path: Path, tool: str, body: str) -> Path:
    real = shutil.which(tool)
    if real is None:
        pytest.skip(f"{tool} not installed")
    path = tmp_path / f"fake-{tool}"
    path.write_text(f'#!/bin/sh\n{body}\nexec {real} "$@"\n')
    path.chmod(0o755)
    return path


def _check(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    f = repo / "rtl" / "prio_enc.v"
    text = f.read_text()
    assert "casez (v)" in text
    f.write_text(text.replace("casez (v)", f"casez (v | 16'h0) // {MARK}"))
    git(repo, "add", "-A")
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "200", **env}
    return run_rtlopt(["check"], cwd=repo, env=env, timeout=600)


def test_fake_compiler_timing_out_in_check_fails_the_gate(
    example_repo: Path, tmp_path: Path
) -> None:
    """iverilog hangs on the changed module's text: the compile runs past sandbox.timeout_s."""
    hang = _wrapper(
        tmp_path,
        "iverilog",
        f'for a; do [ -f "$a" ] && grep -qs {MARK} "$a" && exec sleep 300; done',
    )
    r = _check(example_repo, {"RTLOPT_IVERILOG": str(hang), "RTLOPT_SANDBOX__TIMEOUT_S": "5"})
    out = r.stdout + r.stderr
    assert r.returncode == 3, out  # no verdict on the change, but the commit is stopped
    assert "could not check the change" in out and "timed out" in out, out


def test_fake_synthesis_crash_in_check_fails_the_gate(example_repo: Path, tmp_path: Path) -> None:
    """Yosys crashes (SIGSEGV) synthesizing the changed module (its PPA step): a tool error."""
    crash = _wrapper(
        tmp_path,
        "yosys",
        f'case "$(pwd)" in */ppa) grep -rqs {MARK} .. && kill -SEGV $$;; esac',
    )
    r = _check(example_repo, {"RTLOPT_YOSYS": str(crash)})
    out = r.stdout + r.stderr
    assert r.returncode == 3, out  # no verdict on the change, but the commit is stopped
    assert "could not check the change" in out, out


def test_fake_bwrap_that_cannot_start_makes_check_refuse(
    example_repo: Path, tmp_path: Path
) -> None:
    """sandbox.require = auto: `rtlopt check` is a gate, so it never runs the tools on a
    changed module without the sandbox (a tool error, exit non-zero), and says why."""
    fake = tmp_path / "fake-bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    r = _check(example_repo, {"RTLOPT_BWRAP": str(fake)})
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "sandbox is required" in out and "No permissions" in out, out


def test_an_error_before_any_verdict_is_json_too(example_repo: Path) -> None:
    """``--json`` readers (a CI step) get the error and the exit code on stdout."""
    import json

    r = run_rtlopt(["check", "--base", "no-such-ref", "--json"], cwd=example_repo, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] is False and out["exit"] == 2 and "no-such-ref" in out["error"], out
