"""Yosys synthesis to a liberty: the script, the two engines and the stat parser.

The script is the TTT-RTL local flow (``read_verilog -sv; hierarchy -check; flatten; synth;
dfflibmap; abc; opt_clean -purge; stat; write_verilog -noattr -noexpr``) plus constant mapping
to tie cells and removal of net aliases (``setundef -zero; splitnets -ports; opt_clean -purge;
hilomap``, ``write_verilog -simple-lhs``) so that OpenSTA 2.0.17, which rejects ``assign``
statements with constants or concatenations, can read every netlist; on the C910 LZA the
numbers are unchanged by it.

Engines: ``yosys`` runs the binary of ``require_tool("yosys")`` (``RTLOPT_YOSYS`` or PATH;
Debian's 0.23 reproduces the paper's C910 reference exactly); ``pyosys`` runs the same script
in-process through the pyosys wheel (newer Yosys/ABC, so different numbers). pyosys keeps one
global design, so in-process runs are serialized by a module lock.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import DesignError, RtloptError, ToolFailed
from rtlopt.tools import (
    Limits,
    original_path,
    require_tool,
    run_tool,
    script_path,
    tool_versions,
    yosys_id,
    yosys_read_lines,
)

__all__ = [
    "SynthLibraries",
    "SynthResult",
    "parse_stat",
    "pyosys_available",
    "synth_script",
    "synthesize",
    "synthesize_pyosys",
]

log = logging.getLogger(__name__)

_AREA_RE = re.compile(r"Chip area for (?:module|top module) '\\?([^']+)':\s*([0-9.eE+-]+)")
# Yosys 0.23: "Number of cells: 237"; newer (pyosys 0.70): "233 1.39E+03 cells"
_CELLS_RE = re.compile(r"^\s*(?:Number of cells:\s*(\d+)|(\d+)(?:\s+\S+)?\s+cells)\s*$", re.M)
_MODULE_RE = re.compile(r"^=== (\S+) ===", re.M)
# "ERROR: msg" or "file.v:17: ERROR: msg"
_ERROR_RE = re.compile(r"^(?:\S+:\d+: )?(?:ERROR|Error):.*$", re.M)

_PYOSYS_LOCK = threading.Lock()


@dataclass(frozen=True)
class SynthLibraries:
    """Liberty files read by each mapping pass (the same file three times, or trimmed copies)."""

    dff: Path
    abc: Path
    area: Path

    @staticmethod
    def single(path: Path) -> SynthLibraries:
        """Every pass reads ``path``."""
        return SynthLibraries(path, path, path)


@dataclass(frozen=True)
class SynthResult:
    """What synthesis produced.

    Attributes:
        area_um2: ``stat -liberty`` chip area of the top module (liberty area unit, um^2).
        cells: Number of cells of the top module.
        netlist: Mapped gate-level Verilog.
        log_path: Full Yosys log.
        duration_s: Wall-clock time.
        generic_netlist: The netlist after ``synth``, in Yosys's generic cells written as plain
            Verilog, without initial values (when requested): the design the liberty mapping
            starts from, simulated against the reference by the netlist check.
    """

    area_um2: float
    cells: int
    netlist: Path
    log_path: Path
    duration_s: float
    generic_netlist: Path | None = None


def _q(path: Path | str) -> str:
    """A path as a Yosys script word (see :func:`rtlopt.tools.script_path`)."""
    return script_path(path)


def synth_script(
    files: Sequence[Path],
    top: str,
    libs: SynthLibraries,
    netlist: Path,
    stat_file: Path,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    tie_hi: tuple[str, str] | None = None,
    tie_lo: tuple[str, str] | None = None,
    generic_netlist: Path | None = None,
    abc_exe: Path | None = None,
    generic_abc_exe: Path | None = None,
) -> str:
    """The Yosys script synthesizing ``top`` from ``files`` onto the liberty.

    Args:
        files: Verilog/SystemVerilog sources (all read with ``-sv``).
        top: Top module name.
        libs: Liberty files for dfflibmap, abc and stat.
        netlist: Where ``write_verilog`` writes the mapped netlist.
        stat_file: Where the ``stat -liberty`` report is written (``tee -o``).
        include_dirs: ``-I`` folders.
        defines: ``-D`` macros (empty value: defined without value).
        tie_hi: (cell, pin) for constant 1; with ``tie_lo`` enables constant mapping.
        tie_lo: (cell, pin) for constant 0.
        generic_netlist: Also write the design after ``synth`` (generic cells) here. It is
            written from a copy with initial values removed (ASIC flip-flops power up
            unknown); the mapping continues on the untouched design, so the numbers do not
            change.
        abc_exe: Run the liberty mapping's ABC through this client (``abc -exe``): the
            long-lived ABC of :class:`~rtlopt.eda._abcserver.AbcServer`, same binary, same
            script, the liberty read once.
        generic_abc_exe: Run the generic mapping inside ``synth`` (``abc -fast``) through this
            client: ``synth`` is then written out as its own steps (``synth -help``: begin and
            coarse, the fine steps with ``abc -fast -exe``, check), the same passes in the same
            order.
    """
    top_id = yosys_id(top)
    lines = [
        *yosys_read_lines(files, include_dirs, defines or {}),
        f"hierarchy -check -top {top_id}",
        "flatten",
    ]
    if generic_abc_exe is None:
        lines.append(f"synth -top {top_id}")
    else:
        lines += [
            f"synth -top {top_id} -run begin:fine",
            "opt -fast -full",
            "memory_map",
            "opt -full",
            "techmap",
            "opt -fast",
            f"abc -fast -exe {_q(generic_abc_exe)}",
            "opt -fast",
            f"synth -top {top_id} -run check:",
        ]
    if generic_netlist is not None:
        lines += [
            "design -push-copy",
            "attrmap -remove init",
            f"write_verilog -noattr {_q(generic_netlist)}",
            "design -pop",
        ]
    lines += [
        f"dfflibmap -liberty {_q(libs.dff)}",
        (f"abc -exe {_q(abc_exe)} " if abc_exe is not None else "abc ")
        + f"-liberty {_q(libs.abc)}",
        "opt_clean -purge",
    ]
    if tie_hi is not None and tie_lo is not None:
        lines += [
            "setundef -zero",
            "splitnets -ports",
            "opt_clean -purge",
            f"hilomap -singleton -hicell {yosys_id(tie_hi[0])} {yosys_id(tie_hi[1])} "
            f"-locell {yosys_id(tie_lo[0])} {yosys_id(tie_lo[1])}",
        ]
    lines += [
        f"tee -q -o {_q(stat_file)} stat -liberty {_q(libs.area)}",
        f"write_verilog -noattr -noexpr -simple-lhs {_q(netlist)}",
    ]
    return "\n".join(lines) + "\n"


def parse_stat(text: str, top: str) -> tuple[float, int]:
    """Chip area and cell count of ``top`` from a ``stat -liberty`` report.

    Raises:
        ValueError: no chip-area line for ``top``.
    """
    area: float | None = None
    for m in _AREA_RE.finditer(text):
        if m.group(1) == top:
            area = float(m.group(2))
    cells = 0
    found = False
    # the count of the top module's section (sections start with "=== name ===")
    sections = list(_MODULE_RE.finditer(text))
    for i, sm in enumerate(sections):
        if sm.group(1).lstrip("\\") != top:
            continue
        found = True
        end = sections[i + 1].start() if i + 1 < len(sections) else len(text)
        cm = _CELLS_RE.search(text, sm.end(), end)
        if cm:
            cells = int(cm.group(1) or cm.group(2))
    if area is None:
        if found and cells == 0:  # pure wiring: Yosys prints no area line for zero cells
            return 0.0, 0
        raise ValueError(f"no 'Chip area for module {top}' line in the stat report")
    return area, cells


def _collect(
    workdir: Path,
    top: str,
    netlist: Path,
    stat_file: Path,
    log_path: Path,
    duration: float,
    what: str,
    generic: Path | None = None,
) -> SynthResult:
    """Check the expected outputs exist (never trust an exit code) and parse them."""
    log_text = log_path.read_text(errors="replace") if log_path.is_file() else ""
    errors = _ERROR_RE.findall(log_text)
    if not netlist.is_file() or not stat_file.is_file() or (generic and not generic.is_file()):
        first = errors[0] if errors else "no netlist or stat report was written"
        raise ToolFailed(
            f"{what} failed: {first}",
            log_path=log_path,
            stderr_tail="\n".join(log_text.splitlines()[-20:]),
        )
    try:
        area, cells = parse_stat(stat_file.read_text(errors="replace"), top)
    except ValueError as exc:
        raise ToolFailed(f"{what}: {exc}", log_path=log_path) from exc
    return SynthResult(area, cells, netlist, log_path, duration, generic)


def _write_synth_script(
    workdir: Path,
    files: Sequence[Path],
    top: str,
    libs: SynthLibraries,
    include_dirs: Sequence[Path],
    defines: Mapping[str, str] | None,
    tie_hi: tuple[str, str] | None,
    tie_lo: tuple[str, str] | None,
    generic: bool,
    abc_exe: Path | None = None,
    generic_abc_exe: Path | None = None,
) -> tuple[Path, Path, Path | None, Path]:
    """Remove the previous outputs and write ``synth.ys``; (netlist, stat, generic, script)."""
    netlist = workdir / "netlist.v"
    stat_file = workdir / "stat.txt"
    gen = workdir / "generic.v" if generic else None
    for stale in (netlist, stat_file, gen):
        if stale is not None:
            stale.unlink(missing_ok=True)
    script = workdir / "synth.ys"
    script.write_text(
        synth_script(
            files,
            top,
            libs,
            netlist,
            stat_file,
            include_dirs=include_dirs,
            defines=defines,
            tie_hi=tie_hi,
            tie_lo=tie_lo,
            generic_netlist=gen,
            abc_exe=abc_exe,
            generic_abc_exe=generic_abc_exe,
        )
    )
    return netlist, stat_file, gen, script


def synthesize(
    files: Sequence[Path],
    top: str,
    workdir: Path,
    libs: SynthLibraries,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    tie_hi: tuple[str, str] | None = None,
    tie_lo: tuple[str, str] | None = None,
    timeout: float = 300.0,
    memory_mb: int | None = None,
    generic: bool = False,
    abc_exe: Path | None = None,
    generic_abc_exe: Path | None = None,
) -> SynthResult:
    """Synthesize with the Yosys binary (one process, script file ``synth.ys``).

    ``generic`` also writes ``generic.v``; ``abc_exe`` and ``generic_abc_exe`` run the two ABC
    calls through long-lived ABC processes (see :func:`synth_script`).

    Raises:
        ToolFailed: Yosys exited abnormally or did not write the netlist / stat report.
        EvaluationTimeout: past ``timeout`` seconds (the process group is killed).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    netlist, stat_file, gen, script = _write_synth_script(
        workdir,
        files,
        top,
        libs,
        include_dirs,
        defines,
        tie_hi,
        tie_lo,
        generic,
        abc_exe,
        generic_abc_exe,
    )
    log_path = workdir / "synth.log"
    run = run_tool(
        require_tool("yosys").argv("-s", str(script)),
        cwd=workdir,
        log_path=log_path,
        limits=Limits(timeout, memory_mb),
        env={"HOME": str(workdir)},
    )
    if run.returncode != 0:
        text = log_path.read_text(errors="replace")
        errs = _ERROR_RE.findall(text)
        first = errs[0] if errs else "no error line"
        raise ToolFailed(
            f"yosys exited with {run.returncode}: {first}",
            command=list(run.argv),
            returncode=run.returncode,
            log_path=log_path,
            stderr_tail=run.tail(),
        )
    return _collect(
        workdir, top, netlist, stat_file, log_path, run.duration_s, "yosys synthesis", gen
    )


_LOCATED_ERROR = re.compile(r"^(?:(?P<file>[^\n]+?):(?P<line>\d+): )?ERROR: (?P<msg>.*)$", re.M)


def reference_error(exc: ToolFailed) -> RtloptError:
    """The error to report when Yosys fails on the user's own design (not a candidate).

    A Yosys ``ERROR:`` message (a construct Yosys 0.23 cannot read, a missing module) is an
    input problem: a :class:`~rtlopt.errors.DesignError` naming the file and line Yosys gives,
    exit 2. Anything else (a crash without a message) stays the infrastructure error it is.
    """
    text = ""
    if exc.log_path is not None:
        try:
            text = exc.log_path.read_text(errors="replace")
        except OSError:
            text = ""
    m = _LOCATED_ERROR.search(text or exc.stderr_tail or exc.message)
    if m is None:
        return exc
    msg = original_path(m.group("msg").strip())
    path = original_path(m.group("file")) if m.group("file") else None
    line = int(m.group("line")) if m.group("line") else None
    version = tool_versions(("yosys",))["yosys"]
    return DesignError(
        f"Yosys {version} cannot synthesize the original design: {msg}",
        path=path,
        line=line,
        hint="rewrite the construct Yosys rejects, or pick another module",
    )


def pyosys_available() -> bool:
    """Whether the pyosys wheel can be imported."""
    try:
        from pyosys import libyosys  # noqa: F401
    except ImportError:
        return False
    return True


def synthesize_pyosys(
    files: Sequence[Path],
    top: str,
    workdir: Path,
    libs: SynthLibraries,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    tie_hi: tuple[str, str] | None = None,
    tie_lo: tuple[str, str] | None = None,
    generic: bool = False,
) -> SynthResult:
    """Synthesize in-process with pyosys (no timeout: the evaluator bounds the whole job).

    Thread-safe through a module lock (pyosys has global state).

    Raises:
        ToolFailed: a pass failed or the outputs are missing.
    """
    from pyosys import libyosys as ys

    workdir.mkdir(parents=True, exist_ok=True)
    netlist, stat_file, gen, _ = _write_synth_script(
        workdir, files, top, libs, include_dirs, defines, tie_hi, tie_lo, generic
    )
    log_path = workdir / "synth.log"
    start = time.monotonic()
    with _PYOSYS_LOCK:
        design = ys.Design()
        try:
            ys.run_pass(f"tee -q -o {_q(log_path)} script {_q(workdir / 'synth.ys')}", design)
        except Exception as exc:  # pyosys raises its own runtime error types
            with log_path.open("a") as f:
                f.write(f"\nERROR: {exc}\n")
            raise ToolFailed(f"pyosys synthesis failed: {exc}", log_path=log_path) from exc
        finally:
            del design
    return _collect(
        workdir,
        top,
        netlist,
        stat_file,
        log_path,
        time.monotonic() - start,
        "pyosys synthesis",
        gen,
    )
