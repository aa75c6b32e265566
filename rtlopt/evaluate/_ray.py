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
import os
import queue
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rtlopt.config import Config, EvalConfig
from rtlopt.errors import InfrastructureError, UsageError
from rtlopt.evaluate._executor import Progress, TaskContext
from rtlopt.results import EvalResult, Stage, Status
from rtlopt.verilog import source_hash

if TYPE_CHECKING:
    from rtlopt.evaluate._evaluator import Evaluator
    from rtlopt.frontend.model import Design
    from rtlopt.pdk import PdkInfo

__all__ = ["LOOPBACK", "RETRIES", "EvalWorker", "RayExecutor", "connect"]

log = logging.getLogger(__name__)

_T = TypeVar("_T")
_R = TypeVar("_R")

LOOPBACK = "127.0.0.1"
"""The only address a Ray started by rtlopt binds to."""

RETRIES = 1
"""How often a candidate (or bench task) whose worker died is tried again."""

START_TIMEOUT_S = 900.0
"""Longest wait for a worker to start (it measures the reference first)."""


# ------------------------------------------------------------------------------------ Ray itself


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise UsageError(
            "eval.executor = 'ray' needs Ray, which is not installed",
            hint="pip install 'rtlopt[ray]', or use --executor local",
        ) from exc
    return ray


def connect(address: str | None = None, *, num_cpus: int | None = None) -> Any:
    """Ray, connected: to ``address`` (or ``RAY_ADDRESS``), else to a single-node Ray started
    for this process on 127.0.0.1 with ``num_cpus`` CPUs (default: all cores).

    A Ray this process already joined (``ray.init`` by a caller, verl's trainer) is used as it
    is. Returns the ``ray`` module.

    Raises:
        UsageError: Ray is not installed, or the address cannot be reached.
    """
    address = address or os.environ.get("RAY_ADDRESS") or None
    loopback = address is None or _is_loopback(address)
    # read by Ray when it is imported and by every process it starts (they inherit the
    # environment): no usage statistics, and a node that binds to the loopback address (also
    # this driver when it joins a cluster on this machine's loopback address)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if loopback:
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    if loopback:
        from ray._private import ray_constants

        # Ray read the variable when it was first imported; a caller may have imported it
        # before this function set it (the started processes read the environment themselves)
        ray_constants.ENABLE_RAY_CLUSTER = False
    if address is None:
        ray.init(
            num_cpus=num_cpus or os.cpu_count() or 1,
            include_dashboard=False,
            _node_ip_address=LOOPBACK,
            log_to_driver=False,
            configure_logging=False,
        )
        log.info(
            "started a single-node Ray on %s with %s CPUs",
            LOOPBACK,
            ray.cluster_resources().get("CPU"),
        )
        return ray
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError, ray.exceptions.RayError) as exc:
        raise UsageError(
            f"cannot join the Ray cluster at {address}: {_short(exc)}",
            hint="check eval.ray_address / --ray-address (host:port of the head "
            "node, ray://host:port, or auto) and that this machine has the "
            "cluster's token (RAY_AUTH_TOKEN_PATH)",
        ) from exc
    return ray


def _is_loopback(address: str) -> bool:
    """``address`` names this machine's loopback interface (``127.0.0.1:6379``,
    ``ray://localhost:10001``)."""
    host = address.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")
    return host == "localhost" or host.startswith("127.") or host == "::1"


def _lost_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """Exceptions that mean the worker (process or node) is gone, not that the work failed."""
    ex = ray.exceptions
    return (
        ex.RayActorError,
        ex.WorkerCrashedError,
        ex.NodeDiedError,
        ex.ObjectLostError,
        ex.LocalRayletDiedError,
    )


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}"


# ------------------------------------------------------------------------------------ the actor


class EvalWorker:
    """The body of one Ray actor: an evaluator of the design, warmed up by the reference.

    Args:
        design: The parsed design (its files are read at the same paths on the worker's node).
        config: The configuration (evaluated here with the local executor, one thread).
        pdk: The resolved PDK; its plain liberty is rebuilt on a node that lacks it.
        workdir: Scratch root of the driver; used when this node can write it.
        index: The worker's number (names its scratch folder).
    """

    def __init__(
        self, design: Design, config: Config, pdk: PdkInfo | None, workdir: str, index: int
    ) -> None:
        from rtlopt.evaluate._evaluator import Evaluator

        cfg = dataclasses.replace(
            config, eval=dataclasses.replace(config.eval, executor="local", workers=1)
        )
        self._workdir = _worker_dir(Path(workdir), index)
        self._evaluator = Evaluator(design, cfg, self._workdir, _node_pdk(pdk))
        self._reference = self._evaluator.reference()

    def info(self) -> dict[str, Any]:
        """Where the worker runs and what it measured (compared with the driver's)."""
        import ray

        ref = self._reference
        return {
            "pid": os.getpid(),
            "node": ray.util.get_node_ip_address(),  # type: ignore[no-untyped-call]
            "host": socket.gethostname(),
            "fingerprint": self._evaluator.fingerprint,
            "reference": None if ref.ppa is None else dataclasses.asdict(ref.ppa),
            "workdir": str(self._workdir),
        }

    def evaluate(self, text: str) -> EvalResult:
        """Score one candidate."""
        return self._evaluator.evaluate(text)

    def close(self) -> None:
        """Stop the long-lived tool workers."""
        self._evaluator.close()


def _worker_dir(workdir: Path, index: int) -> Path:
    """The driver's scratch when this node can write it (one machine, shared file system),
    else a fresh folder in this node's temp folder."""
    d = workdir / "ray" / f"worker-{index}"
    try:
        d.mkdir(parents=True, exist_ok=True)
        return d
    except OSError:
        return Path(tempfile.mkdtemp(prefix=f"rtlopt-ray-{index}-"))


def _node_pdk(pdk: PdkInfo | None) -> PdkInfo | None:
    """The PDK with a plain liberty on this node (decompressed again when this node's cache
    lacks it); the checksum must not change."""
    if pdk is None or pdk.liberty_plain.is_file():
        return pdk
    from rtlopt.pdk._liberty import plain_liberty

    if not pdk.liberty.is_file():
        raise InfrastructureError(
            f"the liberty {pdk.liberty} is not on node {socket.gethostname()}",
            hint="every Ray node needs the PDK at the same path (shared file system or the "
            "same bundled PDK package)",
        )
    plain, md5 = plain_liberty(pdk.liberty)
    if md5 != pdk.md5:
        raise InfrastructureError(
            f"the liberty {pdk.liberty} on node {socket.gethostname()} differs from the "
            f"driver's (MD5 {md5} vs {pdk.md5})",
            hint="install the same PDK on every node",
        )
    return dataclasses.replace(pdk, liberty_plain=plain)


@functools.cache
def _remote_worker_class() -> Any:
    ray = _import_ray()
    return ray.remote(EvalWorker)


# ------------------------------------------------------------------------------------ the pool


@dataclasses.dataclass(frozen=True)
class _Worker:
    handle: Any
    index: int
    pid: int
    node: str
    host: str
    workdir: str


class _Pool:
    """The executor's actors: idle ones wait in a queue; a dead one is replaced."""

    def __init__(self, ray: Any, evaluator: Evaluator, size: int) -> None:
        self._ray = ray
        self._design = ray.put(evaluator.design)
        self._config = ray.put(evaluator.config)
        self._pdk = ray.put(evaluator.pdk)
        self._workdir = str(evaluator.workdir)
        self._fingerprint = evaluator.fingerprint
        ref = evaluator.reference()
        self._reference = None if ref.ppa is None else dataclasses.asdict(ref.ppa)
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._workers: list[_Worker] = []
        self._next = 0
        self.closed = False
        handles = [self._create() for _ in range(size)]
        for index, handle in handles:
            self._add(self._check(index, handle))

    @property
    def alive(self) -> int:
        with self._lock:
            return len(self._workers)

    @property
    def workers(self) -> list[_Worker]:
        with self._lock:
            return list(self._workers)

    def _create(self) -> tuple[int, Any]:
        with self._lock:
            index, self._next = self._next, self._next + 1
        cls = _remote_worker_class().options(
            num_cpus=1, max_restarts=0, max_task_retries=0, scheduling_strategy="SPREAD"
        )
        return index, cls.remote(self._design, self._config, self._pdk, self._workdir, index)

    def _check(self, index: int, handle: Any) -> _Worker:
        """Wait for a new actor and compare its fingerprint and reference with the driver's."""
        ray = self._ray
        try:
            info = ray.get(handle.info.remote(), timeout=START_TIMEOUT_S)
        except ray.exceptions.GetTimeoutError as exc:
            ray.kill(handle, no_restart=True)
            raise InfrastructureError(
                f"an evaluation worker did not start within {START_TIMEOUT_S:.0f} s",
                hint="the Ray cluster may have no free CPU; lower eval.workers",
            ) from exc
        except ray.exceptions.RayError as exc:
            raise InfrastructureError(
                f"an evaluation worker failed to start: {_short(exc)}",
                hint="see the Ray worker logs of the node",
            ) from exc
        where = f"{info['host']} ({info['node']}, pid {info['pid']})"
        if info["fingerprint"] != self._fingerprint:
            ray.kill(handle, no_restart=True)
            raise InfrastructureError(
                f"the evaluation worker on {where} has evaluator fingerprint "
                f"{info['fingerprint']}, this process {self._fingerprint}: its tools, liberty, "
                "repository files or rtlopt code differ",
                hint="install the same tools, PDK and rtlopt on every node and give them the "
                "repository at the same path",
            )
        if info["reference"] != self._reference:
            ray.kill(handle, no_restart=True)
            raise InfrastructureError(
                f"the evaluation worker on {where} measures the reference as "
                f"{info['reference']}, this process as {self._reference}",
                hint="the nodes' tools differ; install the same versions everywhere",
            )
        log.debug("evaluation worker %d ready on %s", index, where)
        return _Worker(
            handle,
            index,
            int(info["pid"]),
            str(info["node"]),
            str(info["host"]),
            str(info["workdir"]),
        )

    def _add(self, worker: _Worker) -> None:
        with self._lock:
            self._workers.append(worker)
        self._idle.put(worker)

    def acquire(self) -> _Worker | None:
        """An idle worker (waits for one); None when no worker is left."""
        while not self.closed:
            try:
                return self._idle.get(timeout=0.5)
            except queue.Empty:
                if self.alive == 0:
                    return None
        return None

    def release(self, worker: _Worker) -> None:
        self._idle.put(worker)

    def replace(self, dead: _Worker) -> None:
        """Drop a dead worker and start another in its place (logged when that fails)."""
        with self._lock:
            if dead in self._workers:
                self._workers.remove(dead)
        try:
            self._ray.kill(dead.handle, no_restart=True)
        except Exception:  # noqa: BLE001 - already gone is the expected case
            pass
        if self.closed:
            return
        try:
            index, handle = self._create()
            self._add(self._check(index, handle))
        except InfrastructureError as exc:
            log.error(
                "could not replace evaluation worker %d: %s (%d left)",
                dead.index,
                exc.one_line(),
                self.alive,
            )

    def close(self) -> None:
        """Stop every worker's tools, then the actors."""
        self.closed = True
        workers = self.workers
        with self._lock:
            self._workers = []
        ray = self._ray
        try:
            ray.get([w.handle.close.remote() for w in workers], timeout=30)
        except Exception:  # noqa: BLE001 - a worker that cannot close is killed below
            log.debug("some evaluation workers did not close", exc_info=True)
        for w in workers:
            try:
                ray.kill(w.handle, no_restart=True)
            except Exception:  # noqa: BLE001
                pass


# ------------------------------------------------------------------------------------ executor


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
