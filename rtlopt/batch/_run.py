"""Running a batch's modules: one after another, or at once on their own threads
(``run.parallel_modules``), the outcomes in the order of the plan's items."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rtlopt import session
from rtlopt.batch._record import (
    BatchItem,
    BatchPlan,
)

if TYPE_CHECKING:
    from rtlopt.run import RunOutcome


def run_module(item: BatchItem, stop_after: int | None = None) -> RunOutcome:
    """One module's run without a progress display: its evaluator, its policy, the loop."""
    from contextlib import closing

    t = item.target
    with session.open_evaluator(t, item.plan.workdir) as ev:
        ev.reference()
        with closing(session.load_policy(t.config)) as policy:
            return session.optimize(t, ev, policy, item.plan, stop_after=stop_after)


def run_parallel(
    plan: BatchPlan,
    stop_after: int | None = None,
    *,
    workers: int = 0,
    run_one: Callable[[BatchItem, int | None], RunOutcome] = run_module,
    on_done: Callable[[BatchItem, RunOutcome], None] | None = None,
) -> list[RunOutcome]:
    """Every module's run at once (at most ``workers`` at a time, 0: all), each on its own
    thread; the outcomes in the order of ``plan.items``, whatever order they end in.

    Raises:
        The first module's error (in the order of ``plan.items``) once every run has ended.
    """
    from concurrent.futures import ThreadPoolExecutor

    n = len(plan.items) if workers <= 0 else min(workers, len(plan.items))
    with ThreadPoolExecutor(max_workers=max(1, n), thread_name_prefix="rtlopt-module") as pool:
        futures = [pool.submit(run_one, item, stop_after) for item in plan.items]
        outcomes: list[RunOutcome] = []
        for item, fut in zip(plan.items, futures, strict=True):
            outcome = fut.result()
            if on_done is not None:
                on_done(item, outcome)
            outcomes.append(outcome)
    return outcomes
