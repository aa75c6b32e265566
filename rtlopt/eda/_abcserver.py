"""A long-lived ABC process that keeps the liberty loaded for Yosys's ``abc -liberty`` pass.

Yosys's ``abc`` pass starts a fresh ABC for every call, and with a liberty each start parses
it again (``read_lib``: 0.1 s CPU for the trimmed sky130 file, plus ~0.06 s to start ABC): on
the C910 LZA that is a third of the synthesis. :class:`AbcServer` keeps one ABC process with the
liberty read once, and gives Yosys a small shell client (``abc -exe <client>``, the documented
way to run ABC through a wrapper). For each call the client hands the script Yosys wrote to a
relay thread here, which runs it in the warm ABC with the ``read_lib`` of the preloaded liberty
left out, and streams ABC's output back to the client (so Yosys logs it as usual).

Identical results: ABC maps from the network ``read_blif`` loads and the library ``read_lib``
installed; neither depends on earlier jobs (checked: the mapped BLIF of interleaved designs is
byte-identical to a fresh ABC's, and ``bench/eval_stages.py`` compares the PPA of every candidate
with the naive flow). A script that reads another library, or anything else unexpected, is run
by a fresh ABC exactly as Yosys would have run it.

Failures never change a verdict: a job that does not finish, or an ABC that dies, makes the
client exit non-zero, Yosys then fails as it would with a crashed ABC (an infrastructure error),
and the server restarts on the next job. When the client disappears (Yosys killed on its time
limit) the job's ABC is killed too. Not shared between threads: one server per ``PpaFlow``.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import select
import shutil
import signal
import subprocess
import threading
import time
import uuid
from pathlib import Path

from rtlopt.errors import ToolFailed
from rtlopt.tools import (
    SandboxUnavailable,
    check_not_stopping,
    limited,
    reap_group,
    sandboxed,
    script_path,
    stopping,
    track_group,
    untrack_group,
)

__all__ = ["AbcServer", "abc_binary_from_log"]

log = logging.getLogger(__name__)

# Yosys logs the command it runs: Running ABC command: "berkeley-abc" -s -f <dir>/abc.script 2>&1
_ABC_COMMAND = re.compile(r'^Running ABC command: "([^"]+)" -s -f ', re.M)
_READ_LIB = re.compile(r'^read_lib -w "([^"]*)";\s*$')
_FOREIGN = re.compile(r"\s*(?:read_lib|read_library|read_genlib|read_super|source)\b")
_PROMPT = re.compile(r"^abc \d+> ")
# the generic mapping's own gate library, written by Yosys into its temporary folder
_OWN_GENLIB = re.compile(r"^read_library \S+/stdcells\.genlib;?$")
_GENLIB = ("/stdcells.genlib", "/stdcells.genlib;")

# The client Yosys runs as ABC: ``<client> -s -f <dir>/abc.script``. POSIX sh, a constant text
# (no path is pasted into it): the request FIFO is the file ``requests`` beside the client
# itself (``$0``), and every name it writes is inside Yosys's own temporary folder. The request
# is one line (< PIPE_BUF bytes, so written atomically): reply FIFO, script, client pid.
_CLIENT = """\
#!/bin/sh
# rtlopt: runs one Yosys `abc` job in rtlopt's long-lived ABC (rtlopt/eda/_abcserver.py)
s=""
while [ $# -gt 0 ]; do
  case "$1" in -f) shift; s="$1";; esac
  shift
done
case "$s" in /*) ;; *) s="$PWD/$s";; esac
case "$0" in */*) q="${0%/*}/requests";; *) q="./requests";; esac
[ -p "$q" ] || { echo "rtlopt ABC server is not running"; exit 70; }
r="${s%/*}/rtlopt-abc-reply"
mkfifo "$r" || exit 71
printf '%s\\t%s\\t%s\\n' "$r" "$s" "$$" > "$q" || { rm -f "$r"; exit 73; }
st=72
while IFS= read -r l; do
  case "$l" in
    "RTLOPT_ABC_STATUS "*) st="${l#RTLOPT_ABC_STATUS }";;
    *) printf '%s\\n' "$l";;
  esac
done < "$r"
exit "$st"
"""
# an ABC command writing a file, as Yosys writes it: write_blif <dir>/output.blif
_WRITE = re.compile(r'^(write_\w+)\s+"?([^";\s]+)"?;?\s*$')


def abc_binary_from_log(log_text: str) -> str | None:
    """The ABC command Yosys ran for its last ``abc`` call, from its log (None: not found)."""
    found = _ABC_COMMAND.findall(log_text)
    return found[-1] if found else None


class AbcServer:
    """One warm ABC (with ``liberty`` loaded), and the client Yosys runs instead of ABC.

    Args:
        abc: The ABC binary Yosys itself runs (see :func:`abc_binary_from_log`).
        liberty: The liberty file Yosys's ``abc -liberty`` reads (read once here). None: a
            server for the generic mapping inside ``synth`` (``abc -fast``), whose scripts
            read their own small gate library (``read_library``) every time and run as they
            are; only the start of ABC is saved.
        workdir: Folder for the request FIFO, the client script and the log.
        timeout: Seconds allowed per job (the liberty read at start: 4 times this).
        memory_mb: Address-space limit of the ABC process.
        max_jobs: Restart ABC after this many jobs (bounds memory growth).
    """

    def __init__(
        self,
        abc: str,
        liberty: Path | None,
        workdir: Path,
        *,
        timeout: float = 300.0,
        memory_mb: int | None = None,
        max_jobs: int = 500,
    ) -> None:
        self.abc = abc
        self.liberty = liberty
        self.workdir = workdir
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.max_jobs = max_jobs
        self.jobs = 0
        self.starts = 0
        self.fallbacks = 0
        workdir.mkdir(parents=True, exist_ok=True)
        self._req = workdir / "requests"
        self.client = workdir / "abc-client.sh"
        self._log_path = workdir / "abc-server.log"
        self._proc: subprocess.Popen[bytes] | None = None
        self._buf = b""
        self._closed = False
        self._ready = False
        os.mkfifo(self._req, 0o600)
        self.client.write_text(_CLIENT)
        self.client.chmod(0o700)
        # read and write: the FIFO never reports end-of-file between clients
        self._req_fd = os.open(self._req, os.O_RDWR)
        self._log = self._log_path.open("a")
        self._thread = threading.Thread(target=self._serve, name="rtlopt-abc", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ ABC process
    def _start(self) -> None:
        if self._closed:
            raise OSError("the ABC server is closed")
        try:
            check_not_stopping("ABC")
        except ToolFailed as exc:
            raise OSError(exc.message) from None
        argv = [self.abc, "-s"]
        stdbuf = shutil.which("stdbuf")
        if stdbuf is not None:  # ABC's stdout is a pipe: line-buffer it
            argv = [stdbuf, "-oL", *argv]
        # it maps candidate netlists: sandboxed, writing only in its own folder (the outputs
        # of each job are written there and copied out, see _job)
        try:
            argv = sandboxed(argv, [self.workdir], die_with_parent=False)
        except SandboxUnavailable as exc:
            raise OSError(exc.message) from None
        memory_mb = self.memory_mb
        start, options = limited(argv, memory_mb)
        self._proc = subprocess.Popen(
            start,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=self.workdir,
            env={**os.environ, "HOME": str(self.workdir)},
            close_fds=True,
            **options,
        )
        if not track_group(self._proc.pid) or self._closed:
            self._stop()
            raise OSError("rtlopt is stopping, or the server was closed")
        self._buf = b""
        self.starts += 1
        self.jobs = 0
        if self.liberty is None:
            return
        text, ok = self._command(
            f'read_lib -w "{script_path(self.liberty)}"', self.timeout * 4, None
        )
        self._log.write(text)
        self._log.flush()
        if not ok or "Parsing finished successfully" not in text:
            self._stop()
            raise OSError(f"ABC could not read {self.liberty}")

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        reap_group(proc)

    def _command(self, command: str, timeout: float, client: int | None) -> tuple[str, bool]:
        """Run one ABC command line; (its output, whether it finished).

        Stops early (False) when the ABC process dies, the time is up, or ``client`` (the pid
        of the Yosys client waiting for it) is gone.
        """
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        token = f"RTLOPT_ABC_DONE_{uuid.uuid4().hex}"
        try:
            proc.stdin.write(f"{command}\necho {token}\n".encode())
            proc.stdin.flush()
        except OSError:
            return "", False
        marker = f"\n{token}".encode()  # the echo's output, not the echoed command line
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        data = self._buf
        while marker not in b"\n" + data:
            left = deadline - time.monotonic()
            if left <= 0:
                return data.decode(errors="replace"), False
            if client is not None and not _alive(client):
                return data.decode(errors="replace"), False
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return data.decode(errors="replace"), False
            data += chunk
        end = (b"\n" + data).index(marker) - 1 + len(marker)
        nl = data.find(b"\n", end)
        cut = len(data) if nl < 0 else nl + 1
        self._buf = data[cut:]
        text = data[: end - len(token)].decode(errors="replace")
        return text, True

    # ------------------------------------------------------------------ jobs
    def _serve(self) -> None:
        try:  # read the liberty now, while the caller does other work
            self._start()
        except OSError as exc:
            log.info("ABC server start failed: %s", exc)
            self._stop()
        pending = b""
        while True:
            try:
                chunk = os.read(self._req_fd, 4096)
            except OSError:
                return
            if self._closed or not chunk:
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if line == b"quit":
                    return
                try:
                    self._job(line.decode(errors="replace"))
                except Exception:  # keep serving: the client sees a failure status
                    if stopping() or self._closed:  # a signal ends rtlopt: not a failure to report
                        log.debug("ABC server job ended while stopping", exc_info=True)
                    else:
                        log.exception("ABC server job failed")

    def _job(self, line: str) -> None:
        parts = line.split("\t")
        if len(parts) != 3 or not parts[2].isdigit():
            return
        reply, script, client = Path(parts[0]), Path(parts[1]), int(parts[2])
        try:
            text = script.read_text(errors="replace")
        except OSError as exc:
            self._reply(reply, f"rtlopt ABC server: cannot read {script}: {exc}\n", 1)
            return
        kept, outputs, foreign = self._warm_script(text, script.parent)
        if foreign:
            self._fresh(reply, script, client)
            return
        warm = script.with_name("rtlopt-warm.script")
        warm.write_text("\n".join(kept) + "\n")
        out, ok = self._warm(f'source "{script_path(warm)}"', client)
        for staged, target in outputs:  # the sandboxed ABC wrote them in its own folder
            try:
                if ok:
                    shutil.move(staged, target)
            except OSError as exc:
                out, ok = out + f"rtlopt ABC server: cannot move {staged}: {exc}\n", False
            finally:
                staged.unlink(missing_ok=True)
        self._reply(reply, out, 0 if ok else 1)

    def _warm_script(
        self, text: str, folder: Path
    ) -> tuple[list[str], list[tuple[Path, Path]], bool]:
        """The script for the warm ABC: (its lines, (staged, target) outputs, foreign).

        The preloaded ``read_lib`` is left out; each ``write_*`` into Yosys's folder writes a
        file in the server's own folder instead (the only one the sandboxed ABC may write),
        moved to its target after the job. Foreign: another library, a write elsewhere, or
        anything else unexpected (run by a fresh ABC instead)."""
        kept: list[str] = []
        outputs: list[tuple[Path, Path]] = []
        preloaded = False
        foreign = False
        for raw in text.splitlines():
            m = _READ_LIB.match(raw)
            if m is not None and self.liberty is not None and m.group(1) == str(self.liberty):
                preloaded = True
                continue
            if raw.startswith("echo + read_lib ") and self.liberty is not None:
                continue
            if _FOREIGN.match(raw) and not (
                self.liberty is None and _OWN_GENLIB.match(raw) and raw.endswith(_GENLIB)
            ):
                foreign = True
            w = _WRITE.match(raw)
            if w is not None:
                target = Path(w.group(2))
                if not target.is_absolute() or target.parent != folder:
                    foreign = True
                staged = self.workdir / f"out-{uuid.uuid4().hex[:12]}{target.suffix[:8]}"
                outputs.append((staged, target))
                raw = f"{w.group(1)} {script_path(staged)}"
            kept.append(raw)
        return kept, outputs, foreign or preloaded != (self.liberty is not None)

    def _warm(self, command: str, client: int) -> tuple[str, bool]:
        try:
            if self._proc is None or self._proc.poll() is not None or self.jobs >= self.max_jobs:
                self._stop()
                self._start()
        except OSError as exc:
            return f"rtlopt ABC server: {exc}\n", False
        self.jobs += 1
        out, ok = self._command(command, self.timeout, client)
        if not ok:
            self._log.write(out)
            self._log.flush()
            self._stop()  # a half-done job leaves ABC in an unknown state: start afresh
        lines = [ln for ln in out.splitlines() if not _PROMPT.match(ln)]
        return "\n".join(lines) + "\n", ok

    def _fresh(self, reply: Path, script: Path, client: int) -> None:
        """Run the script as Yosys would have: a fresh ABC."""
        self.fallbacks += 1
        memory_mb = self.memory_mb
        out = script.with_name("rtlopt-fresh.log")
        try:
            check_not_stopping("ABC")
            argv = sandboxed([self.abc, "-s", "-f", str(script)], [script.parent])
            start, options = limited(argv, memory_mb, self.timeout)
            with out.open("wb") as f:
                proc = subprocess.Popen(
                    start,
                    stdin=subprocess.DEVNULL,
                    stdout=f,
                    stderr=subprocess.STDOUT,
                    cwd=script.parent,
                    **options,
                )
            try:
                if not track_group(proc.pid):  # a signal: killed by track_group
                    rc = proc.wait()
                else:
                    rc = proc.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                rc = proc.wait()
            finally:
                untrack_group(proc.pid)
            text = out.read_text(errors="replace")
            out.unlink()
        except (OSError, ToolFailed, SandboxUnavailable) as exc:
            self._reply(reply, f"rtlopt ABC server: {exc}\n", 1)
            return
        self._reply(reply, text, rc)

    def _reply(self, reply: Path, text: str, status: int) -> None:
        """Write the output and the status to the client's FIFO (skipped when it is gone).

        The FIFO's name is removed as soon as both ends are open, before anything is written:
        the client exits at end of input and Yosys then cleans its temporary folder, which
        asserts on anything but regular files and folders, and on an entry removed while it
        scans (the open ends keep working without the name)."""
        try:
            deadline = time.monotonic() + 5.0
            while True:
                try:
                    fd = os.open(reply, os.O_WRONLY | os.O_NONBLOCK)
                    break
                except OSError as exc:
                    if exc.errno != errno.ENXIO or time.monotonic() > deadline:
                        return  # the client is gone
                    time.sleep(0.001)
            reply.unlink(missing_ok=True)
            try:
                os.set_blocking(fd, True)
                data = (text if text.endswith("\n") or not text else text + "\n").encode()
                os.write(fd, data + f"RTLOPT_ABC_STATUS {status}\n".encode())
            except OSError:
                pass
            finally:
                os.close(fd)
        finally:
            reply.unlink(missing_ok=True)

    # ------------------------------------------------------------------ lifetime
    def close(self) -> None:
        """Stop ABC and the relay thread; remove the request FIFO. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            os.write(self._req_fd, b"quit\n")
        except OSError:
            pass
        self._stop()  # ends a running job or the start-up liberty read at once
        self._thread.join(timeout=5)
        self._stop()
        try:
            os.close(self._req_fd)
        except OSError:
            pass
        self._req.unlink(missing_ok=True)
        self._log.close()


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, killed but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
