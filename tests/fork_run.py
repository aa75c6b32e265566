"""``python -m rtlopt ARGS`` as a forked copy of the test's process: a process of its own
(working folder, environment, standard streams, signal handlers, exit code, tools and scratch
folders cleaned at its exit), without a new interpreter importing rtlopt again (0.4-0.6 CPU s a
command; the suite runs several hundred).

A fork must not inherit torch's threads or a Ray connection: ``train`` always starts a new
interpreter, ``optimize`` and ``bench`` (a model policy, the Ray executor) do when the test's
process has loaded either, and what a child loaded of them is not imported here afterwards.
A call whose environment changes a ``PYTHON*`` variable (a plugin on ``PYTHONPATH``) starts a
new interpreter too. ``RTLOPT_TEST_FORK=0`` starts every command in a new interpreter.
"""

from __future__ import annotations

import atexit
import faulthandler
import gc
import importlib
import logging
import os
import select
import signal
import subprocess
import sys
import tempfile
import traceback
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

#: commands that never load torch or Ray
FORKABLE = frozenset(
    ("evaluate", "inspect", "check", "config", "doctor", "init", "pdk", "profile", "report")
)
#: commands that may (a model policy, the Ray executor): forked only from a process that has
#: not loaded what a fork must not inherit (torch's threads, a Ray connection)
FORKABLE_LIGHT = frozenset(("optimize", "bench"))
HEAVY = frozenset(("torch", "ray", "transformers", "vllm", "verl", "peft", "accelerate"))


def _forkable(args: Sequence[str], env: Mapping[str, str] | None) -> bool:
    if os.environ.get("RTLOPT_TEST_FORK", "1") == "0" or not hasattr(os, "pidfd_open"):
        return False
    if env is not None:  # what a new interpreter reads at its start (PYTHONPATH: plugins)
        keys = {k for k in (*env, *os.environ) if k.startswith("PYTHON")}
        if any(env.get(k) != os.environ.get(k) for k in keys):
            return False
    command = next((a for a in args if not a.startswith("-")), None)
    if command in FORKABLE_LIGHT:
        return not HEAVY.intersection(sys.modules)
    return command in FORKABLE


def run_rtlopt(
    args: Sequence[str],
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run([sys.executable, "-m", "rtlopt", *args], cwd=cwd, env=env,
    capture_output=True, text=True, timeout=timeout)``, forked where the command allows."""
    argv = [str(a) for a in args]
    if not _forkable(argv, env):
        return subprocess.run(
            [sys.executable, "-m", "rtlopt", *argv],
            cwd=cwd,
            env=None if env is None else dict(env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    _warm()
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryFile() as mods,
    ):
        sys.stdout.flush()
        sys.stderr.flush()
        gc.freeze()  # the child's collections leave the inherited objects' pages shared
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            _child(argv, cwd, env, (out.fileno(), err.fileno(), mods.fileno()))
        gc.unfreeze()
        code = _wait(pid, timeout, argv)
        mods.seek(0)
        _learn(mods.read().decode().split())
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(
            [sys.executable, "-m", "rtlopt", *argv],
            code,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
        )


_WARMED: set[tuple[str, str]] = set()
#: the session's own PATH: tools are warmed only from it (a test's fake tools, which may
#: record their calls, are never started here)
_SESSION_PATH = os.environ.get("PATH")


def _warm() -> None:
    """What every command computes once per process, computed here so that each child
    inherits it as a long-lived process would: the hash of rtlopt's own code, and the
    version of each EDA tool on PATH and of this interpreter's WebAssembly Yosys (a memo keyed
    by the binary's path: a test pointing ``PATH`` or ``RTLOPT_<TOOL>`` at other binaries gets
    them asked)."""
    from rtlopt.inputs import locate_tool
    from rtlopt.tools import _runner

    tools: tuple[str, ...] = ("iverilog", "vvp", "yosys", "yosys-abc", "sta")
    if os.environ.get("PATH") != _SESSION_PATH or any(
        os.environ.get(_runner.tool_env_key(n)) for n in tools
    ):
        tools = ()
    for name in tools:
        path = locate_tool(name)
        if path is not None and (name, path) not in _WARMED:
            _WARMED.add((name, path))
            _runner._version(name, path)
    from rtlopt.eda import _slang

    if tools and ("yowasp", "launcher") not in _WARMED and _slang._in_process_runtime():
        _WARMED.add(("yowasp", "launcher"))
        _slang._launcher_version()
    if ("rtlopt", "code") not in _WARMED:
        _WARMED.add(("rtlopt", "code"))
        from rtlopt.evaluate._cache import code_fingerprint

        code_fingerprint()


def _learn(modules: list[str]) -> None:
    """Import in this process what the child imported, so that the next child has it."""
    if HEAVY.intersection(m.split(".")[0] for m in modules):
        return  # this process stays free of them
    for name in modules:
        if name not in sys.modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001, S112 - a module that does not import here is skipped
                continue


def _wait(pid: int, timeout: float | None, argv: list[str]) -> int:
    fd = os.pidfd_open(pid)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        if not poller.poll(None if timeout is None else int(timeout * 1000)):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired([sys.executable, "-m", "rtlopt", *argv], timeout or 0)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status)


def _child(
    argv: list[str],
    cwd: Path | str | None,
    env: Mapping[str, str] | None,
    fds: tuple[int, int, int],
) -> None:
    out, err, mods = fds
    code = 1
    before = set(sys.modules)
    atexit._clear()  # the test process's exit handlers are not the command's
    try:
        faulthandler.disable()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        sys.__stdout__, sys.__stderr__ = sys.stdout, sys.stderr
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if cwd is not None:
            os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        _fresh_state()
        code = _main(argv)
    except BaseException:  # noqa: BLE001 - the child reports and exits, never returns
        traceback.print_exc()
    finally:
        try:
            atexit._run_exitfuncs()  # the child's own: _fresh_state cleared the inherited ones
            learnt = sorted(m for m in set(sys.modules) - before if "__main__" not in m)
            os.write(mods, "\n".join(learnt).encode())
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _fresh_state() -> None:
    """What a new interpreter starts with: no logging handlers (the test's capture), the
    loggers at their defaults, the default warning filters, rtlopt's signal handlers not
    installed, no tool or exit handler registered, the consoles not made yet (rich reads the
    terminal's width and colours when it makes one)."""
    root = logging.getLogger()
    root.handlers.clear()
    root.setLevel(logging.WARNING)
    for name in ("rtlopt", "rtlopt.progress"):
        lg = logging.getLogger(name)
        lg.handlers.clear()
        lg.setLevel(logging.NOTSET)
        lg.propagate = True
    logging.disable(logging.NOTSET)
    # the interpreter's default warning filters (the test's turn warnings into errors)
    warnings.resetwarnings()
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
        warnings.simplefilter("ignore", category)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
    tempfile.tempdir = None  # read TMPDIR again
    from rtlopt.tools import _process

    atexit.register(_process.run_cleanups)
    from rtlopt.cli import _common

    for lazy in (_common.console, _common.err_console):
        lazy._console = None  # type: ignore[attr-defined]  # made again from this environment
    _process._installed = False
    _process._stopping.clear()
    _process._groups.clear()
    _process._cleanups.clear()


def _main(argv: list[str]) -> int:
    from rtlopt.cli import main

    sys.argv = [str(Path(__file__).resolve().parents[1] / "rtlopt" / "__main__.py"), *argv]
    try:
        main()
    except SystemExit as exc:
        if exc.code is None:
            return 0
        if isinstance(exc.code, int):
            return exc.code
        print(exc.code, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        traceback.print_exc()
        return 130
    return 0
