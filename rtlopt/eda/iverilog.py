"""Icarus Verilog: compile (iverilog -g2012) and simulate (vvp -n) through :func:`run_tool`.

A candidate whose simulation never ends (a zero-delay combinational loop, an ``always`` without
an event control) makes :func:`simulate` raise :class:`SimulationTimeout`, a subclass of
:class:`~rtlopt.errors.EvaluationTimeout`. We raise rather than return a failed result because
this layer cannot tell a hanging candidate from an overloaded machine; the caller can: when
the reference's own simulation finished well inside the limit, the hang is the candidate's
fault and it may be rejected as invalid with the reason "simulation timed out" (the
exception carries ``timeout_s`` and ``log_path`` for that decision).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rtlopt.config import RewardConfig
from rtlopt.eda._vvpguard import VvpGuard, foreign_system_calls
from rtlopt.errors import EvaluationTimeout, ToolNotFound, UsageError
from rtlopt.harness import SimReport, parse_sim_report
from rtlopt.results import SimResult
from rtlopt.tools import Limits, Tool, ToolRun, argv_path, require_tool, run_tool

log = logging.getLogger(__name__)

#: Keywords of port-binding errors (paper, appendix I): the syntax score is scaled down.
PORT_ERROR_KEYWORDS = ("port", "unknown module", "not a module")

_ERROR_LINE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):\s*(?:error:|syntax error|sorry:)"
    r"(?P<msg>.*)$",
    re.M | re.I,
)
_SUMMARY = re.compile(r"^(\d+) error\(s\)", re.M)


class SimulationTimeout(EvaluationTimeout):
    """The simulation ran past its limit (most likely the candidate never settles)."""

    def __init__(self, message: str, *, timeout_s: float, log_path: Path) -> None:
        self.timeout_s = timeout_s
        self.log_path = log_path
        super().__init__(message, hint=f"see {log_path}")


@dataclass(frozen=True)
class CompileResult:
    """Outcome of one iverilog run.

    Attributes:
        ok: The compiler exited 0 and wrote its output.
        n_errors: Error messages in the log (0 when ok; 0 with ``ok`` False means unparseable).
        port_errors: An error mentions a port-binding keyword (port, unknown module, ...).
        log_path: The compiler log.
        output: The compiler's log text.
        vvp: The compiled file (exists when ``ok``).
        errors: The error lines, as printed.
    """

    ok: bool
    n_errors: int
    port_errors: bool
    log_path: Path
    output: str
    vvp: Path
    errors: tuple[str, ...] = ()


def count_errors(log_text: str) -> tuple[int, bool, list[str]]:
    """Count compiler errors in an iverilog log.

    Returns:
        (number of error lines, whether one is a port-binding error, the error lines). The
        count falls back to iverilog's "N error(s)" summary when no error line is recognised.
    """
    lines = [m.group(0).strip() for m in _ERROR_LINE.finditer(log_text)]
    n = len(lines)
    if n == 0:
        m = _SUMMARY.search(log_text)
        if m:
            n = int(m.group(1))
    low = " ".join(lines).lower() if lines else log_text.lower()
    port = any(k in low for k in PORT_ERROR_KEYWORDS) and n > 0
    return n, port, lines


def compile_sources(
    files: Sequence[Path],
    workdir: Path,
    *,
    top: str | None = None,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    out: Path | None = None,
    timeout: float = 60.0,
    memory_mb: int | None = None,
    log_name: str | None = None,
    libraries: Sequence[Path] = (),
) -> CompileResult:
    """Compile Verilog with ``iverilog -g2012``.

    Args:
        files: Sources, in order.
        workdir: Working directory (and log location).
        top: Top module (``-s``); None lets iverilog pick the uninstantiated modules.
        include_dirs: ``-I`` directories.
        defines: ``-D`` macros (empty value: defined without a value).
        out: Output vvp file (default ``<workdir>/a.vvp``).
        timeout: Seconds before the compiler is killed.
        memory_mb: Address-space limit.
        log_name: Log file name in ``workdir`` (default derived from ``out``).
        libraries: Library files (``-l``): their modules are used only where instantiated.

    Raises:
        EvaluationTimeout: The compiler ran past ``timeout``.
    """
    out = out if out is not None else workdir / "a.vvp"
    workdir.mkdir(parents=True, exist_ok=True)
    log_path = workdir / (log_name or f"{out.stem}.compile.log")
    written = out if out.is_absolute() else workdir / out  # a relative path is in workdir
    if written.exists():
        written.unlink()
    argv = compile_argv(
        require_tool("iverilog"),
        files,
        out,
        top=top,
        include_dirs=include_dirs,
        defines=defines,
        libraries=libraries,
    )
    run = run_tool(
        argv,
        cwd=workdir,
        log_path=log_path,
        limits=Limits(timeout, memory_mb),
        writable=[written.parent],
    )
    from rtlopt.tools import raise_if_crashed

    raise_if_crashed(run, "compiling")  # a crash is a tool failure, never "does not compile"
    text = run.output()
    n, port, lines = count_errors(text)
    ok = run.returncode == 0 and written.exists()
    if ok:
        n, port, lines = 0, False, []
    log.debug("iverilog %s: ok=%s errors=%d", out.name, ok, n)
    return CompileResult(ok, n, port, log_path, text, written, tuple(lines))


def compile_argv(
    iverilog: Tool,
    files: Sequence[Path],
    out: Path,
    *,
    top: str | None = None,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    libraries: Sequence[Path] = (),
) -> list[str]:
    """The ``iverilog -g2012`` command line of :func:`compile_sources`.

    Raises:
        UsageError: a define with a line break.
    """
    # no shell is involved, but iverilog copies paths and defines into line-based command
    # files: a line break would start a new directive there
    argv = iverilog.argv("-g2012", "-o", argv_path(out))
    if top:
        argv += ["-s", top]
    for inc in include_dirs:
        argv += ["-I", argv_path(inc)]
    for k, v in (defines or {}).items():
        if "\n" in k + v or "\r" in k + v:
            raise UsageError(
                f"define {k!r} holds a line break",
                hint="write it on one line in -D / project.defines",
            )
        argv.append(f"-D{k}={v}" if v != "" else f"-D{k}")
    for lib in libraries:
        argv += ["-l", argv_path(lib)]
    return argv + [argv_path(f) for f in files]


def preprocess_argv(
    iverilog: Tool,
    files: Sequence[Path],
    out_name: str,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
) -> list[str]:
    """The ``iverilog -E`` command line writing ``out_name`` in the working folder.

    With ``-E`` the iverilog driver runs its preprocessor through a shell (``ivlpp ... >
    out``), so the output is named by a plain file name relative to the folder the command
    runs in, never by a path a user or a run folder chose.

    Raises:
        UsageError: ``out_name`` is not a plain file name; a define with a line break.
    """
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", out_name):
        raise UsageError(f"preprocessor output {out_name!r} is not a plain file name")
    argv = compile_argv(iverilog, files, Path(out_name), include_dirs=include_dirs, defines=defines)
    argv[1:1] = ["-E"]
    return argv


#: Bytes that make ``iverilog -E`` change a file: the directive mark (every directive and
#: macro use starts with it), a carriage return (dropped) and NUL.
_PREPROCESSED_BYTES = (b"`", b"\r", b"\0")


def verbatim_preprocessed(files: Sequence[Path]) -> bytes | None:
    """What ``iverilog -E`` writes for ``files`` when it is known without running it: a file
    with no directive mark, carriage return or NUL byte is copied byte for byte, and files are
    concatenated with nothing between them (no line break added after a last line without
    one); None when a file holds one of those bytes or cannot be read, so the preprocessor
    runs. Include folders and defines change nothing where no file names a directive
    (tests/integration/test_verbatim_preprocessing.py compares it with the tool's output)."""
    parts: list[bytes] = []
    for f in files:
        try:
            data = Path(f).read_bytes()
        except OSError:
            return None
        if any(b in data for b in _PREPROCESSED_BYTES):
            return None
        parts.append(data)
    return b"".join(parts)


def run_vvp(
    vvp_file: Path, workdir: Path, *, limits: Limits, log_name: str, proc: bool = True
) -> ToolRun:
    """Run ``vvp -n`` on a compiled file (a timeout is returned, not raised); ``proc`` False:
    a sandbox without ``/proc``. A verdict never comes from this run: see
    :func:`run_simulation`."""
    return run_tool(
        require_tool("vvp").argv("-n", argv_path(vvp_file)),
        cwd=workdir,
        log_path=workdir / log_name,
        limits=limits,
        raise_on_timeout=False,
        proc=proc,
    )


def yosys_simulation_libraries() -> tuple[Path, ...]:
    """Yosys's Verilog models of its internal cells (``simcells.v``, ``simlib.v``).

    Looked up in ``$RTLOPT_YOSYS_DATDIR``, then ``yosys-config --datdir`` (the one beside the
    recorded ``yosys`` binary, else the one on PATH), then
    ``<prefix>/share/yosys`` beside the ``yosys`` binary. Empty when none is found: the generic
    netlists rtlopt writes are plain Verilog, so these only back up cells that
    ``write_verilog`` leaves as instances. Read once per (datdir, binary, yosys-config): a
    changed ``RTLOPT_YOSYS`` or PATH is honoured, as by ``require_tool``.
    """
    binary: Path | None
    try:
        binary = Path(require_tool("yosys").path)
    except ToolNotFound:
        binary = None
    # the yosys-config of the recorded yosys binary first (RTLOPT_YOSYS may name another one)
    beside = binary.parent / "yosys-config" if binary is not None else None
    config = (
        str(beside) if beside is not None and beside.is_file() else shutil.which("yosys-config")
    )
    return _simulation_libraries(os.environ.get("RTLOPT_YOSYS_DATDIR", ""), binary, config)


@functools.cache
def _simulation_libraries(datdir: str, binary: Path | None, config: str | None) -> tuple[Path, ...]:
    candidates: list[Path] = []
    if datdir:
        candidates.append(Path(datdir))
    if config:
        try:
            out = subprocess.run(
                [config, "--datdir"],
                capture_output=True,
                text=True,
                timeout=20,
                stdin=subprocess.DEVNULL,
            )
            if out.returncode == 0 and out.stdout.strip():
                candidates.append(Path(out.stdout.strip()))
        except (OSError, subprocess.TimeoutExpired):
            pass
    if binary is not None:
        candidates.append(binary.resolve().parent.parent / "share" / "yosys")
    for d in candidates:
        libs = tuple(d / n for n in ("simcells.v", "simlib.v") if (d / n).is_file())
        if libs:
            return libs
    return ()


def syntax_score(result: CompileResult, cfg: RewardConfig) -> float:
    """The paper's syntax reward: 1 when it compiles, else ``1/(1+n_err)``, times the port
    factor on port-binding errors, or ``cfg.unparseable_syn`` when no error can be counted.
    """
    if result.ok:
        return 1.0
    if result.n_errors <= 0:
        return cfg.unparseable_syn
    score = 1.0 / (1.0 + result.n_errors)
    if result.port_errors:
        score *= cfg.port_error_factor
    return score


def run_simulation(
    vvp_file: Path,
    workdir: Path,
    *,
    timeout: float,
    memory_mb: int | None,
    secret: str,
    log_name: str = "sim.log",
    guard: VvpGuard | None = None,
) -> SimReport:
    """Run ``vvp -n`` on a compiled testbench, sealed, and read its tagged verdict.

    Sealed: the design cannot read the secret nor touch the verdict's channel, even when it
    reaches ``$fopen`` or ``$fgets``. The compiled file (it holds the secret) is read into
    memory and deleted before anything runs; ``vvp`` reads it through a named pipe that is
    empty once read (a second open blocks until the timeout). The simulator writes its output
    to a log in a private folder that the sandbox covers, through the descriptor it inherits;
    the sandbox has no ``/proc``, so the design cannot open that descriptor by name. The log
    in ``workdir`` is written afterwards with the secret blanked. With ``guard``, the compiled
    text is first checked for system tasks in the candidate's scopes
    (:func:`rtlopt.eda._vvpguard.foreign_system_calls`): any such call fails the run unrun.

    Args:
        vvp_file: Output of :func:`compile_sources` (deleted here).
        workdir: Working directory; the vector files must be there.
        timeout: Seconds before the simulation is killed.
        memory_mb: Address-space limit (a runaway candidate fails to allocate and the run fails).
        secret: The testbench's token (fresh for every compile: see ``Testbench.sealed``).
        log_name: Log file name in ``workdir``.
        guard: Whose scopes are whose in the compiled testbench.

    Raises:
        SimulationTimeout: The simulation did not finish in time.
    """
    log_path = workdir / log_name
    text = vvp_file.read_text(errors="replace")
    vvp_file.unlink()
    if guard is not None:
        found = foreign_system_calls(text, guard)
        if found:
            more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
            log_path.write_text("not run: " + "\n".join(found) + "\n")
            return SimReport(
                SimResult(False, 0, 0),
                f"{FOREIGN_CALL}: {'; '.join(found[:3])}{more}",
            )
    start = time.monotonic()
    rc, timed_out, output = _sealed_vvp(text, workdir, Limits(timeout, memory_mb))
    log_path.write_text(output.replace(secret, "<secret>"))
    if timed_out:
        raise SimulationTimeout(
            f"simulation timed out after {timeout:g}s", timeout_s=timeout, log_path=log_path
        )
    report = parse_sim_report(output, secret)
    res = replace(report.result, duration_s=time.monotonic() - start)
    reason = report.reason
    if rc < 0 or (rc != 0 and not reason):
        reason = reason or f"vvp exited with {rc}"
    if rc != 0 and res.passed:
        # a pass line followed by a crash is not a pass
        res = replace(res, passed=False)
        reason = f"vvp exited with {rc}"
    if not res.passed and "no result line" in reason:
        tail = " | ".join(output.replace(secret, "<secret>").splitlines()[-5:])
        reason += f" (rc {rc}; log tail: {tail[-300:]})"
    return SimReport(res, reason)


#: The start of the reason of a run refused by the structural check.
FOREIGN_CALL = "system task or function in the candidate's code"


def _sealed_vvp(text: str, workdir: Path, limits: Limits) -> tuple[int, bool, str]:
    """Run ``vvp -n`` on ``text`` served through a named pipe in ``workdir``, its output into a
    hidden private log: (exit status, timed out, output)."""
    with tempfile.TemporaryDirectory(prefix="rtlopt-sim-") as private:
        priv = Path(private)
        pipe = workdir / f".rtlopt_{secrets.token_hex(8)}.vvp"
        os.mkfifo(pipe, 0o600)
        feeder = threading.Thread(target=_feed, args=(pipe, text.encode()), daemon=True)
        feeder.start()
        try:
            run = run_tool(
                require_tool("vvp").argv("-n", argv_path(pipe)),
                cwd=workdir,
                log_path=priv / "sim.log",
                limits=limits,
                raise_on_timeout=False,
                proc=False,
                hidden=[priv],
            )
            output = run.output()
        finally:
            _release(pipe, feeder)
    return run.returncode, run.timed_out, output


def _feed(pipe: Path, data: bytes) -> None:
    """Write ``data`` into the named pipe once a reader opens it, then close it."""
    try:
        fd = os.open(pipe, os.O_WRONLY)
    except OSError:
        return
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError:
        pass
    finally:
        os.close(fd)


def _release(pipe: Path, feeder: threading.Thread) -> None:
    """End the feeder when no simulator read the pipe (it did not start), then remove it."""
    if feeder.is_alive():
        try:
            fd = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
            os.close(fd)  # the feeder's open returns and its write fails: no reader
        except OSError:
            pass
        feeder.join(timeout=10)
    pipe.unlink(missing_ok=True)


def simulate(
    vvp_file: Path,
    workdir: Path,
    *,
    timeout: float,
    memory_mb: int | None,
    secret: str,
    classes: Mapping[str, int] | None = None,
    guard: VvpGuard | None = None,
) -> SimResult:
    """:func:`run_simulation`, returning only the :class:`SimResult`.

    Args:
        classes: Vector counts per stimulus class to record in the result.
    """
    rep = run_simulation(
        vvp_file, workdir, timeout=timeout, memory_mb=memory_mb, secret=secret, guard=guard
    )
    r = rep.result
    if rep.reason:
        log.info("simulation failed: %s", rep.reason)
    return replace(r, classes=dict(classes or {}))


__all__ = [
    "PORT_ERROR_KEYWORDS",
    "FOREIGN_CALL",
    "CompileResult",
    "VvpGuard",
    "preprocess_argv",
    "SimulationTimeout",
    "compile_argv",
    "compile_sources",
    "count_errors",
    "foreign_system_calls",
    "run_simulation",
    "run_vvp",
    "simulate",
    "syntax_score",
    "yosys_simulation_libraries",
]
