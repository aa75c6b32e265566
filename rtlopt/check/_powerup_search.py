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
from rtlopt.verilog import blank_comments

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


def _read_lines(design: Any, cand_file: Path, ref_file: Path) -> list[str]:
    from rtlopt.tools import yosys_read_lines

    target = design.target
    others = [f for f in design.closure if Path(f).resolve() != Path(target.file).resolve()]
    return yosys_read_lines(
        [*design.prelude, *others, ref_file, cand_file],
        design.include_dirs,
        design.defines,
        one_per_file=True,
    )


def _miter_lines(design: Any, *, free_reference: bool) -> list[str]:
    """Both sides as flip-flops with their initial values (and the change's others at 0 when
    ``free_reference``: the reference's then start free), then the equivalence miter."""
    from rtlopt.harness import ref_name

    name = design.target.name
    free = []
    if free_reference:
        # the change keeps the shared power-up state (initialiser, else 0: zinit -all makes
        # every flip-flop of the change start at 0, inverting those initialised to 1); the
        # reference's initial values are dropped, so -set-init-def lets them take any value
        free = [f"zinit -all {name}", f"setattr -unset init {ref_name(name)}/w:*"]
    return [
        "hierarchy -check",
        "proc",
        "async2sync",
        "flatten",
        "memory",
        "opt_clean",
        *free,
        f"miter -equiv -flatten -make_outputs -ignore_gold_x {ref_name(name)} {name} {MITER}",
        f"hierarchy -top {MITER}",
        "opt_clean",
    ]


def _script(design: Any, cand_file: Path, ref_file: Path, steps: int, timeout_s: float) -> str:
    return "\n".join(
        [
            *_read_lines(design, cand_file, ref_file),
            *_miter_lines(design, free_reference=False),
            f"sat -seq {steps} -enable_undef -set-def-inputs -set-init-zero -prove trigger 0 "
            f"-show-ports -dump_vcd trace.vcd -timeout {int(timeout_s)} {MITER}",
        ]
    )


def _trace_inputs(vcd_text: str) -> list[dict[str, str]]:
    """The miter's inputs (``in_*``, their bits) per step up to the first with the trigger
    high; [] when no step has it high or an input bit is not 0/1."""
    vcd = _read_vcd(vcd_text)
    hit = next((i for i, s in enumerate(vcd.steps) if s.get("trigger") == "1"), None)
    if hit is None:
        return []
    out = []
    for step in vcd.steps[: hit + 1]:
        ins = {k: v for k, v in step.items() if k.startswith("in_")}
        if not ins or any(c not in "01" for v in ins.values() for c in v):
            return []
        out.append(ins)
    return out


def _confirm_script(
    design: Any, cand_file: Path, ref_file: Path, inputs: list[dict[str, str]], timeout_s: float
) -> str:
    """Yosys proves ``0 == 1`` under: the trace's inputs at every step, the change from the
    shared power-up state, the reference from any defined power-up state, and no step where
    the outputs differ. The proof holds (exit 0 with ``-verify``) exactly when no power-up
    state of the reference follows the change through these inputs: a refutation."""
    sets = [
        f"-set-at {i + 1} {name} {len(bits)}'b{bits}"
        for i, step in enumerate(inputs)
        for name, bits in sorted(step.items())
    ]
    return "\n".join(
        [
            *_read_lines(design, cand_file, ref_file),
            *_miter_lines(design, free_reference=True),
            f"sat -seq {len(inputs)} -enable_undef -set-init-def {' '.join(sets)} "
            f"-set trigger 0 -prove 1'b0 1'b1 -verify -timeout {int(timeout_s)} {MITER}",
        ]
    )


def _one_clock_edge(design: Any, candidate: str) -> bool:
    """Whether the search's model, every register stepping once per step, is one real clock
    schedule: one clock, and no register on its falling edge in either version (those would
    update half a cycle later). Elsewhere a difference found is shown, never a refutation."""
    from rtlopt.harness import reference_text

    clocks = list(design.target.clocks)
    if len(clocks) != 1:
        return False
    falling = re.compile(rf"\bnegedge\s+\(?\s*{re.escape(clocks[0])}\b")
    texts = (reference_text(design), candidate)
    return not any(falling.search(blank_comments(t)) for t in texts)


@dataclass(frozen=True)
class PowerUpTrace:
    """What the search found: report lines (empty: no failing input), and whether the
    failing input refutes the change for every power-up state of the reference."""

    lines: list[str] = field(default_factory=list)
    refuted: bool = False


def _yosys(workdir: Path, name: str, script: str, timeout_s: float) -> Any:
    """Run one Yosys script in ``workdir``; None when it could not run."""
    from rtlopt.tools import Limits, require_tool, run_tool

    try:
        (workdir / f"{name}.ys").write_text(script + "\n")
        return run_tool(
            require_tool("yosys").argv("-q", f"{name}.ys"),
            cwd=workdir,
            log_path=workdir / f"{name}.log",
            limits=Limits(timeout_s + 30.0),
            raise_on_timeout=False,
        )
    except (OSError, RtloptError) as exc:
        log.debug("power-up search did not run: %s", exc)
        return None


def search_shared_powerup(
    design: Any, candidate: str, workdir: Path, *, steps: int = 24, timeout_s: float = 60.0
) -> PowerUpTrace:
    """Search ``steps`` cycles from the shared power-up state for a differing output, then
    ask whether any power-up state of the reference follows the change through that input.

    The verdict never comes from log text: the failing input is Yosys's VCD, and the
    refutation is the exit status of a proof with ``-verify`` (0 only when it holds).
    """
    from rtlopt.harness import reference_text

    workdir.mkdir(parents=True, exist_ok=True)
    ref_file, cand_file = workdir / "reference.v", workdir / "change.v"
    try:
        ref_file.write_text(reference_text(design))
        cand_file.write_text(candidate)
    except OSError as exc:
        log.debug("power-up search did not run: %s", exc)
        return PowerUpTrace()
    run = _yosys(
        workdir, "search", _script(design, cand_file, ref_file, steps, timeout_s), timeout_s
    )
    vcd = workdir / "trace.vcd"
    if run is None or run.timed_out or not vcd.is_file():
        return PowerUpTrace()
    text = vcd.read_text(errors="replace")
    lines = failing_input(text, set(design.target.clocks))
    if not lines:
        return PowerUpTrace()
    kept = Path(tempfile.mkdtemp(prefix="rtlopt-trace-")) / "powerup_trace.vcd"
    kept.write_bytes(vcd.read_bytes())
    inputs = _trace_inputs(text)
    refuted = False
    if inputs and _one_clock_edge(design, candidate):
        script = _confirm_script(design, cand_file, ref_file, inputs, timeout_s)
        proof = _yosys(workdir, "confirm", script, timeout_s)
        refuted = proof is not None and not proof.timed_out and proof.returncode == 0
    if refuted:
        head = (
            "failing input (a refutation): the change starts in the power-up state it shares "
            "with the reference (every register at its initial value, 0 where it has none), "
            "and no power-up state of the reference gives the change's outputs on it:"
        )
    else:
        head = (
            "failing input from a shared power-up state (every register at its initial value, "
            "0 where it has none, in the reference and the change alike); another power-up "
            "state of the reference may follow the change, so the proof is still undecided:"
        )
    return PowerUpTrace([head, *lines, f"waveform: {kept}"], refuted)


def shared_powerup_trace(
    design: Any, candidate: str, workdir: Path, *, steps: int = 24, timeout_s: float = 60.0
) -> list[str]:
    """The report lines of :func:`search_shared_powerup` ([] when nothing was found)."""
    return search_shared_powerup(design, candidate, workdir, steps=steps, timeout_s=timeout_s).lines
