"""The netlist check: a synthesized netlist simulated in the equivalence testbench against the
reference (its RTL, or its own netlist when that differs from its RTL)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.evaluate._messages import first_error
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._tbsim import simulate_in_testbench
from rtlopt.results import SimResult

__all__ = [
    "NetlistGold",
    "NetlistOutcome",
    "netlist_check",
    "netlist_provenance",
    "netlist_sources",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NetlistOutcome:
    """What the netlist check found: a simulation result, or why there is none."""

    result: SimResult | None
    reason: str = ""
    timeout: bool = False


@dataclass
class NetlistGold:
    """What candidate netlists are compared with, decided when the reference is measured.

    Attributes:
        path: The reference RTL, the reference's own renamed netlist, or None (the check is
            unavailable; ``note`` says why).
        note: How the decision was made ("" = not decided yet).
    """

    path: Path | None = None
    note: str = ""

    def choose(self, s: EvalSetup, outcome: NetlistOutcome, generic: Path | None) -> None:
        """Decide from the reference's own netlist check (``outcome``) and its generic
        netlist."""
        from rtlopt.harness import ref_name, rename_modules

        if outcome.result is not None and outcome.result.passed:
            self.path = s.reference_file
            self.note = "candidate netlists are simulated against the reference RTL"
            return
        why = outcome.reason or "it does not simulate"
        text = generic.read_text(errors="replace") if generic is not None else ""
        names = re.findall(r"^module\s+([A-Za-z_][\w$]*)\s*\(", text, re.M)
        target = s.design.target.name
        if outcome.timeout or outcome.result is None or not names or target not in names:
            self.path = None
            self.note = f"unavailable: the reference's own netlist check failed ({why})"
            log.warning("netlist check unavailable for %s: %s", target, why)
            return
        gold = s.shared_dir / "reference_netlist.v"
        gold.write_text(rename_modules(text, {n: ref_name(n) for n in names}))
        self.path = gold
        self.note = (
            "candidate netlists are simulated against the reference's netlist, "
            f"because the reference's netlist differs from its RTL ({why})"
        )
        log.warning(
            "%s: the reference's synthesized netlist differs from its RTL (%s); "
            "candidate netlists are compared with the reference's netlist",
            target,
            why,
        )


def netlist_check(s: EvalSetup, wd: Path, gold: Path, netlist: Path) -> NetlistOutcome:
    """Simulate a synthesized netlist against ``gold`` in the equivalence testbench.

    Runs on the flow's second thread while OpenSTA times the mapped netlist.
    """
    from rtlopt.eda.iverilog import yosys_simulation_libraries

    # write_verilog expresses Yosys's cells as plain Verilog; the cell models are only read (an
    # extra parse per candidate) when the netlist still instantiates a cell
    libraries = yosys_simulation_libraries() if _instantiates_cells(netlist) else ()
    sources = [*s.tools.prelude, gold, netlist]
    run = simulate_in_testbench(s, wd, sources, name="netlist", libraries=libraries)
    if not run.compiled.ok:
        return NetlistOutcome(
            None,
            "the synthesized netlist does not compile in the testbench: "
            + first_error(run.compiled.output),
        )
    if run.timeout is not None:
        return NetlistOutcome(None, run.timeout.one_line(), timeout=True)
    assert run.report is not None
    return NetlistOutcome(run.report.result, run.report.reason)


def netlist_sources(s: EvalSetup, netlist: Path) -> list[Path]:
    """What a replay of a netlist-check mismatch compiles as the candidate: the prelude, the
    netlist, and Yosys's cell models when the netlist still instantiates a cell."""
    from rtlopt.eda.iverilog import yosys_simulation_libraries

    libs = yosys_simulation_libraries() if _instantiates_cells(netlist) else ()
    return [*s.tools.prelude, netlist, *libs]


def netlist_provenance(s: EvalSetup, gold: NetlistGold) -> dict[str, Any]:
    """What the netlist check does and what it compares with."""
    from rtlopt.eda.iverilog import yosys_simulation_libraries

    return {
        "mode": s.config.eval.netlist_check,
        "what": "the netlist after `synth` (generic cells, initial values removed), "
        "simulated in the equivalence testbench beside timing",
        "gold": gold.note or "decided when the reference is measured",
        "simulation_libraries": [str(f) for f in yosys_simulation_libraries()],
    }


_CELL_INSTANCE = re.compile(r"^\s*\\\$\S+\s", re.M)


def _instantiates_cells(netlist: Path) -> bool:
    try:
        return bool(_CELL_INSTANCE.search(netlist.read_text(errors="replace")))
    except OSError:
        return True
