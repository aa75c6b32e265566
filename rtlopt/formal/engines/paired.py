"""ABC on the miter with registers paired by behaviour, from free power-up values."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from pathlib import Path

from rtlopt.formal.abc import AbcOutcome, build_aiger, explain, run_engine
from rtlopt.formal.engines.abc import free_claim, prepare, proven
from rtlopt.formal.job import Job, elapsed
from rtlopt.formal.miter import Miter, MiterSpec, NotModelled, build_miter
from rtlopt.formal.prepare import NETLIST_JSON, miter_constants
from rtlopt.results import FormalResult, Verdict

log = logging.getLogger(__name__)

__all__ = ["prove", "run"]


def run(
    job: Job,
    *,
    share: float,
) -> FormalResult | None:
    """ABC ``dprove`` on the miter with free power-up values, registers paired by behaviour.

    For targets with a reset. Each candidate register bit starts from its own free defined
    value, shared with the reference register bit it was paired with (by name, or by its
    behaviour in simulation: :mod:`rtlopt.formal.regpair`); the outputs of the power-up step are
    compared with every register x, as in the exact model. A proof covers every power-up state
    of the candidate (each candidate behaviour is one of the reference's), so it is a proof of
    the exact check except for ternary pessimism the testbench judges. A counterexample is
    replayed on the exact (x power-up) miter: only when it shows a defined difference there is
    it a refutation. When the pairing took registers by next-state function and the proof
    failed, the registers are paired once more by name and simulation alone; otherwise None
    (the other engines decide).
    """
    prep, deadline = prepare(job, "abc_paired", share, free_init=True, x_first=True)
    if prep.miter is None or prep.plan is None:
        log.debug("formal %s: no paired miter: %s", job.design.target.name, prep.reason)
        return None
    spec = prep.plan.miter_spec(job.design.target.name)
    wd = prep.aiger.parent
    miter, aiger = prep.miter, prep.aiger
    for by_function in (True, False):
        if not by_function:
            # the pairing by next-state function took registers and the proof failed: pair by
            # name and simulation alone (another pairing is as sound; only a proof counts)
            if "(0 by next-state function" in miter.pairing:
                return None
            aiger = wd / "miter_by_simulation.aig"
            try:
                miter = _by_simulation(job, spec, aiger, deadline)
            except NotModelled:
                return None
        out = prove(job, aiger, miter, deadline)
        if out is None or out.status not in ("proved", "failed"):
            return None
        if out.status == "proved":
            return proven(
                job,
                miter,
                FormalResult(
                    Verdict.PROVEN,
                    f"abc {out.engine} (registers paired)",
                    free_claim(miter.pairing)
                    + "; outputs of the power-up step compared with every register x",
                    {},
                    elapsed(job.start),
                    free_power_up=True,
                ),
            )
        refuted = replay_exactly(wd, miter, spec, job.start, out.trace)
        if refuted is not None:
            return refuted
    return None


def _by_simulation(job: Job, spec: MiterSpec, aiger: Path, deadline: float) -> Miter:
    """The paired miter again, its registers paired by name and simulation alone (the
    simulation stops at half the time left), written to ``aiger``.

    Raises:
        NotModelled: as :func:`build_aiger`.
    """
    left = deadline - time.monotonic()
    retry = replace(
        spec,
        free_init=True,
        x_first=True,
        by_function=False,
        pair_deadline=time.monotonic() + left / 2,
        constants=miter_constants(job.design),
    )
    return build_aiger(aiger.parent / NETLIST_JSON, retry, aiger)


def prove(job: Job, aiger: Path, miter: Miter, deadline: float) -> AbcOutcome | None:
    """Signal correspondence first, on a part of the budget: the proof when the paired designs
    correspond gate for gate (commuted products), where dprove's conflict limits give up; then
    dprove. The last engine's outcome, or None when the time is up before one runs."""
    out = None
    for engine, share in (("scorr", 0.7), ("dprove", 1.0)):
        budget = deadline - time.monotonic()
        if budget < 1.0:
            return None
        out = run_engine(
            engine,
            aiger,
            miter,
            timeout=budget * share,
            cwd=aiger.parent,
            memory_mb=job.memory_mb,
        )
        log.debug(
            "formal %s: abc paired %s: %s (%s; %s)",
            job.design.target.name,
            engine,
            out.status,
            out.detail,
            miter.pairing,
        )
        if out.status == "proved":
            break
    return out


def replay_exactly(
    wd: Path, miter: Miter, spec: MiterSpec, start: float, frames: list[list[int]]
) -> FormalResult | None:
    """The paired engine's counterexample ``frames`` replayed on the exact miter (x at
    power-up, nothing shared): a refutation only when it shows a defined difference there."""
    if not frames:
        return None
    try:
        exact = build_miter(json.loads((wd / NETLIST_JSON).read_text()), spec)
    except (NotModelled, OSError, ValueError):
        return None
    if [p for p in miter.inputs if p[0] != "<init>"] != exact.inputs:
        return None
    keep = [i for i, p in enumerate(miter.inputs) if p[0] != "<init>"]
    replay = [[f[i] for i in keep] for f in frames]
    rows = exact.aig.simulate(replay)
    if not any(r[0] for r in rows):
        return None
    cex = explain(exact, replay[: next(i for i, r in enumerate(rows) if r[0]) + 1])
    got = [v for k, v in cex.items() if k.startswith("got ")]
    if not got or any("x" in v for v in got):
        return None
    return FormalResult(
        Verdict.REFUTED,
        "abc dprove (registers paired), replayed exactly",
        f"counterexample at cycle {cex.get('cycle', '?')}",
        cex,
        elapsed(start),
    )
