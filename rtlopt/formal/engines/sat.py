"""Yosys's SAT miter: a proof (combinational) or induction then a bounded check."""

from __future__ import annotations

import logging

from rtlopt.errors import ToolFailed
from rtlopt.formal.channel import result_text
from rtlopt.formal.job import Job, elapsed, run_script, workdir_of
from rtlopt.formal.logparse import MiterRun, method_name, miter_verdict, phases
from rtlopt.formal.scripts import formal_script
from rtlopt.results import FormalResult, Verdict

log = logging.getLogger(__name__)

__all__ = ["RESULTS", "run"]

#: The result files of the miter script (see :func:`rtlopt.formal.scripts.formal_script`).
RESULTS = ("witness_start", "witness", "sat", "induction", "bmc")


def run(
    job: Job,
    *,
    share: float,
    strict_x: bool = False,
    structure: bool = False,
) -> FormalResult:
    """SAT miter: proof (combinational) or induction then a bounded check (sequential)."""
    wd = workdir_of(job.reference_file)
    left = job.budget(share)
    # the proof, or the whole induction, gets its share of the check's one budget: each SAT
    # instance of the induction may use all of it (the run's wall-clock limit bounds the sum),
    # never a fixed few seconds of a long budget
    sat_share = 0.9 if job.plan.mode == "comb" else 0.4
    sat_timeout = max(1, int(left * sat_share))
    bmc_timeout = max(1, int(left * (0.8 if job.plan.mode == "bmc" else 0.4)))
    script = formal_script(
        job.design,
        job.reference_file,
        job.candidate_files,
        job.plan,
        induction_depth=job.cfg.induction_depth,
        bmc_depth=job.cfg.bmc_depth,
        sat_timeout_s=sat_timeout,
        bmc_timeout_s=bmc_timeout,
        include_dirs=job.extra_inc,
        strict_x=strict_x,
        structure=structure,
        secret=job.secret,
    )
    ys = wd / "equiv.ys"
    ys.write_text(script)
    run, text = run_script(
        job, ys, seconds=left, results=RESULTS, what="the SAT miter", structure=structure
    )
    found = MiterRun(
        text,
        job.secret,
        run.returncode,
        run.timed_out,
        {name: result_text(wd, job.secret, name) for name in RESULTS},
    )
    result = miter_verdict(found, job.plan, job.cfg, elapsed(job.start))
    if run.timed_out and (result is None or result.verdict is Verdict.UNKNOWN):
        phase = list(phases(text, job.secret))[-1] if text else "start"
        result = FormalResult(
            Verdict.UNKNOWN,
            method_name(job.plan, job.cfg),
            f"SAT solving timed out after {left:.0f}s (in phase {phase})",
            {},
            elapsed(job.start),
        )
    if result is None:
        raise ToolFailed(
            f"yosys exited with {run.returncode} without a verdict",
            command=list(run.argv),
            returncode=run.returncode,
            log_path=wd / "equiv.log",
            stderr_tail=run.tail(),
        )
    log.debug("formal %s: %s (%s)", job.design.target.name, result.verdict.value, result.reason)
    return result
