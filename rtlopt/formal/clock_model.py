"""Which clock model the proofs use, decided from the netlist (not from the source text).

The one-implicit-clock model (``async2sync``) steps every register on one edge of one clock
and samples asynchronous pins at that edge. It is this design's behaviour only when every
register of both sides is on one edge of one clock input and no register has an
asynchronous set, reset or load driven by an input (:func:`~rtlopt.formal.clocking
.one_clock_reason`). A falling-edge register in a submodule whose clock port has another
name, or on an alias wire of the clock, is invisible to a scan of the text; a reset pulse
between two edges cannot be expressed in that model at all. So before the engines run, the
structure netlist of both sides (after ``proc; flatten; memory``) is read, and any such
register puts the proofs in Yosys's ``clk2fflogic`` model (every clock and asynchronous
input level-sensitive at any step). The reference's answer is kept per reference text (one
Yosys run per design and process): the clock/reset structure check refuses a candidate
register on a clock, edge or asynchronous input the reference does not use, so a reference
on one edge without asynchronous pins leaves a passing candidate there too.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rtlopt.config import FormalConfig
from rtlopt.formal.clocking import Clocking, one_clock_reason
from rtlopt.formal.job import read_text
from rtlopt.formal.plan import FormalPlan
from rtlopt.formal.structure import read_structure, structure_only
from rtlopt.frontend.model import Design
from rtlopt.harness import ref_name
from rtlopt.results import FormalResult

__all__ = ["clock_model"]

log = logging.getLogger(__name__)

#: Reference key -> why it needs the edge-by-edge model ("" when it does not).
_SEEN: dict[str, str] = {}


def _key(design: Design, reference_file: Path, candidate_files: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for part in (
        design.target.name,
        read_text(reference_file),
        *(str(p) for p in design.prelude),
        *(read_text(Path(p)) for p in design.prelude),
        repr(sorted(design.defines.items())),
        *(read_text(Path(f)) for f in candidate_files[:-1]),
    ):
        h.update(part.encode(errors="replace") + b"\0")
    return h.hexdigest()


def clock_model(
    design: Design,
    plan: FormalPlan,
    reference_file: Path,
    candidate_files: Sequence[Path],
    extra_inc: list[Path],
    cfg: FormalConfig,
    memory_mb: int | None,
    start: float,
    secret: str,
    cache: dict[tuple[int, ...], dict[str, Clocking] | str] | None = None,
) -> tuple[FormalPlan, FormalResult | None]:
    """``plan`` in the ``clk2fflogic`` model when the netlist of either side needs it (see
    the module's text), and the structure check's verdict when that run found one (a
    candidate the structure check rejects, or unchecked high impedance). A netlist that
    cannot be read gives the edge-by-edge model, which is faithful for any clocking."""
    if plan.mode not in ("seq", "bmc") or plan.clk2fflogic:
        return plan, None
    key = _key(design, reference_file, candidate_files)
    reason = _SEEN.get(key)
    if reason is not None:
        if reason:
            log.info("%s: clk2fflogic (%s)", design.target.name, reason)
            return replace(plan, clk2fflogic=True), None
        return plan, None
    found = structure_only(
        design, reference_file, candidate_files, extra_inc, cfg, memory_mb, start, secret, cache
    )
    sides = read_structure(design, reference_file.parent, cache)
    gold, gate = ref_name(design.target.name), design.target.name
    if not isinstance(sides, dict) or gold not in sides or gate not in sides:
        return replace(plan, clk2fflogic=True), found
    reason = one_clock_reason(sides[gold])
    if len(_SEEN) > 64:
        _SEEN.clear()
    _SEEN[key] = reason
    reason = reason or one_clock_reason(sides[gate])
    if reason:
        log.info("%s: clk2fflogic (%s)", design.target.name, reason)
        plan = replace(plan, clk2fflogic=True)
    if found is not None and (found.structure or found.unchecked):
        return plan, found
    return plan, None
