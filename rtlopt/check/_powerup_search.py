"""A failing input for a change the proof could not decide, from a shared power-up state.

Registers without a reset power up x in the model the proof uses; the X policy lets the change
refine any output the reference leaves x, so a broken edit of such a design is often neither
proven nor refuted ("unknown" after the formal limit, with no input to show). This search
gives every register the power-up value the reference and the change share (its initialiser,
0 where it has none) and runs a bounded SAT search (Yosys ``sat -seq``) on the equivalence
miter for a cycle where an output the reference defines differs. What it finds is shown as the
failing input and a waveform; it never changes the verdict ("unknown" stays a failure: an
equivalent change with a different state encoding may differ from this one power-up state).
Nothing is read from log text: the counterexample is Yosys's VCD, and the difference is
re-read from it (``trigger`` high).
"""

from __future__ import annotations

import logging
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.errors import RtloptError

log = logging.getLogger(__name__)

MITER = "rtlopt_search_miter"


@dataclass
class _Vcd:
    names: dict[str, str] = field(default_factory=dict)  # id -> name
    steps: list[dict[str, str]] = field(default_factory=list)  # per time: name -> bits


def _read_vcd(text: str) -> _Vcd:
    out = _Vcd()
    cur: dict[str, str] = {}
    started = False
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"\$var\s+\S+\s+\d+\s+(\S+)\s+(\S+)", line)
        if m:
            out.names[m.group(1)] = m.group(2).lstrip("\\")
            continue
        if line.startswith("#"):
            if started:
                out.steps.append(dict(cur))
            started = True
            continue
        m = re.match(r"b([01xzXZ]+)\s+(\S+)$", line) or re.match(r"([01xzXZ])(\S+)$", line)
        if m and started and m.group(2) in out.names:
            cur[out.names[m.group(2)]] = m.group(1).lower()
    if started:
        out.steps.append(dict(cur))
    return out


def _value(bits: str) -> str:
    if any(c not in "01" for c in bits):
        return bits
    return str(int(bits, 2)) if len(bits) <= 8 else hex(int(bits, 2))


def failing_input(vcd_text: str, clocks: set[str]) -> list[str]:
    """The lines describing a counterexample VCD: inputs per cycle up to the first cycle the
    ``trigger`` is high, and the outputs that differ there; [] when no cycle has it high."""
    vcd = _read_vcd(vcd_text)
    hit = next((i for i, s in enumerate(vcd.steps) if s.get("trigger") == "1"), None)
    if hit is None:
        return []
    lines = []
    for i, step in enumerate(vcd.steps[: hit + 1]):
        ins = [
            f"{k[3:]}={_value(v)}"
            for k, v in sorted(step.items())
            if k.startswith("in_") and k[3:] not in clocks
        ]
        lines.append(f"cycle {i}: {' '.join(ins) or '(no inputs)'}")
    diffs = []
    at = vcd.steps[hit]
    for k, gold in sorted(at.items()):
        if k.startswith("gold_"):
            gate = at.get("gate_" + k[5:])
            if gate is not None and gate != gold and "x" not in gold:
                diffs.append(f"{k[5:]}: reference {_value(gold)}, change {_value(gate)}")
    return lines + [f"cycle {hit}: outputs differ: {'; '.join(diffs) or 'see the waveform'}"]


def _script(design: Any, cand_file: Path, ref_file: Path, steps: int, timeout_s: float) -> str:
    from rtlopt.harness import ref_name
    from rtlopt.tools import yosys_read_lines

    target = design.target
    others = [f for f in design.closure if Path(f).resolve() != Path(target.file).resolve()]
    read = yosys_read_lines(
        [*design.prelude, *others, ref_file, cand_file],
        design.include_dirs,
        design.defines,
        one_per_file=True,
    )
    return "\n".join(
        [
            *read,
            "hierarchy -check",
            "proc",
            "async2sync",
            "flatten",
            "memory",
            "opt_clean",
            f"miter -equiv -flatten -make_outputs -ignore_gold_x {ref_name(target.name)} "
            f"{target.name} {MITER}",
            f"hierarchy -top {MITER}",
            "opt_clean",
            f"sat -seq {steps} -enable_undef -set-def-inputs -set-init-zero -prove trigger 0 "
            f"-show-ports -dump_vcd trace.vcd -timeout {int(timeout_s)} {MITER}",
        ]
    )


def shared_powerup_trace(
    design: Any, candidate: str, workdir: Path, *, steps: int = 24, timeout_s: float = 60.0
) -> list[str]:
    """Search ``steps`` cycles from the shared power-up state for a differing output.

    Returns:
        Lines for the report (the power-up state, inputs per cycle, the differing outputs,
        the kept waveform), or [] when nothing was found or the search could not run.
    """
    from rtlopt.harness import reference_text
    from rtlopt.tools import Limits, require_tool, run_tool

    workdir.mkdir(parents=True, exist_ok=True)
    ref_file, cand_file = workdir / "reference.v", workdir / "change.v"
    try:
        ref_file.write_text(reference_text(design))
        cand_file.write_text(candidate)
        (workdir / "search.ys").write_text(
            _script(design, cand_file, ref_file, steps, timeout_s) + "\n"
        )
        yosys = require_tool("yosys")
        run = run_tool(
            yosys.argv("-q", "search.ys"),
            cwd=workdir,
            log_path=workdir / "search.log",
            limits=Limits(timeout_s + 30.0),
            raise_on_timeout=False,
        )
    except (OSError, RtloptError) as exc:
        log.debug("power-up search did not run: %s", exc)
        return []
    vcd = workdir / "trace.vcd"
    if run.timed_out or not vcd.is_file():
        return []
    clocks = set(design.target.clocks)
    lines = failing_input(vcd.read_text(errors="replace"), clocks)
    if not lines:
        return []
    kept = Path(tempfile.mkdtemp(prefix="rtlopt-trace-")) / "powerup_trace.vcd"
    kept.write_bytes(vcd.read_bytes())
    head = (
        "failing input from a shared power-up state (every register at its initial value, 0 "
        "where it has none, in the reference and the change alike); the proof is still "
        "undecided:"
    )
    return [head, *lines, f"waveform: {kept}"]
