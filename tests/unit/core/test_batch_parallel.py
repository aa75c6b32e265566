"""`rtlopt.batch.run_parallel`: the outcomes in the order the modules are named, whatever
order their runs end in (fake runs: threads that end in reverse order)."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any, cast

import pytest

from rtlopt import batch


def test_fake_runs_ending_in_reverse_order_come_back_in_plan_order() -> None:
    items = [SimpleNamespace(name=f"m{i}") for i in range(3)]
    plan = cast(batch.BatchPlan, SimpleNamespace(items=items))
    ended: list[str] = []
    gates = [threading.Event() for _ in items]
    lock = threading.Lock()

    def run_one(item: Any, stop_after: int | None) -> Any:
        n = items.index(item)
        # each run waits for the run named after it: the last one ends first
        if n + 1 < len(items):
            assert gates[n + 1].wait(30)
        with lock:
            ended.append(item.name)
        gates[n].set()
        return f"outcome of {item.name} ({stop_after})"

    seen: list[str] = []
    out = batch.run_parallel(
        plan, 5, workers=0, run_one=run_one, on_done=lambda item, _o: seen.append(item.name)
    )
    assert ended == ["m2", "m1", "m0"]
    assert out == ["outcome of m0 (5)", "outcome of m1 (5)", "outcome of m2 (5)"]
    assert seen == ["m0", "m1", "m2"]


def test_fake_run_error_is_raised_after_the_others_end() -> None:
    items = [SimpleNamespace(name="a"), SimpleNamespace(name="b")]
    plan = cast(batch.BatchPlan, SimpleNamespace(items=items))
    done: list[str] = []

    def run_one(item: Any, stop_after: int | None) -> Any:
        if item.name == "a":
            raise RuntimeError("a failed")
        done.append(item.name)
        return item.name

    with pytest.raises(RuntimeError, match="a failed"):
        batch.run_parallel(plan, None, workers=2, run_one=run_one)
    assert done == ["b"]
