"""The second proof of a kept design, on the files the first proof read.

A kept design (the one ``optimize`` writes back, a module ``check`` passes) is staged as an
evaluation stages a candidate (the compile stage picks its library files and, for
SystemVerilog, its view), and the same design, files and options go to
:func:`rtlopt.formal.second.confirm_proof`. It runs once per kept design, never per candidate
of a search; ``rtlopt evaluate`` runs it on the one candidate it judges before it says
accepted, and :func:`with_second` records it in the result (a disagreement rejects, as the
keep points do).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rtlopt.config import RewardConfig
from rtlopt.evaluate._candidate import Candidate, Progress
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._stages import compile_stage, preprocess_stage
from rtlopt.formal.second import SecondProof, confirm_proof
from rtlopt.results import EvalResult, FormalResult, Stage, Status, Verdict

__all__ = ["confirm", "lasting", "needs_second", "with_second"]


def confirm(
    s: EvalSetup,
    text: str,
    d: Path,
    first: FormalResult,
    staged: list[Candidate] | None = None,
) -> SecondProof:
    """The second proof of ``text``, whose first proof is ``first``, in the folder ``d``;
    ``staged`` gets the staged candidate (its other configurations and builds, which the
    caller proves the same way)."""
    c = Candidate(text, d, d / "candidate.v", Progress())
    c.file.write_text(text)
    if staged is not None:
        staged.append(c)
    # the same text the first proof read: preprocessed as an evaluation does, beside the same
    # preprocessed reference (never a reference rebuilt from the repository's directives)
    rejected = preprocess_stage(s, c) or compile_stage(s, c)
    if rejected is not None:
        return SecondProof(False, "", f"unchecked: the design did not stage: {rejected.reason}", 0)
    cfg = s.config
    return confirm_proof(
        s.tools,
        [*c.lib, c.file],
        d / "second",
        cfg.formal,
        first,
        reference_file=s.formal_reference,
        initial_values=cfg.harness.initial_values,
    )


def needs_second(res: EvalResult) -> bool:
    """Whether ``res`` is accepted on the first proof with no second proof recorded."""
    formal = res.formal
    return (
        res.status is Status.OK
        and formal is not None
        and formal.verdict is Verdict.PROVEN
        and not formal.second
    )


def with_second(rw: RewardConfig, res: EvalResult, proof: SecondProof) -> EvalResult:
    """``res`` (accepted on its first proof) with the second proof recorded in its formal
    result and timings; rejected at the formal stage, its equivalence unknown, where the two
    proofs disagree (as ``check`` fails the module and ``optimize`` keeps nothing)."""
    assert res.formal is not None
    record = {
        "agrees": proof.agrees,
        "method": proof.method,
        "reason": proof.reason,
        "duration_s": round(proof.duration_s, 3),
    }
    timings = {**res.timings, "second_proof": proof.duration_s}
    duration = res.duration_s + proof.duration_s
    if proof.agrees:
        formal = dataclasses.replace(res.formal, second=record)
        return dataclasses.replace(res, formal=formal, timings=timings, duration_s=duration)
    why = f"the two proofs disagree: {proof.reason}"
    formal = dataclasses.replace(
        res.formal, verdict=Verdict.UNKNOWN, reason=why, unchecked=why, second=record
    )
    return dataclasses.replace(
        res,
        status=Status.INVALID,
        stage=Stage.FORMAL,
        reason=why,
        reward=rw.w_syn * 1.0,
        r_syn=1.0,
        r_func=0.0,
        r_ppa=0.0,
        ppa=None,
        netlist=None,
        metrics={},
        formal=formal,
        timings=timings,
        duration_s=duration,
    )


def lasting(proof: SecondProof) -> bool:
    """Whether the second proof's outcome holds for the same bytes under the same fingerprint
    (kept in the cache): not a tool missing here, nor a run that ended undecided (a time
    limit on a loaded machine)."""
    return proof.agrees or not (
        proof.reason.startswith("unchecked: the second proof needs")
        or "could not decide" in proof.reason
    )
