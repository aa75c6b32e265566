"""Running tools on candidate-derived text inside a bubblewrap sandbox.

A candidate that passes the screen is read by iverilog/vvp, Yosys (native and WebAssembly), ABC
and OpenSTA. Verilog can write files (``$writememh``, ``$fopen``) and Yosys executes ``initial``
blocks while reading, so every such process runs under ``bwrap`` (the Flatpak sandbox, Debian
package ``bubblewrap``): the whole file system read-only (``--ro-bind / /``), a fresh ``/dev``
and ``/proc``, no network (``--unshare-net``), no System V IPC, killed with its parent, and only
the folders the run needs writable (its working folder, plus what the caller names: the output
of a compile, the YoWASP cache, the ABC server's folder).

The policy is per process: :func:`configure_sandbox` (called by the evaluator from the
``[sandbox]`` settings; inherited by child processes through ``RTLOPT_SANDBOX_POLICY``).
When ``bwrap`` cannot start (not installed, user namespaces disabled), a required sandbox
refuses to run the tool (:class:`SandboxUnavailable`, an infrastructure error) and an optional
one warns once and runs the tool without it.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from rtlopt.errors import InfrastructureError

log = logging.getLogger(__name__)

#: Environment variable carrying the policy to child processes: off, warn or require.
POLICY_ENV = "RTLOPT_SANDBOX_POLICY"
_POLICIES = ("off", "warn", "require")

_state_lock = threading.Lock()
_policy: str | None = None
_warned = False


class SandboxUnavailable(InfrastructureError):
    """The sandbox is required but bubblewrap cannot start on this machine."""


def configure_sandbox(enabled: bool, require: bool) -> None:
    """Set this process's sandbox policy (and its children's, through the environment).

    Args:
        enabled: Run candidate tools under bubblewrap at all (False: never, no warning).
        require: Refuse to run a candidate tool when bubblewrap cannot start (False: warn once
            and run it without the sandbox).
    """
    global _policy
    policy = "off" if not enabled else ("require" if require else "warn")
    with _state_lock:
        _policy = policy
    os.environ[POLICY_ENV] = policy


def sandbox_policy() -> str:
    """The policy in force: ``off``, ``warn`` (the default) or ``require``."""
    with _state_lock:
        if _policy is not None:
            return _policy
    env = os.environ.get(POLICY_ENV, "")
    return env if env in _POLICIES else "warn"


def bwrap_binary() -> str | None:
    """The bubblewrap binary: ``RTLOPT_BWRAP`` if set, else ``bwrap`` on PATH."""
    override = os.environ.get("RTLOPT_BWRAP")
    if override:
        return shutil.which(override) if os.sep not in override else override
    return shutil.which("bwrap")


def _base_args(binary: str, die_with_parent: bool = True, proc: bool = True) -> list[str]:
    tail = ["--die-with-parent"] if die_with_parent else []
    # without /proc, /dev/stdout, /dev/fd/N and /proc/self/{fd,mem} name nothing: a process
    # can still write to its inherited descriptors but not open them again by name
    procfs = ["--proc", "/proc"] if proc else []
    return [binary, "--ro-bind", "/", "/", "--dev", "/dev", *procfs] + [
        "--unshare-net",
        "--unshare-ipc",
        *tail,
    ]


def _probe_program() -> str:
    """A program that exists and does nothing, by absolute path (PATH may be minimal)."""
    for p in ("/bin/true", "/usr/bin/true"):
        if os.access(p, os.X_OK):
            return p
    return shutil.which("true") or sys.executable


@functools.cache
def _probe(binary: str | None) -> str | None:
    """Why bubblewrap cannot start here (None: it works). Run once per binary."""
    if binary is None:
        return "bwrap is not installed (Debian/Ubuntu package bubblewrap)"
    try:
        out = subprocess.run(
            [*_base_args(binary), "--", _probe_program()],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{binary} cannot start: {exc}"
    if out.returncode != 0:
        why = (out.stderr or out.stdout).strip().splitlines()
        return f"{binary} cannot start: {why[-1] if why else f'exit {out.returncode}'}"
    return None


def sandbox_available() -> str | None:
    """Why the sandbox cannot run on this machine, or None when it can."""
    return _probe(bwrap_binary())


def _unavailable(why: str) -> None:
    """Refuse (policy require) or warn once (policy warn)."""
    global _warned
    if sandbox_policy() == "require":
        raise SandboxUnavailable(
            f"the tool sandbox is required but {why}",
            hint="install bubblewrap (scripts/setup.sh), or set sandbox.require = 'never'",
        )
    with _state_lock:
        first, _warned = not _warned, True
    if first:
        log.warning(
            "tools run on candidates WITHOUT a sandbox: %s (install bubblewrap; "
            "sandbox.require = 'always' refuses instead)",
            why,
        )


def sandboxed(
    argv: Sequence[str],
    writable: Iterable[Path],
    *,
    die_with_parent: bool = True,
    proc: bool = True,
    hidden: Iterable[Path] = (),
) -> list[str]:
    """``argv`` wrapped in bubblewrap with only ``writable`` folders writable.

    ``proc`` False: no ``/proc`` (nor, through it, ``/dev/stdout`` and ``/dev/fd``).
    ``hidden``: folders covered by an empty file system, so that nothing in them can be opened
    by name (a descriptor the tool inherits still works: the simulation's log).

    ``die_with_parent``: kill the tool when the thread that started it ends (Linux ties the
    parent-death signal to the thread). Long-lived workers, started from one thread and used
    from others, pass False: they end when their stdin closes and are reaped by process group.

    The folders are created when missing (bubblewrap binds existing paths only). Returns
    ``argv`` unchanged under policy ``off``, or when bubblewrap cannot start and the policy
    allows that (a warning, once).

    Raises:
        SandboxUnavailable: bubblewrap cannot start and the policy requires it.
    """
    if sandbox_policy() == "off":
        return list(argv)
    binary = bwrap_binary()
    why = _probe(binary)
    if why is not None or binary is None:
        _unavailable(why or "bwrap is not installed")
        return list(argv)
    binds: list[str] = []
    seen: set[str] = set()
    for w in writable:
        w.mkdir(parents=True, exist_ok=True)
        real = os.path.realpath(w)
        if real in seen:
            continue
        seen.add(real)
        binds += ["--bind", real, real]
    for h in hidden:
        h.mkdir(parents=True, exist_ok=True)
        binds += ["--tmpfs", os.path.realpath(h)]
    return [*_base_args(binary, die_with_parent, proc), *binds, "--", *argv]
