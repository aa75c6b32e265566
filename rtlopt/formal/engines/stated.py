"""The proof from the stated power-up values (``reg q = 0;``, ``initial q = 0;``, ROM contents).

Every other engine drops initial values (``attrmap -remove init``): registers start unknown
and the resets are forced in the first step. A target whose hierarchy states power-up values
behaves, in every simulator and FPGA flow reading its text, from those values on, reset or
not. This engine builds the AIGER miter (:mod:`rtlopt.formal.miter`, ``stated_init``) on a
netlist that keeps Yosys's ``init`` attributes: each register with a stated value starts from
it on its own side, every other register starts x (the X policy: a reference x accepts any
candidate value, a candidate x where the reference is defined is a difference), and the reset
inputs are free from the first step on (no reset is forced: the reference may run for ever
without one). Memories are mapped to registers and logic by ``memory`` before the netlist is
written (a ROM's contents become constants, a RAM's initial contents the registers' stated
values); a memory cell left over, a stated value on a net no register holds, or the
``clk2fflogic`` model make the miter unavailable (fail closed).

The miter is exact: a counterexample replayed on it is a real difference from the stated
power-up state, a refutation, except one whose difference is an x of the candidate (gate-level
x pessimism: undecided). A proof goes through the clock/reset structure and drivers checks and
the simulation witness like every proof of the AIGER miter.

Under ``ignore``, a candidate whose stated values differ from the reference's by register
name (:attr:`~rtlopt.formal.plan.FormalPlan.renamed`: renamed, regrouped, added, dropped or
changed) is decided here only where the reference states a value for every register bit: a
reference bit that starts x would accept any value the candidate states for it (the X policy),
although every flow reading the reference starts it otherwise (an FPGA at 0). Else the result
is UNKNOWN (unchecked under ``ignore``).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from rtlopt.formal.abc import AbcOutcome, run_engine
from rtlopt.formal.engines.abc import X_PESSIMISM, proven
from rtlopt.formal.job import Job, elapsed, workdir_of
from rtlopt.formal.miter import Miter
from rtlopt.formal.prepare import Prepared, prepare_miter
from rtlopt.formal.scripts import STRUCTURE_JSON
from rtlopt.formal.structure import checked, read_structure
from rtlopt.results import FormalResult, Verdict

log = logging.getLogger(__name__)

__all__ = ["ASYNC_RESETS", "METHOD", "MODEL", "run"]

#: How a verdict of this engine is named (after the ABC engine, in ``FormalResult.method``).
METHOD = "from the stated power-up values"
#: The power-up model's name in ``FormalResult.power_up``.
MODEL = "stated"
#: Ends the method of a proof on one clock edge of a design whose registers all reset
#: asynchronously from one input: it holds up to the first reset, the proof from unknown
#: registers must hold after it.
ASYNC_RESETS = " (up to the first reset; every register resets asynchronously)"

#: ABC engines in order, each on a share of the time left: latch correspondence then
#: dprove (renamed registers), then dprove and pdr on the whole miter.
_SEQUENTIAL = (("lcorr", 0.4), ("dprove", 0.6), ("pdr", 1.0))


def _engines(
    job: Job, aiger: Path, miter: Miter, sequential: bool, deadline: float
) -> AbcOutcome | None:
    """ABC's engines on the miter in turn until one proves it or replays a difference (None:
    no time for any)."""
    out: AbcOutcome | None = None
    for engine, part in _SEQUENTIAL if sequential else (("cec", 1.0),):
        budget = deadline - time.monotonic()
        if budget < 1.0:
            break
        out = run_engine(
            engine,
            aiger,
            miter,
            timeout=budget * part,
            cwd=aiger.parent,
            memory_mb=job.memory_mb,
            frames=job.cfg.abc_bmc_frames,
        )
        log.debug("formal %s: stated, %s: %s", job.design.target.name, engine, out.status)
        if out.status == "proved" or (out.status == "failed" and out.trace):
            break
    return out


def run(job: Job, *, share: float = 1.0, strict_x: bool = False) -> FormalResult:
    """Prove the candidate equal to the reference from the stated power-up values within
    ``share`` of the job's time left: PROVEN, REFUTED (a replayed difference), or UNKNOWN
    with the reason."""
    seconds = job.budget(share)
    deadline = time.monotonic() + seconds
    wd = workdir_of(job.reference_file)
    # the structure netlist and the drivers check in the same Yosys run when no engine
    # wrote them yet (the honor model runs this engine alone)
    structure = None if (wd / STRUCTURE_JSON).is_file() else (job.secret, wd)
    prep = _prepare(job, wd / "abc_stated", seconds, strict_x=strict_x, structure=structure)
    if prep.miter is None:
        log.info("formal %s: no miter %s: %s", job.design.target.name, METHOD, prep.reason)
        return _unknown(job, "abc", f"no miter {METHOD} ({prep.reason})")
    miter = prep.miter
    if job.plan.renamed and not job.plan.honor and miter.gold_unstated:
        # a stated value where the reference's register starts x is accepted by the X policy
        # (a refinement), although a flow reading the reference starts it otherwise
        why = (
            f"{METHOD}, a difference by register name is decided only where the reference "
            f"states every register bit's value; it leaves {miter.gold_unstated} register "
            "bit(s) without one (a value the candidate states there would pass the X policy)"
        )
        log.info("formal %s: %s", job.design.target.name, why)
        return _unknown(job, "abc", why)
    sequential = miter.gold_registers + miter.gate_registers > 0
    out = _engines(job, prep.aiger, miter, sequential, deadline)
    if out is None:
        return _unknown(job, "abc", f"no proof {METHOD}: no time left")
    method = f"abc {out.engine} {METHOD}"
    if job.plan.clk2fflogic and (prep.plan is None or not prep.plan.global_clock):
        # the netlist needs every clock edge (rtlopt.formal.clock_model), which this model
        # has not: with asynchronous pins on one edge its traces are the design's (it may
        # refute), never all of them (no proof); registers on two edges: neither. Where every
        # register resets asynchronously from one input, a proof here covers every trace up
        # to the first reset, after which the design is in its reset state: the proof from
        # unknown registers (every edge modelled, the reset forced first) covers the rest,
        # and must prove too (ASYNC_RESETS in the method: power_up_models.decide_stated)
        why = f"no proof {METHOD}: the design needs every clock edge modelled"
        if out.status == "proved" and _one_async_reset(job):
            method += ASYNC_RESETS
        elif out.status == "proved" or not _one_edge(job):
            return _unknown(job, method, why)
    if out.status == "proved":
        found = proven(
            job,
            miter,
            FormalResult(Verdict.PROVEN, method, _CLAIM, {}, elapsed(job.start)),
        )
        if found is None:
            return _unknown(job, method, f"no proof {METHOD}")
        return found
    if out.status == "failed" and out.trace and out.counterexample:
        cex = out.counterexample
        if any("x" in v for k, v in cex.items() if k.startswith("got ")):
            pessimism = _unknown(job, method, f"no proof: the counterexample {X_PESSIMISM}", cex)
            if strict_x:
                return pessimism
            return _paired(job, deadline, wd, sequential) or pessimism
        at = f" at cycle {out.frame}" if sequential else ""
        refuted = FormalResult(
            Verdict.REFUTED,
            method,
            f"the outputs differ{at} from the stated power-up values (every register with an "
            "initial value at it, the others x)",
            cex,
            elapsed(job.start),
        )
        found = checked(job, refuted)
        return found if found is not None else refuted
    return _unknown(job, method, f"no proof {METHOD} (abc: {out.status})")


#: What a proof says (``FormalResult.reason``).
_CLAIM = (
    "equivalent from the stated power-up values: every register with an initial value starts "
    "from it, every other one unknown (x), and the reset inputs are free from the first cycle"
)


#: What a proof with the registers without a stated value paired says.
_PAIRED_CLAIM = (
    "equivalent from the stated power-up values, every register without one from any value "
    "({pairing}: whatever the candidate's registers without a stated value hold, the "
    "reference with its own stated values and the paired registers equal behaves the same); "
    "the reset inputs free from the first cycle"
)


def _paired(job: Job, deadline: float, wd: Path, sequential: bool) -> FormalResult | None:
    """After a counterexample that only leaves the candidate x where the reference is defined
    (gate-level x pessimism: a carry register without a stated value added in another
    order): the proof again with those registers free and paired (``free_init``), the stated
    ones at their values, on the time left. A proof only (a counterexample of one pairing
    refutes nothing); None otherwise."""
    left = deadline - time.monotonic()
    if not sequential or left < 2.0:
        return None
    prep = _prepare(
        job, wd / "abc_stated_free", left, free_init=True, reuse_from=(wd / "abc_stated",)
    )
    if prep.miter is None:
        log.info("formal %s: no paired miter %s: %s", job.design.target.name, METHOD, prep.reason)
        return None
    if job.plan.clk2fflogic and (prep.plan is None or not prep.plan.global_clock):
        return None  # every clock edge is needed, which this model has not (as in run)
    out = _engines(job, prep.aiger, prep.miter, True, deadline)
    if out is None or out.status != "proved":
        return None
    found = proven(
        job,
        prep.miter,
        FormalResult(
            Verdict.PROVEN,
            f"abc {out.engine} {METHOD} (registers without one paired)",
            _PAIRED_CLAIM.format(pairing=prep.miter.pairing),
            {},
            elapsed(job.start),
            free_power_up=True,
        ),
    )
    return found


def _prepare(job: Job, folder: Path, seconds: float, **options: Any) -> Prepared:
    """The miter from the stated power-up values in ``folder`` (a design that needs the
    clk2fflogic model gets the reason why it is not modelled: ``global_clock``)."""
    return prepare_miter(
        job.design,
        job.reference_file,
        job.candidate_files,
        folder,
        timeout=seconds,
        memory_mb=job.memory_mb,
        stated_init=True,
        global_clock=True,
        **options,
    )


def _one_edge(job: Job) -> bool:
    """Every register of both sides on one edge of one clock (the structure netlist)."""
    found = read_structure(job.design, workdir_of(job.reference_file), job.clocking)
    if not isinstance(found, dict):
        return False
    return all(len(side.clocks) <= 1 for side in found.values())


def _one_async_reset(job: Job) -> bool:
    """Every register of both sides on one edge of one clock and reset to a constant by the
    same input at the same level, asynchronously (no latch, no register without it)."""
    found = read_structure(job.design, workdir_of(job.reference_file), job.clocking)
    if not isinstance(found, dict) or not found:
        return False
    sides = list(found.values())
    return all(
        len(side.clocks) == 1
        and side.latches == 0
        and side.registers == side.reset_registers > 0
        and side.asyncs == sides[0].asyncs
        and len(side.asyncs) == 1
        for side in sides
    )


def _unknown(job: Job, method: str, why: str, cex: dict[str, str] | None = None) -> FormalResult:
    return FormalResult(Verdict.UNKNOWN, method, why, dict(cex or {}), elapsed(job.start))
