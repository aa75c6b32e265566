"""Designs as executor tasks (threads here, or Ray tasks on a cluster): a task's options and
events, and the map over a bench's designs with their progress reaching the caller."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from rtlopt.benchmark._results import BenchEvents, BenchOptions
from rtlopt.benchmark.suite import SuiteDesign
from rtlopt.config import EvalConfig
from rtlopt.errors import RtloptError
from rtlopt.evaluate import TaskContext, make_executor

log = logging.getLogger("rtlopt.benchmark._runner")
_R = TypeVar("_R")
_T = TypeVar("_T")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RtloptError):
        return exc.one_line()
    return f"{type(exc).__name__}: {exc}"


def task_options(opts: BenchOptions, ctx: TaskContext) -> BenchOptions:
    """A remote task evaluates its design's candidates itself, on the CPUs it reserved."""
    if not ctx.remote:
        return opts
    workers = int(opts.overrides.get("eval.workers") or 1)
    return replace(
        opts, overrides={**opts.overrides, "eval.executor": "local", "eval.workers": workers}
    )


def task_events(ctx: TaskContext) -> BenchEvents:
    """Bench events of a task that reach the caller's :class:`BenchEvents` through
    ``ctx.report`` (and the task's cancel flag)."""

    def step(name: str, k: int, n: int) -> None:
        ctx.report(("step", name, k, n))

    return BenchEvents(
        on_start=lambda name: ctx.report(("start", name)),
        on_step=step,
        on_done=lambda res: ctx.report(("done", res)),
        cancel=ctx.cancel,
    )


def run_tasks(
    items: Sequence[_T],
    task: Callable[..., _R],
    opts: BenchOptions,
    events: BenchEvents,
    lost: Callable[[_T, BaseException], _R],
    *,
    cpus: int,
    handlers: Mapping[str, Callable[..., None] | None] | None = None,
) -> list[_R]:
    """``task(item, ctx, opts=opts)`` per item on the bench's executor (``opts.executor``:
    threads here, or Ray tasks), results in input order; the tasks' progress events reach
    ``events`` (and ``handlers``, by event name) in this process."""
    table = {
        "start": events.on_start,
        "step": events.on_step,
        "done": events.on_done,
        **(handlers or {}),
    }

    def deliver(event: object) -> None:
        assert isinstance(event, tuple)
        handler: Any = table[event[0]]
        if handler is not None:
            handler(*event[1:])

    executor = make_executor(EvalConfig(executor=opts.executor, ray_address=opts.ray_address))
    try:
        return executor.map(
            functools.partial(task, opts=opts),
            items,
            parallel=opts.jobs,
            cpus=cpus,
            on_event=deliver,
            cancel=events.cancel,
            on_lost=lost,
        )
    finally:
        executor.close()


def _run_designs(
    items: Sequence[SuiteDesign],
    task: Callable[..., _R],
    opts: BenchOptions,
    events: BenchEvents,
    lost: Callable[[SuiteDesign, BaseException], _R],
    *,
    cpus: int,
) -> list[_R]:
    """``task`` per design on the bench's executor, results in suite order."""

    def on_lost(d: SuiteDesign, exc: BaseException) -> _R:
        log.error("%s: lost its worker twice: %s", d.name, _reason(exc))
        res = lost(d, exc)
        if events.on_done:
            events.on_done(res)  # type: ignore[arg-type]
        return res

    return run_tasks(items, task, opts, events, on_lost, cpus=cpus)
