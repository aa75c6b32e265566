"""Yosys ``equiv_make``/``equiv_simple``/``equiv_induct``: a proof by structural matching."""

from __future__ import annotations

from rtlopt.formal.crash import raise_if_crashed
from rtlopt.formal.job import Job, elapsed, read_text, workdir_of, yosys_argv
from rtlopt.formal.logparse import early_verdict, method_name
from rtlopt.formal.scripts import equiv_script
from rtlopt.results import FormalResult, Verdict
from rtlopt.tools import Limits, run_tool

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
        )
    )
    wd = eq_script.parent
    run = run_tool(
        yosys_argv("equiv_struct.log", eq_script.name),
        cwd=wd,
        log_path=wd / "equiv_struct.out",
        limits=Limits(left, job.memory_mb),
        raise_on_timeout=False,
    )
    raise_if_crashed(run, "the structural proof")
    text = read_text(wd / "equiv_struct.log") or run.output()
    early = early_verdict(text, job.plan, job.cfg, elapsed(job.start))
    if early is not None:
        return early
    if "Equivalence successfully proven!" in text and not run.timed_out:
        return FormalResult(
            Verdict.PROVEN,
            method_name(job.plan, job.cfg, structural=True),
            "",
            {},
            elapsed(job.start),
        )
    return None
