"""A failing input for a change of registers without reset, from a shared power-up state.

Registers without a reset power up x in the model the proof uses; the X policy lets the change
refine any output the reference leaves x, so a broken edit of such a design is often neither
proven nor refuted ("unknown" after the formal limit, with no input to show). This search
gives every register the power-up value the reference and the change share (its initialiser,
0 where it has none) and runs a bounded SAT search (the base case of Yosys ``sat
-tempinduct``, one step more at a time: the shortest failing input) on the equivalence miter,
both designs read as every proof reads them (:func:`rtlopt.formal.scripts.read_both`),
for a cycle where an output the reference defines differs. A second proof then asks whether
any defined power-up state of the reference follows the change through that input: when none
does, the input refutes the change (whatever state a chip powers up in, the reference never
behaves as the change does from this one); otherwise it is shown and decides nothing (an
equivalent change with another state encoding may differ from this one power-up state).
Nothing is read from log text: the trace is Yosys's VCD (``trigger`` high), the refutation the
exit status of a proof with ``-verify``.

Two users: ``rtlopt check`` (:func:`search_shared_powerup`, the gate's view of the change)
and the formal check of every evaluation (:func:`search_files`, from
:func:`rtlopt.formal.check.check_equivalence` for designs without reset).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import tempfile
import time
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


def _miter_lines(design: Any, *, free_reference: bool) -> list[str]:
    """After both designs are read (:func:`rtlopt.formal.scripts.read_both`, initial values
    kept): both sides as flip-flops with their initial values (and the change's others at 0
    when ``free_reference``: the reference's then start free), then the equivalence miter."""
    from rtlopt.formal.scripts import compared_ids

    gold, gate = compared_ids(design)
    free = []
    if free_reference:
        # the change keeps the shared power-up state (initialiser, else 0: zinit -all makes
        # every flip-flop of the change start at 0, inverting those initialised to 1); the
        # reference's initial values are dropped, so -set-init-def lets them take any value
        free = [f"zinit -all {gate}", f"setattr -unset init {gold}/w:*"]
    return [
        "async2sync",
        "opt_clean",
        *free,
        f"miter -equiv -flatten -make_outputs -ignore_gold_x {gold} {gate} {MITER}",
        f"hierarchy -top {MITER}",
        "opt_clean",
    ]


def _script(read: list[str], design: Any, steps: int, timeout_s: float, reset: bool = False) -> str:
    """The search: the base case of a temporal induction up to ``steps`` (one more step per
    SAT call, each small), so that the first difference is found in the fewest cycles, the
    shortest failing input a reviewer reads, at a fraction of one call over every step.
    ``reset``: the target's resets active in the first step (a trace from reset), one call
    over every step (Yosys 0.23's ``-tempinduct`` does not keep a ``-set-at`` to its step)."""
    from rtlopt.tools import yosys_id

    t = design.target
    held = [
        f"-set-at 1 {yosys_id(f'in_{r}')} {0 if t.reset_active_low.get(r, False) else 1}"
        for r in (t.resets if reset else ())
    ]
    mode = f"-seq {steps}" if held else f"-tempinduct -tempinduct-baseonly -maxsteps {steps}"
    return "\n".join(
        [
            *read,
            *_miter_lines(design, free_reference=False),
            f"sat {mode} -enable_undef "
            f"-set-def-inputs -set-init-zero {' '.join(held)} -prove trigger 0 -show-ports "
            f"-dump_vcd trace.vcd -timeout {max(1, int(timeout_s))} {MITER}",
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
    read: list[str], design: Any, inputs: list[dict[str, str]], timeout_s: float
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
            *read,
            *_miter_lines(design, free_reference=True),
            f"sat -seq {len(inputs)} -enable_undef -set-init-def {' '.join(sets)} "
            f"-set trigger 0 -prove 1'b0 1'b1 -verify -timeout {max(1, int(timeout_s))} {MITER}",
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
    """What the search found: report lines (empty: no failing input), whether the failing
    input refutes the change for every power-up state of the reference, and the trace as a
    formal counterexample (``cycle``, ``expected``/``got`` per differing output, then
    ``input@step`` for every input but the clock, steps counted from 0)."""

    lines: list[str] = field(default_factory=list)
    refuted: bool = False
    counterexample: dict[str, str] = field(default_factory=dict)


def counterexample(vcd_text: str, clocks: set[str]) -> dict[str, str]:
    """The search's VCD as a formal counterexample (see :class:`PowerUpTrace`); {} when no
    step has the ``trigger`` high."""
    vcd = _read_vcd(vcd_text)
    hit = next((i for i, s in enumerate(vcd.steps) if s.get("trigger") == "1"), None)
    if hit is None:
        return {}
    out = {"cycle": str(hit)}
    at = vcd.steps[hit]
    for k, gold in sorted(at.items()):
        gate = at.get("gate_" + k[5:]) if k.startswith("gold_") else None
        if gate is not None and gate != gold and "x" not in gold:
            out[f"expected {k[5:]}"], out[f"got {k[5:]}"] = gold, gate
    for i, step in enumerate(vcd.steps[: hit + 1]):
        for k, v in sorted(step.items()):
            if k.startswith("in_") and k[3:] not in clocks:
                out[f"{k[3:]}@{i}"] = v
    return out


def _yosys(
    workdir: Path, name: str, script: str, timeout_s: float, memory_mb: int | None = None
) -> Any:
    """Run one Yosys script in ``workdir`` (its wall limit a few seconds past ``timeout_s``,
    the SAT run's own limit); None when it could not run."""
    from rtlopt.tools import Limits, require_tool, run_tool

    try:
        (workdir / f"{name}.ys").write_text(script + "\n")
        return run_tool(
            require_tool("yosys").argv("-q", f"{name}.ys"),
            cwd=workdir,
            log_path=workdir / f"{name}.log",
            limits=Limits(timeout_s + 5.0, memory_mb),
            raise_on_timeout=False,
        )
    except (OSError, RtloptError) as exc:
        log.debug("power-up search did not run: %s", exc)
        return None


@dataclass(frozen=True)
class SearchFiles:
    """What the search reads: the renamed reference's file, the change's files (its own
    last) and the include folders beyond the design's."""

    reference: Path
    candidates: tuple[Path, ...]
    include_dirs: tuple[Path, ...] = ()


def search_files(
    design: Any,
    files: SearchFiles,
    workdir: Path,
    *,
    steps: int,
    timeout_s: float,
    one_edge: bool,
    memory_mb: int | None = None,
) -> PowerUpTrace:
    """Search ``steps`` cycles from the shared power-up state for a differing output, then,
    when ``one_edge`` (every register of both sides on one edge of the one clock, so that a
    step of the model is a cycle of the chip), ask whether any power-up state of the
    reference follows the change through that input; within ``timeout_s`` for both.

    The verdict never comes from log text: the failing input is Yosys's VCD, and the
    refutation is the exit status of a proof with ``-verify`` (0 only when it holds).
    """
    from rtlopt.formal.scripts import read_both

    end = time.monotonic() + timeout_s
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "trace.vcd").unlink(missing_ok=True)
    read = read_both(design, files.reference, files.candidates, files.include_dirs)
    vcd = workdir / "trace.vcd"
    clocks = set(design.target.clocks)
    lines: list[str] = []
    text = ""
    # a design with resets: a trace from reset first (after it, no power-up state of the
    # reference's reset registers can follow the change: a refutation where the change
    # differs there), deeper one run at a time within half the time, then from the power-up
    # state alone
    tries = [(True, d) for d in _depths(steps)] if design.target.resets else []
    from_reset = time.monotonic() + timeout_s / 2
    for reset, depth in [*tries, (False, steps)]:
        left = (from_reset if reset else end) - time.monotonic()
        if left < 1.0:
            continue
        limit = left if reset else left * 0.6
        vcd.unlink(missing_ok=True)
        script = _script(read, design, depth, limit, reset)
        run = _yosys(workdir, "search", script, limit, memory_mb)
        if run is not None and not run.timed_out and vcd.is_file():
            text = vcd.read_text(errors="replace")
            lines = failing_input(text, clocks)
        if lines:
            break
    if not lines:
        return PowerUpTrace()
    inputs = _trace_inputs(text)
    refuted = False
    left = end - time.monotonic()
    if inputs and one_edge and left >= 1.0:
        script = _confirm_script(read, design, inputs, left)
        proof = _yosys(workdir, "confirm", script, left, memory_mb)
        refuted = proof is not None and not proof.timed_out and proof.returncode == 0
    head = _REFUTED if refuted else _UNDECIDED
    return PowerUpTrace([head, *lines, f"waveform: {vcd}"], refuted, counterexample(text, clocks))


def _depths(steps: int) -> list[int]:
    """The depths of the searches from reset: 2, 4, 8 ... up to ``steps`` (one SAT call
    over every step each: a short trace within the time where a long one is not)."""
    out = [d for d in (2, 4, 8, 16) if d < steps]
    return [*out, steps]


_REFUTED = (
    "failing input (a refutation): the change starts in the power-up state it shares "
    "with the reference (every register at its initial value, 0 where it has none), "
    "and no power-up state of the reference gives the change's outputs on it:"
)
_UNDECIDED = (
    "failing input from a shared power-up state (every register at its initial value, "
    "0 where it has none, in the reference and the change alike); another power-up "
    "state of the reference may follow the change, so the proof is still undecided:"
)


def search_shared_powerup(
    design: Any, candidate: str, workdir: Path, *, steps: int = 24, timeout_s: float = 60.0
) -> PowerUpTrace:
    """:func:`search_files` for the change's text ``candidate`` of ``design``'s target (the
    gate's view: the design's other files beside it); a refutation only on one clock edge
    (:func:`_one_clock_edge`)."""
    from rtlopt.harness import reference_text

    workdir.mkdir(parents=True, exist_ok=True)
    ref_file, cand_file = workdir / "reference.v", workdir / "change.v"
    try:
        ref_file.write_text(reference_text(design))
        cand_file.write_text(candidate)
    except OSError as exc:
        log.debug("power-up search did not run: %s", exc)
        return PowerUpTrace()
    target = Path(design.target.file).resolve()
    others = tuple(Path(f) for f in design.closure if Path(f).resolve() != target)
    files = SearchFiles(ref_file, (*others, cand_file), (Path(design.target.file).parent,))
    found = search_files(
        design,
        files,
        workdir,
        steps=steps,
        timeout_s=timeout_s,
        one_edge=_one_clock_edge(design, candidate),
    )
    if not found.lines:
        return found
    # the gate's scratch folder goes: the waveform is kept where the report names it
    kept = Path(tempfile.mkdtemp(prefix="rtlopt-trace-")) / "powerup_trace.vcd"
    kept.write_bytes((workdir / "trace.vcd").read_bytes())
    return dataclasses.replace(found, lines=[*found.lines[:-1], f"waveform: {kept}"])


def shared_powerup_trace(
    design: Any, candidate: str, workdir: Path, *, steps: int = 24, timeout_s: float = 60.0
) -> list[str]:
    """The report lines of :func:`search_shared_powerup` ([] when nothing was found)."""
    return search_shared_powerup(design, candidate, workdir, steps=steps, timeout_s=timeout_s).lines
