"""The Ray side of evaluation: connecting to a cluster (or starting one on this machine), one actor
per evaluation worker (``EvalWorker``, an evaluator of its own on its node with the node's PDK
files), and the pool that starts, checks, lends and replaces them."""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import queue
import socket
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.config import Config
from rtlopt.errors import InfrastructureError, UsageError
from rtlopt.results import EvalResult

if TYPE_CHECKING:
    from rtlopt.evaluate._evaluator import Evaluator
    from rtlopt.frontend.model import Design
    from rtlopt.pdk import PdkInfo

log = logging.getLogger("rtlopt.evaluate._ray")


LOOPBACK = "127.0.0.1"
"""The only address a Ray started by rtlopt binds to."""

START_TIMEOUT_S = 900.0
"""Longest wait for a worker to start (it measures the reference first)."""


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
            "node": ray.util.get_node_ip_address(),
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
