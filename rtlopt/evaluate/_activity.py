"""Switching activity of a mapped netlist: simulated in the equivalence testbench with the
harness stimulus (``flow.power_mode = "activity"``), dumped as a VCD and read per net.

Runs only in the activity mode; the vectorless mode simulates nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from rtlopt.eda.activity import NetActivity
from rtlopt.errors import EvaluationTimeout, ToolFailed
from rtlopt.evaluate._messages import first_error
from rtlopt.evaluate._setup import EvalSetup

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
    from rtlopt.eda.iverilog import SimulationTimeout, compile_sources, run_simulation

    assert s.pdk is not None
    sb = s.config.sandbox
    wd.mkdir(parents=True, exist_ok=True)
    for name, content in s.tb.files.items():
        (wd / name).write_text(content)
    target = s.tools.target.name
    m = re.search(rf"^\s*{re.escape(target)} (u_cand_\w+) \(", s.tb.text, re.M)
    if m is None:
        raise ToolFailed("the testbench has no candidate instance to dump")
    inst = m.group(1)
    tb = wd / "activity_tb.v"
    head, _, _tail = s.tb.text.rstrip().rpartition("endmodule")
    dump = f"$dumpvars(1, {inst}); $dumpvars(1, {inst}.{MAPPED_INSTANCE});"
    tb.write_text(f'{head}  initial begin $dumpfile("{VCD}"); {dump} end\nendmodule\n')
    mapped = mapped_wrapper(netlist.read_text(errors="replace"), target)
    (wd / "mapped.v").write_text(mapped.text)
    models = cell_models(s.pdk.liberty_plain, memory_mb=sb.memory_mb)
    comp = compile_sources(
        [*s.tools.prelude, s.reference_file, wd / "mapped.v", tb],
        wd,
        top=s.tb.top,
        include_dirs=s.tools.include_dirs,
        defines=s.tools.defines,
        out=wd / "activity.vvp",
        timeout=sb.timeout_s,
        memory_mb=sb.memory_mb,
        libraries=(models,),
    )
    if not comp.ok:
        raise ToolFailed(
            "the mapped netlist does not simulate with the liberty's cell models: "
            + first_error(comp.output),
            log_path=comp.log_path,
        )
    try:
        run_simulation(
            wd / "activity.vvp",
            wd,
            timeout=min(sb.timeout_s, s.config.harness.sim_timeout_s),
            memory_mb=sb.memory_mb,
            secret=s.secret,
            log_name="activity_sim.log",
        )
    except SimulationTimeout as exc:
        raise EvaluationTimeout(f"activity simulation: {exc.one_line()}") from exc
    if not (wd / VCD).is_file():
        raise ToolFailed("the activity simulation wrote no waveform", log_path=wd)
    scope = f"{s.tb.top}.{inst}"
    scopes = (scope, f"{scope}.{MAPPED_INSTANCE}")
    return read_activity(wd / VCD, scopes, s.tb.total, mapped.ranges, mapped.names)
