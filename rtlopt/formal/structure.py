"""The clock/reset structure check that every proof goes through (see :mod:`.clocking`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rtlopt.config import FormalConfig
from rtlopt.formal.clocking import clocking_problem, read_clocking
from rtlopt.formal.crash import raise_if_crashed
from rtlopt.formal.job import elapsed, read_text, yosys_argv
from rtlopt.formal.scripts import STRUCTURE_JSON, structure_script
from rtlopt.frontend.model import Design
from rtlopt.harness import ref_name
from rtlopt.results import FormalResult, Verdict
from rtlopt.tools import Limits, run_tool

__all__ = ["checked", "structure_only", "structure_verdict"]


def structure_only(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    extra_inc: list[Path],
    cfg: FormalConfig,
    memory_mb: int | None,
    start: float,
) -> FormalResult | None:
    wd = reference_file.parent
    (wd / STRUCTURE_JSON).unlink(missing_ok=True)
    script = wd / "structure.ys"
    script.write_text(
        structure_script(design, reference_file, candidate_files, include_dirs=extra_inc)
    )
    run = run_tool(
        yosys_argv("structure.log", script.name),
        cwd=wd,
        log_path=wd / "structure.out",
        limits=Limits(max(1.0, cfg.timeout_s), memory_mb),
        raise_on_timeout=False,
    )
    raise_if_crashed(run, "the clock/reset structure check")
    return structure_verdict(design, wd, start)


def structure_verdict(design: Design, wd: Path, start: float) -> FormalResult | None:
    """UNKNOWN when the clock/reset structure rules out a proof; None when it does not, or
    when the JSON was not written (Yosys failed before; its own verdict says why)."""
    text = read_text(wd / STRUCTURE_JSON)
    if not text:
        return None
    gold, gate = ref_name(design.target.name), design.target.name
    method = "clock/reset structure"
    try:
        found = read_clocking(text, [gold, gate])
    except ValueError as exc:
        return FormalResult(
            Verdict.UNKNOWN, method, f"unreadable structure netlist: {exc}", {}, elapsed(start)
        )
    if gold not in found or gate not in found:
        return FormalResult(
            Verdict.UNKNOWN, method, "the structure netlist lacks a module", {}, elapsed(start)
        )
    problem = clocking_problem(found[gold], found[gate])
    if problem:
        return FormalResult(
            Verdict.UNKNOWN,
            method,
            f"clock/reset structure check: {problem}",
            {},
            elapsed(start),
            structure=problem,
        )
    if found[gold].problems:
        return FormalResult(
            Verdict.UNKNOWN,
            method,
            f"the miter does not model the reference's structure: {found[gold].problems[0]}",
            {},
            elapsed(start),
        )
    return None


def checked(
    design: Design, wd: Path, result: FormalResult | None, start: float
) -> FormalResult | None:
    """``result`` unless the clock/reset structure rules it out; never PROVEN unchecked."""
    found = structure_verdict(design, wd, start)
    if found is not None:
        return found
    if (
        result is not None
        and result.verdict is Verdict.PROVEN
        and not (wd / STRUCTURE_JSON).is_file()
    ):
        return FormalResult(
            Verdict.UNKNOWN,
            result.method,
            "the clock/reset structure could not be checked",
            {},
            elapsed(start),
        )
    return result
