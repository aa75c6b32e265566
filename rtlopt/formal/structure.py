"""The clock/reset structure check that every proof goes through (see :mod:`.clocking`)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from rtlopt.config import FormalConfig
from rtlopt.formal.channel import result_name, result_text
from rtlopt.formal.clocking import Clocking, clocking_problem, read_clocking
from rtlopt.formal.highz import METHOD as HIGHZ_METHOD
from rtlopt.formal.highz import NOT_RUN as HIGHZ_NOT_RUN
from rtlopt.formal.highz import high_z
from rtlopt.formal.job import Job, elapsed, read_text, workdir_of, yosys_argv
from rtlopt.formal.scripts import DRIVERS, STRUCTURE_JSON, structure_script
from rtlopt.formal.vacuity import NOT_RUN, counted_drivers, drivers_problem
from rtlopt.frontend.model import Design
from rtlopt.harness import ref_name
from rtlopt.results import FormalResult, Verdict
from rtlopt.tools import Limits, raise_if_crashed, run_tool

__all__ = ["checked", "read_structure", "structure_only", "structure_verdict"]

log = logging.getLogger(__name__)


def structure_only(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    extra_inc: list[Path],
    cfg: FormalConfig,
    memory_mb: int | None,
    start: float,
    secret: str,
    cache: dict[tuple[int, ...], dict[str, Clocking] | str] | None = None,
) -> FormalResult | None:
    wd = reference_file.parent
    clear(wd, secret)
    script = wd / "structure.ys"
    script.write_text(
        structure_script(
            design, reference_file, candidate_files, include_dirs=extra_inc, secret=secret
        )
    )
    run = run_tool(
        yosys_argv("structure.log", script.name),
        cwd=wd,
        log_path=wd / "structure.out",
        limits=Limits(max(1.0, cfg.timeout_s), memory_mb),
        raise_on_timeout=False,
    )
    raise_if_crashed(run, "the clock/reset structure check")
    return structure_verdict(design, wd, start, secret, cache)


def clear(wd: Path, secret: str) -> None:
    """Remove the structure netlist and the drivers check's result files (before a run)."""
    (wd / STRUCTURE_JSON).unlink(missing_ok=True)
    for name in DRIVERS.values():
        (wd / result_name(secret, name)).unlink(missing_ok=True)


def read_structure(
    design: Design,
    wd: Path,
    cache: dict[tuple[int, ...], dict[str, Clocking] | str] | None = None,
) -> dict[str, Clocking] | str | None:
    """The clocking of the reference and the candidate from the structure netlist; a string
    when it is unreadable; None when it was not written. With ``cache`` (a job's
    :attr:`~rtlopt.formal.job.Job.clocking`) each version of the file is parsed once."""
    path = wd / STRUCTURE_JSON
    try:
        st = path.stat()
    except OSError:
        return None
    key = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    if cache is not None and key in cache:
        return cache[key]
    text = read_text(path)
    if not text:  # empty or unreadable: not written (a proof without it is not accepted)
        path.unlink(missing_ok=True)
        return None
    found: dict[str, Clocking] | str
    try:
        found = read_clocking(text, [ref_name(design.target.name), design.target.name])
    except json.JSONDecodeError as exc:
        # a Yosys run stopped while writing it (its time share ran out): not written, so
        # the next engine writes it again, and a proof without it is never accepted
        log.info("structure netlist cut short (%s): removed", exc)
        path.unlink(missing_ok=True)
        return None
    except ValueError as exc:
        found = str(exc) or "unreadable"
    if cache is not None:
        cache.clear()
        cache[key] = found
    return found


def structure_verdict(
    design: Design,
    wd: Path,
    start: float,
    secret: str,
    cache: dict[tuple[int, ...], dict[str, Clocking] | str] | None = None,
) -> FormalResult | None:
    """UNKNOWN when high impedance (:mod:`rtlopt.formal.highz`: a reference with z is
    unchecked, a candidate with z rejected), the clock/reset structure or the drivers check
    rules out a proof; None
    when they do not, or when the JSON was not written (Yosys failed before; its own verdict
    says why). ``cache``: as :func:`read_structure`."""
    found = read_structure(design, wd, cache)
    if found is None:
        return None
    gold, gate = ref_name(design.target.name), design.target.name
    method = "clock/reset structure"
    if isinstance(found, str):
        return FormalResult(
            Verdict.UNKNOWN, method, f"unreadable structure netlist: {found}", {}, elapsed(start)
        )
    if gold not in found or gate not in found:
        return FormalResult(
            Verdict.UNKNOWN, method, "the structure netlist lacks a module", {}, elapsed(start)
        )
    unchecked, rejected = high_z_of(wd, secret, gold, gate)
    if unchecked and unchecked != HIGHZ_NOT_RUN:
        return FormalResult(
            Verdict.UNKNOWN, HIGHZ_METHOD, unchecked, {}, elapsed(start), unchecked=unchecked
        )
    if rejected:
        return FormalResult(
            Verdict.UNKNOWN, HIGHZ_METHOD, rejected, {}, elapsed(start), structure=rejected
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
    drivers = drivers_of(design, wd, secret)
    if drivers and drivers != NOT_RUN:
        return FormalResult(
            Verdict.UNKNOWN,
            "drivers check",
            f"drivers check: {drivers}",
            {},
            elapsed(start),
            structure=drivers,
        )
    return None


def high_z_of(wd: Path, secret: str, gold: str, gate: str) -> tuple[str, str]:
    """The high-impedance check's verdict (:func:`rtlopt.formal.highz.high_z`) from its
    result file, parsed once per version of the file."""
    path = wd / result_name(secret, DRIVERS["highz"])
    try:
        st = path.stat()
    except OSError:
        return high_z("", gold, gate)
    return _high_z_cached(str(path), st.st_mtime_ns, st.st_size, gold, gate)


@lru_cache(maxsize=8)
def _high_z_cached(path: str, _mtime: int, _size: int, gold: str, gate: str) -> tuple[str, str]:
    return high_z(read_text(Path(path)), gold, gate)


def drivers_of(design: Design, wd: Path, secret: str) -> str:
    """The drivers check's verdict from its result files (see :func:`drivers_problem` and
    :func:`counted_drivers`)."""
    found = drivers_problem(
        result_text(wd, secret, DRIVERS["gold"]), result_text(wd, secret, DRIVERS["gate"])
    )
    if found:
        return found
    rtlil = result_text(wd, secret, DRIVERS["rtlil"])
    return counted_drivers(rtlil, ref_name(design.target.name), design.target.name)


def checked(job: Job, result: FormalResult | None) -> FormalResult | None:
    """``result`` unless high impedance, the clock/reset structure or the drivers check rules
    it out; never PROVEN unchecked. The time of the drivers check counts as ``vacuity``."""
    wd = workdir_of(job.reference_file)
    found = structure_verdict(job.design, wd, job.start, job.secret, job.clocking)
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
            elapsed(job.start),
        )
    if result is None or result.verdict is not Verdict.PROVEN:
        return result
    if drivers_of(job.design, wd, job.secret):
        return FormalResult(
            Verdict.UNKNOWN, result.method, f"no proof: {NOT_RUN}", {}, elapsed(job.start)
        )
    gold, gate = ref_name(job.design.target.name), job.design.target.name
    if high_z_of(wd, job.secret, gold, gate) != ("", ""):
        return FormalResult(
            Verdict.UNKNOWN, result.method, f"no proof: {HIGHZ_NOT_RUN}", {}, elapsed(job.start)
        )
    return result
