"""The table `rtlopt evaluate` prints: the reference and the candidate side by side, the
verdict and its reasons (shared by the full command and its cached answer, ``_fast``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rtlopt.cli._common import console, escape, flow_label, fmt, ratio, shown
from rtlopt.results import PPA, EvalResult

__all__ = ["print_table"]


#: A configuration's verdict when the check stopped before it (``evaluate/_param_scope.py``);
#: the table names the first few of them, the JSON report every one.
_NOT_REACHED = "not reached"
_SHOWN_UNREACHED = 2


def _print_parameters(res: EvalResult) -> None:
    """The scope of a parameterized verdict (or one of other configurations and builds)
    and every configuration checked."""
    if res.configurations:
        parts, unreached = [], 0
        for c in res.configurations:
            late = c["verdict"] == _NOT_REACHED and c.get("kind") != "defaults"
            unreached += late
            if not late or unreached <= _SHOWN_UNREACHED:
                parts.append(f"{c['values']}: {c['verdict']}")
        if unreached > _SHOWN_UNREACHED:
            parts.append(f"{unreached - _SHOWN_UNREACHED} more: {_NOT_REACHED}")
        checked = "; ".join(parts)
        other = any(c.get("kind") == "configuration" for c in res.configurations)
        what = "configurations" if other else "parameters"
        console.print(escape(f"{what}: {res.scope or 'rejected'} ({checked})"))


#: The stages an evaluation times (``EvalResult.timings``), checks before and after.
_STAGES = frozenset(
    "screen preprocess compile interface simulation formal parameters configurations "
    "synthesis netlist timing".split()
)


def _not_run(res: EvalResult) -> str:
    """What a check without a result says: why it did not run."""
    if res.accepted:
        return "not run"
    ran = [k for k in res.timings if k in _STAGES]
    if ran and ran[-1] in ("parameters", "configurations"):
        # they run before the defaults' formal check (which runs beside synthesis) and end
        # the evaluation when they reject
        return f"not run (the {ran[-1]} check stopped the evaluation first)"
    return f"not run (the evaluation stopped at the {res.stage.value} stage)"


def print_table(name: str, ref: EvalResult, res: EvalResult, kind: str, wd: Path | None) -> None:
    # rich's tables and the report layer only when a table is printed (not with --json)
    from rich.table import Table

    t = Table(title=f"{shown(name)}: reference vs candidate", title_justify="left")
    t.add_column("")
    t.add_column("reference", justify="right")
    t.add_column("candidate", justify="right")
    t.add_column("ratio", justify="right")
    rp, cp = ref.ppa, res.ppa
    rows: list[tuple[str, Callable[[PPA], float | None]]] = [
        ("area (um^2)", lambda p: p.area_um2),
        ("delay (ps)", lambda p: p.delay_ps),
        ("power (uW)", lambda p: p.power_uw),
    ]
    if any(p is not None and p.power_activity_uw is not None for p in (rp, cp)):
        rows += [
            ("power (vectorless)", lambda p: p.power_vectorless_uw),
            ("power (activity)", lambda p: p.power_activity_uw),
        ]
    rows += [
        ("ADP (um^2*ps)", lambda p: p.adp),
        ("PPA product", lambda p: p.ppa_product),
    ]
    for label, get in rows:
        a = get(rp) if rp else None
        b = get(cp) if cp else None
        t.add_row(label, fmt(a), fmt(b), ratio(b, a))
    t.add_row("reward", fmt(ref.reward), fmt(res.reward), "")
    console.print(t)
    unrun = _not_run(res)
    verdict = res.formal.verdict.value if res.formal else unrun
    method = f" ({res.formal.method})" if res.formal and res.formal.method else ""
    vectors = f"{res.sim.vectors} vectors, {res.sim.mismatches} mismatches" if res.sim else unrun
    if res.sim is not None and not res.sim.compared:
        vectors = "no verdict (no vector compared)"
    console.print(escape(f"simulation: {vectors}"))
    console.print(
        escape(
            f"formal: {verdict}{method}"
            + (f" - {res.formal.reason}" if res.formal and res.formal.reason else "")
        )
    )
    second = res.formal.second if res.formal else {}
    if second:
        took = f"{float(second.get('duration_s', 0.0)):.1f} s"
        said = (
            f"proven ({second.get('method')}, {took})"
            if second.get("agrees")
            else f"not proven ({took}) - {second.get('reason', '')}"
        )
        console.print(escape(f"second proof: {said}"))
    _print_parameters(res)
    if res.scope and not res.configurations:
        console.print(escape(f"note: {res.scope}"))
    if res.netlist is not None:
        nl = res.netlist
        console.print(
            f"netlist check: {'pass' if nl.passed else 'FAIL'} ({nl.vectors} vectors, "
            f"{nl.mismatches} mismatches)"
        )
    console.print(f"metric: {kind}; flow: {escape(flow_label(ref))}")
    _print_verdict(res, rp, cp, kind)
    if wd is not None:
        console.print(f"[dim]scratch: {escape(str(wd))}[/]")


def _print_verdict(res: EvalResult, rp: PPA | None, cp: PPA | None, kind: str) -> None:
    """The verdict line (accepted, could not check, rejected) and a rejection's failing input."""
    if res.accepted:
        worse = bool(cp and rp and cp.metric(kind) > rp.metric(kind) * (1 + 1e-9))
        console.print(
            "[bold green]ACCEPTED[/]: equivalent to the reference"
            + (", but worse" if worse else "")
            + (
                f"; {kind.upper()} ratio {ratio(cp.metric(kind), rp.metric(kind))}"
                if cp and rp
                else ""
            )
        )
    elif res.is_infrastructure_error:
        console.print(
            f"[bold yellow]COULD NOT CHECK[/] ({res.status.value} at {res.stage.value}): "
            + escape(res.reason)
        )
    else:
        console.print(
            f"[bold red]REJECTED[/] ({res.status.value} at {res.stage.value}): "
            + escape(res.reason)
        )
        if res.logs.get("trace") and Path(res.logs["trace"]).is_file():
            from rtlopt.cli._trace_table import print_trace

            print_trace(console, res.logs["trace"])
        else:
            from rtlopt.report import counterexample_lines

            for line in counterexample_lines(res):
                console.print("  " + escape(line), soft_wrap=True)
