"""Executors: where candidates are evaluated, and where ``rtlopt bench`` runs its designs.

An executor is a plugin (:data:`rtlopt.plugins.EXECUTORS`, ``eval.executor``) with two jobs:

* :meth:`Executor.evaluate` scores a batch of candidates of one :class:`Evaluator` and returns
  the results in submission order. ``local`` runs them on ``eval.workers`` threads of this
  process, each thread with its own long-lived synthesis/timing flow (as
  ``Evaluator.evaluate_many`` does); ``ray`` (:mod:`rtlopt.evaluate._ray`) sends them to
  Ray actors that each hold a warm evaluator.
* :meth:`Executor.map` runs ``fn(item, context)`` over items (the designs of a bench) and
  returns the results in input order. A task reports progress through ``context.report(event)``
  (delivered to ``on_event`` in the calling process) and watches ``context.cancel``.

The caller owns its executor: it makes one with :func:`make_executor` and closes it (the
evaluator knows no executor). ``rtlopt bench`` and its ablation grid run their designs with
:meth:`Executor.map` of the same executors.

A worker that dies while it holds a candidate is an infrastructure error: the candidate is
retried once, and if that fails too it gets ``Status.TOOL_ERROR`` (no reward), never a score.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Protocol, TypeVar

from rtlopt.config import EvalConfig
from rtlopt.evaluate._batch import Progress, evaluate_on_threads
from rtlopt.plugins import EXECUTORS
from rtlopt.results import EvalResult

if TYPE_CHECKING:
    from rtlopt.evaluate._evaluator import Evaluator

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorFactory",
    "LocalExecutor",
    "Progress",
    "TaskContext",
    "make_executor",
]

_T = TypeVar("_T")
_R = TypeVar("_R")


class TaskContext(Protocol):
    """What a task of :meth:`Executor.map` gets besides its item.

    Attributes:
        cancel: Set when the caller is being interrupted (a task stops at its next checkpoint;
            remote tasks are cancelled by their executor instead, and see it never set).
        remote: The task runs in another process (possibly on another machine).
    """

    cancel: threading.Event
    remote: bool

    def report(self, event: object) -> None:
        """Send a progress event (picklable) to the caller's ``on_event``."""
        ...


class Executor(Protocol):
    """Runs candidate evaluations and bench tasks; results always in submission order."""

    def evaluate(
        self, evaluator: Evaluator, texts: Sequence[str], progress: Progress | None = None
    ) -> list[EvalResult]:
        """Score ``texts`` with ``evaluator`` (its design, configuration and PDK)."""
        ...

    def map(
        self,
        fn: Callable[[_T, TaskContext], _R],
        items: Sequence[_T],
        *,
        parallel: int,
        cpus: int = 1,
        on_event: Callable[[object], None] | None = None,
        cancel: threading.Event | None = None,
        on_lost: Callable[[_T, BaseException], _R] | None = None,
    ) -> list[_R]:
        """``fn(item, context)`` for every item, results in input order.

        Args:
            fn: The task (picklable for remote executors: a module-level function or a
                ``functools.partial`` of one).
            items: Its inputs.
            parallel: Tasks at once in this process (a cluster runs as many as its CPUs
                allow).
            cpus: CPUs each task uses (what a cluster reserves for it).
            on_event: Receives every ``context.report(event)``, in this process.
            cancel: Set by the caller to interrupt; set by the executor when a task raises.
            on_lost: The result of an item whose worker died twice (default: raise
                ``InfrastructureError``).
        """
        ...

    def close(self) -> None:
        """Stop workers this executor started."""
        ...


class ExecutorFactory(Protocol):
    """What the :data:`~rtlopt.plugins.EXECUTORS` registry holds (entry points
    ``rtlopt.executors``): builds an executor from the evaluation settings."""

    def __call__(self, cfg: EvalConfig) -> Executor:
        """An executor configured by ``cfg`` (``workers``, ``ray_address``)."""
        ...


def make_executor(cfg: EvalConfig) -> Executor:
    """The executor named by ``cfg.executor``.

    Raises:
        PluginError: unknown executor name (the message lists the known ones).
    """
    factory: ExecutorFactory = EXECUTORS.get(cfg.executor)  # the table is untyped: bind its type
    return factory(cfg)


@dataclasses.dataclass
class _LocalContext:
    cancel: threading.Event
    on_event: Callable[[object], None] | None
    remote: bool = False

    def report(self, event: object) -> None:
        if self.on_event is not None:
            self.on_event(event)


class LocalExecutor:
    """Threads of this process: ``eval.workers`` of them (0: one per core)."""

    def __init__(self, cfg: EvalConfig) -> None:
        self.cfg = cfg

    def evaluate(
        self, evaluator: Evaluator, texts: Sequence[str], progress: Progress | None = None
    ) -> list[EvalResult]:
        """Evaluate a batch on a thread pool (workers each keep their own tool processes)."""
        workers = evaluator.config.eval.workers
        return evaluate_on_threads(evaluator.evaluate, texts, workers, progress)

    def map(
        self,
        fn: Callable[[_T, TaskContext], _R],
        items: Sequence[_T],
        *,
        parallel: int,
        cpus: int = 1,
        on_event: Callable[[object], None] | None = None,
        cancel: threading.Event | None = None,
        on_lost: Callable[[_T, BaseException], _R] | None = None,
    ) -> list[_R]:
        """``fn`` over ``items`` on ``parallel`` threads, results in input order; an exception
        (Ctrl-C) sets ``cancel`` so the other tasks stop at their next checkpoint."""
        ctx = _LocalContext(cancel if cancel is not None else threading.Event(), on_event)
        if parallel <= 1:
            return [fn(item, ctx) for item in items]
        pool = ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="bench")
        futures: list[Future[_R]] = [pool.submit(fn, item, ctx) for item in items]
        try:
            out = [f.result() for f in futures]
        except BaseException:
            ctx.cancel.set()
            for f in futures:
                f.cancel()
            pool.shutdown(wait=True)
            raise
        pool.shutdown(wait=True)
        return out

    def close(self) -> None:
        """Nothing to stop: the evaluator's flows belong to the evaluator."""
