"""Typed evaluation results: the vocabulary every layer shares (ground floor, no rtlopt imports)."""

from __future__ import annotations

import enum
import json
import logging
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


class Status(enum.StrEnum):
    """Outcome of evaluating one candidate."""

    OK = "ok"  # passed every stage; metrics and reward present
    INVALID = "invalid"  # rejected at ``stage``; reward present (partial credit)
    TIMEOUT = "timeout"  # a tool ran out of time: infrastructure, reward is None
    TOOL_ERROR = "tool_error"  # a tool crashed: infrastructure, reward is None


class Stage(enum.StrEnum):
    """Evaluation stages in order; a result names the last one reached."""

    SCREEN = "screen"
    COMPILE = "compile"
    INTERFACE = "interface"
    SIMULATION = "simulation"
    FORMAL = "formal"
    SYNTHESIS = "synthesis"
    NETLIST = "netlist"  # the synthesized netlist simulated against the reference
    TIMING = "timing"
    DONE = "done"


class Verdict(enum.StrEnum):
    """Formal equivalence verdict; UNKNOWN is never shown as proven."""

    PROVEN = "proven"
    REFUTED = "refuted"
    UNKNOWN = "unknown"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Metric:
    """A number with its unit."""

    value: float
    unit: str

    def __str__(self) -> str:
        return f"{self.value:.6g} {self.unit}"


@dataclass(frozen=True)
class Mismatch:
    """First simulation mismatch."""

    time: str
    inputs: Mapping[str, str]
    output: str
    expected: str
    got: str


@dataclass(frozen=True)
class FormalResult:
    """Result of the formal equivalence check.

    ``structure`` is set (with verdict UNKNOWN) when the candidate's clock/reset structure
    differs from the reference's (a register on a derived clock, another edge, an asynchronous
    pin on another input, a new latch): the miter cannot model that, and the evaluator rejects
    the candidate whatever ``formal.require_proof`` says.
    """

    verdict: Verdict
    method: str  # e.g. "sat miter (combinational)", "sat -tempinduct -seq 8", "bmc 20"
    reason: str = ""
    counterexample: Mapping[str, str] = field(default_factory=dict)
    duration_s: float = 0.0
    structure: str = ""
    #: Seconds of the verification steps beside the engines (``vacuity``: the drivers check,
    #: the witness runs and the simulation of proven AIG miters).
    timings: Mapping[str, float] = field(default_factory=dict)
    #: Set (with verdict UNKNOWN) when the proof rests on the X policy where the reference's
    #: outputs stay x (un-reset state) and no check from a shared power-up state covers them:
    #: the evaluator rejects the candidate whatever ``formal.require_proof`` says.
    unchecked: str = ""
    #: The proof starts from free defined power-up values (every register defined, paired
    #: reference and candidate bits sharing one), not from x registers: it already covers
    #: the outputs an x power-up leaves undefined, so it does not rest on the X policy there.
    free_power_up: bool = False
    #: The power-up models a proof covers, for a target whose hierarchy states power-up
    #: values (empty otherwise): ``unknown`` (initial values dropped, registers unknown,
    #: resets forced first) and ``stated`` (from the stated values, resets free:
    #: :mod:`rtlopt.formal.engines.stated`).
    power_up: tuple[str, ...] = ()
    #: The second, independent proof (:mod:`rtlopt.formal.second`) where it ran on this
    #: result (``rtlopt evaluate`` on a candidate the first proof proved): ``agrees``,
    #: ``method``, ``reason`` and ``duration_s``; empty where it did not run.
    second: Mapping[str, Any] = field(default_factory=dict)
    #: The inputs the repository feeds x where the candidate was also proven x-faithful
    #: (:mod:`rtlopt.formal.xfaith`: wherever the reference's simulated output is defined
    #: with those inputs x, the candidate's is the same); empty where none is fed x.
    x_inputs: tuple[str, ...] = ()


@dataclass(frozen=True)
class SimResult:
    """Result of the simulation harness."""

    passed: bool
    vectors: int
    mismatches: int
    first_mismatch: Mismatch | None = None
    classes: Mapping[str, int] = field(default_factory=dict)  # vectors per stimulus class
    duration_s: float = 0.0
    #: Outputs of a sequential target that are x in the reference (some bit, at some check)
    #: in the stimulus's second half: un-reset state the stimulus has not defined.
    x_outputs: tuple[str, ...] = ()

    @property
    def compared(self) -> bool:
        """Whether the run gave a verdict on some vector (a pass, a count or a mismatch): a
        simulator that did not start or stopped before the testbench's verdict compared
        nothing."""
        return self.passed or self.vectors > 0 or self.first_mismatch is not None


@dataclass(frozen=True)
class CriticalPath:
    """The worst timed path, in the words of the RTL (what a designer looks at).

    Attributes:
        startpoint: Signal the path starts from (register output or input port).
        endpoint: Signal it ends at (the capturing register's output or an output port).
        delay_ps: Arrival time at the endpoint.
        cells: Library cell of every instance on the path, in order.
        signals: Named (RTL) nets along the path, in order, without repeats.
    """

    startpoint: str
    endpoint: str
    delay_ps: float
    cells: tuple[str, ...] = ()
    signals: tuple[str, ...] = ()


@dataclass(frozen=True)
class AreaShare:
    """Area of one cell type or one submodule instance.

    Attributes:
        name: Library cell name, or instance path (``(top)`` for the target's own logic).
        area_um2: Its area.
        count: Number of cells.
    """

    name: str
    area_um2: float
    count: int = 0


@dataclass(frozen=True)
class PpaDetails:
    """Where the delay and the area come from (optional: absent in older results).

    Attributes:
        critical_path: The worst path, None when no path was timed.
        area_by_cell: Area per library cell type, largest first.
        area_by_instance: Area per submodule instance of the (flattened) design, largest
            first; a cell is charged to the instance whose named nets it drives, or (unnamed
            nets) to the instance of the cells it feeds.
    """

    critical_path: CriticalPath | None = None
    area_by_cell: tuple[AreaShare, ...] = ()
    area_by_instance: tuple[AreaShare, ...] = ()

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> PpaDetails:
        """Inverse of ``dataclasses.asdict``."""
        cp = d.get("critical_path")
        return PpaDetails(
            critical_path=CriticalPath(
                startpoint=str(cp["startpoint"]),
                endpoint=str(cp["endpoint"]),
                delay_ps=float(cp["delay_ps"]),
                cells=tuple(cp.get("cells", ())),
                signals=tuple(cp.get("signals", ())),
            )
            if cp
            else None,
            area_by_cell=tuple(AreaShare(**a) for a in d.get("area_by_cell", ())),
            area_by_instance=tuple(AreaShare(**a) for a in d.get("area_by_instance", ())),
        )


@dataclass(frozen=True)
class PPA:
    """Synthesis + STA numbers of one design in one flow.

    ``power_uw`` is the power the figure of merit uses (``flow.power_mode``); with the
    activity mode both estimates are kept: ``power_vectorless_uw`` (OpenSTA's default
    activity) and ``power_activity_uw`` (activity simulated with the harness stimulus).
    """

    area_um2: float
    delay_ps: float
    power_uw: float | None
    cells: int = 0
    details: PpaDetails | None = None
    power_vectorless_uw: float | None = None
    power_activity_uw: float | None = None

    @property
    def adp(self) -> float:
        """Area x delay in um^2*ps."""
        return self.area_um2 * self.delay_ps

    @property
    def ppa_product(self) -> float | None:
        """Area x delay x power in um^2*ps*uW, or None when power was not measured."""
        return None if self.power_uw is None else self.adp * self.power_uw

    def metric(self, kind: str) -> float:
        """The figure of merit: ``adp`` or ``ppa``."""
        if kind == "ppa":
            if self.ppa_product is None:
                raise ValueError("power was not measured; use the adp metric")
            return self.ppa_product
        return self.adp


#: Physical bounds of one standard cell: no cell of any library here draws 100 uW (a sky130hd
#: gate switching every cycle at 100 MHz draws a few uW) or takes 5 ns through one stage.
MAX_POWER_PER_CELL_UW = 100.0
MAX_DELAY_PER_CELL_PS = 5000.0


def ppa_problem(ppa: PPA | None) -> str:
    """Why a PPA figure is not credible ("" when it is): not finite, negative, or outside the
    physical bounds for its cell count (a power model or a measurement gone wrong). Such a
    figure is reported as not credible, never compared as a percentage."""
    if ppa is None:
        return ""
    cells = max(ppa.cells, 1)
    figures = {"area": ppa.area_um2, "delay": ppa.delay_ps}
    for name, value in (("power", ppa.power_uw), ("vectorless power", ppa.power_vectorless_uw)):
        if value is not None:
            figures[name] = value
    for name, value in figures.items():
        if not math.isfinite(value) or value < 0:
            return f"{name} is {value}"
    for name in ("power", "vectorless power"):
        if name in figures and figures[name] > cells * MAX_POWER_PER_CELL_UW:
            return (
                f"{name} {figures[name]:.4g} uW for {ppa.cells} cells is beyond "
                f"{MAX_POWER_PER_CELL_UW:g} uW per cell"
            )
    if ppa.delay_ps > cells * MAX_DELAY_PER_CELL_PS:
        return (
            f"delay {ppa.delay_ps:.4g} ps for {ppa.cells} cells is beyond "
            f"{MAX_DELAY_PER_CELL_PS:g} ps per cell"
        )
    return ""


@dataclass(frozen=True)
class EvalResult:
    """Everything known about one candidate.

    Attributes:
        status: ok, invalid, timeout or tool_error.
        stage: The last stage reached (the failing one when invalid).
        reason: One line saying why it stopped, empty when ok.
        reward: The three-stage reward, None for infrastructure failures.
        r_syn, r_func, r_ppa: Reward components.
        ppa: Synthesis numbers when synthesis ran.
        sim: Simulation result when simulation ran.
        formal: Formal result when the formal stage ran.
        netlist: Result of simulating the synthesized netlist against the reference (the
            netlist check), when it ran.
        compile_errors: Number of compiler error messages.
        metrics: Named metrics with units (area, delay, power, adp, ...).
        source_hash: SHA-256 of the candidate's exact text (its identity and cache key).
        logs: Paths of tool logs, by stage.
        provenance: Tool versions, flow settings, seeds.
        duration_s: Wall-clock time of the evaluation.
        cached: Served from the cache.
        timings: Wall-clock seconds per stage, in the order they ran (``screen``, ``cache``,
            ``compile``, ``interface``, ``simulation``, ``formal``, ``synthesis``,
            ``netlist``, ``timing``; stages that overlap another, such as ``netlist`` beside
            ``timing`` or ``formal`` beside ``synthesis``, are timed on their own thread, so
            the sum may exceed ``duration_s``). A cached result keeps the timings of the run
            that made it; ``duration_s`` of a hit is the lookup's.
        scope: For a parameterized target, what the verdict covers ("proven for the 2
            configurations the repository uses", "proven for the defaults and 4 probes").
        configurations: Every parameter configuration checked, in order: ``values``,
            ``kind`` (defaults, repository, probe), ``where``, ``verdict``, ``reason``.
    """

    status: Status
    stage: Stage
    reason: str = ""
    reward: float | None = None
    r_syn: float = 0.0
    r_func: float = 0.0
    r_ppa: float = 0.0
    ppa: PPA | None = None
    sim: SimResult | None = None
    formal: FormalResult | None = None
    netlist: SimResult | None = None
    compile_errors: int = 0
    metrics: Mapping[str, Metric] = field(default_factory=dict)
    source_hash: str = ""
    logs: Mapping[str, str] = field(default_factory=dict)
    provenance: Mapping[str, Any] = field(default_factory=dict)
    duration_s: float = 0.0
    cached: bool = False
    timings: Mapping[str, float] = field(default_factory=dict)
    scope: str = ""
    configurations: tuple[Mapping[str, str], ...] = ()

    @property
    def accepted(self) -> bool:
        """Passed every gate: equivalent (simulation and, where decidable, formal) with PPA."""
        return self.status is Status.OK

    @property
    def is_infrastructure_error(self) -> bool:
        return self.status in (Status.TIMEOUT, Status.TOOL_ERROR)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["status"] = self.status.value
        d["stage"] = self.stage.value
        if self.formal is not None:
            d["formal"]["verdict"] = self.formal.verdict.value
        d["accepted"] = self.accepted
        return d

    def served_from_cache(self, binaries: Mapping[str, str], liberty: str | None) -> EvalResult:
        """This result read from the disk cache, marked so, with this run's paths in its
        provenance: the cache is keyed on content (liberty and tool bytes), so the same
        numbers may have been measured with a liberty or binary at another path.

        Args:
            binaries: The binary each tool runs now (``rtlopt.tools.tool_paths``).
            liberty: The liberty file in use now (None without a PDK).
        """
        prov = dict(self.provenance)
        if "binaries" in prov:
            prov["binaries"] = {**prov["binaries"], **binaries}
        if isinstance(prov.get("flow"), dict) and liberty is not None:
            prov["flow"] = {**prov["flow"], "liberty": liberty}
        return replace(self, cached=True, provenance=prov)

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> EvalResult:
        formal = d.get("formal")
        ppa = d.get("ppa")
        return EvalResult(
            status=Status(d["status"]),
            stage=Stage(d["stage"]),
            reason=d.get("reason", ""),
            reward=d.get("reward"),
            r_syn=d.get("r_syn", 0.0),
            r_func=d.get("r_func", 0.0),
            r_ppa=d.get("r_ppa", 0.0),
            ppa=PPA(
                **{
                    **ppa,
                    "details": PpaDetails.from_json(ppa["details"]) if ppa.get("details") else None,
                }
            )
            if ppa
            else None,
            sim=_sim_from_json(d.get("sim")),
            netlist=_sim_from_json(d.get("netlist")),
            formal=FormalResult(
                **{
                    **formal,
                    "verdict": Verdict(formal["verdict"]),
                    "power_up": tuple(formal.get("power_up", ())),
                    "x_inputs": tuple(formal.get("x_inputs", ())),
                }
            )
            if formal
            else None,
            compile_errors=d.get("compile_errors", 0),
            metrics={k: Metric(**v) for k, v in d.get("metrics", {}).items()},
            source_hash=d.get("source_hash", ""),
            logs=d.get("logs", {}),
            provenance=d.get("provenance", {}),
            duration_s=d.get("duration_s", 0.0),
            cached=d.get("cached", False),
            timings={k: float(v) for k, v in d.get("timings", {}).items()},
            scope=d.get("scope", ""),
            configurations=tuple(dict(c) for c in d.get("configurations", ())),
        )


def _sim_from_json(sim: Mapping[str, Any] | None) -> SimResult | None:
    if not sim:
        return None
    mism = sim.get("first_mismatch")
    return SimResult(
        **{
            **sim,
            "first_mismatch": Mismatch(**mism) if mism else None,
            "x_outputs": tuple(sim.get("x_outputs", ())),
        }
    )


def keep_trace(res: EvalResult, dest: Path | None = None) -> EvalResult:
    """``res`` with its trace folder copied to ``dest`` (default: a fresh folder of the system's
    temp area), for callers whose scratch root is removed at exit; unchanged when it has no
    trace, without the trace entries when the folder is gone."""
    src = res.logs.get("trace")
    if not src:
        return res
    if not Path(src).is_file():  # a cached result whose folder is gone
        logs = {k: v for k, v in res.logs.items() if not k.startswith("trace")}
        return replace(res, logs=logs)
    import shutil
    import tempfile

    old = Path(src).parent
    if dest is not None and old.resolve() == dest.resolve():
        return res
    new = dest if dest is not None else Path(tempfile.mkdtemp(prefix="rtlopt-trace-"))
    try:
        shutil.copytree(old, new, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.vvp"))
    except OSError as exc:
        log.debug("could not keep the trace %s: %s", old, exc)
        return res
    data = (new / "trace.json").read_text().replace(json.dumps(str(old))[1:-1], str(new))
    (new / "trace.json").write_text(data)
    logs = {
        k: v.replace(str(old), str(new)) if k.startswith("trace") else v
        for k, v in res.logs.items()
    }
    return replace(res, logs=logs)
