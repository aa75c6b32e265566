"""Ctrl-C inside logging's fork hooks (issue 22, item 6): no "Exception ignored in:
<function _releaseLock>" traceback, and the interrupt is not lost but delivered again."""

from __future__ import annotations

import logging
import signal
from types import SimpleNamespace
from typing import Any

import pytest

from rtlopt.tools import _process


def _frame(name: str, filename: str, back: Any = None) -> Any:
    return SimpleNamespace(f_code=SimpleNamespace(co_name=name, co_filename=filename), f_back=back)


def test_signal_inside_the_logging_fork_hook_is_delivered_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(_process.os, "kill", lambda pid, sig: sent.append((pid, sig)))
    monkeypatch.setattr(_process, "DEFER_S", 0.0)
    hook = _frame("_releaseLock", logging.__file__, _frame("_execute_child", "subprocess.py"))
    _process._on_signal(signal.SIGINT, hook)  # must not raise inside the hook
    for t in list(_process.threading.enumerate()):
        if t.name == "rtlopt-signal-again":
            t.join(5)
    assert sent and sent[0][1] == signal.SIGINT


def test_signal_elsewhere_unwinds_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_process, "kill_live_groups", lambda: None)
    monkeypatch.setattr(_process.threading.Thread, "start", lambda self: None)  # no watchdog
    # a function of the same name elsewhere is not the hook
    with pytest.raises(KeyboardInterrupt):
        _process._on_signal(signal.SIGINT, _frame("_releaseLock", "/src/mylib.py"))
