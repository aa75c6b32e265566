from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rtlopt.errors import EvaluationTimeout, PluginError, ToolFailed, ToolNotFound
from rtlopt.registry import Registry
from rtlopt.tools import Limits, child_setup, require_tool, run_tool


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


def test_tool_whose_watcher_is_gone_stops_at_its_cpu_limit() -> None:
    # what a tool of a killed Ray worker is left with: nobody enforces its wall clock
    proc = subprocess.Popen(
        [sys.executable, "-c", "while True: pass"], preexec_fn=lambda: child_setup(None, cpu_s=0.5)
    )
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
