"""The figure of merit of a judged module before and after a change: a relative change, or a
note saying why there is none (a figure that is not credible, a failed or infinite
measurement is never turned into a percentage)."""

from __future__ import annotations

import math
from typing import Any, Protocol

from rtlopt.results import PPA, ppa_problem

__all__ = ["compare_ppa", "percent_text", "ratio"]


class _Judged(Protocol):
    before: PPA | None
    after: PPA | None
    metric_change: float | None
    findings: list[str]
    notes: list[str]


def ratio(old: Any, new: Any) -> float | None:
    """The relative change new/old - 1, or None when either figure is missing, zero or not
    finite (a failed measurement is never a percentage)."""
    try:
        old_f, new_f = float(old), float(new)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(old_f) and math.isfinite(new_f)) or old_f <= 0 or new_f < 0:
        return None
    return new_f / old_f - 1


def percent_text(change: float | None) -> str:
    """A relative change as a percentage; "-" when there is none or it is not finite."""
    if change is None or not math.isfinite(change):
        return "-"
    return f"{change * 100:+.1f}%"


def compare_ppa(mc: _Judged, before: PPA, after: PPA, kind: str, threshold: float) -> None:
    """The figure of merit before and after; a figure that is not credible or no finite
    measurement is said, never turned into a percentage."""
    mc.before, mc.after = before, after
    mc.metric_change = _metric_change(mc, before, after, kind)
    if mc.metric_change is not None and mc.metric_change > threshold:
        mc.findings.append(
            f"{kind.upper()} worse by {mc.metric_change * 100:.1f}% "
            f"(threshold {threshold * 100:.1f}%)"
        )


def _metric_change(mc: _Judged, before: PPA, after: PPA, kind: str) -> float | None:
    """The relative change of the figure of merit, or None (with a note saying why) when a
    figure is not credible or the change is not a finite number: never a percentage then."""
    for side, ppa in (("reference", before), ("change", after)):
        problem = ppa_problem(ppa)
        if problem:
            mc.notes.append(f"PPA of the {side} not credible ({problem}): not compared")
            return None
    try:
        old, new = before.metric(kind), after.metric(kind)
    except ValueError as exc:
        mc.notes.append(f"PPA not compared: {exc}")
        return None
    change = ratio(old, new)
    if change is None:
        mc.notes.append(
            f"PPA change not finite ({kind} {old!r} before, {new!r} after): not compared"
        )
    return change
