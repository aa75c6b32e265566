"""ABC ``lcorr`` then ``dprove`` on the exact AIGER miter (every register x at power-up).

Latch correspondence (``lcorr``) proves by induction from the miter's initial state which
reference and candidate registers always hold the same value, and merges them; names play no
part, so a rewrite that renames and reorders registers keeps its correspondence. On such a
rewrite of a whole core the merged miter is proven by ``dprove`` in a fraction of a second,
where Yosys's structural proof over every register and ``dprove`` alone (its own
correspondence step is conflict-limited) take minutes (picorv32's core: about 2 CPU s of ABC
against more than 140).

The model is the exact one of :func:`rtlopt.formal.engines.abc.run` (x power-up, reset forced
in the first step, the default X policy), so a proof is a proof of the check, after the same
structure, drivers and witness checks; a counterexample is a refutation only when it replays
on the miter with the candidate's outputs defined. Anything else gives None: the other engines
decide.
"""

from __future__ import annotations

import logging
import time

from rtlopt.formal.abc import run_engine
from rtlopt.formal.engines.abc import proven
from rtlopt.formal.job import Job, elapsed, workdir_of
from rtlopt.formal.prepare import prepare_miter
from rtlopt.formal.scripts import STRUCTURE_JSON
from rtlopt.formal.structure import checked, structure_verdict
from rtlopt.results import FormalResult, Verdict

log = logging.getLogger(__name__)

__all__ = ["METHOD", "run"]

#: How the result names this engine (``FormalResult.method``).
METHOD = "abc lcorr; dprove"


def run(job: Job, *, share: float) -> FormalResult | None:
    """Prove or refute on the exact miter after latch correspondence; None when undecided.

    ``share`` of the time left bounds the whole engine (the miter's netlist and build, ABC).
    When no engine wrote the clock/reset structure netlist yet, the netlist's Yosys run writes
    it, and the structure check decides first (every verdict goes through that check)."""
    wd = workdir_of(job.reference_file)
    deadline = time.monotonic() + job.budget(share)
    # the clock/reset structure netlist and the drivers check come from the miter netlist's
    # own Yosys run when no engine wrote them yet (every verdict goes through that check)
    first = not (wd / STRUCTURE_JSON).is_file()
    prep = prepare_miter(
        job.design,
        job.reference_file,
        job.candidate_files,
        wd / "abc_lcorr",
        timeout=max(1.0, deadline - time.monotonic()),
        memory_mb=job.memory_mb,
        global_clock=job.plan.clk2fflogic,
        edge_model=job.plan.clk2fflogic,
        structure=(job.secret, wd) if first else None,
    )
    if first:
        found = structure_verdict(job.design, wd, job.start, job.secret, job.clocking)
        if found is not None:
            return found
    if prep.miter is None or not prep.miter.aig.latches:
        log.debug("formal %s: no lcorr miter: %s", job.design.target.name, prep.reason)
        return None
    miter = prep.miter
    # the netlist and the miter may take most of the share (a whole core on a loaded
    # machine); ABC gets at most a third of what is left, so a miter that correspondence
    # does not make easy leaves the other engines their time
    budget = min(deadline - time.monotonic(), job.budget(1 / 3))
    if budget < 1.0:
        return None
    out = run_engine(
        "lcorr",
        prep.aiger,
        miter,
        timeout=budget,
        cwd=wd / "abc_lcorr",
        memory_mb=job.memory_mb,
        frames=job.cfg.abc_bmc_frames,
    )
    log.debug("formal %s: abc lcorr: %s (%s)", job.design.target.name, out.status, out.detail)
    if out.status == "proved":
        return proven(job, miter, FormalResult(Verdict.PROVEN, METHOD, "", {}, elapsed(job.start)))
    got = [v for k, v in out.counterexample.items() if k.startswith("got ")]
    if out.status != "failed" or not out.trace or not got or any("x" in v for v in got):
        return None
    return checked(
        job,
        FormalResult(
            Verdict.REFUTED,
            METHOD,
            f"counterexample at cycle {out.frame}",
            out.counterexample,
            elapsed(job.start),
        ),
    )
