"""Non-vacuity: no proof stands on a model that is contradictory or that differs from the
designs the testbench simulates.

Two drivers of one net that disagree on some inputs make Yosys's SAT model contradictory
exactly there: a miter over it is "proven" while simulation sees ``x``. So:

* :func:`drivers_problem` compares Yosys ``check`` on the reference and on the candidate
  (conflicting drivers, used nets without a driver, logic loops, each counted per kind from
  the command's own result file): a candidate with more of one kind than the reference is
  rejected (``FormalResult.structure``); the AIG builder refuses a second driver as well
  (:class:`rtlopt.formal.netlist.Netlist`).
* ``check`` misses a constant beside another driver, and ``opt_clean`` removes the evidence,
  so :func:`counted_drivers` counts the drivers of every net bit in the design right after
  ``proc; flatten`` (:mod:`rtlopt.formal.drivers`): a candidate net with more drivers than
  the reference's net of the same name is rejected the same way.
* Every Yosys proof script runs a witness ``sat`` on the miter that must find one trace
  where the proof's assumptions hold (:func:`rtlopt.formal.logparse.witness_problem`).
* Every proof of the AIG miter (ABC engines) is checked against bit-parallel simulation of
  the same AIG from random inputs (:func:`aig_witness`): the miter's output stays 0 on every
  simulated trace, or the proof is not taken.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from rtlopt.formal.aig import FALSE, Aig
from rtlopt.formal.drivers import extra_drivers, module_drivers, parse_rtlil

__all__ = [
    "DRIVER_KINDS",
    "NOT_RUN",
    "aig_witness",
    "count_problems",
    "counted_drivers",
    "drivers_problem",
]

#: ``check`` warnings counted per kind (the start of the warning line). Used nets without a
#: driver are counted by :mod:`rtlopt.formal.drivers` instead: ``check`` runs after
#: ``memory``, which leaves the data wire of a ``case`` turned into a ROM "used" and undriven.
DRIVER_KINDS: Mapping[str, str] = {
    "conflicting drivers": "Warning: multiple conflicting drivers for ",
    "logic loops": "Warning: found logic loop",
}

#: Node evaluations :func:`aig_witness` allows itself (frames are cut to fit, at least 2).
_NODE_STEPS = 2_000_000

#: What :func:`drivers_problem` says when a result file is missing or incomplete.
NOT_RUN = "the drivers check (yosys check) did not run"

_DONE = re.compile(r"^Found and reported (\d+) problems\.", re.M)


def count_problems(text: str) -> dict[str, int] | None:
    """Problems per kind in one ``check`` result file; None when the check did not finish.

    Only the lines up to ``check``'s own summary count (Yosys may append its warning digest
    to the file at exit); lines end at ``\\n`` only.
    """
    done = _DONE.search(text)
    if done is None:
        return None
    lines = text[: done.start()].split("\n")
    out = {kind: 0 for kind in DRIVER_KINDS}
    for line in lines:
        for kind, start in DRIVER_KINDS.items():
            if line.startswith(start):
                out[kind] += 1
    return out


def drivers_problem(gold_text: str, gate_text: str) -> str:
    """Why the candidate's nets are worse than the reference's ("" when they are not).

    Args:
        gold_text: The result file of ``check`` on the reference.
        gate_text: The same on the candidate.
    """
    gold, gate = count_problems(gold_text), count_problems(gate_text)
    if gold is None or gate is None:
        return NOT_RUN
    worse = [
        f"{gate[k]} {k} (the reference has {gold[k]})" for k in DRIVER_KINDS if gate[k] > gold[k]
    ]
    if not worse:
        return ""
    return "the candidate has " + ", ".join(worse) + ": a proof over it would be vacuous"


def counted_drivers(rtlil: str, gold: str, gate: str) -> str:
    """Why the candidate ``gate`` has more drivers on a net than the reference ``gold`` ("" when
    it has not), counted in ``rtlil`` (the design after ``proc; flatten``, see
    :mod:`rtlopt.formal.drivers`); :data:`NOT_RUN` when the dump lacks a module."""
    mods = parse_rtlil(rtlil)
    ref, cand = module_drivers(mods, gold), module_drivers(mods, gate)
    if ref is None or cand is None:
        return NOT_RUN
    found = extra_drivers(ref, cand)
    return f"the candidate has {found}: a proof over it would be vacuous" if found else ""


def aig_witness(aig: Aig, *, frames: int = 8, lanes: int = 64, seed: int = 1) -> str:
    """Simulate the proven miter ``aig`` from its power-up state on ``lanes`` random input
    traces of ``frames`` steps, bit-parallel; "" when its output stays 0 everywhere, else
    the first step where it is 1 (the proof and the model disagree). Large graphs get fewer
    steps (at least 2: the power-up step and one after it), about a second of Python."""
    rng = random.Random(seed)
    mask = (1 << lanes) - 1
    kinds = aig._kind
    frames = max(2, min(frames, _NODE_STEPS // max(1, len(kinds))))
    fanins = aig._fanins
    state = {v: 0 for v in aig.latches}
    nxt = aig._next
    for step in range(frames):
        val: list[int] = [0] * len(kinds)
        for v in aig.inputs:
            val[v] = rng.getrandbits(lanes)
        for v, s in state.items():
            val[v] = s

        def get(lit: int, val: list[int] = val) -> int:
            x = val[lit >> 1]
            return x ^ mask if lit & 1 else x

        for v, kind in enumerate(kinds):
            if kind == "and":
                a, b = fanins[v]
                val[v] = get(a) & get(b)
        if any(get(o) for o in aig.outputs):
            return (
                f"simulation of the proven miter shows a difference at step {step}: "
                "the proof and the model disagree"
            )
        state = {v: get(nxt.get(v, FALSE)) for v in aig.latches}
    return ""
