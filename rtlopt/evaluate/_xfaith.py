"""The formal stage's x-faithfulness proof, where the repository feeds x into some inputs of
the target (``c.x_inputs``, found by the screen: ``evaluate/_screen_checks.py``).

A 0/1 proof says nothing where an input is x, and simulators decide on x in ways it never
sees; after the 0/1 proof proves the candidate, :func:`with_x_faith` runs
:func:`rtlopt.formal.xfaith.check_x_faith` once (before the result can be stored as
accepted): proven, the result names the inputs (``FormalResult.x_inputs``, "proven, also
where the repository feeds x into b, c"); refuted, it is REFUTED with the counterexample
(which inputs were x); undecided, or with no 0/1 proof to add it to (``formal.enabled``
off, an undecided proof accepted on simulation), the candidate is unchecked. On a target
with a reset the proof runs from power-up with the resets free first (:func:`_proofs`): a
register with a reset and no initial value is x until its first write, and a difference
found only there is "unchecked: differs before the first reset" (:func:`_before_reset`).
On the SystemVerilog view path the x the target makes itself is judged by the proof from
power-up on procedural views (:func:`_view_inner`, :mod:`rtlopt.evaluate._xview`): the
synthesized views every other stage reads merge x where the text's ``if`` takes ``else``.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.evaluate._candidate import Candidate
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.results import FormalResult, Verdict

if TYPE_CHECKING:
    from rtlopt.formal.xfaith import XFaith

__all__ = [
    "XFAITH_METHOD",
    "decided",
    "held_note",
    "view_reference",
    "with_x_faith",
    "x_faith_refutation",
]

#: The method of a REFUTED result from the x-faithfulness proof.
XFAITH_METHOD = "x-faithfulness proof"
#: The 0/1 proof's method for a candidate that is the reference's target and submodules byte
#: for byte (:func:`rtlopt.formal.check.check_equivalence`): the same text reads every x as
#: the reference does, so neither x proof runs (the reference against itself costs nothing).
IDENTICAL = "identical source"


def with_x_faith(s: EvalSetup, c: Candidate, formal: FormalResult) -> FormalResult:
    """``formal`` with the x-faithfulness proof where the repository feeds x into inputs
    of the target; ``formal`` itself where it feeds none, or where ``formal`` already
    rejects the candidate."""
    if formal.structure or formal.unchecked:
        return formal
    if formal.verdict is Verdict.REFUTED or formal.method == IDENTICAL:
        return formal  # the reference's own bytes read x as the reference does
    if not c.x_inputs:
        return with_inner_x(s, c, formal)
    words = ", ".join(c.x_inputs)
    fed = f"unchecked: the repository feeds x into {words}"
    fed += f" ({c.x_source})" if c.x_source else ""
    why = _not_run(c, formal) or _view_path(s)
    if why:
        return replace(formal, verdict=Verdict.UNKNOWN, unchecked=f"{fed}, and {why}")
    t0 = time.monotonic()
    found, free = _proofs(s, c)
    timings = {**formal.timings, "x_faith": time.monotonic() - t0}
    if found.verdict is Verdict.PROVEN:
        said = f"proven, also where the repository feeds x into {words}{_also(found)}"
        reason = "; ".join(r for r in (formal.reason, said) if r)
        proven = replace(formal, reason=reason, x_inputs=c.x_inputs, timings=timings)
        return _before_reset(proven, found, free)
    if found.verdict is Verdict.REFUTED and c.x_powerup_only:
        cex = ", ".join(f"{k}={v}" for k, v in list(found.counterexample.items())[:6])
        why = (
            f"{fed}, and the proof that the candidate reads x as the reference does found "
            f"a difference ({cex}) with those inputs x at any step, where the repository "
            "feeds x only from a register's power-up until its first write: not a verdict"
        )
        return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why, timings=timings)
    refuted = "equivalent on 0/1 inputs, but not where the repository feeds x into "
    refuted += fed.split("feeds x into ", 1)[1]
    why = f"{fed}, and the proof that the candidate reads x as the reference does is "
    why += f"undecided: {found.reason}"
    return decided(formal, found, XFAITH_METHOD, refuted, why, timings)


def decided(
    formal: FormalResult,
    proof: XFaith,
    method: str,
    refuted: str,
    unchecked: str,
    timings: dict[str, float],
) -> FormalResult:
    """``formal`` after a further proof (``proof``: its verdict, counterexample and
    duration) that did not prove the candidate: refuted by ``method`` with the reason
    ``refuted``, else unknown and ``unchecked``."""
    if proof.verdict is Verdict.REFUTED:
        took = formal.duration_s + proof.duration_s
        refuted += held_note(proof)
        return FormalResult(
            Verdict.REFUTED, method, refuted, proof.counterexample, took, timings=timings
        )
    return replace(formal, verdict=Verdict.UNKNOWN, unchecked=unchecked, timings=timings)


def held_note(proof: XFaith) -> str:
    """Where ``proof``'s counterexample differs at time 0 with a reset held without an
    event (:mod:`rtlopt.formal.xfaith_held`), the words saying so; else ""."""
    return f"; it differs at time 0 {_held_words(proof)}" if proof.held else ""


def _held_words(proof: XFaith) -> str:
    names = ", ".join(n or "an asynchronous control no input drives" for n in proof.held)
    return (
        f"with {names} held without an event from time 0 (a declaration initializer such as "
        "`logic rst_n = 0;` makes none: a register with an asynchronous reset keeps its "
        "power-up value until its first clock edge)"
    )


def _not_run(c: Candidate, formal: FormalResult) -> str:
    """Why the x-faithfulness proof cannot decide this candidate, or "" (it runs)."""
    if formal.verdict is not Verdict.PROVEN:
        return (
            "only a proof decides whether the candidate reads x as the reference does; the "
            f"proof did not run or did not decide ({formal.reason or 'no proof'})"
        )
    if c.builds:
        # each other configuration of the module's macros is an evaluation of its own, with
        # its own x-faithfulness proof (evaluate/_config_check.py, test_xfaith_configs.py);
        # the other builds of a submodule are not measured so: unchecked
        return (
            "the proof that the candidate reads x as the reference does covers the flow's "
            "build only, not the other builds of its submodules in which the candidate reads "
            "differently"
        )
    return ""


def _view_path(s: EvalSetup) -> str:
    """Why the proof cannot run on the SystemVerilog view path, or "": the views are slang's
    elaboration written back, where a reference's ``if`` may be a ``?:`` (x read otherwise
    than the repository's text: a candidate merging x where the reference takes ``else``
    was proven there)."""
    if s.formal_reference is not None:
        return ""
    return (
        "the proof that the candidate reads x as the reference does reads the repository's "
        "texts, and this target is read through the SystemVerilog view (slang's elaboration "
        "written back, which does not keep how the text reads x)"
    )


def with_inner_x(s: EvalSetup, c: Candidate, formal: FormalResult) -> FormalResult:
    """``formal`` with the x-faithfulness proof where no input is x but the target makes x
    itself (:mod:`rtlopt.formal.xfaith_sources`: a register before its first write, an x
    constant, a select past its range...): the 0/1 proofs read such an x as a free value or
    a don't care, a simulation decides on it (``if (x)`` takes ``else``). Nothing is x:
    ``formal`` itself."""
    if formal.verdict is not Verdict.PROVEN or formal.method == IDENTICAL:
        return formal
    t0 = time.monotonic()
    # where nothing is x the verdict is not read below (the sat run is skipped): only the
    # sources, the early registers and the time-0 reading
    found, free = _proofs(s, c, moot=True)
    timings = {**formal.timings, "x_faith": time.monotonic() - t0}
    early = [f"{', '.join(found.early[:3])} before the first reset"] if found.early else []
    if found.time_zero and not early:
        early = ["registers with an asynchronous reset at time 0"]
    inner = ", ".join([*(found.sources or ())[:3], *early]) or "not read"
    if found.sources is not None and _view_path(s):
        # also where the synthesized views show no x: slang folds some away (``q & ~q``
        # is 0 there, x in simulation before q's first write; round 59)
        return _view_inner(s, c, replace(formal, timings=timings), inner)
    if found.sources == () and not found.early and not found.time_zero:
        return formal
    from rtlopt.evaluate._foreign_x import xprop_reason

    # x read otherwise than IEEE (round 74); a setup without a design (a unit test's) has none
    design = getattr(s, "design", None)
    xprop = xprop_reason(design, getattr(s, "workdir", None)) if design is not None else ""
    if xprop:
        why = f"unchecked: the target makes x itself ({inner}); {xprop}"
        return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why, timings=timings)
    # other configurations and builds: each is evaluated whole, this proof included
    # (evaluate/_config_check.py); the view path: the views could not be read (no sources)
    limit = _view_path(s)
    if limit:
        why = f"unchecked: the target makes x itself ({inner}), and {limit}"
        return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why, timings=timings)
    if found.verdict is Verdict.PROVEN:
        said = f"proven x-exactly where the target makes x itself ({inner}){_also(found)}"
        reason = "; ".join(r for r in (formal.reason, said) if r)
        return _before_reset(replace(formal, reason=reason, timings=timings), found, free)
    refuted = (
        "equivalent on 0/1 values, but a simulation reads otherwise where the target "
        f"makes x itself: it differs before the first write of a register or where an "
        f"x is made ({inner})"
    )
    why = (
        f"unchecked: the target makes x itself ({inner}), and the proof that the candidate "
        f"reads x as the reference does is undecided: {found.reason}"
    )
    return decided(formal, found, XFAITH_METHOD, refuted, why, timings)


def _view_inner(s: EvalSetup, c: Candidate, formal: FormalResult, inner: str) -> FormalResult:
    """``formal`` on the SystemVerilog view path where the target makes x itself (``inner``,
    read from the synthesized views: its sources, registers with a reset and no initial
    value): the x-exact proof from power-up with the resets free on the procedural views
    (:mod:`rtlopt.evaluate._xview`; the synthesized views merge x where the text's ``if``
    takes ``else``). Proven, the candidate stands; refuted or undecided, unchecked ("differs
    before the first reset" where the procedural views' only x are registers with a
    reset)."""
    from rtlopt.evaluate._xview import procedural_proof

    t0 = time.monotonic()
    proof = procedural_proof(s, c)
    formal = replace(
        formal, timings={**formal.timings, "x_faith_procedural": time.monotonic() - t0}
    )
    if isinstance(proof, str):
        why = f"unchecked: the target makes x itself ({inner}), and {proof}"
        return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why)
    early = [f"{', '.join(proof.early[:3])} before the first reset"] if proof.early else []
    inner = ", ".join([*(proof.sources or ())[:3], *early]) or inner
    if proof.verdict is Verdict.PROVEN and not proof.sources and not proof.early:
        return formal  # nothing is x on the procedural views either
    if proof.verdict is Verdict.PROVEN:
        said = (
            f"proven x-exactly where the target makes x itself ({inner}) on the procedural "
            "SystemVerilog views"
            + (", also before the first reset" if proof.early else "")
            + time_zero_words(proof)
        )
        return replace(formal, reason="; ".join(r for r in (formal.reason, said) if r))
    cex = ", ".join(f"{k}={v}" for k, v in list(proof.counterexample.items())[:8])
    if proof.sources or not proof.early:
        why = f"unchecked: the target makes x itself ({inner}), and the x-exact proof on the "
        why += "procedural SystemVerilog views "
        if proof.verdict is Verdict.REFUTED:
            why += f"found a difference from power-up (counterexample: {cex})"
            why += held_note(proof)
        else:
            why += f"is undecided: {proof.reason}"
        return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why)
    what = _early_what(proof.early)
    if proof.verdict is Verdict.REFUTED and proof.held:
        why = (
            "unchecked: equivalent on 0/1 values, but the candidate differs at time 0, before "
            f"the first clock edge, {_held_words(proof)} (counterexample from power-up on the "
            f"procedural SystemVerilog views: {cex})"
        )
    elif proof.verdict is Verdict.REFUTED:
        why = (
            f"unchecked: equivalent on 0/1 values, but the candidate differs before the first "
            f"reset: {what} (counterexample from power-up, the reset free, on the procedural "
            f"SystemVerilog views: {cex})"
        )
    else:
        why = (
            f"unchecked: equivalent on 0/1 values, but before the first reset {what}, and the "
            "proof from power-up with the reset free on the procedural SystemVerilog views is "
            f"undecided: {proof.reason}"
        )
    return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why)


#: What registers with asynchronous pins are at time 0 (the unchecked wording).
_TIME_ZERO = (
    "registers with an asynchronous reset, set or load keep their power-up value from time 0 "
    "until their first clock edge where the reset is held without an event, and the proofs "
    "from reset read the reset value there"
)


def _early_what(early: tuple[str, ...]) -> str:
    """What the registers ``early`` are before the first reset (the unchecked wording)."""
    regs = ", ".join(early[:4]) + (", ..." if len(early) > 4 else "")
    return (
        f"registers with a reset and no initial value ({regs}) are x from power-up until "
        "their first write, and the proofs from reset do not compare that time"
    )


def _run(s: EvalSetup, c: Candidate, *, free_reset: bool = False, moot: bool = False) -> XFaith:
    """:func:`rtlopt.formal.xfaith.check_x_faith` on the texts the 0/1 proof read, within
    what is left of the verdict's time (``free_reset``: from power-up, the resets free;
    ``moot``: its verdict is not read where nothing is x)."""
    from rtlopt.evaluate._xview import run_x_proof

    work = c.dir / "formal" / ("xfaith_power_up" if free_reset else "xfaith")
    reference = s.formal_reference or view_reference(s, work)
    files = [*c.lib, c.file]
    x = c.x_inputs
    return run_x_proof(s, c, files, work, reference, x_inputs=x, free_reset=free_reset, moot=moot)


def _proofs(s: EvalSetup, c: Candidate, *, moot: bool = False) -> tuple[XFaith, XFaith | None]:
    """The x-faithfulness proof, and the one from power-up with the resets free where that
    did not prove the candidate (else None).

    A register with a reset and no initial value is x from power-up until its first write
    as much as one without a reset; the proof from reset (the resets forced in the first
    step) does not compare that time. The proof from power-up runs first: it covers every
    run from reset too, so where it proves, one run says it all (the common case); where
    it does not, the proof from reset tells a difference after the reset (refuted) from one
    before it (:func:`_before_reset`), but for one at time 0 with every reset active and
    held without an event (``XFaith.held``): a run from reset, refuted at once. ``moot``:
    the caller reads no verdict where nothing is x (:func:`with_inner_x`), so the proof
    from power-up runs no ``sat`` there."""
    free = _run(s, c, free_reset=True, moot=moot)
    if free.verdict is Verdict.PROVEN or not free.from_power_up:
        return free, None
    fed_resets = set(c.x_inputs) & set(s.design.target.resets) if c.x_inputs else set()
    if free.verdict is Verdict.REFUTED and fed_resets:
        # the repository feeds x into a reset: its trace need never reset (the proof from
        # reset refuses it), so a difference from power-up is one the repository shows
        return free, None
    if free.verdict is Verdict.REFUTED and free.held:
        # a difference at time 0 with every reset active (held without an event): a run
        # from reset, which the proof from reset reads as well
        return free, None
    return _run(s, c), free


def _also(found: XFaith) -> str:
    """The words ", also before the first reset" where ``found`` is the proof from power-up
    with the resets free and a register with a reset may be x then, and those saying that
    registers with asynchronous pins were read at time 0 with the reset held; else ""."""
    early = ", also before the first reset" if found.from_power_up and found.early else ""
    return early + time_zero_words(found)


def time_zero_words(found: XFaith) -> str:
    """ ", and at time 0 with ..." where ``found`` read registers with asynchronous pins at
    their power-up value with the reset held without an event (else "")."""
    if not found.time_zero:
        return ""
    return ", and at time 0 with an asynchronous reset held without an event"


def _before_reset(formal: FormalResult, found: XFaith, free: XFaith | None) -> FormalResult:
    """``formal`` (proven x-exactly from reset: ``found``) unless the proof from power-up
    with the resets free (``free``) did not prove it where a register with a reset and no
    initial value may be x: then "unchecked: differs before the first reset" (refuted from
    power-up; the repository sees it only where it reads the target before resetting it)
    or unchecked (undecided)."""
    early = found.early or (free.early if free else ())
    if free is None or free.verdict is Verdict.PROVEN or not (early or free.time_zero):
        return formal
    what = _early_what(early) if early else _TIME_ZERO
    if free.verdict is Verdict.REFUTED:
        cex = ", ".join(f"{k}={v}" for k, v in list(free.counterexample.items())[:8])
        why = (
            "unchecked: equivalent from reset, x included, but the candidate differs before "
            f"the first reset: {what} (counterexample from power-up, the reset free: {cex})"
        )
    else:
        why = (
            f"unchecked: equivalent from reset, x included, but before the first reset {what}, "
            f"and the proof from power-up with the reset free is undecided: {free.reason}"
        )
    timings = {**formal.timings, "x_faith_power_up": free.duration_s}
    return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why, timings=timings)


def view_reference(s: EvalSetup, work: Path) -> Path:
    """The SystemVerilog view path's renamed reference, written to a file: its x sources are
    read from it (the proof there is not trusted, :func:`_view_path`)."""
    from rtlopt.harness import reference_text

    work.mkdir(parents=True, exist_ok=True)
    out = work / "reference_view.v"
    out.write_text(reference_text(s.tools))
    return out


def x_faith_refutation(formal: FormalResult) -> str:
    """The rejection of a candidate the x-faithfulness proof refuted, or ""."""
    if formal.verdict is not Verdict.REFUTED or formal.method != XFAITH_METHOD:
        return ""
    cex = ", ".join(f"{k}={v}" for k, v in list(formal.counterexample.items())[:6])
    return f"formally not equivalent: {formal.reason} (counterexample: {cex})"
