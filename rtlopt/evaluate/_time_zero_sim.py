"""Simulation time 0 as the simulator reads it: the candidate simulated from a held start.

The rules of :mod:`rtlopt.evaluate._time_zero` compare the texts' blocks for what each waits for
at time 0; which expressions make an event from held values, and which ``@*`` lists the
simulator shortens, are iverilog's own. This check asks iverilog: once a candidate has passed
everything else, it is simulated beside the reference once more in the equivalence testbench,
started with every input held from time 0 by a variable's initializer (no event under
``-g2012``; :class:`rtlopt.harness.HeldStart`), as a testbench instantiating the target may hold
them, then given the stimulus as usual: resets held active, the other inputs at a seeded random
value; outputs compared at 1 ns and after every vector with the testbench's X policy (a
reference x may be refined, as at a top's ports). For a target the repository instantiates, once
more with the inputs the repository changes at time 0 even when its tops' inputs are held
(constants, ``initial`` writes: ``evented_inputs(environment=False)``) given their value by an
event at time 0, x-exactly at time 0 (a parent's ``if`` decides on an x). Any difference rejects
the candidate: "not equivalent" where a testbench may hold the inputs so, "unchecked" where the
held values are a sample of the repository's.

Not read here: the SystemVerilog view path (the views are not the text a simulator reads), held
values other than the one sample.
"""

from __future__ import annotations

import random
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rtlopt.evaluate._candidate import Candidate
    from rtlopt.evaluate._setup import EvalSetup
    from rtlopt.harness import Testbench

__all__ = ["held_start_difference"]

_LOCK = threading.Lock()
#: the held testbenches per setup: id(setup.tb) -> (setup.tb, [(held twin, inside)])
_BENCHES: dict[int, tuple[Any, list[tuple[Testbench, bool]]]] = {}


def held_start_difference(s: EvalSetup, c: Candidate) -> str:
    """Why the candidate differs from the reference when the inputs are held from time 0
    (module docstring), or ""."""
    from rtlopt.harness import same_as_reference

    if c.pp is None or not c.event_blocks or same_as_reference(c.text, s.design):
        return ""  # the view path; no block on either side waits for an event; the same text
    for k, (bench, inside) in enumerate(_held_benches(s)):
        why = _difference(s, c, bench, inside, f"held{k}")
        if why:
            return why
    return ""


def _difference(s: EvalSetup, c: Candidate, bench: Testbench, inside: bool, name: str) -> str:
    """The candidate simulated in ``bench`` (a held start): why it differs, or ""."""
    from rtlopt.evaluate._tbsim import first_difference, simulate_in_testbench
    from rtlopt.harness import power_up_file

    run = simulate_in_testbench(
        s,
        c.dir,
        [s.reference_file, *c.lib, power_up_file(c.file, s.config.harness.initial_values)],
        name=name,
        log_name=f"{name}.log",
        tb=bench,
    )
    c.logs[name] = str(c.dir / f"{name}.log")
    if not run.compiled.ok:  # it compiled beside the reference in the first simulation
        return "unchecked: the simulation from a held start does not compile"
    first = first_difference(run, "the simulation from a held start")
    if isinstance(first, str):
        return first
    at = "at 1 ns, before the first vector" if "vector -1)" in first.time else f"at {first.time}"
    head = "unchecked: differs" if inside else "not equivalent in simulation"
    return (
        f"{head} with the inputs held from time 0 by initializers (no event under iverilog "
        f"-g2012, as a testbench may hold them): output {first.output} expected "
        f"{first.expected} got {first.got} {at}; keep the reference's form (assign, "
        "always_comb or always @*) of what it computes"
    )


def _held_benches(s: EvalSetup) -> list[tuple[Testbench, bool]]:
    """The setup's testbench started from held states, each with whether its held values
    are a sample of the repository's (built once per setup)."""
    with _LOCK:
        got = _BENCHES.get(id(s.tb))
        if got is not None and got[0] is s.tb:
            return got[1]
    benches = _build(s)
    with _LOCK:
        while len(_BENCHES) >= 8:
            _BENCHES.pop(next(iter(_BENCHES)))
        _BENCHES[id(s.tb)] = (s.tb, benches)
    return benches


def _build(s: EvalSetup) -> list[tuple[Testbench, bool]]:
    """A testbench instantiating the target holds every input, the test's X policy (as a
    top's); for a target the repository instantiates, also the repository's own events at
    time 0 with the other inputs held, x exactly at time 0."""
    from rtlopt.frontend._time_zero import evented_inputs, instantiated

    try:
        evented = evented_inputs(s.design, environment=False)
        inside = instantiated(s.design)
    except RuntimeError:
        evented, inside = frozenset(), True  # nothing known: every input held, x exact
    out = [(_bench(s, frozenset(), False), False)]
    if inside:
        out.append((_bench(s, evented, True), True))
    return out


def _bench(s: EvalSetup, evented: frozenset[str], strict: bool) -> Testbench:
    from rtlopt.harness import HeldStart, build_testbench

    tb = s.tb
    rng = random.Random(f"rtlopt-held-start:{tb.seed}")
    value = 0
    for f in tb.fields:
        if f.reset_active is None:
            v = rng.getrandbits(f.width)
        else:  # a reset held active, as a testbench holds it through power-up
            v = f.mask if f.reset_active else 0
        value |= (v & f.mask) << f.offset
    start = HeldStart(value=value, evented=evented, strict=strict)
    bench = build_testbench(s.tools, s.config.harness, s.secret, constants=tb.constants, held=start)
    if dict(bench.files) != dict(tb.files):
        raise RuntimeError("the held start's testbench drew other vectors than the testbench")
    return bench
