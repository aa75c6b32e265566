"""A design simulated in the equivalence testbench: the sealed compile and run that the
simulation stage, the netlist check (``_netlist``) and the activity simulation (``_activity``)
share."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.evaluate._setup import EvalSetup

if TYPE_CHECKING:
    from rtlopt.eda.iverilog import CompileResult, SimulationTimeout
    from rtlopt.harness import SealedBench, SimReport
    from rtlopt.results import Mismatch

__all__ = ["NetlistSim", "first_difference", "simulate_in_testbench"]


@dataclass(frozen=True)
class NetlistSim:
    """What one compile and run in the testbench gave.

    Attributes:
        compiled: The compiler's result (``compiled.ok`` False: nothing ran).
        bench: The run's testbench (its top and instance names).
        report: The simulation's verdict; None when it did not compile or timed out.
        timeout: The simulation's timeout, when it ran out of time.
    """

    compiled: CompileResult
    bench: SealedBench
    report: SimReport | None = None
    timeout: SimulationTimeout | None = None


def _shared_vectors(s: EvalSetup) -> Path:
    """The vector file in the shared folder, which no simulation can write (written once,
    atomically: parallel evaluations write the same bytes)."""
    from rtlopt.harness import VECTOR_FILE

    dest = s.shared_dir / VECTOR_FILE
    text = s.tb.files[VECTOR_FILE]
    try:
        if dest.read_text() == text:
            return dest
    except OSError:
        pass
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, dest)
    return dest


def simulate_in_testbench(
    s: EvalSetup,
    wd: Path,
    sources: Sequence[Path],
    *,
    name: str,
    files: Mapping[str, str] | None = None,
    libraries: Sequence[Path] = (),
    extra: Callable[[SealedBench], str] | None = None,
    log_name: str = "",
    tb: Any = None,
    include_dirs: Sequence[Path] | None = None,
    defines: Mapping[str, str] | None = None,
) -> NetlistSim:
    """Write the testbench's files (then ``files``) into ``wd`` (the testbench reads its
    vectors from the shared folder, which the design cannot write), compile ``sources`` and this
    run's sealed testbench (``Testbench.sealed``: a fresh secret and fresh names; ``extra``
    gives the statements of one more ``initial`` block) with the testbench's include folders
    and defines into ``<name>.vvp``, delete the testbench's text, and run the compiled file
    sealed and guarded (:func:`rtlopt.eda.iverilog.run_simulation`: no system task in the
    candidate's scopes, no secret or verdict the design can open); both under the sandbox's
    time and memory limits (the run also under the harness's simulation limit), the run's log
    in ``log_name`` (default ``<name>_sim.log``); ``tb``: another testbench with the setup's
    vectors (default the setup's); ``include_dirs``, ``defines``: what the sources are read
    with (default the setup's tools')."""
    from rtlopt.eda.iverilog import SimulationTimeout, VvpGuard, compile_sources, run_simulation
    from rtlopt.harness import ref_name

    sb = s.config.sandbox
    wd.mkdir(parents=True, exist_ok=True)
    tb = s.tb if tb is None else tb
    for fname, content in {**tb.files, **(files or {})}.items():
        (wd / fname).write_text(content)
    from rtlopt.tools import argv_path

    # a vector path the testbench's string literal cannot hold is reached through a safe link
    bench = tb.sealed(Path(argv_path(_shared_vectors(s))))
    if extra is not None:
        bench = bench.with_initial(extra(bench))
    tb_file = wd / f"{name}_tb.v"
    tb_file.write_text(bench.text)
    try:
        comp = compile_sources(
            [*sources, tb_file],
            wd,
            top=bench.top,
            include_dirs=s.tools.include_dirs if include_dirs is None else include_dirs,
            defines=s.tools.defines if defines is None else defines,
            out=wd / f"{name}.vvp",
            timeout=sb.timeout_s,
            memory_mb=sb.memory_mb,
            libraries=libraries,
        )
    finally:
        tb_file.unlink(missing_ok=True)
    if not comp.ok:
        return NetlistSim(comp, bench)
    target = s.tools.target.name
    try:
        rep = run_simulation(
            wd / f"{name}.vvp",
            wd,
            timeout=min(sb.timeout_s, s.config.harness.sim_timeout_s),
            memory_mb=sb.memory_mb,
            secret=bench.secret,
            log_name=log_name or f"{name}_sim.log",
            guard=VvpGuard(bench.top, ref_name(target), target),
        )
    except SimulationTimeout as exc:
        return NetlistSim(comp, bench, timeout=exc)
    return NetlistSim(comp, bench, rep)


def first_difference(run: NetlistSim, what: str) -> Mismatch | str:
    """What a compiled run of two designs in one testbench says: its first mismatch, "" when
    it passed, or why it gave no verdict (a foreign call; ``unchecked: <what>
    ended without a verdict``). Raises the run's timeout (an infrastructure error)."""
    from rtlopt.eda.iverilog import FOREIGN_CALL

    if run.timeout is not None:
        raise run.timeout
    assert run.report is not None
    rep = run.report
    if rep.reason.startswith(FOREIGN_CALL):
        return rep.reason
    if rep.result.passed:
        return ""
    first = rep.result.first_mismatch
    if first is None:
        return f"unchecked: {what} ended without a verdict ({rep.reason})"
    return first
