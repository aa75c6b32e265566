"""A counterexample as data: the input values per step with the claimed first failing step and
output (``Trace``, from a simulation mismatch or a formal counterexample), and what its replay
sampled (``Sample``, ``Replay``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from rtlopt.frontend.model import Module
from rtlopt.harness._stimulus import Field
from rtlopt.results import Mismatch

TOP = "rtlopt_replay"
JSON_SAMPLES = 64  # samples kept in trace.json (the terminal table shows at most 16)
STEP_NS = 10
_VEC = re.compile(r"vector (\d+)")
_STEP_KEY = re.compile(r"^(?P<name>.+)@(?P<step>\d+)$")
_KV = re.compile(r"(\S+?)=(\S*)")


@dataclass(frozen=True)
class Trace:
    """Input values per step of one refutation.

    Attributes:
        kind: ``simulation``, ``formal`` or ``netlist`` (the netlist check's mismatch).
        sequential: Clocks are driven (else every step is independent).
        steps: Per step, input name -> binary digits (MSB first; ``x``/``z`` allowed).
        claimed_step: The step the engine names as the first failing one.
        claimed_output: The output it names (empty when several).
        clock_data: The clocks are ordinary inputs in ``steps`` (Yosys's ``clk2fflogic``
            model), not toggled once per step.
        first_index: The first step's number in the engine's message (Yosys's SAT counts
            from 1); step ``i`` here is step ``first_index + i`` there.
    """

    kind: str
    sequential: bool
    steps: tuple[Mapping[str, str], ...]
    claimed_step: int
    claimed_output: str = ""
    clock_data: bool = False
    first_index: int = 0


@dataclass(frozen=True)
class Sample:
    """One sampled point of the replay."""

    step: int
    phase: int
    inputs: Mapping[str, str]
    reference: Mapping[str, str]
    candidate: Mapping[str, str]
    bad: tuple[str, ...]  # outputs that differ under the X policy


@dataclass(frozen=True)
class Replay:
    """The replayed counterexample.

    Attributes:
        kind: ``simulation``, ``formal`` or ``netlist`` (the netlist check's mismatch).
        reproduced: The replay shows a mismatch.
        first: Index into ``samples`` of the first mismatching sample (-1: none).
        claimed_step: The step the engine named (in the engine's own numbering).
        note: Why it does not reproduce, or where it differs from the claim.
        samples: Every sampled point, in time order.
        inputs, outputs: Port names and widths (non-clock inputs; outputs).
        clocks: Clock names.
        forced, forced_steps: The resets asserted in the first steps to reach the reset
            state a formal trace starts from.
        vcd, testbench, script: Paths of the waveform, the replay testbench and a shell
            script holding the reproducing command.
        command: The command line (compile and run).
    """

    kind: str
    reproduced: bool
    first: int
    claimed_step: int
    note: str
    samples: tuple[Sample, ...]
    inputs: Mapping[str, int]
    outputs: Mapping[str, int]
    clocks: tuple[str, ...]
    sequential: bool
    vcd: str = ""
    testbench: str = ""
    script: str = ""
    command: str = ""
    first_index: int = 0
    omitted: int = 0
    extra: Mapping[str, str] = field(default_factory=dict)
    #: The resets the replay asserts in its first ``forced_steps`` steps (a formal trace: the
    #: proof starts from the reset state, whatever its own first step says of the reset)
    forced: tuple[str, ...] = ()
    forced_steps: int = 0

    def window(self, n: int) -> Replay:
        """The last ``n`` samples up to the first mismatch (the end when none); ``omitted``
        counts the samples left out before them."""
        end = self.first + 1 if self.first >= 0 else len(self.samples)
        lo = max(0, end - n)
        first = self.first - lo if self.first >= 0 else -1
        kept = self.samples[lo:end]
        return dataclasses.replace(self, samples=kept, first=first, omitted=self.omitted + lo)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def _decode(word: int, fields: Sequence[Field]) -> dict[str, str]:
    return {f.name: format((word >> f.offset) & f.mask, f"0{f.width}b") for f in fields}


def trace_from_mismatch(
    m: Mismatch, vectors_hex: str, fields: Sequence[Field], sequential: bool
) -> Trace | None:
    """The simulation testbench's first mismatch as a trace.

    Sequential: every cycle up to and including the failing one; combinational: the failing
    vector alone (earlier vectors cannot matter). None when the vector index is unknown.
    """
    found = _VEC.search(m.time)
    if found is None:
        return None
    idx = int(found.group(1))
    words = [int(w, 16) for w in vectors_hex.split() if w.strip()]
    if idx >= len(words):
        return None
    chosen = words[: idx + 1] if sequential else [words[idx]]
    steps = tuple(_decode(w, fields) for w in chosen)
    claimed = idx if sequential else 0
    return Trace("simulation", sequential, steps, claimed, m.output)


def trace_from_formal(cex: Mapping[str, str], target: Module) -> Trace | None:
    """A formal counterexample (:func:`rtlopt.formal.logparse.parse_counterexample`,
    :func:`rtlopt.formal.abc.explain`) as a trace; None when it names no input."""
    names = {p.name for p in target.inputs}
    outs = {k.partition(" ")[2] for k in cex if k.startswith("expected ")}
    claimed_output = next(iter(outs)) if len(outs) == 1 else ""
    per: dict[int, dict[str, str]] = {}
    for k, v in cex.items():
        mt = _STEP_KEY.match(k)
        if mt and mt.group("name") in names:
            per.setdefault(int(mt.group("step")), {})[mt.group("name")] = v
    if per:
        lo = min(per)
        steps = tuple(per.get(s, {}) for s in range(lo, max(per) + 1))
        clock_data = any(c in s for s in steps for c in target.clocks)
        cycle = int(cex.get("cycle", str(max(per))))
        return Trace("formal", True, steps, cycle - lo, claimed_output, clock_data, lo)
    flat = {k: v for k, v in cex.items() if k in names}
    if not flat:
        return None
    seq = bool(target.clocks)
    return Trace("formal", seq, (flat,), 0, claimed_output)
