"""Formal equivalence with Yosys 0.23: a SAT miter of the renamed reference against a candidate.

Verdicts: PROVEN only when a SAT proof (combinational) or a temporal induction (sequential, from
a reset state) succeeds; REFUTED with the counterexample's inputs and outputs when a base case
or bounded check finds one (or the ports differ), or, for a design without reset, when a search
from the power-up state both share finds a failing input that no power-up state of the
reference follows (:mod:`rtlopt.formal.powerup_search`: once the proof from free power-up
states fails, and after every engine in the share of the time kept for it,
``formal.powerup_*``); UNKNOWN with the reason otherwise
(induction inconclusive, several clocks, no reset, latches, constructs Yosys cannot read, a
SAT instance that ran out of time). UNKNOWN is never reported as proven. A target whose
hierarchy states power-up values is also (``ignore``) or only (``honor``) proven from them
(:mod:`rtlopt.formal.power_up_models`).

The miter steps every register on one implicit clock, so the first Yosys run also writes both
designs as JSON and :mod:`rtlopt.formal.clocking` checks that every candidate register is
clocked (and asynchronously reset) by the primary inputs and edges the reference uses. A
difference gives UNKNOWN with ``FormalResult.structure`` set (the evaluator rejects it); a
reference with derived clocks gives UNKNOWN. The same run's copy of both designs before any
optimization decides high impedance (:mod:`rtlopt.formal.highz`): a candidate with z where
the reference has none is rejected the same way, a reference with z leaves every change
unchecked. The only shortcut is a candidate that holds the
reference's modules byte for byte (line endings aside) and nothing else, or that is the
target's whole file byte for byte.

A Yosys crash raises :class:`~rtlopt.errors.ToolFailed`; running past the wall-clock limit
raises :class:`~rtlopt.errors.EvaluationTimeout`. A single SAT instance hitting its own
``-timeout`` (a hard multiplier, say) is UNKNOWN, not an infrastructure error.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from rtlopt.config import FormalConfig
from rtlopt.formal.budget import bounded
from rtlopt.formal.channel import new_secret
from rtlopt.formal.clock_model import clock_model
from rtlopt.formal.clocking import Clocking, one_clock_reason
from rtlopt.formal.engines import abc, lcorr, paired, powerup, sat, structural
from rtlopt.formal.identical import identical_source
from rtlopt.formal.job import Job, elapsed, read_text
from rtlopt.formal.plan import FormalPlan, plan_formal
from rtlopt.formal.powerup_search import SearchFiles, search_files
from rtlopt.formal.scripts import STRUCTURE_JSON
from rtlopt.formal.structure import (
    checked,
    clear,
    read_structure,
    structure_only,
    structure_verdict,
)
from rtlopt.frontend.model import Design
from rtlopt.harness import ref_name, reference_text
from rtlopt.results import FormalResult, Verdict
from rtlopt.tools import require_tool

__all__ = [
    "POWERUP_METHOD",
    "POWERUP_REASON",
    "check_equivalence",
    "check_structure",
    "check_x_outputs",
]

#: How a refutation from the shared power-up state is named (``FormalResult.method``).
POWERUP_METHOD = "sat search from a shared power-up state, confirmed for every reference power-up"
#: What it means (``FormalResult.reason``).
POWERUP_REASON = (
    "the candidate, powered up in the state it shares with the reference (every register at "
    "its initial value, 0 where it has none), gives outputs on the failing input that the "
    "reference gives from no power-up state"
)


def _identical(start: float) -> FormalResult:
    return FormalResult(
        Verdict.PROVEN,
        "identical source",
        "the candidate is the reference's target and submodules, byte for byte (line endings "
        "aside)",
        {},
        time.monotonic() - start,
    )


def _unchecked(why: str, start: float) -> FormalResult:
    return FormalResult(
        Verdict.UNKNOWN, "none", why, duration_s=time.monotonic() - start, unchecked=why
    )


def check_equivalence(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    *,
    memory_mb: int | None = None,
    reference_file: Path | None = None,
    strict_x: bool = False,
    initial_values: str = "ignore",
    source: tuple[Design, str] | None = None,
    x_outputs: Sequence[str] = (),
    power_up_renamed: str = "",
) -> FormalResult:
    """Prove or refute that the candidate's target module equals the reference.

    Args:
        design: The design; its target (renamed) is the gold model.
        candidate_files: Candidate sources, library files first and the candidate's own file
            last; the gate module has the target's name.
        workdir: Scratch directory (script, log, reference copy).
        cfg: Depths and time limit.
        memory_mb: Address-space limit of Yosys.
        reference_file: A file with :func:`reference_text` (written into ``workdir`` if None).
        strict_x: The strict X policy (see ``harness.strict_x``); by default a candidate may
            refine an x of the reference.
        initial_values: The power-up model (``harness.initial_values``).
        source: The design as the repository has it and the candidate's own text, when
            ``design`` and the files are views (SystemVerilog through slang): "identical
            source" means these bytes, never two equal views.
        x_outputs: Outputs the reference leaves x late in the simulation (un-reset state;
            :attr:`~rtlopt.results.SimResult.x_outputs`): a proof on the x power-up model
            says nothing there, so they are proven from a shared power-up state, or the
            result is UNKNOWN with ``unchecked`` set (see :func:`_x_outputs_checked`).
        power_up_renamed: Under ``ignore``: how the candidate's stated power-up values
            differ from the reference's by register name (:attr:`FormalPlan.renamed`): the
            proof from the stated values must run and decide, or the result is unchecked.

    Raises:
        ToolFailed: Yosys crashed (killed by a signal, out of memory) outside a known error.

    A SAT problem that does not finish within the budget gives UNKNOWN ("... timed out"):
    equivalence of two differently structured multipliers is hard for SAT, and that is a
    property of the candidate, not an infrastructure failure.
    """
    require_tool("yosys")
    start = time.monotonic()
    cfg = bounded(cfg)  # the verdict's one time budget (rtlopt.formal.budget)
    workdir.mkdir(parents=True, exist_ok=True)
    texts = [read_text(Path(f)) for f in candidate_files]
    own = source if source is not None else (design, texts[-1] if texts else "")
    if texts and identical_source(*own):
        return _identical(start)
    ref = reference_text(design) if reference_file is None else read_text(reference_file)
    plan = plan_formal(design, texts, initial_values=initial_values, reference=ref)
    if power_up_renamed and not plan.honor:
        if not plan.stated:  # no proof from the stated values would run: the text rule holds
            return _unchecked(f"unchecked: {power_up_renamed}", start)
        plan = replace(plan, renamed=power_up_renamed)
    if reference_file is None or reference_file.parent != workdir:
        reference_file = workdir / "reference.v"
        reference_file.write_text(ref)
    secret = new_secret()
    clear(workdir, secret)
    extra_inc = [design.target.file.parent]
    if plan.mode == "unsupported":
        found = structure_only(
            design, reference_file, candidate_files, extra_inc, cfg, memory_mb, start, secret
        )
        return _unsupported(plan, found, start)

    # the clock model from the netlist: a second edge or an asynchronous pin needs clk2fflogic
    clocking: dict[tuple[int, ...], dict[str, Clocking] | str] = {}
    files = (design, reference_file, candidate_files)
    plan, found = clock_model(
        design, plan, *files[1:], extra_inc, cfg, memory_mb, start, secret, clocking
    )
    if found is not None:
        return found
    job = Job(*files, plan, cfg, memory_mb, extra_inc, start, secret, clocking=clocking)
    if plan.stated:  # from the stated power-up values too, or alone (honor)
        return _from_stated(job, strict_x=strict_x, x_outputs=x_outputs)
    return _decide(job, strict_x=strict_x, x_outputs=x_outputs)


def _unwritten(job: Job) -> bool:
    """Whether no run of this check wrote the structure netlist yet (the clock model's run
    may have: an engine then need not write it again, and it is parsed once)."""
    return not (job.reference_file.parent / STRUCTURE_JSON).is_file()


def _unsupported(plan: FormalPlan, found: FormalResult | None, start: float) -> FormalResult:
    """The verdict of a plan no engine runs: the structure check's when it rules the
    candidate out or leaves it unchecked, else UNKNOWN with the plan's reason."""
    if found is not None and (found.structure or found.unchecked):
        return found
    return FormalResult(Verdict.UNKNOWN, "none", plan.reason, duration_s=time.monotonic() - start)


def _from_stated(job: Job, *, strict_x: bool, x_outputs: Sequence[str]) -> FormalResult:
    """The verdict of a target that states power-up values
    (:func:`rtlopt.formal.power_up_models.decide_stated`)."""
    from rtlopt.formal.power_up_models import decide_stated

    checks = None
    if x_outputs and job.plan.mode != "comb":
        checks = partial(_x_outputs_checked, outputs=x_outputs)
    unknown = partial(_decide, strict_x=strict_x, x_outputs=x_outputs)
    return decide_stated(job, unknown, checks, strict_x=strict_x)


def _decide(job: Job, *, strict_x: bool, x_outputs: Sequence[str]) -> FormalResult:
    """The engines in order, within the verdict's time; for a design without reset, the
    searches from the shared power-up state (:func:`_searches`): the first as soon as the
    proof from free power-up states fails, the second after every engine, in the share of
    the time kept for it."""
    cfg, plan = job.cfg, job.plan
    searches = _searches(job)
    proof_job, first = job, None
    if searches:
        # the proof ends where the time kept for the search after it begins
        proof_job = replace(job, cfg=replace(cfg, timeout_s=_proof_time(cfg)))
        seconds = cfg.timeout_s * cfg.powerup_search_share
        first = partial(_powerup_refutation, job, cfg.powerup_first_cycles, seconds)
    if plan.mode == "comb" or strict_x:
        result = _combinational(proof_job, strict_x=strict_x)
    else:
        result = _sequential(proof_job, strict_x=strict_x, search=first)
    if x_outputs and plan.mode != "comb" and _rests_on_x(result, cfg):
        result = _x_outputs_checked(proof_job, result, x_outputs)
    if searches and result.verdict is Verdict.UNKNOWN and not result.structure:
        found = _powerup_refutation(job, cfg.powerup_search_cycles, job.budget(1.0))
        result = found if found is not None else result
    return replace(result, timings={**result.timings, **job.timings})


def _searches(job: Job) -> bool:
    """Whether the searches from the shared power-up state run: a design without reset (the
    plan's bounded mode: no reset input) on one clock edge, and a search configured."""
    cfg = job.cfg
    return (
        job.plan.mode == "bmc"
        and not job.plan.clk2fflogic
        and cfg.powerup_search_share > 0
        and (cfg.powerup_first_cycles > 0 or cfg.powerup_search_cycles > 0)
    )


def _proof_time(cfg: FormalConfig) -> float:
    """The engines' limit when the searches keep their share of ``cfg.timeout_s``."""
    keep = cfg.powerup_search_share if cfg.powerup_search_cycles > 0 else 0.0
    return max(1.0, cfg.timeout_s * (1.0 - keep))


def _powerup_refutation(job: Job, steps: int, seconds: float) -> FormalResult | None:
    """REFUTED when a search of ``steps`` cycles from the shared power-up state finds a
    failing input that no power-up state of the reference follows
    (:mod:`rtlopt.formal.powerup_search`); None otherwise, also when the clock/reset
    structure rules a verdict out or a register is not on the one clock edge (a step of
    the search's model is then no cycle of the chip). Runs after an engine wrote the
    structure netlist."""
    seconds = min(seconds, job.cfg.timeout_s - elapsed(job.start))  # never past the verdict's
    if steps <= 0 or seconds < 1.0:
        return None
    t0 = time.monotonic()
    wd = job.reference_file.parent
    found = structure_verdict(job.design, wd, job.start, job.secret, job.clocking)
    if found is not None or not _on_one_edge(job):
        return None
    files = SearchFiles(job.reference_file, tuple(job.candidate_files), tuple(job.extra_inc))
    trace = search_files(
        job.design,
        files,
        wd / f"powerup_search_{steps}",
        steps=steps,
        timeout_s=seconds,
        one_edge=True,
        memory_mb=job.memory_mb,
    )
    job.add_time("powerup_search", time.monotonic() - t0)
    if not trace.refuted:
        return None
    return FormalResult(
        Verdict.REFUTED, POWERUP_METHOD, POWERUP_REASON, trace.counterexample, elapsed(job.start)
    )


def _on_one_edge(job: Job) -> bool:
    """Every register of both sides on the same edge of one primary clock, with no
    asynchronous pin and no latch (read from the structure netlist)."""
    found = read_structure(job.design, job.reference_file.parent, job.clocking)
    if not isinstance(found, dict):
        return False
    gold, gate = found.get(ref_name(job.design.target.name)), found.get(job.design.target.name)
    if gold is None or gate is None:
        return False
    sides = (gold, gate)
    edges = {pair for side in sides for pair in side.clocks}
    return len(edges) == 1 and not any(
        side.asyncs or side.latches or side.problems for side in sides
    )


def _rests_on_x(result: FormalResult, cfg: FormalConfig) -> bool:
    """Whether an accepted candidate would rest on the X policy where the reference is x: a
    proof on the x power-up model, or (``require_proof`` off) an undecided check that leaves
    the verdict to the netlist simulation, which compares with the same policy."""
    if result.free_power_up:  # every register defined: it covers the x outputs already
        return False
    if result.verdict is Verdict.PROVEN:
        return True
    return result.verdict is Verdict.UNKNOWN and not cfg.require_proof and not result.structure


def _x_outputs_checked(job: Job, result: FormalResult, outputs: Sequence[str]) -> FormalResult:
    """``result`` (a proof) where it does not rest on the X policy for ``outputs``.

    A proof from the x power-up model accepts any candidate value on an output the reference
    leaves x, and an un-reset counter or state machine leaves it x forever although every
    real power-up value gives it a behaviour. Those outputs are proven again from every
    shared power-up state (:mod:`rtlopt.formal.engines.powerup`); when that fails, the result
    is UNKNOWN with ``unchecked`` set, which the evaluator rejects."""
    t0 = time.monotonic()
    # at least a quarter of the limit, also after a proof that took most of it
    found = powerup.run(job, outputs, seconds=max(job.budget(1.0), job.cfg.timeout_s / 4))
    job.add_time("x_outputs", time.monotonic() - t0)
    if found.result is not None:
        if result.verdict is not Verdict.PROVEN:
            return result  # the x outputs hold; the netlist simulation decides the others
        return replace(
            result,
            method=f"{result.method}; {found.result.method}",
            reason="; ".join(r for r in (result.reason, found.result.reason) if r),
            duration_s=elapsed(job.start),
        )
    why = powerup.unchecked_reason(outputs, found)
    return FormalResult(
        Verdict.UNKNOWN,
        f"{result.method}; abc {powerup.METHOD}",
        why,
        found.counterexample,
        elapsed(job.start),
        unchecked=why,
    )


def _combinational(job: Job, *, strict_x: bool) -> FormalResult:
    """Combinational targets (and every target under the strict X policy).

    A SAT proof is cheapest for combinational logic; ABC's SAT sweeping and structural
    matching rescue the cases where the whole-output SAT instance times out (e.g. identical
    multipliers). ``equiv_simple`` accepts any candidate value where the reference is x, so
    the strict X policy uses the miter only.
    """
    share = job.cfg.comb_sat_share if job.plan.mode == "comb" and not strict_x else 1.0
    first = sat.run(job, share=share, strict_x=strict_x, structure=_unwritten(job))
    ok = checked(job, first)
    assert ok is not None
    if (
        ok is not first
        or share == 1.0
        or first.verdict is not Verdict.UNKNOWN
        or "timed out" not in first.reason
    ):
        return ok
    if job.cfg.abc:
        found = abc.run(job, share=0.6, strict_x=strict_x)
        if found is not None:
            return found
    by_structure = structural.run(job, share=0.4)
    if by_structure is not None:
        return by_structure
    return sat.run(job, share=1.0)


def _sequential(
    job: Job, *, strict_x: bool, search: Callable[[], FormalResult | None] | None = None
) -> FormalResult:
    """Sequential targets: latch correspondence on the exact miter (targets with a reset),
    structural matching, then registers paired by behaviour, then the SAT miter's induction
    and bounded check, then ABC on both power-up models. ``search``: the first search from
    the shared power-up state (designs without reset, :func:`_without_reset`)."""
    wd = job.reference_file.parent
    if job.cfg.abc and job.plan.mode == "seq":
        # registers merged by induction whatever their names: a renamed and reordered core
        # (picorv32's) is decided in seconds where the structural proof takes minutes
        by_correspondence = lcorr.run(job, share=0.85)
        if by_correspondence is not None:
            return by_correspondence
    by_structure = structural.run(job, share=0.25, structure=_unwritten(job))
    if (
        by_structure is not None
        and by_structure.verdict is Verdict.PROVEN
        and not _induction_has_a_base(job)
    ):
        by_structure = None  # the other engines decide from the power-up state
    ok = checked(job, by_structure)
    if ok is not None:
        return ok
    if not (wd / STRUCTURE_JSON).is_file():
        # Yosys stopped before writing the structure netlist: let the miter run write it
        ok = checked(job, sat.run(job, share=1.0, structure=_unwritten(job)))
        assert ok is not None
        return ok
    if not job.cfg.abc:
        return sat.run(job, share=1.0)
    if job.plan.mode == "seq" and not strict_x:
        # registers paired by behaviour, from free power-up values: a trivial rewrite (renamed
        # registers, commuted operands, reordered statements) is proven in seconds where the
        # SAT miter's induction fails and its bounded check times out
        by_pairing = paired.run(job, share=0.8)
        if by_pairing is not None:
            return by_pairing
    if job.plan.mode == "bmc" and not strict_x:
        return _without_reset(job, search)
    miter = sat.run(job, share=0.5)
    if miter.verdict is not Verdict.UNKNOWN:
        return miter
    found = abc.run_power_up(job, strict_x=strict_x)
    return found if found is not None else miter


def _induction_has_a_base(job: Job) -> bool:
    """Whether Yosys's ``equiv_induct`` proves this sequential pair. It proves only that the
    designs do not diverge once every matched signal agreed for some cycles: it has no base
    case. With a reset and the same registers on both sides (names and widths, as
    ``equiv_make`` pairs them) the reset state is its base: the reset input is free at every
    step, so a differing reset value fails the induction step, and a register without reset
    starts as the reference's x, which the X policy lets the candidate refine. Without reset,
    or with a register one side lacks (a candidate register that never changes, say, can set
    the candidate apart from its first cycle on while the induction holds), it proves
    nothing: the other engines decide from the power-up state."""
    if job.plan.mode != "seq":
        return False
    found = read_structure(job.design, job.reference_file.parent, job.clocking)
    gold, gate = ref_name(job.design.target.name), job.design.target.name
    if not isinstance(found, dict) or gold not in found or gate not in found:
        return False
    return found[gold].register_names == found[gate].register_names


def _without_reset(
    job: Job, search: Callable[[], FormalResult | None] | None = None
) -> FormalResult:
    """No reset: a proof from every power-up state of paired registers first (the SAT miter's
    bounded check can only refute, and is slow on a whole block; a failing proof is quick, a
    counterexample of the paired model), then the refutation searches: ``search`` (from the
    power-up state both share, confirmed for every power-up state of the reference: a broken
    edit is refuted in seconds, an equivalent one proven before it costs anything), the SAT
    miter's bounded check and ABC's bmc3 on the x power-up model."""
    early = abc.run(job, share=0.7)
    if early is not None and early.verdict is Verdict.PROVEN:
        return early
    found = search() if search is not None else None
    if found is not None:
        return found
    miter = sat.run(job, share=0.5)
    if miter.verdict is not Verdict.UNKNOWN:
        return miter
    refuted = abc.run(job, share=1.0, model="x")
    if refuted is not None and refuted.verdict is Verdict.REFUTED:
        return refuted
    return early if early is not None else miter


def _reference(design: Design, reference_file: Path | None) -> str:
    """The reference's text: ``reference_file`` (the preprocessed reference an evaluation
    reads), else :func:`reference_text`."""
    return reference_text(design) if reference_file is None else read_text(reference_file)


def check_x_outputs(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    x_outputs: Sequence[str],
    *,
    memory_mb: int | None = None,
    reference_file: Path | None = None,
    initial_values: str = "ignore",
) -> str:
    """Only the check of the outputs the reference leaves x (for when the formal check is
    disabled: simulation and the netlist check compare them with the X policy, which proves
    nothing there).

    Returns:
        Why they are unchecked (the evaluator rejects), or "" when they are proven from a
        shared power-up state, the candidate is the reference's source, or the miter does not
        model the target (combinational, several clocks: nothing to add to simulation).
    """
    require_tool("yosys")
    workdir.mkdir(parents=True, exist_ok=True)
    texts = [read_text(Path(f)) for f in candidate_files]
    if not x_outputs or (texts and identical_source(design, texts[-1])):
        return ""
    text = _reference(design, reference_file)
    plan = plan_formal(design, texts, initial_values=initial_values, reference=text)
    if plan.mode in ("comb", "unsupported") or (plan.stated and plan.honor):
        return ""
    ref = workdir / "reference.v"
    ref.write_text(text)
    extra_inc = [design.target.file.parent]
    job = Job(design, ref, candidate_files, plan, cfg, memory_mb, extra_inc, time.monotonic())
    # a proof goes through the structure and drivers checks of this job (its own secret)
    structure_only(
        design, ref, candidate_files, extra_inc, cfg, memory_mb, job.start, job.secret, job.clocking
    )
    if plan.mode in ("seq", "bmc") and not plan.clk2fflogic:
        sides = read_structure(design, ref.parent, job.clocking)
        pair = [ref_name(design.target.name), design.target.name]
        if not isinstance(sides, dict) or any(
            n not in sides or one_clock_reason(sides[n]) for n in pair
        ):
            job = replace(job, plan=replace(plan, clk2fflogic=True))
    found = powerup.run(job, x_outputs, seconds=cfg.timeout_s)
    if found.result is not None:
        return ""
    return powerup.unchecked_reason(x_outputs, found)


def check_structure(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    *,
    memory_mb: int | None = None,
    reference_file: Path | None = None,
) -> str:
    """Only the clock/reset structure check (for when the formal check is disabled).

    Returns:
        Why the candidate's clocking differs from the reference's, or "" when it does not (or
        when Yosys cannot read the designs: synthesis, which follows, reports that).
    """
    require_tool("yosys")
    workdir.mkdir(parents=True, exist_ok=True)
    texts = [read_text(Path(f)) for f in candidate_files]
    if texts and identical_source(design, texts[-1]):
        return ""
    ref = workdir / "reference.v"
    ref.write_text(_reference(design, reference_file))
    found = structure_only(
        design,
        ref,
        candidate_files,
        [design.target.file.parent],
        cfg,
        memory_mb,
        time.monotonic(),
        new_secret(),
    )
    return found.structure if found is not None else ""
