"""A netlist simulated in the equivalence testbench: the sandboxed compile and run that the
netlist check (``_netlist``) and the activity simulation (``_activity``) share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.evaluate._setup import EvalSetup

if TYPE_CHECKING:
    from rtlopt.eda.iverilog import CompileResult, SimulationTimeout
    from rtlopt.harness import SimReport

__all__ = ["NetlistSim", "simulate_in_testbench"]


@dataclass(frozen=True)
class NetlistSim:
    """What one compile and run in the testbench gave.

    Attributes:
        compiled: The compiler's result (``compiled.ok`` False: nothing ran).
        report: The simulation's verdict; None when it did not compile or timed out.
        timeout: The simulation's timeout, when it ran out of time.
    """

    compiled: CompileResult
    report: SimReport | None = None
    timeout: SimulationTimeout | None = None


def simulate_in_testbench(
    s: EvalSetup,
    wd: Path,
    sources: Sequence[Path],
    *,
    name: str,
    files: Mapping[str, str] | None = None,
    libraries: Sequence[Path] = (),
) -> NetlistSim:
    """Write the testbench's files (then ``files``) into ``wd``, compile ``sources`` with the
    testbench's top, include folders and defines into ``<name>.vvp``, and run it with its
    secret; both under the sandbox's time and memory limits (the run also under the harness's
    simulation limit), the run's log in ``<name>_sim.log``."""
    from rtlopt.eda.iverilog import SimulationTimeout, compile_sources, run_simulation

    sb = s.config.sandbox
    wd.mkdir(parents=True, exist_ok=True)
    for fname, content in {**s.tb.files, **(files or {})}.items():
        (wd / fname).write_text(content)
    comp = compile_sources(
        sources,
        wd,
        top=s.tb.top,
        include_dirs=s.tools.include_dirs,
        defines=s.tools.defines,
        out=wd / f"{name}.vvp",
        timeout=sb.timeout_s,
        memory_mb=sb.memory_mb,
        libraries=libraries,
    )
    if not comp.ok:
        return NetlistSim(comp)
    try:
        rep = run_simulation(
            wd / f"{name}.vvp",
            wd,
            timeout=min(sb.timeout_s, s.config.harness.sim_timeout_s),
            memory_mb=sb.memory_mb,
            secret=s.secret,
            log_name=f"{name}_sim.log",
        )
    except SimulationTimeout as exc:
        return NetlistSim(comp, timeout=exc)
    return NetlistSim(comp, rep)
