"""Switching activity of a mapped netlist: simulated in the equivalence testbench with the
harness stimulus (``flow.power_mode = "activity"``), dumped as a VCD and read per net.

Runs only in the activity mode; the vectorless mode simulates nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.eda.activity import NetActivity
from rtlopt.errors import EvaluationTimeout, ToolFailed
from rtlopt.evaluate._messages import first_error
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._tbsim import simulate_in_testbench

if TYPE_CHECKING:
    from rtlopt.harness import SealedBench

__all__ = ["netlist_activity"]

VCD = "activity.vcd"


def netlist_activity(s: EvalSetup, wd: Path, netlist: Path) -> dict[str, NetActivity]:
    """Simulate the mapped ``netlist`` (as the candidate, beside the renamed reference) on the
    harness's vectors and return each of its nets' toggles per clock period and duty.

    Raises:
        ToolFailed: the netlist and the cell models do not compile, or no waveform came out.
        EvaluationTimeout: the simulation ran out of time.
    """
    from rtlopt.eda.activity import (
        MAPPED_INSTANCE,
        cell_models,
        mapped_wrapper,
        read_activity,
    )

    assert s.pdk is not None
    target = s.tools.target.name
    mapped = mapped_wrapper(netlist.read_text(errors="replace"), target)

    def dump(bench: SealedBench) -> str:
        inst = bench.candidate
        return f'$dumpfile("{VCD}"); $dumpvars(1, {inst}); $dumpvars(1, {inst}.{MAPPED_INSTANCE});'

    models = cell_models(s.pdk.liberty_plain, memory_mb=s.config.sandbox.memory_mb)
    sources = [*s.tools.prelude, s.reference_file, wd / "mapped.v"]
    run = simulate_in_testbench(
        s,
        wd,
        sources,
        name="activity",
        files={"mapped.v": mapped.text},
        libraries=(models,),
        extra=dump,
    )
    if not run.compiled.ok:
        raise ToolFailed(
            "the mapped netlist does not simulate with the liberty's cell models: "
            + first_error(run.compiled.output),
            log_path=run.compiled.log_path,
        )
    if run.timeout is not None:
        raise EvaluationTimeout(f"activity simulation: {run.timeout.one_line()}") from run.timeout
    if not (wd / VCD).is_file():
        raise ToolFailed("the activity simulation wrote no waveform", log_path=wd)
    scope = f"{run.bench.top}.{run.bench.candidate}"
    scopes = (scope, f"{scope}.{MAPPED_INSTANCE}")
    return read_activity(wd / VCD, scopes, s.tb.total, mapped.ranges, mapped.names)
