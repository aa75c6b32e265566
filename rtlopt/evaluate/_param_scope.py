"""What a parameter check covered: every configuration with its verdict, and the scope.

The verdict of a parameterized target names its scope ("proven for the 2 configurations the
repository uses", "proven for the defaults and 4 probes"); ``rtlopt evaluate --json`` lists
every configuration checked (``EvalResult.configurations``) with its verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from rtlopt.results import EvalResult, FormalResult, Stage, Verdict

if TYPE_CHECKING:
    from rtlopt.formal.second import SecondProof
    from rtlopt.frontend._params import Parameterization

__all__ = [
    "NOT_FINISHED",
    "NOT_REACHED",
    "PENDING",
    "SKIPPED",
    "Evaluates",
    "ParamOutcome",
    "Scope",
    "not_finished",
    "probe_short",
    "reached",
    "verdict_of",
    "with_configurations",
    "with_defaults",
]

#: A configuration's verdict when its check did not finish (the time budget, a tool error).
NOT_FINISHED = "not finished"
#: The defaults' verdict while their formal check has not run yet (it runs beside synthesis).
PENDING = "pending"
#: A configuration the evaluation never checked: an earlier one (or another stage) rejected.
NOT_REACHED = "not reached"
#: A probe that turned out not legal: the reference under it fails against itself.
SKIPPED = "skipped"


class Evaluates(Protocol):
    """The evaluator of a specialized target (the Evaluator class)."""

    def evaluate(self, text: str) -> EvalResult: ...

    def confirm(self, text: str, result: EvalResult) -> SecondProof: ...

    def in_reference_order(self, text: str) -> str: ...

    def close(self) -> None: ...


def with_defaults(
    rows: tuple[Mapping[str, str], ...], formal: FormalResult | None
) -> tuple[Mapping[str, str], ...]:
    """``rows`` with the defaults' verdict filled in from their formal check, when it ran
    after the parameter check."""
    if not rows or rows[0].get("verdict") != PENDING or formal is None:
        return rows
    return ({**rows[0], "verdict": formal.verdict.value}, *rows[1:])


def probe_short(label: str, given: float, left: int, timeout_s: float, why: str) -> str:
    """Why a probe that did not finish in its share of the time budget (``given`` seconds,
    one of ``left`` equal shares) leaves the change unchecked: how much it got, how the
    budget is shared, what to raise."""
    got = (
        f"did not finish in the {given:.1f} s it got"
        if given >= 1.0
        else "did not start: no time of the budget was left for it"
    )
    return (
        f"unchecked for parameters: probe {label} {got} "
        f"({why}): the verdict's one time budget (formal.timeout_s = {timeout_s:g} s) is "
        "shared in order: the defaults' own proof, the repository's configurations and the "
        f"search for probes take their shares first, then each of the {left} "
        f"probe{'s' if left != 1 else ''} still to check gets an equal share of what is left; "
        "raise formal.timeout_s to give each more time"
    )


def reached(rows: tuple[Mapping[str, str], ...]) -> tuple[Mapping[str, str], ...]:
    """The rows of a rejected candidate: one still pending was never checked (the evaluation
    stopped before the defaults' formal check ran)."""
    return tuple({**r, "verdict": NOT_REACHED} if r.get("verdict") == PENDING else r for r in rows)


def with_configurations(
    scope: str,
    rows: tuple[Mapping[str, str], ...],
    more: list[dict[str, str]],
    formal: FormalResult | None,
) -> tuple[str, tuple[Mapping[str, str], ...]]:
    """The scope line and the rows with ``more`` (other configurations of the module's
    `ifdef, other builds of its submodules: ``kind`` ``configuration``) added: behind the
    parameter check's rows, or behind a row of this build when there are none."""
    if not more:
        return scope, rows
    if not rows:
        verdict = PENDING if formal is None else formal.verdict.value
        rows = ({"values": "this build", "kind": "defaults", "where": "", "verdict": verdict},)
    kept = [r["values"] for r in more if r["verdict"] in ("proven", "accepted")]
    n = len(kept)
    if kept:
        verb = "proven" if all(r["verdict"] == "proven" for r in more) else "checked"
        line = f"{verb} in {n} other configuration{'s' if n != 1 else ''} ({'; '.join(kept)})"
        scope = f"{scope}; {line}" if scope else f"{verb} for this build; {line}"
    return scope, (*rows, *more)


def verdict_of(res: EvalResult) -> str:
    """``proven``, ``accepted`` (not proven, ``formal.require_proof`` off), ``not finished``
    (a proof that did not finish, a tool crash or timeout, an unchecked result) or
    ``refuted`` (a difference)."""
    if res.accepted:
        return (
            "proven"
            if res.formal is not None and res.formal.verdict is Verdict.PROVEN
            else ("accepted")
        )
    if res.is_infrastructure_error or res.reason.startswith("unchecked"):
        return NOT_FINISHED  # no verdict (a configuration it could not build): no difference
    sim_ok = res.sim is None or res.sim.passed
    if sim_ok and res.formal is not None and res.formal.verdict is Verdict.UNKNOWN:
        return NOT_FINISHED
    return "refuted"


@dataclass
class Scope:
    """The configurations one candidate's verdict covers (collected as they are checked).

    Attributes:
        instantiated: Whether the repository instantiates the target (its configurations are
            the guarantee; probes are extra assurance).
        used: How many configurations the repository elaborates.
        rows: ``{"values", "kind", "where", "verdict", "reason"}`` per configuration, in the
            order checked (``kind``: ``defaults``, ``repository``, ``probe`` or ``free``: a
            parameter an input of the proof).
        notes: What the scope leaves out (a parameter no other value of which elaborates, a
            probe that did not finish).
    """

    instantiated: bool
    used: int
    rows: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Why the change is unchecked if no configuration refutes it ("" for none).
    pending: str = ""

    def add(self, values: str, kind: str, where: str, verdict: str, reason: str = "") -> None:
        self.rows.append(
            {"values": values, "kind": kind, "where": where, "verdict": verdict, "reason": reason}
        )

    def unreached(self, values: list[str], kind: str) -> None:
        """Rows for the configurations ``values`` the check stopped before."""
        for v in values:
            self.add(v, kind, "", NOT_REACHED)

    def text(self) -> str:
        """One line: what was proven, for which configurations, and what was left out."""
        left = (NOT_FINISHED, "refuted", PENDING, NOT_REACHED, SKIPPED)
        kept = [r for r in self.rows if r["verdict"] not in left]
        verb = "proven" if all(r["verdict"] == "proven" for r in kept) else "checked"
        probes = sum(1 for r in kept if r["kind"] == "probe")
        more = f" and {probes} probe{'s' if probes != 1 else ''}" if probes else ""
        freed = list(
            dict.fromkeys(r["values"].removesuffix(" free") for r in kept if r["kind"] == "free")
        )
        more += f", every value of {', '.join(freed)}" if freed else ""
        if self.instantiated:
            n = self.used
            what = f"{verb} for the {n} configuration{'s' if n != 1 else ''} the repository uses"
        else:
            what = f"{verb} for the defaults"
        return "; ".join([what + more, *self.notes])


@dataclass(frozen=True)
class ParamOutcome:
    """The parameter stage's answer: the rejection (stage, reason, the failing configuration's
    result) or None, the scope line and the configurations checked."""

    rejection: tuple[Stage, str, EvalResult | None] | None
    scope: str
    configurations: tuple[dict[str, str], ...]


def not_finished(
    pz: Parameterization,
    res: EvalResult | None,
    times: tuple[float, float],
    queue: list[Parameterization],
    i: int,
    first: dict[Parameterization, tuple[str, float]],
    scope: Scope,
) -> tuple[Stage, str, EvalResult | None] | None:
    """The rejection for probe ``queue[i]`` of an interface that did not finish (``times``:
    the seconds it was given, ``formal.timeout_s``), or None where it is tried again after
    the others (once, ``first`` keeping why), with the time they leave over: an equal share
    ahead of the quick ones is a probe's smallest. Where no time is left, the first
    unfinished probe is why."""
    given, timeout = times
    why = res.reason if res is not None else "the time budget was spent"
    rest = [p.label() for p in queue[i + 1 :]]
    if res is not None and res.is_infrastructure_error:
        # a tool crash or timeout is no verdict on the candidate
        scope.unreached(rest, "probe")
        return (res.stage, f"under parameters {pz.label()}: {why}", res)
    row = next(r for r in reversed(scope.rows) if r["values"] == pz.label())
    if res is not None and pz not in first:
        first[pz] = (why, given)
        queue.append(pz)
        scope.rows.remove(row)
        return None
    if res is None and first:
        pz, (why, given) = next(iter(first.items()))
        row.update(values=pz.label(), where=", ".join(pz.where[:3]), reason=why)
        rest = [p.label() for p in queue[i:] if p != pz]
    scope.unreached(rest, "probe")
    return (Stage.FORMAL, probe_short(pz.label(), given, len(queue) - i, timeout, why), None)
