"""The outputs the reference leaves x (un-reset state), checked from a shared power-up state.

A proof on the x power-up model (the exact miter, Yosys's induction, latch correspondence)
says nothing where the reference's outputs are x: the X policy lets the candidate refine any
such bit. When an un-reset counter, LFSR or state machine drives an output, the reference is x
there forever in that model although every real power-up value makes it toggle, so a
candidate that freezes it would be proven. This engine checks exactly those outputs (the ones
simulation saw x in the reference in the stimulus's second half) on the miter with
free, defined power-up values, reference registers sharing the value of the candidate
registers they pair with (:mod:`rtlopt.formal.miter`, ``free_init``): a proof says that for
every power-up state of the candidate, the reference powered up in the paired state gives the
same values on those outputs, so no behaviour is hidden behind an x. A counterexample shows a
difference from a shared power-up state of this pairing only: the registers are then paired
once more (by name and simulation alone) and proven again. Without a proof the outputs are
unchecked and the candidate is rejected, whether the pairing was complete or not (a difference
from a partial pairing is no refutation, but no proof either: fail closed).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rtlopt.formal.abc import AbcOutcome, build_aiger, run_engine
from rtlopt.formal.engines.abc import proven
from rtlopt.formal.job import Job, elapsed, workdir_of
from rtlopt.formal.miter import Miter, NotModelled
from rtlopt.formal.prepare import NETLIST_JSON, Prepared, miter_constants, prepare_miter
from rtlopt.results import FormalResult, Verdict

log = logging.getLogger(__name__)

__all__ = ["METHOD", "PowerUpCheck", "run", "unchecked_reason"]

#: How a proof of the x outputs is named (after the ABC engine, appended to
#: ``FormalResult.method``).
METHOD = "from a shared power-up state (outputs x in the reference)"


@dataclass(frozen=True)
class PowerUpCheck:
    """The outcome: ``result`` (a checked proof) when proven; otherwise ``why`` it is not,
    and the counterexample from a shared power-up state when one was found. Either way
    without a proof the outputs are unchecked (the evaluator rejects)."""

    result: FormalResult | None = None
    why: str = ""
    counterexample: dict[str, str] = field(default_factory=dict)
    #: The difference was found with reference register bits left unpaired: it may be the
    #: pairing's, so it is no refutation, and the outputs stay unchecked.
    partial: bool = False


#: Why a difference from a partially paired power-up state decides nothing.
PARTIAL = (
    "a difference from a power-up state whose register pairing is partial: unpaired "
    "reference registers start from values of their own, so neither a proof nor a refutation"
)


def run(job: Job, outputs: Sequence[str], *, seconds: float) -> PowerUpCheck:
    """Prove ``outputs`` equal from every shared power-up state (registers paired), within
    ``seconds`` (the netlist, the miter and ABC)."""
    deadline = time.monotonic() + seconds
    prep = prepare_miter(
        job.design,
        job.reference_file,
        job.candidate_files,
        workdir_of(job.reference_file) / "abc_x_outputs",
        timeout=seconds,
        memory_mb=job.memory_mb,
        free_init=True,
        x_first=True,
        global_clock=job.plan.clk2fflogic,
        edge_model=job.plan.clk2fflogic,
        outputs=tuple(outputs),
        # the same netlist as the engines before (latch correspondence, pairing)
        reuse_from=[workdir_of(job.reference_file) / d for d in ("abc_lcorr", "abc_paired")],
    )
    if prep.miter is None:
        log.debug("formal %s: no x-output miter: %s", job.design.target.name, prep.reason)
        return PowerUpCheck(why=f"no miter from a shared power-up state ({prep.reason})")
    out = _prove(job, prep.aiger, prep.miter, deadline)
    miter = prep.miter
    if _differs(out) and "(0 by next-state function" not in miter.pairing:
        # a difference from this pairing is no verdict: pair once more by name and
        # simulation alone (a pairing by function can take a register that simulation
        # would pair with another one), and prove again
        again = _next_pairing(job, prep, outputs, deadline)
        if again is not None:
            retry = _prove(job, again[1], again[0], deadline)
            if retry is not None and retry.status == "proved":
                out, miter = retry, again[0]
    if out is not None and out.status == "proved":
        found = proven(
            job,
            miter,
            FormalResult(
                Verdict.PROVEN,
                f"abc {out.engine} {METHOD}",
                f"registers paired: {miter.pairing}",
                {},
                elapsed(job.start),
                free_power_up=True,
            ),
        )
        if found is not None and found.verdict is Verdict.PROVEN:
            return PowerUpCheck(result=found)
        return PowerUpCheck(why=found.reason if found is not None else "no proof")
    if out is not None and _differs(out):
        if not miter.paired_all and not _undefined_candidate(out.counterexample):
            # reference registers left unpaired start from values of their own, so the
            # difference may be the pairing's: no verdict either way, and what cannot be
            # decided is rejected (fail closed)
            log.info(
                "formal %s: x outputs differ from a partially paired power-up state (%s)",
                job.design.target.name,
                miter.pairing,
            )
            return PowerUpCheck(
                why=f"{PARTIAL} (registers paired: {miter.pairing})",
                counterexample=dict(out.counterexample),
                partial=True,
            )
        return PowerUpCheck(
            why=(
                "the candidate differs from the reference powered up in the same state "
                f"(registers paired: {miter.pairing})"
            ),
            counterexample=dict(out.counterexample),
        )
    status = out.status if out is not None else "timeout"
    return PowerUpCheck(why=f"no proof from a shared power-up state (abc: {status})")


def _differs(out: AbcOutcome | None) -> bool:
    return out is not None and out.status == "failed" and bool(out.counterexample)


def _next_pairing(
    job: Job, prep: Prepared, outputs: Sequence[str], deadline: float
) -> tuple[Miter, Path] | None:
    """The x-output miter again, its registers paired by name and simulation alone (the
    simulation stops at half the time left); None when it cannot be built."""
    plan = prep.plan
    if plan is None or deadline - time.monotonic() < 2.0:
        return None
    spec = replace(
        plan.miter_spec(job.design.target.name),
        free_init=True,
        x_first=True,
        by_function=False,
        pair_deadline=time.monotonic() + (deadline - time.monotonic()) / 2,
        constants=miter_constants(job.design),
        outputs=tuple(outputs),
    )
    aiger = prep.aiger.parent / "miter_by_simulation.aig"
    try:
        return build_aiger(prep.aiger.parent / NETLIST_JSON, spec, aiger), aiger
    except NotModelled:
        return None


#: ABC engines in order, each on a share of the time left: latch correspondence (a renamed
#: pipelined multiplier: 9 CPU s where dprove alone times out), signal correspondence (gate for
#: gate), then dprove.
_ENGINES = (("lcorr", 0.5), ("scorr", 0.5), ("dprove", 1.0))


def _prove(job: Job, aiger: Path, miter: Miter, deadline: float) -> AbcOutcome | None:
    """The first proof or counterexample of :data:`_ENGINES`, else the last outcome (None
    when the time is up before one runs)."""
    out = None
    for engine, share in _ENGINES:
        budget = deadline - time.monotonic()
        if budget < 1.0:
            break
        out = run_engine(
            engine, aiger, miter, timeout=budget * share, cwd=aiger.parent, memory_mb=job.memory_mb
        )
        log.debug("formal %s: x outputs, %s: %s", job.design.target.name, engine, out.status)
        if out.status == "proved" or (out.status == "failed" and out.counterexample):
            break
    return out


def _undefined_candidate(cex: dict[str, str]) -> bool:
    """Whether the counterexample shows a candidate output bit x where the reference's is
    0 or 1 (``expected P`` / ``got P`` values, most significant bit first)."""
    for key, got in cex.items():
        if not key.startswith("got "):
            continue
        want = cex.get("expected " + key[4:], "")
        if len(want) == len(got) and any(
            g in "xXzZ" and w in "01" for g, w in zip(got, want, strict=True)
        ):
            return True
    return False


def unchecked_reason(outputs: Sequence[str], found: PowerUpCheck) -> str:
    """Why ``outputs`` are unchecked (``FormalResult.unchecked``), with the counterexample from
    a shared power-up state when there is one (its difference first)."""
    names = ", ".join(outputs)
    s = "s" if len(outputs) > 1 else ""
    verb = "are" if s else "is"
    why = (
        f"unchecked: output{s} {names} {verb} still x in the reference in the second half of "
        f"the stimulus (un-reset state), where the comparison proves nothing; {found.why}"
    )
    if found.counterexample:
        first = ("cycle", "expected", "got")
        items = sorted(
            found.counterexample.items(),
            key=lambda kv: next((i for i, w in enumerate(first) if kv[0].startswith(w)), 3),
        )
        why += ": " + ", ".join(f"{k}={v}" for k, v in items[:8])
    return why
