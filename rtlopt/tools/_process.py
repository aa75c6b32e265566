"""Process groups of running tools, the process's clean-up on signals, scratch folders.

Every tool runs in its own session (so a timeout can kill it with all its children, e.g.
yosys-abc), which also means a signal to rtlopt does not reach it. Each live process group is
therefore registered here (:func:`track_group`; ``run_tool`` and the OpenSTA worker do it), and
:func:`install_signal_handlers`, called by the command-line entry point, makes SIGTERM, SIGINT
and SIGHUP kill every registered group, refuse new tools, and unwind (``KeyboardInterrupt`` for
SIGINT, :class:`~rtlopt.errors.Terminated` otherwise) so that ``finally`` blocks remove scratch
folders. Clean-ups registered with :func:`register_cleanup` run at exit, and from a watchdog
that ends the process if unwinding takes too long.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import logging
import math
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from rtlopt.errors import Terminated, ToolFailed, UsageError

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------- lifecycle

# Re-entrant: the signal handler runs on the main thread, possibly while it holds these.
_groups_lock = threading.RLock()
_groups: set[int] = set()
_stopping = threading.Event()
_cleanups: dict[int, Callable[[], None]] = {}
_cleanup_ids = itertools.count(1)
_cleanups_lock = threading.RLock()
_installed = False

#: Seconds the process may take to unwind after a signal before the watchdog ends it.
SIGNAL_GRACE_S = 10.0


def track_group(pgid: int) -> bool:
    """Register a started tool's process group; False (and the group killed) when stopping.

    The check comes after the registration so that a signal arriving between the start of a
    tool and this call cannot leave the tool behind.
    """
    with _groups_lock:
        _groups.add(pgid)
    if _stopping.is_set():
        _killpg(pgid)
        return False
    return True


def untrack_group(pgid: int) -> None:
    """Forget a process group (its leader was reaped)."""
    with _groups_lock:
        _groups.discard(pgid)


def reap_group(proc: subprocess.Popen[bytes]) -> None:
    """End a long-lived tool started in its own process group: kill the group if the leader
    still runs, reap the leader, forget the group and close its pipes."""
    if proc.poll() is None:
        _killpg(proc.pid)
    proc.wait()
    untrack_group(proc.pid)
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass


def live_groups() -> frozenset[int]:
    """Process groups of the tools running now."""
    with _groups_lock:
        return frozenset(_groups)


def _killpg(pgid: int, sig: int = signal.SIGKILL) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_live_groups() -> int:
    """Refuse new tools and kill every registered process group. Returns how many."""
    _stopping.set()
    with _groups_lock:
        groups = list(_groups)
    for g in groups:
        _killpg(g)
    return len(groups)


def stopping() -> bool:
    """Whether a signal asked the process to stop (no new tool may start)."""
    return _stopping.is_set()


def check_not_stopping(what: str) -> None:
    """Raise :class:`ToolFailed` when the process is stopping (before starting ``what``)."""
    if _stopping.is_set():
        raise ToolFailed(f"{what} not started: rtlopt is stopping")


def register_cleanup(fn: Callable[[], None]) -> int:
    """Run ``fn`` at exit (normal, or after a signal); returns a handle to unregister it."""
    with _cleanups_lock:
        handle = next(_cleanup_ids)
        _cleanups[handle] = fn
    return handle


def unregister_cleanup(handle: int) -> None:
    """Forget a clean-up (it was done already)."""
    with _cleanups_lock:
        _cleanups.pop(handle, None)


def run_cleanups() -> None:
    """Run and forget every registered clean-up (newest first); errors are logged."""
    with _cleanups_lock:
        items = sorted(_cleanups.items(), reverse=True)
        _cleanups.clear()
    for _, fn in items:
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - clean-up must go on
            log.debug("clean-up failed: %s", exc)


atexit.register(run_cleanups)


@contextlib.contextmanager
def scratch_dir(path: Path | None, prefix: str, *, keep: bool = False) -> Iterator[Path]:
    """A scratch folder: ``path`` (created, never removed) or a new temporary one.

    The temporary folder is removed when the block ends, at exit, or after a signal, unless
    ``keep`` is set or the block fails with a tool or internal error (its logs are then kept
    for inspection; input errors remove it).
    """
    if path is not None:
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    d = Path(tempfile.mkdtemp(prefix=prefix))
    if keep:
        yield d
        return
    handle = register_cleanup(lambda: shutil.rmtree(d, ignore_errors=True))
    try:
        yield d
    except Exception as exc:
        if not isinstance(exc, UsageError):  # a tool or internal error: keep the logs it names
            unregister_cleanup(handle)
            log.info("scratch folder kept for inspection: %s", d)
        raise
    finally:
        with _cleanups_lock:
            pending = _cleanups.pop(handle, None)
        if pending is not None:
            shutil.rmtree(d, ignore_errors=True)


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _watchdog(signum: int) -> None:
    time.sleep(SIGNAL_GRACE_S)
    kill_live_groups()
    run_cleanups()
    try:
        sys.stderr.write(f"rtlopt: stopped by {_signal_name(signum)}\n")
        sys.stderr.flush()
    finally:
        os._exit(128 + signum)


_LOGGING_FILE = os.path.join("logging", "__init__.py")
#: logging's lock functions that Python runs as fork hooks around every tool start (tools are
#: started with a ``preexec_fn``): an exception raised inside them is printed as "Exception
#: ignored in: <function _releaseLock ...>" and lost, and the lock may stay held.
_FORK_HOOKS = frozenset({"_acquireLock", "_releaseLock", "_after_at_fork_child_reinit_locks"})
DEFER_S = 0.02


def _in_fork_hook(frame: FrameType | None) -> bool:
    for _ in range(3):  # the hook, or a function it called
        if frame is None:
            return False
        code = frame.f_code
        if code.co_name in _FORK_HOOKS and code.co_filename.endswith(_LOGGING_FILE):
            return True
        frame = frame.f_back
    return False


def _redeliver(signum: int) -> None:
    time.sleep(DEFER_S)
    os.kill(os.getpid(), signum)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if _in_fork_hook(frame) and not _stopping.is_set():
        # not here: raised inside a fork hook the interrupt would be lost (and a traceback
        # printed); the same signal comes again a moment later, outside the hook
        threading.Thread(
            target=_redeliver, args=(signum,), name="rtlopt-signal-again", daemon=True
        ).start()
        return
    again = _stopping.is_set()
    kill_live_groups()
    if again:  # a second signal: no more unwinding
        run_cleanups()
        os._exit(128 + signum)
    threading.Thread(
        target=_watchdog, args=(signum,), name="rtlopt-signal-watchdog", daemon=True
    ).start()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum, _signal_name(signum))


def install_signal_handlers() -> None:
    """Make SIGTERM, SIGINT and SIGHUP kill every tool and unwind (main thread only).

    Called by the command-line entry point, not on import: a library user keeps its own
    handlers.
    """
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    _installed = True


def child_setup(memory_mb: int | None, cpu_s: float | None = None) -> None:
    """Run in a tool's child process before exec: own session, address-space limit, no core.

    Args:
        memory_mb: Address-space limit.
        cpu_s: The run's wall-clock limit. The tool also gets a CPU-time limit 2 s above it:
            a single-threaded tool never reaches it before the wall clock does, but a tool
            whose watcher died (a Ray worker killed mid-candidate: the tool runs in its own
            session and is not killed with it) cannot spin on forever.
    """
    os.setsid()
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if cpu_s and math.isfinite(cpu_s):
        soft = math.ceil(cpu_s) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))  # SIGXCPU, then SIGKILL
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


@functools.cache
def _prlimit() -> str | None:
    return shutil.which("prlimit")


def limited(
    argv: list[str],
    memory_mb: int | None,
    cpu_s: float | None = None,
    *,
    path: str | None = None,
) -> tuple[list[str], dict[str, Any]]:
    """The command line and ``Popen`` options that start a tool as :func:`child_setup` does:
    its own session, the address-space and CPU limits, no core file.

    With util-linux's ``prlimit`` the limits are set by that program, which then executes the
    tool (same process, same exit status), and the session by ``start_new_session``: Python
    then starts the child with ``vfork``. A ``preexec_fn`` forces a full ``fork``, whose cost
    grows with the caller's memory (about 60 ms of system time per start in a process holding
    1.5 GB, as the optimize loop does with a model loaded, against 0.1 ms). Without
    ``prlimit`` the ``preexec_fn`` is used.

    Raises:
        FileNotFoundError: ``argv[0]`` is not found on ``path`` (as ``Popen`` would raise it).
    """
    tool = _prlimit()
    if tool is None:
        return argv, {"preexec_fn": lambda: child_setup(memory_mb, cpu_s=cpu_s)}
    if shutil.which(argv[0], path=path) is None:
        raise FileNotFoundError(argv[0])
    prefix = [tool, "--core=0"]
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        prefix.append(f"--as={limit}:{limit}")
    if cpu_s and math.isfinite(cpu_s):
        soft = math.ceil(cpu_s) + 2
        prefix.append(f"--cpu={soft}:{soft + 1}")
    return [*prefix, "--", *argv], {"start_new_session": True}


def kill_group(pgid: int) -> None:
    """SIGKILL a tool's process group (gone already: nothing to do)."""
    _killpg(pgid)
