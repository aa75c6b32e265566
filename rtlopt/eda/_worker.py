"""A long-lived OpenSTA process that keeps the liberty loaded between candidates.

This is the one place that holds a tool process outside ``run_tool``: ``sta`` is started in its
own process group with stdin/stdout pipes, reads the liberty once, and then runs one
``source <candidate.tcl>`` per netlist. OpenSTA 2.0.17 accepts a new ``read_verilog`` +
``link_design`` in the same session (timing equals a fresh process; power does too once the
input activity is set again, which :func:`rtlopt.eda.opensta.candidate_tcl` does).

Each job has a wall-clock limit: on timeout the process group is killed, the worker restarts
(reading the liberty again) and :class:`~rtlopt.errors.EvaluationTimeout` is raised.
:meth:`recycle` restarts the process in the background (its liberty read overlaps the
caller's next synthesis): ``PpaFlow`` does this after every design with registers when power
is measured, because OpenSTA 2.0.17 carries sequential activity state over to the next linked
design (power then differs from a fresh process by up to a few percent). A worker
that dies mid-job raises :class:`~rtlopt.errors.ToolFailed` and restarts on the next job. The
worker is recycled every ``max_jobs`` jobs to bound memory growth. Not thread-safe: use one
worker per thread (``PpaFlow`` does).
"""

from __future__ import annotations

import logging
import os
import select
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import IO

from rtlopt.errors import EvaluationTimeout, ToolFailed, ToolNotFound
from rtlopt.tools import (
    check_not_stopping,
    limited,
    reap_group,
    require_tool,
    sandboxed,
    script_path,
    tcl_word,
    track_group,
)

log = logging.getLogger(__name__)


class StaWorker:
    """One ``sta`` process with a liberty loaded.

    Args:
        liberty: Plain (not gzip'd) liberty file read once per process start.
        log_path: Log file receiving everything the process prints.
        timeout: Seconds allowed per job (and for the start-up liberty read, times 4).
        memory_mb: Address-space limit of the process.
        max_jobs: Restart the process after this many jobs.
    """

    def __init__(
        self,
        liberty: Path,
        log_path: Path,
        *,
        timeout: float = 120.0,
        memory_mb: int | None = None,
        max_jobs: int = 200,
    ) -> None:
        self.liberty = liberty
        self.log_path = log_path
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.sta = require_tool("sta")  # every (re)start runs this binary
        self.max_jobs = max_jobs
        self.starts = 0
        self.jobs = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._buf = b""
        self._log: IO[str] | None = None
        self._home = log_path.parent / ".sta-home"
        self._start_token: str | None = None

    # ------------------------------------------------------------------ process control
    @property
    def alive(self) -> bool:
        """Whether the process is running."""
        return self._proc is not None and self._proc.poll() is None

    def _start(self, wait: bool = True) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._home.mkdir(parents=True, exist_ok=True)
        if self._log is None:
            self._log = self.log_path.open("a")
        # it reads candidate netlists: sandboxed, writing only in its own folder
        argv = sandboxed(
            self.sta.argv("-no_init", "-no_splash"), [self.log_path.parent], die_with_parent=False
        )
        self._log.write(f"$ {' '.join(argv)}  # liberty {self.liberty}\n")
        self._log.flush()
        env = dict(os.environ)
        env["HOME"] = str(self._home)  # keep its command history out of the user's home
        memory_mb = self.memory_mb
        check_not_stopping("OpenSTA")
        try:
            start, options = limited(argv, memory_mb, path=env.get("PATH"))
            self._proc = subprocess.Popen(
                start,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=self.log_path.parent,
                env=env,
                close_fds=True,
                **options,
            )
        except FileNotFoundError:
            raise ToolNotFound(
                f"'{self.sta.path}' is not installed or not on PATH",
                hint="install it with: sudo apt-get install opensta",
            ) from None
        if not track_group(self._proc.pid):
            self.close()
            raise ToolFailed("OpenSTA stopped: rtlopt is stopping")
        self._buf = b""
        self.starts += 1
        self.jobs = 0
        token = uuid.uuid4().hex
        start_tcl = self._home / "start.tcl"
        start_tcl.write_text(
            f"if {{[catch {{read_liberty {tcl_word(script_path(self.liberty))}}} e]}} "
            f'{{puts "RTLOPT_ERROR [string map {{"\\n" " "}} $e]"}}\n'
            f'puts "RTLOPT_DONE {token}"\n'
        )
        # sourced from a file: the interactive shell echoes commands, and an echoed token
        # would look like the job's end
        self._send(f"source {tcl_word(script_path(start_tcl))}\n")
        self._start_token = token
        if wait:
            self._finish_start()

    def _finish_start(self) -> None:
        token, self._start_token = self._start_token, None
        if token is None:
            return
        text = self._receive(token, self.timeout * 4)
        if "\nRTLOPT_ERROR" in "\n" + text:
            self.close()
            raise ToolFailed(
                f"OpenSTA could not read {self.liberty}",
                log_path=self.log_path,
                stderr_tail="\n".join(text.splitlines()[-10:]),
            )

    def close(self) -> None:
        """Stop the process (kill its group if it does not exit at once)."""
        proc, self._proc = self._proc, None
        self._start_token = None
        if proc is not None:
            try:
                if proc.poll() is None and proc.stdin is not None:
                    proc.stdin.write(b"exit\n")
                    proc.stdin.flush()
                    proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
            reap_group(proc)
        if self._log is not None:
            self._log.close()
            self._log = None

    def _kill(self) -> None:
        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.close()

    # ------------------------------------------------------------------ I/O
    def _send(self, commands: str) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(commands.encode())
            proc.stdin.flush()
        except OSError as exc:
            self._kill()
            raise ToolFailed(f"OpenSTA worker died ({exc})", log_path=self.log_path) from exc

    def _receive(self, token: str, timeout: float) -> str:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        marker = f"RTLOPT_DONE {token}".encode()
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        chunks: list[bytes] = [self._buf]
        self._buf = b""
        data = b"".join(chunks)
        while marker not in data:
            left = deadline - time.monotonic()
            if left <= 0:
                self._write_log(data.decode(errors="replace"))
                self._kill()
                raise EvaluationTimeout(
                    f"sta timed out after {timeout:g}s", hint=f"see {self.log_path}"
                )
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self._write_log(data.decode(errors="replace"))
                rc = proc.wait()
                self.close()
                raise ToolFailed(
                    f"OpenSTA worker exited with {rc}",
                    returncode=rc,
                    log_path=self.log_path,
                    stderr_tail="\n".join(data.decode(errors="replace").splitlines()[-20:]),
                )
            data += chunk
        end = data.index(marker) + len(marker)
        nl = data.find(b"\n", end)
        cut = len(data) if nl < 0 else nl + 1
        self._buf = data[cut:]
        text = data[:cut].decode(errors="replace")
        self._write_log(text)
        return text

    def _write_log(self, text: str) -> None:
        if self._log is not None:
            self._log.write(text)
            self._log.flush()

    # ------------------------------------------------------------------ jobs
    def run(self, script: Path, timeout: float | None = None) -> str:
        """Source a Tcl file that ends by printing ``RTLOPT_DONE <token>``; return its output.

        The token is read from the script's last ``RTLOPT_DONE`` line.

        Raises:
            EvaluationTimeout: the job ran past its limit (the worker restarts next time).
            ToolFailed: the process died.
        """
        text = script.read_text()
        idx = text.rfind("RTLOPT_DONE ")
        if idx < 0:
            raise ValueError(f"{script} does not print an RTLOPT_DONE token")
        token = text[idx + len("RTLOPT_DONE ") :].split()[0].strip('"')
        if not self.alive or self.jobs >= self.max_jobs:
            if self._proc is not None:
                self.close()
            self._start()
        self._finish_start()
        self.jobs += 1
        self._send(f"source {tcl_word(script_path(script))}\n")
        return self._receive(token, timeout or self.timeout)

    def recycle(self) -> None:
        """Replace the process by a fresh one now, without waiting for its liberty read.

        The next :meth:`run` waits for the read to finish, so the restart overlaps whatever the
        caller does meanwhile (e.g. synthesizing the next candidate).
        """
        self.close()
        self._start(wait=False)

    def __enter__(self) -> StaWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
