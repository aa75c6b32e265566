"""Where the 0/1 proofs' model hides a candidate x that simulation shows: the X-policy proof.

The X policy: a reference x may be refined, a candidate x where the reference is defined is
a difference. The 0/1 proofs cannot see two sources of such an x:

* division and modulo: they read ``$div``/``$mod`` as synthesis builds them
  (:data:`rtlopt.formal.scripts.DIV_AS_SYNTHESIS`: all ones, the dividend, for a zero
  divisor) while simulation gives x. A candidate writing ``nz ? a : 4'hf`` as ``a / nz`` is
  equal on every 0/1 proof and x in simulation where ``nz`` is 0.
* the period between power-up and the first reset: every proof forces the resets in the
  first step. A candidate adding a register only the reset writes (``y = q & v``, ``v``
  set by reset only) is x before the first reset where the reference's ``q`` already holds
  data, and a repository whose testbench clocks before it resets reads that x.

:func:`x_policy_triggers` reads both sides (``proc -ifx -noopt; flatten``, as the
x-faithfulness proof does) and names what applies: a candidate division or modulo whose
divisor is not a nonzero constant; a candidate register bit that no input makes defined
before the first reset (:mod:`rtlopt.formal.xpolicy_regs`: a reset-only register, a counter
from x) in an output's cone where the reference's cone of that output holds no such bit of
that name. Where either applies, :func:`check_x_policy` runs the x-faithfulness proof's miter
(:func:`rtlopt.formal.xfaith.check_x_faith`) with every input defined, division unmapped
(Yosys's model: x for a zero divisor), the X policy's comparison (``-ignore_gold_x``) and,
for the register trigger, the resets free from power-up (registers start x). Refuted: a
difference (REFUTED); undecided (an induction that does not close, a construct the proof
refuses): unchecked. A candidate that keeps the reference's registers x until the reset by
name and reach and reads them otherwise is the x-exact proof's (its run from power-up with
the resets free, ``evaluate/_xfaith.py``).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.config import FormalConfig
from rtlopt.formal.channel import MARK
from rtlopt.formal.job import read_text, yosys_argv
from rtlopt.formal.plan import plan_formal
from rtlopt.formal.scripts import compared_ids
from rtlopt.formal.unreached import hierarchy_lines
from rtlopt.formal.xfaith import XFaith, check_x_faith
from rtlopt.formal.xpolicy_regs import new_held_registers
from rtlopt.frontend.model import Design
from rtlopt.tools import Limits, raise_if_crashed, require_tool, run_tool, yosys_read_lines
from rtlopt.verilog import blank_comments

__all__ = ["Triggers", "check_x_policy", "x_policy_triggers"]

log = logging.getLogger(__name__)

_DIVISION = frozenset({"$div", "$mod", "$divfloor", "$modfloor"})
_PROBE_JSON = "xpolicy_probe.json"
#: A ``/`` or ``%`` in the candidate's text (comments blanked): a division may be there.
_DIVIDES = re.compile(r"[/%]")


@dataclass(frozen=True)
class Triggers:
    """What makes the X-policy proof run: ``divisions`` (the candidate's cells dividing by
    a value that may be 0), ``reset_only`` (candidate register bits that stay x until the
    first reset, :mod:`rtlopt.formal.xpolicy_regs`); ``reason`` when the design could
    not be read (then the proof runs with both)."""

    divisions: tuple[str, ...] = ()
    reset_only: tuple[str, ...] = ()
    reason: str = ""

    def __bool__(self) -> bool:
        return bool(self.divisions or self.reset_only or self.reason)


def x_policy_triggers(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    *,
    reference_file: Path,
    resets: Mapping[str, int],
    seconds: float,
    memory_mb: int | None = None,
) -> Triggers:
    """Read both sides as the x-faithfulness proof does and name what applies.

    Raises:
        ToolFailed: Yosys crashed.
    """
    require_tool("yosys")
    workdir.mkdir(parents=True, exist_ok=True)
    gold, gate = compared_ids(design)
    dirs = [*design.include_dirs, design.target.file.parent]
    pre = design.prelude
    own = [f for f in candidate_files if f not in pre]
    lines = [f"log {MARK} read"]
    lines += yosys_read_lines([*pre, reference_file], dirs, design.defines, one_per_file=True)
    lines += yosys_read_lines(own, dirs, design.defines, one_per_file=True)
    lines += [*hierarchy_lines(design, gold, gate), "proc -ifx -noopt", "flatten", "opt_clean"]
    lines += [f"write_json {_PROBE_JSON}"]
    script = workdir / "xpolicy_probe.ys"
    script.write_text("\n".join(lines) + "\n")
    (workdir / _PROBE_JSON).unlink(missing_ok=True)
    run = run_tool(
        yosys_argv("xpolicy_probe.log", script.name),
        cwd=workdir,
        log_path=workdir / "xpolicy_probe.out",
        limits=Limits(max(10.0, seconds), memory_mb),
        raise_on_timeout=False,
    )
    raise_if_crashed(run, "yosys (X-policy probe)")
    try:
        mods = json.loads(read_text(workdir / _PROBE_JSON) or "null")["modules"]
        gmod, tmod = (mods[m.lstrip("\\")] for m in (gold, gate))
    except (ValueError, KeyError, TypeError):
        return Triggers(reason="the design after proc -ifx could not be read")
    divisions = tuple(_divisions(tmod))
    return Triggers(divisions, tuple(new_held_registers(gmod, tmod, resets)))


def _divisions(mod: Mapping[str, Any]) -> list[str]:
    """The division/modulo cells of ``mod`` whose divisor is not a nonzero constant."""
    out = []
    for name, cell in mod.get("cells", {}).items():
        if cell.get("type") not in _DIVISION:
            continue
        b = cell.get("connections", {}).get("B", [])
        if all(isinstance(x, str) and x in "01" for x in b) and "1" in b:
            continue
        out.append(str(cell.get("attributes", {}).get("src", name)))
    return out


def check_x_policy(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    *,
    reference_file: Path,
    seconds: float,
    memory_mb: int | None = None,
    initial_values: str = "ignore",
) -> tuple[Triggers, XFaith | None]:
    """The triggers, and the X-policy proof where one applies (None where none does).

    Raises:
        ToolFailed: Yosys crashed.
    """
    start = time.monotonic()
    texts = [read_text(Path(f)) for f in candidate_files]
    ref = read_text(reference_file)
    plan = plan_formal(design, texts, initial_values=initial_values, reference=ref)
    resets = dict(plan.resets or {}) if plan.mode in ("seq", "bmc") else {}
    if not resets and not any(_DIVIDES.search(blank_comments(t)) for t in texts):
        return Triggers(), None  # neither trigger can apply: no Yosys run
    found = x_policy_triggers(
        design,
        candidate_files,
        workdir,
        reference_file=reference_file,
        resets=resets,
        seconds=seconds,
        memory_mb=memory_mb,
    )
    if not found:
        return found, None
    left = max(1.0, seconds - (time.monotonic() - start))
    proof = check_x_faith(
        design,
        candidate_files,
        workdir / "proof",
        cfg,
        (),
        z=False,
        seconds=left,
        memory_mb=memory_mb,
        reference_file=reference_file,
        initial_values=initial_values,
        policy=True,
        free_reset=bool(found.reset_only or found.reason),
    )
    log.debug("X-policy proof (%s): %s %s", found, proof.verdict, proof.reason)
    return found, proof
