"""Ray as the execution backend (``eval.executor = "ray"``, the ``rtlopt[ray]`` extra).

Candidates fan out to Ray actors (:class:`EvalWorker`), one CPU each, spread over the cluster's
nodes. Each actor holds an :class:`~rtlopt.evaluate.Evaluator` of the design that it warms up
once by measuring the reference: the long-lived OpenSTA worker has its liberty loaded and the
trimmed liberties are derived before the first candidate arrives. A batch is dealt out
dynamically (an idle actor takes the next candidate), results come back in submission order,
identical candidates of a batch are evaluated once, and a candidate seen before by this
executor is answered from memory (``cached``), as the evaluator's own cache would.

Soundness across machines: a node only evaluates when its evaluator's fingerprint (tool
versions, liberty checksum, repository files, settings, rtlopt's code) equals this process's,
and its own measurement of the reference equals this process's to the last digit; otherwise
the executor refuses to start with both values in the message.

Failures: a worker process or node that dies while it holds a candidate is an infrastructure
error. The worker is replaced and the candidate retried once on another worker; a second death
gives ``Status.TOOL_ERROR`` (no reward, never a score). Every result records its worker (node,
pid, attempt) in its provenance.

Bench designs run as Ray tasks (:meth:`RayExecutor.map`), one CPU (or ``cpus``) each; a task
whose worker dies is retried once by Ray (the design's run resumes from its checkpoint); their
progress events travel through a Ray queue to the calling process.

Network: without an address, a single-node Ray is started for this process on 127.0.0.1 only
(``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` makes Ray 2.60 bind its servers to the loopback node
address), with the dashboard and usage-statistics reporting off
(``RAY_USAGE_STATS_ENABLED=0``, ``include_dashboard=False``).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, TypeVar

from rtlopt.config import EvalConfig
from rtlopt.errors import InfrastructureError
from rtlopt.evaluate._executor import Progress, TaskContext
from rtlopt.evaluate._raypool import LOOPBACK, EvalWorker, _import_ray, _lost_errors, _Pool, _short
from rtlopt.evaluate._raypool import connect as connect
from rtlopt.results import EvalResult, Stage, Status
from rtlopt.verilog import source_hash

if TYPE_CHECKING:
    from rtlopt.evaluate._evaluator import Evaluator

__all__ = ["LOOPBACK", "RETRIES", "EvalWorker", "RayExecutor", "connect"]

log = logging.getLogger(__name__)

_T = TypeVar("_T")
_R = TypeVar("_R")


RETRIES = 1
"""How often a candidate (or bench task) whose worker died is tried again."""


class _RemoteContext:
    """A bench task's context on a Ray worker: progress goes through a Ray queue."""

    remote = True

    def __init__(self, events: Any) -> None:
        self._events = events
        self.cancel = threading.Event()  # remote tasks are stopped with ray.cancel

    def report(self, event: object) -> None:
        self._events.put(event)


def _run_task(fn: Callable[[_T, TaskContext], _R], item: _T, events: Any) -> _R:
    return fn(item, _RemoteContext(events))


@functools.cache
def _remote_task() -> Any:
    return _import_ray().remote(_run_task)


class RayExecutor:
    """Candidates on Ray actors with warm tool workers; bench designs as Ray tasks.

    Args:
        cfg: ``workers`` (actors; 0: one per CPU of the cluster) and ``ray_address``.

    Attributes:
        retries: Candidates tried again after their worker died (since creation).
    """

    def __init__(self, cfg: EvalConfig) -> None:
        self.cfg = cfg
        self.retries = 0
        self._lock = threading.Lock()
        self._pool: _Pool | None = None
        self._memo: dict[str, EvalResult] = {}

    # -------------------------------------------------------------- candidates

    def workers(self) -> list[dict[str, Any]]:
        """The live workers: index, node, host, pid, scratch folder."""
        pool = self._pool
        return (
            []
            if pool is None
            else [
                {
                    "index": w.index,
                    "node": w.node,
                    "host": w.host,
                    "pid": w.pid,
                    "workdir": w.workdir,
                }
                for w in pool.workers
            ]
        )

    def _pool_for(self, evaluator: Evaluator) -> _Pool:
        with self._lock:
            if self._pool is None:
                ray = connect(self.cfg.ray_address, num_cpus=self.cfg.workers or None)
                total = int(ray.cluster_resources().get("CPU", 0))
                free = int(ray.available_resources().get("CPU", 0))
                size = self.cfg.workers or total
                if free < 1:
                    raise InfrastructureError(
                        "the Ray cluster has no free CPU for evaluation workers",
                        hint="add nodes or stop other jobs",
                    )
                if size > free:
                    log.warning(
                        "eval.workers = %d but the Ray cluster has %d free CPUs: "
                        "starting %d evaluation workers",
                        size,
                        free,
                        free,
                    )
                    size = free
                t0 = time.monotonic()
                self._pool = _Pool(ray, evaluator, max(1, size))
                log.info("%d evaluation workers ready in %.1f s", size, time.monotonic() - t0)
            return self._pool

    def evaluate(
        self, evaluator: Evaluator, texts: Sequence[str], progress: Progress | None = None
    ) -> list[EvalResult]:
        """Score ``texts`` on the actors; results in submission order.

        Raises:
            InfrastructureError: no worker could start, or a node differs from this machine.
            UsageError: Ray is missing or its address unreachable.
        """
        if not texts:
            return []
        pool = self._pool_for(evaluator)
        results: list[EvalResult | None] = [None] * len(texts)
        first: dict[str, int] = {}
        copies: list[tuple[int, int]] = []
        todo: list[int] = []

        def done(i: int, res: EvalResult) -> None:
            results[i] = res
            if progress is not None:
                progress(i, res)

        for i, text in enumerate(texts):
            key = source_hash(text)
            with self._lock:
                seen = self._memo.get(key)
            if seen is not None:
                done(i, dataclasses.replace(seen, cached=True))
            elif key in first:
                copies.append((i, first[key]))
            else:
                first[key] = i
                todo.append(i)
        if todo:
            with ThreadPoolExecutor(
                max_workers=max(1, min(pool.alive, len(todo))), thread_name_prefix="ray-eval"
            ) as threads:
                futures = {threads.submit(self._one, pool, evaluator, texts[i]): i for i in todo}
                pending = set(futures)
                try:
                    while pending:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for fut in finished:
                            res = fut.result()
                            if not res.is_infrastructure_error:
                                with self._lock:
                                    self._memo[res.source_hash or ""] = res
                            done(futures[fut], res)
                except BaseException:
                    # Ctrl-C or a bug: stop the workers so the threads return at once
                    self.close()
                    raise
        for i, j in copies:
            src = results[j]
            assert src is not None
            done(i, dataclasses.replace(src, cached=True))
        return [r for r in results if r is not None]

    def _one(self, pool: _Pool, evaluator: Evaluator, text: str) -> EvalResult:
        """One candidate: on an idle worker, once more on another if the worker dies."""
        ray = pool._ray
        lost = _lost_errors(ray)
        h = source_hash(text)
        last: BaseException | None = None
        where: dict[str, Any] = {}
        for attempt in range(1, RETRIES + 2):
            worker = pool.acquire()
            if worker is None:
                break
            where = {
                "executor": "ray",
                "node": worker.node,
                "host": worker.host,
                "pid": worker.pid,
                "attempt": attempt,
            }
            try:
                res: EvalResult = ray.get(worker.handle.evaluate.remote(text))
            except lost as exc:
                last = exc
                if pool.closed:
                    break
                log.warning(
                    "evaluation worker %d on %s (pid %d) died while evaluating candidate %s (%s)%s",
                    worker.index,
                    worker.host,
                    worker.pid,
                    h[:12],
                    _short(exc),
                    "; trying it once more" if attempt <= RETRIES else "",
                )
                pool.replace(worker)
                if attempt <= RETRIES:
                    with self._lock:
                        self.retries += 1
                continue
            pool.release(worker)
            return dataclasses.replace(res, provenance={**res.provenance, "worker": where})
        why = _short(last) if last is not None else "no evaluation worker left"
        return EvalResult(
            status=Status.TOOL_ERROR,
            stage=Stage.SCREEN,
            reason=f"evaluation worker lost ({why}) after {RETRIES + 1} attempt(s): an "
            "infrastructure error, not a verdict on the candidate",
            source_hash=h,
            provenance={"evaluator_fingerprint": evaluator.fingerprint, "worker": where},
        )

    # -------------------------------------------------------------- bench tasks

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
        """``fn(item, context)`` as Ray tasks of ``cpus`` CPUs each (the cluster runs as many
        at once as its CPUs allow; ``parallel`` is for local executors); results in input
        order, progress events delivered here as they come. A task whose worker died is run
        once more by Ray; if that dies too, ``on_lost(item, error)`` gives its result."""
        if not items:
            return []
        ray = connect(self.cfg.ray_address, num_cpus=None)
        from ray.util.queue import Queue

        events = Queue(actor_options={"num_cpus": 0})
        task = _remote_task().options(num_cpus=cpus, max_retries=RETRIES, retry_exceptions=False)
        refs = [task.remote(fn, item, events) for item in items]
        index = {ref: i for i, ref in enumerate(refs)}
        out: list[Any] = [None] * len(items)
        pending = list(refs)
        lost = _lost_errors(ray)

        def drain() -> None:
            while True:
                try:
                    batch = events.get_nowait_batch(max(1, events.qsize()))
                except Exception:  # noqa: BLE001 - ray.util.queue.Empty: nothing waiting
                    return
                if not batch:
                    return
                for ev in batch:
                    if on_event is not None:
                        on_event(ev)

        try:
            while pending:
                if cancel is not None and cancel.is_set():
                    raise KeyboardInterrupt
                ready, pending = ray.wait(pending, num_returns=1, timeout=0.2)
                drain()
                for ref in ready:
                    i = index[ref]
                    try:
                        out[i] = ray.get(ref)
                    except lost as exc:
                        if on_lost is None:
                            raise InfrastructureError(
                                f"task {i} lost its worker twice: {_short(exc)}"
                            ) from exc
                        out[i] = on_lost(items[i], exc)
            drain()
        except BaseException:
            if cancel is not None:
                cancel.set()
            for ref in pending:
                ray.cancel(ref)
            raise
        finally:
            try:
                events.shutdown()
            except Exception:  # noqa: BLE001
                pass
        return out

    def close(self) -> None:
        """Stop the evaluation workers (the Ray started for this process stays up until it
        exits: other evaluators of the process may use it)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
