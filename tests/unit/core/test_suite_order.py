"""The whole suite's order on xdist workers and the CPU model's share of the cores there."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import long_modules_first, model_threads


class _Item:
    def __init__(self, nodeid: str, *marks: str) -> None:
        self.nodeid = nodeid
        self.marks = set(marks)

    def get_closest_marker(self, name: str) -> Any:
        return name if name in self.marks else None


def test_model_runs_first_then_slow_then_tool_modules_then_the_rest_in_their_order() -> None:
    items = [
        _Item("tests/unit/a.py::t1"),
        _Item("tests/integration/tools.py::t1"),
        _Item("tests/integration/slow.py::t1"),
        _Item("tests/e2e/run.py::t1"),
        _Item("tests/integration/slow.py::t2", "slow", "tools"),
        _Item("tests/unit/b.py::t1"),
        _Item("tests/integration/tools.py::t2", "tools"),
        _Item("tests/e2e/run.py::t2", "model", "slow"),
        _Item("tests/integration/model.py::t1", "model"),
        _Item("tests/integration/other_tools.py::t1", "tools"),
    ]
    long_modules_first(items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/e2e/run.py::t1",
        "tests/e2e/run.py::t2",
        "tests/integration/slow.py::t1",
        "tests/integration/slow.py::t2",
        "tests/integration/model.py::t1",
        "tests/integration/tools.py::t1",
        "tests/integration/tools.py::t2",
        "tests/integration/other_tools.py::t1",
        "tests/unit/a.py::t1",
        "tests/unit/b.py::t1",
    ]


def test_model_threads_share_the_cores_between_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    assert model_threads() == 0  # not on xdist workers: torch's default
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    assert model_threads() == 2
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "8")
    assert model_threads() == 1
