"""Which ends of a proof tool's run are crashes (tool errors) and which are its own limits."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from rtlopt.errors import ToolFailed
from rtlopt.tools import ToolRun, crash_signal, raise_if_crashed


def _run(tmp_path: Path, rc: int, *, timed_out: bool = False) -> ToolRun:
    log = tmp_path / "yosys.out"
    log.write_text("$ yosys -s x.ys\nterminate called after throwing std::bad_alloc\n")
    return ToolRun(("/usr/bin/yosys", "-s", "x.ys"), tmp_path, rc, 1.0, log, timed_out)


def test_a_signal_is_a_crash_with_its_log(tmp_path: Path) -> None:
    run = _run(tmp_path, -signal.SIGABRT)
    assert crash_signal(run) == "SIGABRT"
    with pytest.raises(ToolFailed) as exc:
        raise_if_crashed(run, "the SAT miter")
    assert "yosys crashed (SIGABRT) during the SAT miter" in exc.value.message
    assert exc.value.log_path == run.log_path and "bad_alloc" in exc.value.stderr_tail


@pytest.mark.parametrize(
    ("rc", "timed_out"),
    [(0, False), (1, False), (-signal.SIGKILL, True), (-signal.SIGXCPU, False)],
)
def test_exits_timeouts_and_cpu_limits_are_not_crashes(
    tmp_path: Path, rc: int, timed_out: bool
) -> None:
    run = _run(tmp_path, rc, timed_out=timed_out)
    assert crash_signal(run) == ""
    raise_if_crashed(run, "the SAT miter")  # no exception


def test_a_sandboxed_crash_names_the_tool_and_its_last_words(tmp_path: Path) -> None:
    """Under the sandbox the run's program is bwrap: the message names the tool inside it,
    with the tool's last line (the log may be gone when the user reads the message)."""
    log = tmp_path / "compile.log"
    log.write_text("$ bwrap ...\nivl: pform.cc:3196: Assertion `range->size() == 1' failed.\n")
    argv = ("/usr/bin/bwrap", "--ro-bind", "/", "/", "--", "/usr/bin/iverilog", "-g2012", "a.v")
    run = ToolRun(argv, tmp_path, -signal.SIGABRT, 1.0, log, False)
    with pytest.raises(ToolFailed) as exc:
        raise_if_crashed(run, "compiling")
    msg = exc.value.message
    assert msg.startswith("iverilog crashed (SIGABRT) during compiling"), msg
    assert "pform.cc:3196" in msg and "bwrap" not in msg, msg
