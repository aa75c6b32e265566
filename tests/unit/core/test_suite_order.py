"""The whole suite's order on xdist workers and the CPU model's share of the cores there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import long_modules_first, model_threads
from tests.file_seconds import recorded


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
    long_modules_first(items, {})  # type: ignore[arg-type]
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


def test_recorded_seconds_put_the_longest_modules_first() -> None:
    """A long file of tool tests without a ``slow`` mark goes before shorter model and slow
    ones; a module without a record is placed by its marks among the recorded ones."""
    items = [
        _Item("tests/unit/a.py::t1"),
        _Item("tests/integration/model.py::t1", "model", "slow"),
        _Item("tests/integration/tools.py::t1", "tools"),
        _Item("tests/integration/long_tools.py::t1", "tools"),
        _Item("tests/integration/new_slow.py::t1", "slow"),
        _Item("tests/integration/long_tools.py::t2", "tools"),
    ]
    seconds = {"tests/integration/long_tools.py": 300.0, "tests/integration/model.py": 70.0}
    seconds["tests/integration/tools.py"] = 12.0
    long_modules_first(items, seconds)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/integration/long_tools.py::t1",
        "tests/integration/long_tools.py::t2",
        "tests/integration/model.py::t1",
        "tests/integration/tools.py::t1",
        "tests/integration/new_slow.py::t1",
        "tests/unit/a.py::t1",
    ]


def test_the_record_names_test_files_that_exist() -> None:
    """tests/file_seconds.json (refreshed by ``python3 -m tests.file_seconds``) names files of
    the suite: a renamed file would lose its place silently."""
    known = recorded()
    assert known, "tests/file_seconds.json is missing or empty"
    root = Path(__file__).resolve().parents[3]
    missing = [f for f in known if not (root / f).is_file()]
    assert not missing, f"refresh tests/file_seconds.json: {missing}"


def test_model_threads_share_the_cores_between_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    assert model_threads() == 0  # not on xdist workers: torch's default
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    assert model_threads() == 2
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "8")
    assert model_threads() == 1
