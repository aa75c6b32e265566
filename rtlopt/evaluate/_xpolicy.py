"""The formal stage's X-policy proof (:mod:`rtlopt.formal.xpolicy`): where the candidate
divides by a value that may be 0, or adds a register that no input makes defined before the
first reset (``formal/xpolicy_regs.py``), a 0/1 proof's "proven" is not enough (division is
read as synthesis builds it; every proof starts from reset). :func:`with_x_policy` runs the
proof after the 0/1 proof (and the x-faithfulness proof) proved the candidate: proven,
nothing changes; refuted, the candidate is REFUTED with the counterexample (a division), or
unchecked with it ("differs before the first reset": the repository sees that difference only
where it reads the target before its first reset); undecided, it is unchecked.
"""

from __future__ import annotations

import time
from dataclasses import replace

from rtlopt.evaluate._candidate import Candidate
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._xfaith import IDENTICAL, decided, view_reference
from rtlopt.formal.budget import time_left
from rtlopt.results import FormalResult, Verdict

__all__ = ["XPOLICY_METHOD", "with_x_policy", "x_policy_refutation"]

#: The method of a REFUTED result from the X-policy proof.
XPOLICY_METHOD = "X-policy proof"


def with_x_policy(s: EvalSetup, c: Candidate, formal: FormalResult) -> FormalResult:
    """``formal`` with the X-policy proof where a trigger applies; ``formal`` itself where
    none does, or where ``formal`` does not prove the candidate."""
    if formal.verdict is not Verdict.PROVEN or formal.structure or formal.unchecked:
        return formal
    if formal.method == IDENTICAL:
        return formal  # the reference's own bytes are x where the reference is
    from rtlopt.formal.xpolicy import check_x_policy

    work = c.dir / "formal" / "xpolicy"
    # the SystemVerilog view path: the views' renamed reference
    reference = s.formal_reference or view_reference(s, work)
    cfg = s.config
    left = time_left()
    seconds = cfg.formal.timeout_s if left is None else max(1.0, min(cfg.formal.timeout_s, left))
    t0 = time.monotonic()
    found, proof = check_x_policy(
        s.tools,
        [*c.lib, c.file],
        work,
        cfg.formal,
        reference_file=reference,
        seconds=seconds,
        memory_mb=cfg.sandbox.memory_mb,
        initial_values=cfg.harness.initial_values,
    )
    if proof is None:
        return formal
    timings = {**formal.timings, "x_policy": time.monotonic() - t0}
    what = _what(found.divisions, found.reset_only, found.reason)
    if proof.verdict is Verdict.PROVEN:
        said = f"proven, also {what}"
        reason = "; ".join(r for r in (formal.reason, said) if r)
        return replace(formal, reason=reason, timings=timings)
    if proof.verdict is Verdict.REFUTED and found.reset_only:
        # a difference from power-up with the resets free: what the repository sees only
        # where it reads the target before its first reset (its replay, which resets first,
        # does not show it), so unchecked rather than refuted
        cex = ", ".join(f"{k}={v}" for k, v in list(proof.counterexample.items())[:8])
        why = (
            "unchecked: equivalent on 0/1 from reset, but the candidate differs before the "
            f"first reset: it is x (or differs) where the reference is defined, {what} "
            f"(counterexample from power-up, no reset yet: {cex})"
        )
        return replace(formal, verdict=Verdict.UNKNOWN, unchecked=why, timings=timings)
    refuted = (
        "equivalent on 0/1 as the proofs read it, but the candidate is x (or differs) "
        f"where the reference is defined, {what}"
    )
    why = f"unchecked: the proof that the candidate is defined where the reference is, {what}, "
    why += f"is undecided: {proof.reason}"
    return decided(formal, proof, XPOLICY_METHOD, refuted, why, timings)


def _what(divisions: tuple[str, ...], reset_only: tuple[str, ...], reason: str) -> str:
    """The triggers in words."""
    parts = []
    if divisions:
        parts.append(
            "where the candidate divides by a value that may be 0 (x in simulation, all "
            f"ones in synthesis: {', '.join(divisions[:3])})"
        )
    if reset_only:
        parts.append(
            "before the first reset (the candidate's register bits "
            f"{', '.join(reset_only[:4])} never become defined before it: with no reset active "
            "no input makes them defined, and an output the reference's cone of such "
            "registers does not reach reads them)"
        )
    if reason and not parts:
        parts.append(f"before the first reset and where a division by 0 is x ({reason})")
    return " and ".join(parts)


def x_policy_refutation(formal: FormalResult) -> str:
    """The rejection of a candidate the X-policy proof refuted, or ""."""
    if formal.verdict is not Verdict.REFUTED or formal.method != XPOLICY_METHOD:
        return ""
    cex = ", ".join(f"{k}={v}" for k, v in list(formal.counterexample.items())[:6])
    return f"formally not equivalent: {formal.reason} (counterexample: {cex})"
