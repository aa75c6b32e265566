from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rtlopt.errors import EvaluationTimeout, PluginError, ToolFailed, ToolNotFound
from rtlopt.registry import Registry
from rtlopt.tools import Limits, _process, limited, require_tool, run_tool


def test_registry_lists_known_names_on_unknown() -> None:
    reg: Registry[object] = Registry(
        "widget", "rtlopt.test-widgets", {"a": "math:sqrt", "b": "math:floor"}
    )
    assert reg.names() == ["a", "b"]
    assert reg.get("a")(16.0) == 4.0
    with pytest.raises(PluginError, match="known: a, b"):
        reg.get("c")


def test_registry_broken_plugin_is_an_error() -> None:
    reg: Registry[object] = Registry(
        "widget", "rtlopt.test-widgets", {"bad": "no_such_module_xyz:thing"}
    )
    with pytest.raises(PluginError, match="failed to load"):
        reg.get("bad")


def test_run_tool_logs_command_and_output(tmp_path: Path) -> None:
    run = run_tool(
        [sys.executable, "-c", "print('hello')"],
        cwd=tmp_path,
        log_path=tmp_path / "l.log",
        limits=Limits(30),
    )
    assert run.returncode == 0
    assert "hello" in run.output() and run.output().startswith("$ ")


def test_run_tool_timeout_kills_the_process_group(tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, time\n"
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(marker)!r}, 'w').write(str(p.pid))\n"
        "time.sleep(60)\n"
    )
    with pytest.raises(EvaluationTimeout):
        run_tool(
            [sys.executable, "-c", script],
            cwd=tmp_path,
            log_path=tmp_path / "t.log",
            limits=Limits(1.5),
        )
    child = int(marker.read_text())
    import time

    for _ in range(50):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("grandchild survived the timeout")


def test_run_tool_memory_limit(tmp_path: Path) -> None:
    run = run_tool(
        [sys.executable, "-c", "x = bytearray(2_000_000_000)"],
        cwd=tmp_path,
        log_path=tmp_path / "m.log",
        limits=Limits(30, 512),
    )
    assert run.returncode != 0 and "MemoryError" in run.output()


def test_run_tool_cpu_limit_backs_up_the_wall_clock(tmp_path: Path) -> None:
    run = run_tool(
        [sys.executable, "-c", "import resource; print(resource.getrlimit(resource.RLIMIT_CPU))"],
        cwd=tmp_path,
        log_path=tmp_path / "c.log",
        limits=Limits(7.5),
    )
    assert "(10, 11)" in run.output()  # ceil(7.5) + 2 s of CPU, then SIGKILL a second later


@pytest.fixture(params=["prlimit", "preexec_fn"])
def start_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways a tool gets its limits: util-linux ``prlimit`` (vfork), else a ``preexec_fn``."""
    if request.param == "preexec_fn":
        monkeypatch.setattr(_process, "_prlimit", lambda: None)
    else:
        assert _process._prlimit() is not None, "util-linux prlimit is not installed"
    return str(request.param)


def test_tools_get_their_session_and_limits_either_way(tmp_path: Path, start_path: str) -> None:
    probe = (
        "import os, resource as r\n"
        f"print(os.getsid(0) != {os.getsid(0)}, r.getrlimit(r.RLIMIT_CORE),"
        " r.getrlimit(r.RLIMIT_AS), r.getrlimit(r.RLIMIT_CPU))"
    )
    run = run_tool(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        log_path=tmp_path / "s.log",
        limits=Limits(7.5, 512),
    )
    limit = 512 * 1024 * 1024
    assert f"True (0, 0) ({limit}, {limit}) (10, 11)" in run.output(), start_path
    header = run.output().splitlines()[0]
    assert "prlimit" not in header and sys.executable in header, "the log shows the tool's command"


def test_missing_tool_either_way(tmp_path: Path, start_path: str) -> None:
    with pytest.raises(ToolNotFound):
        run_tool(
            ["definitely-not-a-tool-xyz"],
            cwd=tmp_path,
            log_path=tmp_path / "x.log",
            limits=Limits(5),
        )


def test_tool_whose_watcher_is_gone_stops_at_its_cpu_limit(start_path: str) -> None:
    # what a tool of a killed Ray worker is left with: nobody enforces its wall clock
    argv, options = limited([sys.executable, "-c", "while True: pass"], None, 0.5)
    proc = subprocess.Popen(argv, **options)
    try:
        rc = proc.wait(timeout=120)
    finally:
        proc.kill()
    assert rc in (-signal.SIGXCPU, -signal.SIGKILL)


def test_run_tool_check_raises_tool_failed(tmp_path: Path) -> None:
    with pytest.raises(ToolFailed, match="exited with 3"):
        run_tool(
            [sys.executable, "-c", "raise SystemExit(3)"],
            cwd=tmp_path,
            log_path=tmp_path / "f.log",
            limits=Limits(30),
            check=True,
        )


def test_missing_tool(tmp_path: Path) -> None:
    with pytest.raises(ToolNotFound):
        run_tool(
            ["definitely-not-a-tool-xyz"],
            cwd=tmp_path,
            log_path=tmp_path / "x.log",
            limits=Limits(5),
        )
    with pytest.raises(ToolNotFound, match="apt-get install"):
        require_tool("definitely-not-a-tool-xyz")
