"""The one subprocess helper every tool goes through.

argv list (never a shell), stdin closed, stdout+stderr to a log file, a wall-clock timeout that
kills the whole process group, an optional address-space limit, and a record of what ran.
"""

from __future__ import annotations

import logging
import os
import re
import resource
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rtlopt.errors import EvaluationTimeout, ToolFailed, ToolNotFound

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
    full_env.update(env or {})
    start = time.monotonic()
    timed_out = False
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
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
            rc = proc.wait()
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


def tool_versions(names: Sequence[str] = ("iverilog", "yosys", "sta")) -> dict[str, str]:
    """Versions of the named tools ("missing" for absent ones), for result records."""
    out: dict[str, str] = {}
    for n in names:
        try:
            out[n] = require_tool(n).version
        except ToolNotFound:
            out[n] = "missing"
    return out
