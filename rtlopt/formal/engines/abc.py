"""ABC engines (``yosys-abc``) on the AIGER miter: ``&cec``, ``dprove``, ``pdr``, ``bmc3``."""

from __future__ import annotations

import logging
import time

from rtlopt.formal.abc import AbcOutcome, run_engine
from rtlopt.formal.job import Job, elapsed, workdir_of
from rtlopt.formal.miter import Miter
from rtlopt.formal.prepare import Prepared, prepare_miter
from rtlopt.formal.structure import checked
from rtlopt.formal.vacuity import aig_witness
from rtlopt.results import FormalResult, Verdict

log = logging.getLogger(__name__)

__all__ = ["X_PESSIMISM", "free_claim", "prepare", "proven", "run", "run_power_up"]


#: How the result names each ABC engine (``FormalResult.method``).
ABC_NAMES = {"cec": "&cec", "dprove": "dprove", "pdr": "pdr", "bmc": "bmc3"}


def run(
    job: Job,
    *,
    share: float,
    strict_x: bool = False,
    model: str = "auto",
) -> FormalResult | None:
    """ABC engines (``yosys-abc``) on the AIGER miter; a verdict only when one decides.

    ``model``: ``auto`` (free power-up state without reset, x otherwise), ``free`` (free
    power-up state) or ``x`` with bmc3 only (a search for refutations: designs without
    reset, where an x power-up proves nothing).

    Combinational targets get ``&cec``; sequential ones ``dprove`` then ``pdr`` (unbounded
    proofs from the reset state). A target without reset is modelled with free, defined
    power-up values shared by paired registers (``free_init``): a proof then holds for
    every power-up state, and a counterexample refutes nothing (this pairing only). A proof
    still goes through the clock/reset structure check.
    """
    prep, deadline = prepare(
        job,
        "abc",
        share,
        strict_x=strict_x,
        free_init=model == "free" or (model == "auto" and job.plan.mode == "bmc"),
    )
    if prep.miter is None:
        log.debug("formal %s: no AIGER miter: %s", job.design.target.name, prep.reason)
        return None
    miter = prep.miter
    sequential = miter.gold_registers + miter.gate_registers > 0
    engines = ["dprove", "pdr"] if sequential else ["cec"]
    if model == "x":
        engines = ["bmc"] if sequential else []
    for i, engine in enumerate(engines):
        budget = (deadline - time.monotonic()) / (len(engines) - i)
        if budget < 1.0:
            break
        out = run_engine(
            engine,
            prep.aiger,
            miter,
            timeout=budget,
            cwd=prep.aiger.parent,
            memory_mb=job.memory_mb,
            frames=job.cfg.abc_bmc_frames,
        )
        log.debug(
            "formal %s: abc %s: %s (%s)", job.design.target.name, engine, out.status, out.detail
        )
        decided = _decided(job, out, miter, sequential, model)
        if decided is not None:
            return decided
    return None


def prepare(
    job: Job,
    folder: str,
    share: float,
    *,
    free_init: bool,
    x_first: bool = False,
    strict_x: bool = False,
    outputs: tuple[str, ...] = (),
) -> tuple[Prepared, float]:
    """The AIGER miter in the job's ``folder`` on ``share`` of the time left, its power-up
    model as :func:`prepare_miter` takes it; and the ``time.monotonic()`` deadline of the
    engine's share."""
    left = job.budget(share)
    deadline = time.monotonic() + left
    prep = prepare_miter(
        job.design,
        job.reference_file,
        job.candidate_files,
        workdir_of(job.reference_file) / folder,
        timeout=left,
        strict_x=strict_x,
        memory_mb=job.memory_mb,
        free_init=free_init,
        x_first=x_first,
        global_clock=job.plan.clk2fflogic,
        edge_model=job.plan.clk2fflogic,
        outputs=outputs,
    )
    return prep, deadline


def _decided(
    job: Job, out: AbcOutcome, miter: Miter, sequential: bool, model: str
) -> FormalResult | None:
    """The verdict of one engine's run: a proof (checked), a failure, or None (undecided)."""
    method = f"abc {ABC_NAMES[out.engine]}"
    if not miter.exact:
        method += " (free power-up state)"
    if out.status == "proved" and model != "x":
        return proven(
            job,
            miter,
            FormalResult(
                Verdict.PROVEN,
                method,
                "" if miter.exact else free_claim(miter.pairing),
                {},
                elapsed(job.start),
                free_power_up=not miter.exact,
            ),
        )
    if out.status == "failed":
        return _failed(job, out.counterexample, out.frame, method, miter, sequential, model)
    return None


def proven(job: Job, miter: Miter, result: FormalResult) -> FormalResult | None:
    """A proof of the AIG miter, after the structure and drivers checks and the simulation
    witness (:func:`rtlopt.formal.vacuity.aig_witness`, counted as ``vacuity``)."""
    t0 = time.monotonic()
    why = aig_witness(miter.aig)
    job.add_time("vacuity", time.monotonic() - t0)
    if why:
        log.warning("formal %s: %s", job.design.target.name, why)
        return FormalResult(
            Verdict.UNKNOWN, result.method, f"no proof: {why}", {}, elapsed(job.start)
        )
    return checked(job, result)


def _failed(
    job: Job,
    cex: dict[str, str],
    frame: int,
    method: str,
    miter: Miter,
    sequential: bool,
    model: str,
) -> FormalResult:
    """ABC said the designs differ. On the exact miter that is a refutation, with the
    trace when one replays; only a replayed trace whose difference is an x of the candidate
    (gate-level x pessimism, as in ``a + b + x`` against ``x + b + a``) is UNKNOWN."""
    if not miter.exact:
        return FormalResult(
            Verdict.UNKNOWN,
            method,
            "no proof: outputs differ from a power-up state shared by "
            "paired registers (not a refutation: the registers "
            "without reset may correspond otherwise)",
            {},
            elapsed(job.start),
        )
    if not cex:
        return FormalResult(
            Verdict.REFUTED,
            method,
            "ABC found the designs different; no counterexample trace could be replayed "
            "(neither its own nor a second engine's)",
            {},
            elapsed(job.start),
        )
    got = [v for k, v in cex.items() if k.startswith("got ")]
    at = f" (cycle {frame})" if sequential else ""
    if any("x" in v for v in got):
        return FormalResult(
            Verdict.UNKNOWN,
            method,
            f"no proof: ABC's counterexample {X_PESSIMISM}{at}, replayed on the miter",
            cex,
            elapsed(job.start),
        )
    why = "the AIGER miter found differing outputs"
    if sequential:
        why = f"counterexample at cycle {frame}"
    if model == "x":
        why += (
            " from every power-up state (every register x at power-up: the "
            "outputs differ whatever the registers without reset hold)"
        )
    return FormalResult(Verdict.REFUTED, method, why, cex, elapsed(job.start))


def free_claim(pairing: str) -> str:
    """What a proof from a free power-up state says (``FormalResult.reason`` of PROVEN)."""
    return (
        "equivalent from every power-up state in which paired registers start equal "
        f"({pairing}; every other register from any value; reset inputs forced in the first "
        "step as usual): whatever the candidate's registers hold at power-up, the reference "
        "powered up in the paired state behaves the same"
    )


#: Why an x power-up counterexample may be x pessimism (see :func:`run`).
X_PESSIMISM = "leaves the candidate undefined where the reference is defined"


def run_power_up(
    job: Job,
    *,
    strict_x: bool = False,
) -> FormalResult | None:
    """ABC on sequential targets, with both power-up models where one cannot decide.

    * Without reset (``plan.mode == "bmc"``): a proof from a free power-up state of paired
      registers first; if none, a bmc3 search on the x power-up model, whose counterexamples
      (outputs defined on both sides and different) are differences from *every* power-up
      state, so real refutations.
    * With reset: the x power-up model first (registers without reset are x after reset); if
      its counterexample only leaves the candidate x where the reference is defined (gate-level
      x pessimism, such as a carry register without reset added in another order), a proof
      from a free power-up state of paired registers with the remaining time.
    """
    if job.plan.mode == "bmc":
        # a failing proof is quick (a counterexample of the paired model), a hard one takes
        # the time: most of it goes to the proof, the refutation search gets what is left
        first = run(job, share=0.85, strict_x=strict_x)
        if first is not None and first.verdict is Verdict.PROVEN:
            return first
        refuted = run(job, share=1.0, strict_x=strict_x, model="x")
        if refuted is not None and refuted.verdict is Verdict.REFUTED:
            return refuted
        return first
    first = run(job, share=1.0, strict_x=strict_x)
    if (
        first is None
        or first.verdict is not Verdict.UNKNOWN
        or X_PESSIMISM not in first.reason
        or strict_x
    ):
        return first
    free = run(job, share=1.0, strict_x=strict_x, model="free")
    return free if free is not None and free.verdict is Verdict.PROVEN else first
