"""Commit messages that carry the PPA numbers, the equivalence verdict and the run id."""

from __future__ import annotations

from typing import Protocol

from rtlopt.results import PPA, EvalResult

__all__ = ["RunResult", "commit_message", "commit_message_for", "percent_change"]

_METRIC_LABEL = {"adp": "ADP", "ppa": "PPA"}


def percent_change(before: float | None, after: float | None) -> str:
    """``-12.34%`` style relative change, ``n/a`` when it is undefined."""
    if before is None or after is None or before == 0:
        return "n/a"
    return f"{(after - before) / abs(before) * 100.0:+.2f}%"


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.6g}"


def commit_message(
    module_name: str,
    before: PPA,
    after: PPA,
    *,
    verdict: str,
    method: str,
    run_id: str,
    metric: str,
) -> str:
    """The commit message of an optimized module.

    Args:
        module_name: The module that was rewritten.
        before: PPA of the original module.
        after: PPA of the rewritten module (same flow).
        verdict: Equivalence verdict, e.g. ``proven`` or ``unknown``.
        method: How equivalence was established (formal method and simulation vectors).
        run_id: The run that produced the module.
        metric: Figure of merit: ``adp`` (area x delay) or ``ppa`` (area x delay x power).

    Returns:
        A subject line (at most 72 characters when the module name allows) and a body with a
        before/after table, the verdict and ``Rtlopt-*`` trailers.
    """
    kind = metric if metric in _METRIC_LABEL else "adp"
    if kind == "ppa" and (before.ppa_product is None or after.ppa_product is None):
        kind = "adp"
    label = _METRIC_LABEL[kind]
    m_before = before.ppa_product if kind == "ppa" else before.adp
    m_after = after.ppa_product if kind == "ppa" else after.adp
    subject = f"rtlopt: optimize {module_name} ({label} {percent_change(m_before, m_after)})"
    rows: list[tuple[str, float | None, float | None]] = [
        ("area (um^2)", before.area_um2, after.area_um2),
        ("delay (ps)", before.delay_ps, after.delay_ps),
        ("power (uW)", before.power_uw, after.power_uw),
        ("ADP (um^2*ps)", before.adp, after.adp),
    ]
    if before.ppa_product is not None or after.ppa_product is not None:
        rows.append(("PPA (um^2*ps*uW)", before.ppa_product, after.ppa_product))
    if before.cells or after.cells:
        rows.append(("cells", float(before.cells), float(after.cells)))
    width = max(len(r[0]) for r in rows) + 2
    table = [f"{'metric':<{width}}{'before':>14}{'after':>14}{'change':>10}"]
    for name, b, a in rows:
        table.append(f"{name:<{width}}{_num(b):>14}{_num(a):>14}{percent_change(b, a):>10}")
    body = [
        f"Rewrite of module {module_name} found by rtlopt (figure of merit: {label}).",
        "",
        *table,
        "",
        f"Equivalence: {verdict} ({method})" if method else f"Equivalence: {verdict}",
        "",
        f"Rtlopt-Run: {run_id}",
        f"Rtlopt-Metric: {label} {_num(m_before)} -> {_num(m_after)}",
        f"Rtlopt-Equivalence: {verdict}",
    ]
    return subject + "\n\n" + "\n".join(body) + "\n"


class RunResult(Protocol):
    """What a finished run gives the commit message (``rtlopt.run.RunOutcome`` is one)."""

    @property
    def reference(self) -> EvalResult: ...

    @property
    def best(self) -> EvalResult | None: ...

    @property
    def metric(self) -> str: ...


def commit_message_for(module_name: str, outcome: RunResult, run_id: str) -> str:
    """The commit message of a run's best rewrite of ``module_name`` (one run, or one module
    of a run over several): its PPA against the reference's and its equivalence verdict.

    Raises:
        ValueError: the run has no measured best rewrite.
    """
    best = outcome.best
    if best is None or best.ppa is None or outcome.reference.ppa is None:
        raise ValueError(f"{module_name}: the run has no measured rewrite to commit")
    f = best.formal
    return commit_message(
        module_name,
        outcome.reference.ppa,
        best.ppa,
        verdict=f.verdict.value if f else "not run",
        method=f.method if f else "simulation only",
        run_id=run_id,
        metric=outcome.metric,
    )
