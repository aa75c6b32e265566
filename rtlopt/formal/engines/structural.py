"""Yosys ``equiv_make``/``equiv_simple``/``equiv_induct``: a proof by structural matching."""

from __future__ import annotations

from rtlopt.formal.channel import first_marker, result_text
from rtlopt.formal.job import Job, elapsed, run_script, workdir_of
from rtlopt.formal.logparse import (
    MiterRun,
    early_verdict,
    is_vacuous,
    method_name,
    witness_problem,
)
from rtlopt.formal.scripts import equiv_script
from rtlopt.results import FormalResult, Verdict

__all__ = ["run"]


def run(
    job: Job,
    *,
    share: float,
    structure: bool = False,
) -> FormalResult | None:
    """equiv_make/equiv_simple/equiv_induct; a verdict only when everything is proven."""
    left = job.budget(share)
    eq_script = workdir_of(job.reference_file) / "equiv_struct.ys"
    eq_script.write_text(
        equiv_script(
            job.design,
            job.reference_file,
            job.candidate_files,
            job.plan,
            depth=max(1, min(job.cfg.induction_depth, 4)),
            include_dirs=job.extra_inc,
            structure=structure,
            secret=job.secret,
            witness_timeout_s=max(1, int(left / 4)),
        )
    )
    wd = eq_script.parent
    run, text = run_script(
        job,
        eq_script,
        seconds=left,
        results=("witness_start", "witness", "equiv_status"),
        what="the structural proof",
        structure=structure,
    )
    found = MiterRun(text, job.secret, run.returncode, run.timed_out)
    early = early_verdict(found, job.plan, job.cfg, elapsed(job.start))
    if early is not None:
        return early
    # the verdict: exit status 0 (``equiv_status -assert`` stops Yosys on an unproven cell)
    # and equiv_status's own output, failure first; never the log
    status = result_text(wd, job.secret, "equiv_status")
    state = first_marker(
        status, ("unproven $equiv", "ERROR"), ("Equivalence successfully proven!",)
    )
    if run.returncode != 0 or run.timed_out or state != "pass":
        return None
    why = witness_problem(result_text(wd, job.secret, "witness"))
    if why and not is_vacuous(why):
        return None  # no witness in time: the other engines decide
    if why:
        return FormalResult(
            Verdict.UNKNOWN,
            method_name(job.plan, job.cfg, structural=True),
            why,
            {},
            elapsed(job.start),
            structure=why,
        )
    return FormalResult(
        Verdict.PROVEN,
        method_name(job.plan, job.cfg, structural=True),
        "",
        {},
        elapsed(job.start),
    )
