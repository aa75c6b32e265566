"""The outputs the reference leaves x (un-reset state), checked from a shared power-up state.

A proof on the x power-up model (the exact miter, Yosys's induction, latch correspondence)
says nothing where the reference's outputs are x: the X policy lets the candidate refine any
such bit. When an un-reset counter, LFSR or state machine drives an output, the reference is x
there forever in that model although every real power-up value makes it toggle, so a
candidate that freezes it would be proven. This engine checks exactly those outputs (the ones
simulation saw x in the reference throughout the stimulus's second half) on the miter with
free, defined power-up values, reference registers sharing the value of the candidate
registers they pair with (:mod:`rtlopt.formal.miter`, ``free_init``): a proof says that for
every power-up state of the candidate, the reference powered up in the paired state gives the
same values on those outputs, so no behaviour is hidden behind an x. A counterexample shows a
difference from a shared power-up state (of this pairing).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from rtlopt.formal.engines.abc import prepare, proven
from rtlopt.formal.engines.paired import prove
from rtlopt.formal.job import Job, elapsed
from rtlopt.results import FormalResult, Verdict

log = logging.getLogger(__name__)

__all__ = ["METHOD", "PowerUpCheck", "run"]

#: How a proof of the x outputs is named (appended to ``FormalResult.method``).
METHOD = "abc dprove from a shared power-up state (outputs x in the reference)"


@dataclass(frozen=True)
class PowerUpCheck:
    """The outcome: ``result`` (a checked proof) when proven; otherwise ``why`` it is not,
    and the counterexample from a shared power-up state when one was found."""

    result: FormalResult | None = None
    why: str = ""
    counterexample: dict[str, str] = field(default_factory=dict)


def run(job: Job, outputs: Sequence[str], *, share: float) -> PowerUpCheck:
    """Prove ``outputs`` equal from every shared power-up state (registers paired)."""
    prep, deadline = prepare(
        job, "abc_x_outputs", share, free_init=True, x_first=True, outputs=tuple(outputs)
    )
    if prep.miter is None:
        log.debug("formal %s: no x-output miter: %s", job.design.target.name, prep.reason)
        return PowerUpCheck(why=f"no miter from a shared power-up state ({prep.reason})")
    out = prove(job, prep.aiger, prep.miter, deadline)
    if out is not None and out.status == "proved":
        found = proven(
            job,
            prep.miter,
            FormalResult(
                Verdict.PROVEN,
                METHOD,
                f"registers paired: {prep.miter.pairing}",
                {},
                elapsed(job.start),
            ),
        )
        if found is not None and found.verdict is Verdict.PROVEN:
            return PowerUpCheck(result=found)
        return PowerUpCheck(why=found.reason if found is not None else "no proof")
    if out is not None and out.status == "failed" and out.counterexample:
        return PowerUpCheck(
            why=(
                "the candidate differs from the reference powered up in the same state "
                f"(registers paired: {prep.miter.pairing})"
            ),
            counterexample=dict(out.counterexample),
        )
    status = out.status if out is not None else "timeout"
    return PowerUpCheck(why=f"no proof from a shared power-up state (abc: {status})")
