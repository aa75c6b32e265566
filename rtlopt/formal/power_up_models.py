"""The verdict of a target whose hierarchy states power-up values, under either power-up model.

A register initialiser (``reg q = 0;``), an ``initial`` block of constant assignments or a
memory's initial contents state how the design powers up; every simulator and FPGA flow
reading the text starts from them. ``harness.initial_values`` says which behaviour counts:

* ``honor``: the behaviour from the stated values. The proof from the stated power-up values
  (:mod:`rtlopt.formal.engines.stated`) alone decides; a proof is "proven from the stated
  power-up values" (``FormalResult.power_up == ("stated",)``).
* ``ignore`` (the ASIC model): the proof from unknown registers, initial values dropped and
  the resets forced first (every other engine), decides for a chip whose flip-flops power up
  anywhere. The text the repository's simulators and FPGA flows read still states the values
  (a candidate that states them on other registers, or other values, is decided by the
  proof from the stated values where the reference states every register bit's value:
  :attr:`~rtlopt.formal.plan.FormalPlan.renamed`), and a candidate could keep them as
  text yet lean on them otherwise (a register that takes over another's role starts from
  another value): the design must also be proven from the stated values. Accepted only
  when both prove (``power_up == ("unknown", "stated")``); a refutation from either is a
  refutation; anything undecided is UNKNOWN with ``unchecked`` set, so the evaluator
  rejects it whatever ``formal.require_proof`` says (fail closed).

The proof from the stated values runs only for such targets (:attr:`FormalPlan.stated`); under
``ignore`` it gets the time the proof from unknown registers leaves, at least
:data:`STATED_SHARE` of the limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from rtlopt.formal.engines import stated
from rtlopt.formal.job import Job, elapsed
from rtlopt.results import FormalResult, Verdict

__all__ = ["STATED_SHARE", "UNKNOWN_MODEL", "decide_stated"]

#: The share of ``formal.timeout_s`` kept for the proof from the stated values under
#: ``ignore`` (the proof from unknown registers ends where it begins).
STATED_SHARE = 0.4
#: The name of the model of the other engines in ``FormalResult.power_up``.
UNKNOWN_MODEL = "unknown"


def decide_stated(
    job: Job,
    unknown: Callable[[Job], FormalResult],
    x_outputs: Callable[[Job, FormalResult], FormalResult] | None = None,
    *,
    strict_x: bool = False,
) -> FormalResult:
    """The verdict for ``job`` (its plan states power-up values): see the module's text.

    Args:
        unknown: The proof from unknown registers (every other engine) on a job.
        x_outputs: Under ``honor``, after a proof: the check of the outputs the reference
            leaves x in simulation (from a shared power-up state; None: none).
        strict_x: The strict X policy.
    """
    if job.plan.honor:
        t0 = time.monotonic()
        found = stated.run(job, strict_x=strict_x)
        job.add_time("stated", time.monotonic() - t0)
        if found.verdict is Verdict.PROVEN and found.method.endswith(stated.ASYNC_RESETS):
            found = _after_the_reset(job, unknown, found)
        if found.verdict is Verdict.PROVEN:
            found = replace(found, power_up=(*found.power_up, stated.MODEL))
            if x_outputs is not None:
                found = x_outputs(job, found)
        return replace(found, timings={**found.timings, **job.timings})
    keep = job.cfg.timeout_s * STATED_SHARE
    first_job = replace(job, cfg=replace(job.cfg, timeout_s=max(1.0, job.cfg.timeout_s - keep)))
    first = unknown(first_job)
    if first.verdict is Verdict.REFUTED or first.structure:
        return first
    if first.verdict is not Verdict.PROVEN or first.unchecked:
        why = first.unchecked or (
            f"unchecked: {_STATES} ({_named(job)}), and the proof from unknown registers did "
            f"not prove it ({first.reason}); the proof from the stated values alone does not "
            'decide under harness.initial_values = "ignore"'
        )
        return replace(first, unchecked=why)
    t0 = time.monotonic()
    found = stated.run(job, strict_x=strict_x)
    job.add_time("stated", time.monotonic() - t0)
    timings = {**first.timings, **job.timings}
    if found.verdict is Verdict.PROVEN:
        return replace(
            first,
            method=f"{first.method}; {found.method}",
            reason="; ".join(r for r in (first.reason, found.reason) if r),
            duration_s=elapsed(job.start),
            timings=timings,
            power_up=(UNKNOWN_MODEL, stated.MODEL),
        )
    if found.verdict is Verdict.REFUTED or found.structure:
        return replace(found, timings=timings)
    renamed = job.plan.renamed
    by_name = f" (they differ from the reference's by register name: {renamed})" if renamed else ""
    why = (
        f"unchecked: {_STATES} ({_named(job)}): proven from unknown registers ({first.method}) "
        f"but not from the stated power-up values{by_name}: {found.reason}"
    )
    return replace(found, timings=timings, unchecked=why)


_STATES = "the design states power-up values"


def _after_the_reset(
    job: Job, unknown: Callable[[Job], FormalResult], found: FormalResult
) -> FormalResult:
    """Under ``honor``, a proof from the stated values that holds up to the first reset
    (:data:`stated.ASYNC_RESETS`) with the proof from unknown registers for what follows
    it: PROVEN by both, else UNKNOWN (unchecked), a refutation of the second a refutation."""
    after = unknown(job)
    if after.verdict is Verdict.PROVEN and not after.unchecked:
        return replace(
            found,
            method=f"{after.method}; {found.method}",
            duration_s=elapsed(job.start),
            power_up=(UNKNOWN_MODEL,),
        )
    if after.verdict is Verdict.REFUTED or after.structure:
        return after
    why = after.unchecked or (
        f"unchecked: {_STATES} ({_named(job)}): proven from them up to the first reset, and the "
        f"proof from the reset state on did not prove it ({after.reason})"
    )
    return replace(after, unchecked=why)


def _named(job: Job) -> str:
    names = job.plan.stated
    more = f" and {len(names) - 1} more" if len(names) > 1 else ""
    return f"{names[0]}{more}" if names else "initial values"
