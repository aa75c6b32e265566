"""The PPA flow: Yosys synthesis to the PDK's liberty, then OpenSTA timing and power.

``PpaFlow`` turns a source set into a :class:`~rtlopt.results.PPA` with logs and a
netlist. With ``flow.persistent`` (the default) it keeps the cost of the liberty low on every
candidate: OpenSTA runs in one long-lived worker process that read the liberty once, and Yosys
reads per-pass trimmed copies of it (sequential cells for ``dfflibmap``, combinational cells for
``abc``, names and areas for ``stat``), which map to the same netlist as the full file.

Thread-safety: a ``PpaFlow`` is not meant to be shared between threads; use one per worker
thread (each owns its OpenSTA process). ``measure`` holds an internal lock, so accidental
sharing serializes instead of corrupting the worker. The pyosys engine is additionally
serialized process-wide (pyosys has global state).
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from rtlopt.config import FlowConfig, SandboxConfig
from rtlopt.eda._abcserver import AbcServer, abc_binary_from_log
from rtlopt.eda._worker import StaWorker
from rtlopt.eda.activity import ActivityPower, NetActivity, activity_power
from rtlopt.eda.breakdown import ppa_details
from rtlopt.eda.opensta import StaResult, candidate_tcl, parse_sta_output, run_sta, sta_script
from rtlopt.eda.yosys import (
    SynthLibraries,
    SynthResult,
    pyosys_available,
    synth_script,
    synthesize,
    synthesize_pyosys,
)
from rtlopt.errors import ConfigError, ToolFailed, ToolNotFound
from rtlopt.pdk import PdkInfo, derive_liberties
from rtlopt.results import PPA, PpaDetails
from rtlopt.tools import require_tool, script_path, tool_paths, tool_versions

__all__ = ["PpaFlow", "PpaMeasurement", "resolve_engine"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PpaMeasurement:
    """PPA of one source set.

    Attributes:
        ppa: Area (um^2), delay (ps), power (uW or None) and cell count.
        logs: Log file paths by step (``synth``, ``sta``) plus ``warnings`` text if any.
        netlist: The mapped netlist.
        sta: Details of the timing run (paths, registers, clocks).
        duration_s: Wall-clock time of synthesis and STA.
        timings: Seconds per step (``synth_s``, ``sta_s``, ``alongside_s``).
        generic_netlist: The generic-cell netlist, when ``measure`` was given ``alongside``.
        alongside: What the ``alongside`` callable returned.
    """

    ppa: PPA
    logs: Mapping[str, str]
    netlist: Path
    sta: StaResult | None = None
    duration_s: float = 0.0
    timings: Mapping[str, float] = field(default_factory=dict)
    generic_netlist: Path | None = None
    alongside: Any = None


def resolve_engine(engine: str) -> str:
    """``yosys`` or ``pyosys`` for a configured engine (``auto``: the Yosys binary).

    ``auto`` never falls back to pyosys when the binary is missing: pyosys is a newer Yosys and
    ABC, so the same design measures differently (55.06 vs 61.71 um^2 on the example); a run
    must not change flows silently. pyosys is used only when asked for.

    Raises:
        ToolNotFound: ``auto`` or ``yosys`` and the binary is not on PATH.
        ConfigError: the requested engine is not available.
    """
    if engine in ("auto", "yosys"):
        try:
            require_tool("yosys")
        except ToolNotFound as exc:
            alt = (
                " or set flow.engine = 'pyosys' (in-process Yosys from the pyosys wheel; a "
                "different Yosys/ABC version, so different numbers)"
                if pyosys_available()
                else ""
            )
            raise ToolNotFound(
                "required tool 'yosys' (synthesis engine) was not found on PATH",
                hint=f"{exc.hint}{alt}",
            ) from None
        return "yosys"
    if engine == "pyosys" and not pyosys_available():
        raise ConfigError(
            "flow.engine = 'pyosys' but the pyosys package is not installed",
            hint="pip install pyosys, or set flow.engine = 'yosys'",
        )
    if engine not in ("yosys", "pyosys"):
        raise ConfigError(f"flow.engine = {engine!r} is not one of: auto, yosys, pyosys")
    return engine


class PpaFlow:
    """Synthesis + STA for one PDK, reusable across many candidates.

    Args:
        pdk: The resolved PDK.
        cfg: Flow settings (clock period, power, engine, persistence, dont-use, timeouts).
        sandbox: Memory limit of each tool process.

    Raises:
        ConfigError: an unavailable engine.
    """

    def __init__(self, pdk: PdkInfo, cfg: FlowConfig, sandbox: SandboxConfig) -> None:
        self.pdk = pdk
        self.cfg = cfg
        self.sandbox = sandbox
        self.engine = resolve_engine(cfg.engine)
        self.dont_use: tuple[str, ...] = tuple(cfg.dont_use) or tuple(pdk.dont_use)
        self.period_ns = cfg.clock_period_ns
        if self.cfg.persistent or self.dont_use:
            d = derive_liberties(pdk.liberty_plain, pdk.md5, self.dont_use)
            self.libs = SynthLibraries(dff=d.dff, abc=d.abc, area=d.area)
        else:
            self.libs = SynthLibraries.single(pdk.liberty_plain)
        self._worker: StaWorker | None = None
        self._sta_design: tuple[str, tuple[str, ...]] | None = None  # last timed in the worker
        self._abc: AbcServer | None = None  # the liberty mapping's ABC
        self._abc_generic: AbcServer | None = None  # synth's own abc -fast
        # the ABC binary Yosys runs, learnt from the first synthesis log; "" = do not serve
        self._abc_binary: str | None = None if cfg.persistent and self.engine == "yosys" else ""
        self._lock = threading.Lock()
        self._closed = False

    # ------------------------------------------------------------------ measuring
    def measure(
        self,
        files: Sequence[Path],
        top: str,
        clocks: Sequence[str],
        workdir: Path,
        *,
        include_dirs: Sequence[Path] = (),
        defines: Mapping[str, str] | None = None,
        alongside: Callable[[Path], Any] | None = None,
        activity: Callable[[Path], Mapping[str, NetActivity]] | None = None,
    ) -> PpaMeasurement:
        """Synthesize ``top`` from ``files`` and time it.

        Args:
            files: Sources of the design (target module and its submodules).
            top: Top module.
            clocks: Clock port names (empty: combinational, virtual clock).
            workdir: Scratch folder for scripts, logs and the netlist.
            include_dirs: Include folders.
            defines: Preprocessor macros.
            alongside: Called with the generic-cell netlist (written by the same synthesis
                run) on a second thread while OpenSTA times the mapped netlist; its result is
                ``PpaMeasurement.alongside`` and its exception is raised after timing ends.
                The evaluator's netlist check runs here.
            activity: With ``flow.power``: simulates the mapped netlist and returns each net's
                activity; OpenSTA then measures the power with it (``power_activity_uw``;
                ``power_uw`` too with ``flow.power_mode = "activity"``). None: vectorless only,
                nothing simulated.

        Raises:
            ToolFailed: Yosys or OpenSTA crashed or produced no result.
            EvaluationTimeout: a tool ran past its limit.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError("PpaFlow is closed")
            start = time.monotonic()
            workdir.mkdir(parents=True, exist_ok=True)
            syn = self._synthesize(
                files, top, workdir, include_dirs, defines or {}, generic=alongside is not None
            )
            t_syn = time.monotonic() - start
            side: dict[str, Any] = {}
            thread: threading.Thread | None = None
            if alongside is not None and syn.generic_netlist is not None:
                generic = syn.generic_netlist

                def run_alongside() -> None:
                    t0 = time.monotonic()
                    try:
                        side["value"] = alongside(generic)
                    except BaseException as exc:  # re-raised on the caller's thread
                        side["error"] = exc
                    side["seconds"] = time.monotonic() - t0

                thread = threading.Thread(
                    target=run_alongside, name="rtlopt-alongside", daemon=True
                )
                thread.start()
            try:
                sta = self._sta(syn.netlist, top, clocks, workdir)
                t_sta = time.monotonic() - start - t_syn
            finally:
                if thread is not None:
                    thread.join()
            if "error" in side:
                raise side["error"]
            act = None
            if activity is not None and self.cfg.power:
                t0 = time.monotonic()
                act = self._activity_power(syn.netlist, top, clocks, workdir, activity)
                side["activity_s"] = time.monotonic() - t0
            total = time.monotonic() - start
            logs: dict[str, str] = {"synth": str(syn.log_path), "sta": str(workdir / "sta.log")}
            if sta.warnings:
                logs["warnings"] = "; ".join(sta.warnings)
                for w in sta.warnings:
                    log.info("%s: %s", top, w)
            if act is not None:
                logs["sta_activity"] = str(workdir / "activity" / "sta_activity.log")
            ppa = self._ppa(syn, sta, act)
            timings = {"synth_s": t_syn, "sta_s": t_sta}
            for key, name in (("seconds", "alongside_s"), ("activity_s", "activity_s")):
                if key in side:
                    timings[name] = side[key]
            return PpaMeasurement(
                ppa, logs, syn.netlist, sta, total, timings, syn.generic_netlist, side.get("value")
            )

    def _ppa(self, syn: SynthResult, sta: StaResult, act: ActivityPower | None) -> PPA:
        """The numbers; with activity, ``power_uw`` is the one ``flow.power_mode`` names."""
        power = sta.power_uw
        if act is not None and self.cfg.power_mode == "activity":
            power = act.total_uw
        return PPA(
            area_um2=syn.area_um2,
            delay_ps=sta.delay_ps,
            power_uw=power,
            cells=syn.cells,
            details=self._details(syn.netlist, sta),
            power_vectorless_uw=sta.power_uw if act is not None else None,
            power_activity_uw=act.total_uw if act is not None else None,
        )

    def _activity_power(
        self,
        netlist: Path,
        top: str,
        clocks: Sequence[str],
        workdir: Path,
        activity: Callable[[Path], Mapping[str, NetActivity]],
    ) -> ActivityPower:
        """Simulate the mapped netlist (``activity``) and measure its power with the nets'
        activity in a fresh OpenSTA."""
        acts = activity(netlist)
        res = activity_power(
            self.pdk.liberty_plain,
            netlist,
            top,
            clocks,
            self.period_ns,
            acts,
            workdir / "activity",
            timeout=self.cfg.sta_timeout_s,
            memory_mb=self.sandbox.memory_mb,
        )
        log.info(
            "%s: power %.4g uW with simulated activity (%d of %d nets annotated)",
            top,
            res.total_uw,
            res.annotated,
            res.nets,
        )
        return res

    def _details(self, netlist: Path, sta: StaResult) -> PpaDetails | None:
        """Critical path and area split for the feedback; None (logged) when unreadable."""
        try:
            return ppa_details(netlist, self.pdk.liberty_plain, sta.critical_path, self.pdk.md5)
        except (OSError, ValueError) as exc:
            log.info("no PPA details for %s: %s", netlist, exc)
            return None

    def _synthesize(
        self,
        files: Sequence[Path],
        top: str,
        workdir: Path,
        include_dirs: Sequence[Path],
        defines: Mapping[str, str],
        *,
        generic: bool = False,
    ) -> SynthResult:
        kw: dict[str, Any] = {
            "include_dirs": include_dirs,
            "defines": defines,
            "tie_hi": self.pdk.tie_hi,
            "tie_lo": self.pdk.tie_lo,
            "generic": generic,
        }
        if self.engine == "pyosys":
            return synthesize_pyosys(files, top, workdir, self.libs, **kw)
        kw |= {"timeout": self.cfg.synth_timeout_s, "memory_mb": self.sandbox.memory_mb}
        if self._abc is not None and self._abc_generic is not None:
            try:
                return synthesize(
                    files,
                    top,
                    workdir,
                    self.libs,
                    abc_exe=self._abc.client,
                    generic_abc_exe=self._abc_generic.client,
                    **kw,
                )
            except ToolFailed as exc:
                # whatever failed, the verdict must be the one of fresh ABC processes: run it
                # again so, and keep to them from now on
                log.info(
                    "synthesis with the long-lived ABC failed (%s); again with fresh ones",
                    exc.message,
                )
                self._close_abc()
        syn = synthesize(files, top, workdir, self.libs, **kw)
        if self._abc_binary is None:
            self._start_abc_server(syn.log_path, workdir)
        return syn

    def _start_abc_server(self, log_path: Path, workdir: Path) -> None:
        """Keep an ABC with the mapping liberty loaded for the next syntheses (persistent
        flow): the binary Yosys ran for its ``abc -liberty`` call, named in its log."""
        self._abc_binary = ""
        try:
            name = abc_binary_from_log(log_path.read_text(errors="replace"))
        except OSError:
            return
        binary = shutil.which(name) if name else None
        if binary is None or shutil.which("stdbuf") is None or shutil.which("mkfifo") is None:
            log.info("no long-lived ABC (binary %r, stdbuf and mkfifo needed)", name)
            return
        try:
            for liberty in (Path(script_path(self.libs.abc)), None):
                server = AbcServer(
                    binary,
                    liberty,
                    workdir.parent / f".abc-server-{uuid.uuid4().hex[:8]}",
                    timeout=self.cfg.synth_timeout_s,
                    memory_mb=self.sandbox.memory_mb,
                )
                if liberty is None:
                    self._abc_generic = server
                else:
                    self._abc = server
        except OSError as exc:
            log.info("no long-lived ABC: %s", exc)
            self._close_abc()
            return
        self._abc_binary = binary

    def _close_abc(self) -> None:
        """Stop the long-lived ABC processes; fresh ones from now on."""
        self._abc_binary = ""
        for server in (self._abc, self._abc_generic):
            if server is not None:
                server.close()
        self._abc = self._abc_generic = None

    def _sta(self, netlist: Path, top: str, clocks: Sequence[str], workdir: Path) -> StaResult:
        if not self.cfg.persistent:
            return run_sta(
                self.pdk.liberty_plain,
                netlist,
                top,
                clocks,
                self.period_ns,
                workdir,
                power=self.cfg.power,
                timeout=self.cfg.sta_timeout_s,
                memory_mb=self.sandbox.memory_mb,
            )
        if self._worker is None:
            wdir = workdir.parent / f".sta-worker-{uuid.uuid4().hex[:8]}"
            self._worker = StaWorker(
                self.pdk.liberty_plain,
                wdir / "worker.log",
                timeout=self.cfg.sta_timeout_s,
                memory_mb=self.sandbox.memory_mb,
            )
        elif self.cfg.power and self._sta_design not in (None, (top, tuple(clocks))):
            # another design in this session: OpenSTA 2.0.17 then misreports the power of a
            # sequential design timed after a combinational one (157 vs 170 uW for RTLLM's
            # traffic_light after adder_16bit, sky130hd); a run times one design, so this
            # restart happens only when a caller switches designs
            self._worker.recycle()
        self._sta_design = (top, tuple(clocks))
        token = uuid.uuid4().hex
        script = workdir / "sta.tcl"
        script.write_text(
            candidate_tcl(netlist, top, clocks, self.period_ns, power=self.cfg.power, token=token)
        )
        text = self._worker.run(script)
        log_path = workdir / "sta.log"
        log_path.write_text(text)
        result = parse_sta_output(text, power=self.cfg.power, log_path=log_path)
        if self.cfg.power and result.registers > 0:
            # OpenSTA 2.0.17 keeps sequential activity state across link_design: start afresh
            # (in the background, overlapping the next synthesis) to keep power exact.
            self._worker.recycle()
            self._sta_design = None  # a fresh session: nothing timed in it yet
        return result

    # ------------------------------------------------------------------ provenance
    def provenance(self) -> dict[str, Any]:
        """Tool versions, engine, scripts, liberty and clock settings behind every number."""
        versions = tool_versions(("yosys", "sta"))
        if self.engine == "pyosys":
            try:
                from importlib.metadata import version

                versions["pyosys"] = version("pyosys")
            except Exception:  # metadata missing: report it rather than fail
                versions["pyosys"] = "unknown"
        # scripts rendered with safe stand-ins, then shown with readable placeholders
        marks = {
            "/RTLOPT_SOURCES.v": "<sources>",
            "/RTLOPT_NETLIST.v": "<netlist.v>",
            "/RTLOPT_STAT.txt": "<stat.txt>",
            "RTLOPT_TOP": "<top>",
            "RTLOPT_CLOCK": "<clock>",
        }

        def shown(text: str) -> str:
            for k, v in marks.items():
                text = text.replace(k, v)
            return text

        netlist = Path("/RTLOPT_NETLIST.v")
        return {
            "engine": self.engine,
            "tool_versions": versions,
            "binaries": tool_paths(("yosys", "sta"))
            if self.engine == "yosys"
            else tool_paths(("sta",)),
            "pdk": self.pdk.name,
            "corner": self.pdk.corner,
            "liberty": str(self.pdk.liberty),
            "liberty_md5": self.pdk.md5,
            "clock_period_ns": self.period_ns,
            "power": self.cfg.power,
            "power_mode": self.cfg.power_mode,
            "power_activity": "every net at activity 0.1, duty 0.5 (clocks at their own)"
            if self.cfg.power_mode == "vectorless"
            else "simulated: the mapped netlist in the harness testbench (iverilog, cell models "
            "from the liberty by Yosys read_liberty), toggles per clock period and duty per "
            "net read with pywellen, set on every pin and input port before OpenSTA's first "
            "power query (its propagation recomputes the fan-out of the inputs); the "
            "vectorless estimate is reported beside it",
            "dont_use": list(self.dont_use),
            "tie_cells": {"hi": list(self.pdk.tie_hi or ()), "lo": list(self.pdk.tie_lo or ())},
            "persistent": self.cfg.persistent,
            # both ABC calls of the synthesis in long-lived ABC processes (liberty read once;
            # Yosys's `abc -exe`, `synth` spelt out as its steps): same binary, same results
            "long_lived_abc": self._abc_binary != "",
            "trimmed_liberties": self.libs != SynthLibraries.single(self.pdk.liberty_plain),
            "synth_script": shown(
                synth_script(
                    [Path("/RTLOPT_SOURCES.v")],
                    "RTLOPT_TOP",
                    self.libs,
                    netlist,
                    Path("/RTLOPT_STAT.txt"),
                    tie_hi=self.pdk.tie_hi,
                    tie_lo=self.pdk.tie_lo,
                )
            ),
            "sta_script": shown(
                sta_script(
                    self.pdk.liberty_plain,
                    netlist,
                    "RTLOPT_TOP",
                    ["RTLOPT_CLOCK"],
                    self.period_ns,
                    power=self.cfg.power,
                )
            ),
            "delay_definition": "worst data arrival time over all timed endpoints (ps)",
        }

    # ------------------------------------------------------------------ lifetime
    def close(self) -> None:
        """Stop the OpenSTA worker. Idempotent."""
        self._closed = True
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close()
        self._close_abc()

    def __enter__(self) -> PpaFlow:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:  # best effort; close() is the contract
        worker = getattr(self, "_worker", None)
        if worker is not None:
            worker.close()
        for name in ("_abc", "_abc_generic"):
            abc = getattr(self, name, None)
            if abc is not None:
                abc.close()
