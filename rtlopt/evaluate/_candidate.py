"""One candidate on its way through the stages, and the rejection a stage returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.config import RewardConfig
from rtlopt.formal.budget import Deadline
from rtlopt.frontend.model import Module
from rtlopt.results import EvalResult, FormalResult, SimResult, Stage, Status

__all__ = ["Candidate", "Progress", "invalid"]


@dataclass
class Progress:
    """The stage an evaluation is in (read when a tool times out or fails)."""

    stage: Stage = Stage.SCREEN


@dataclass
class Candidate:
    """One candidate on its way through the stages: what each stage leaves for the next."""

    text: str
    dir: Path
    file: Path
    progress: Progress
    mods: list[Module] = field(default_factory=list)
    lib: tuple[Path, ...] = ()
    logs: dict[str, str] = field(default_factory=dict)
    sim: SimResult | None = None
    formal: FormalResult | None = None
    timings: dict[str, float] = field(default_factory=dict)
    pp: Any = None  # the preprocessed text (``evaluate._preprocess.Preprocessed``)
    scope: str = ""  # what the parameter check covered (evaluate/_param_scope.py)
    unjudged: str = ""  # code only the formal build reads (harness/_verification_only.py)
    configurations: tuple[Mapping[str, str], ...] = ()
    deadline: Deadline | None = None  # the verdict's one time budget (formal/budget.py)
    # how its stated power-up values differ from the reference's by register name, left to
    # the proof from the stated values (evaluate/_power_up.py; "" where they agree)
    power_up_renamed: str = ""
    # the macros the module's conditionals test, and the other assignments of them in which
    # the candidate reads differently (evaluate/_configs.py): each is proven
    macros: list[str] = field(default_factory=list)
    other_configs: list[frozenset[str]] = field(default_factory=list)
    # the builds that read another file for a submodule's (evaluate/_alternatives.py): each
    # is proven too, also in each of those configurations
    builds: list[tuple[tuple[Path, Path], ...]] = field(default_factory=list)
    # the inputs the repository feeds x, and whether one may be z (evaluate/_screen_checks.py):
    # the formal stage proves the candidate x-faithful there (formal/xfaith.py)
    x_inputs: tuple[str, ...] = ()
    x_z: bool = False
    x_source: str = ""  # where the repository feeds the first of them x (the message)
    x_powerup_only: bool = False  # every x found is a register's before its first write
    # why simulation time 0 may tell it from the reference (evaluate/_time_zero.py): a
    # candidate the proofs would accept is unchecked then ("" none)
    time_zero: str = ""
    # whether either side holds a block run on an event (``always @*``, an instance of a
    # module with one): only then is it simulated from a held start (_time_zero_sim.py)
    event_blocks: bool = True
    # why the repository reaches past the target's ports where the proofs do not look
    # (evaluate/_reach.py, x fed under other parameters; evaluate/_screen_checks.py): a
    # candidate the proofs would accept is unchecked then, a difference at the ports is
    # still a refutation ("" none)
    reach: str = ""


def invalid(
    rw: RewardConfig, stage: Stage, reason: str, *, r_syn: float, r_func: float = 0.0, **kw: Any
) -> EvalResult:
    """A rejection at ``stage`` with its partial reward ``w_syn*r_syn + w_func*r_func``."""
    return EvalResult(
        status=Status.INVALID,
        stage=stage,
        reason=reason,
        reward=rw.w_syn * r_syn + rw.w_func * r_func,
        r_syn=r_syn,
        r_func=r_func,
        **kw,
    )
