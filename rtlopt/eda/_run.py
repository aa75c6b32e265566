"""The one subprocess helper every tool goes through, and the process's clean-up on signals.

argv list (never a shell), stdin closed, stdout+stderr to a log file, a wall-clock timeout that
kills the whole process group, an optional address-space limit, and a record of what ran.

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
import itertools
import logging
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import FrameType

from rtlopt.errors import EvaluationTimeout, Terminated, ToolFailed, ToolNotFound, UsageError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ToolRun:
    """What one tool invocation did."""

    argv: tuple[str, ...]
    cwd: Path
    returncode: int
    duration_s: float
    log_path: Path
    timed_out: bool = False

    def output(self) -> str:
        """The combined stdout/stderr log."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def tail(self, n: int = 20) -> str:
        return "\n".join(self.output().splitlines()[-n:])


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


def _on_signal(signum: int, frame: FrameType | None) -> None:
    again = _stopping.is_set()
    kill_live_groups()
    if again:  # a second signal: no more unwinding
        run_cleanups()
        os._exit(128 + signum)
    threading.Thread(target=_watchdog, args=(signum,), name="rtlopt-signal-watchdog",
                     daemon=True).start()
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


# ---------------------------------------------------------------------------------- tools


def _limits(memory_mb: int | None) -> None:  # runs in the child before exec
    os.setsid()
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_tool(
    argv: Sequence[str],
    *,
    cwd: Path,
    log_path: Path,
    timeout: float,
    env: Mapping[str, str] | None = None,
    memory_mb: int | None = None,
    check: bool = False,
    raise_on_timeout: bool = True,
) -> ToolRun:
    """Run a tool and wait for it.

    Args:
        argv: Program and arguments; the program is looked up on PATH.
        cwd: Working directory.
        log_path: File receiving stdout and stderr (the command line is written first).
        timeout: Seconds before the process group is killed.
        env: Extra environment variables.
        memory_mb: Address-space limit of the tool, if any.
        check: Raise ToolFailed on a non-zero exit.
        raise_on_timeout: Raise EvaluationTimeout when the time limit is hit; otherwise return a
            ToolRun with ``timed_out`` set.
    """
    argv = [str(a) for a in argv]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    full_env = dict(os.environ)
    # Temporary files of the tool (yosys-abc-XXXXXX, iverilog's) go into its working folder, so
    # they leave with the scratch folder even when the tool is killed. A safe word: Yosys runs
    # ABC through a shell command naming files in it.
    from rtlopt.eda._script import script_path

    full_env["TMPDIR"] = script_path(cwd)
    full_env.update(env or {})
    start = time.monotonic()
    timed_out = False
    check_not_stopping(Path(argv[0]).name)
    with log_path.open("w") as logf:
        logf.write("$ " + " ".join(argv) + "\n")
        logf.flush()
        try:
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=logf,
                stderr=subprocess.STDOUT,
                env=full_env,
                preexec_fn=lambda: _limits(memory_mb),
                close_fds=True,
            )
        except FileNotFoundError:
            raise ToolNotFound(
                f"'{argv[0]}' is not installed or not on PATH",
                hint="run scripts/setup.sh or install it",
            ) from None
        try:
            if not track_group(proc.pid):
                proc.wait()
                raise ToolFailed(f"{Path(argv[0]).name} stopped: rtlopt is stopping")
            try:
                rc = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(proc)
                rc = proc.wait()
        except BaseException:
            _kill_group(proc)  # an exception (a signal) while waiting: never leave it running
            raise
        finally:
            untrack_group(proc.pid)
    run = ToolRun(tuple(argv), cwd, rc, time.monotonic() - start, log_path, timed_out)
    log.debug("%s -> %s in %.2fs", argv[0], rc, run.duration_s)
    if timed_out and raise_on_timeout:
        raise EvaluationTimeout(
            f"{Path(argv[0]).name} timed out after {timeout:g}s", hint=f"see {log_path}"
        )
    if check and rc != 0:
        raise ToolFailed(
            f"{Path(argv[0]).name} exited with {rc}",
            command=list(argv),
            returncode=rc,
            log_path=log_path,
            stderr_tail=run.tail(),
        )
    return run


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@dataclass(frozen=True)
class ToolInfo:
    """A located tool and its version."""

    name: str
    path: str
    version: str


_VERSION_ARGS: dict[str, tuple[tuple[str, ...], str]] = {
    # tool: (argv suffix, regex capturing the version)
    "iverilog": (("-V",), r"Icarus Verilog version (\S+)"),
    "vvp": (("-V",), r"Icarus Verilog runtime version (\S+)"),
    "yosys": (("-V",), r"Yosys (\S+)"),
    "sta": (("-version",), r"^(\S+)"),
    "yosys-abc": (("-h",), r"UC Berkeley, ABC (\S+)"),
}

_INSTALL_HINT = (
    "install it with: sudo apt-get install iverilog yosys opensta (or run scripts/setup.sh)"
)


@cache
def require_tool(name: str) -> ToolInfo:
    """Locate a tool, honouring an ``RTLOPT_<NAME>`` override, and read its version.

    Raises:
        ToolNotFound: with the install command.
    """
    env_key = "RTLOPT_" + re.sub(r"[^A-Z0-9]", "_", name.upper())
    path = os.environ.get(env_key) or shutil.which(name)
    if not path:
        raise ToolNotFound(f"required tool '{name}' was not found on PATH", hint=_INSTALL_HINT)
    version = "unknown"
    args, pattern = _VERSION_ARGS.get(name, (("--version",), r"(\S+)"))
    try:
        out = subprocess.run(
            [path, *args], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL
        )
        text = (out.stdout + out.stderr).strip()
        m = re.search(pattern, text, re.M)
        if m:
            version = m.group(1)
    except (OSError, subprocess.TimeoutExpired):
        pass
    return ToolInfo(name, path, version)


def require_tools(names: Sequence[str]) -> list[ToolInfo]:
    """Locate every tool of ``names``; one error naming all the missing ones.

    Raises:
        ToolNotFound: with the install command.
    """
    found: list[ToolInfo] = []
    missing: list[str] = []
    for n in names:
        try:
            found.append(require_tool(n))
        except ToolNotFound:
            missing.append(n)
    if missing:
        raise ToolNotFound(f"required tool(s) not found on PATH: {', '.join(missing)}",
                           hint=_INSTALL_HINT)
    return found


def tool_versions(names: Sequence[str] = ("iverilog", "yosys", "sta")) -> dict[str, str]:
    """Versions of the named tools ("missing" for absent ones), for result records."""
    out: dict[str, str] = {}
    for n in names:
        try:
            out[n] = require_tool(n).version
        except ToolNotFound:
            out[n] = "missing"
    return out
