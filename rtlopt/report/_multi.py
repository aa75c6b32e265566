"""The report and pull-request body of a run over several modules: a row per module, and the
top's area, delay and power with the improved modules in place beside the modules' own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rtlopt.profile import CLAIM, ContextResult
from rtlopt.results import PPA
from rtlopt.shown import md_code, md_text

__all__ = ["ModuleRow", "multi_pr_body", "multi_report"]


@dataclass(frozen=True)
class ModuleRow:
    """One module of a run over several modules.

    Attributes:
        module: The module.
        file: Its file, relative to the repository.
        status: ``improved``, ``no improvement``, ``paused``, ``skipped`` or ``failed``.
        metric: The figure of merit (``adp`` or ``ppa``).
        before: The reference's PPA (None when not measured).
        after: The best proven design's PPA (None when none beat the reference).
        verdict: The best design's equivalence verdict and method.
        commit: The commit that holds it.
        branch: The branch of that commit.
        run_dir: The module's run directory.
        reason: Why it was skipped or failed.
    """

    module: str
    file: str
    status: str
    metric: str = "adp"
    before: PPA | None = None
    after: PPA | None = None
    verdict: str = ""
    commit: str | None = None
    branch: str | None = None
    run_dir: str = ""
    reason: str = ""


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if abs(x) >= 1e4 else f"{x:.4g}"


def _pct(new: float | None, old: float | None) -> str:
    if new is None or old is None or old == 0:
        return "-"
    return f"{(new / old - 1) * 100:+.1f}%"


def _metric(p: PPA | None, kind: str) -> float | None:
    if p is None:
        return None
    try:
        return float(p.metric(kind))
    except ValueError:
        return None


def _module_table(rows: Sequence[ModuleRow]) -> list[str]:
    lines = [
        "| module | file | result | area (um^2) | delay (ps) | power (uW) | metric | "
        "equivalence | commit |",
        "|---|---|---|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        b, a = r.before, r.after or r.before
        cells = ["-", "-", "-", "-"]
        if b is not None and a is not None:
            cells = [
                f"{_num(b.area_um2)} -> {_num(a.area_um2)} ({_pct(a.area_um2, b.area_um2)})",
                f"{_num(b.delay_ps)} -> {_num(a.delay_ps)} ({_pct(a.delay_ps, b.delay_ps)})",
                f"{_num(b.power_uw)} -> {_num(a.power_uw)} ({_pct(a.power_uw, b.power_uw)})",
                f"{r.metric.upper()} {_pct(_metric(a, r.metric), _metric(b, r.metric))}",
            ]
        result = md_text(r.status + (f": {r.reason}" if r.reason else ""))
        commit = f"{md_code(r.commit[:10])}" if r.commit else "-"
        lines.append(
            f"| {md_code(r.module)} | {md_code(r.file)} | {result} | " + " | ".join(cells) + f" | "
            f"{md_text(r.verdict or '-')} | {commit} |"
        )
    return lines


def _ppa_cells(before: PPA, after: PPA) -> str:
    return " | ".join(
        f"{_num(old)} | {_num(new)} | {_pct(new, old)}"
        for old, new in (
            (before.area_um2, after.area_um2),
            (before.delay_ps, after.delay_ps),
            (before.power_uw, after.power_uw),
        )
    )


def context_section(ctx: ContextResult) -> list[str]:
    """The in-context table: each module alone, the top with it, the top with all."""
    lines = [
        f"## In context: {md_code(ctx.top)} (flattened) beside the modules alone",
        "",
        "| design | area before | area after | area | delay before | delay after | delay | "
        "power before | power after | power |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for m in ctx.modules:
        lines.append(
            f"| {md_code(m.module)} alone | " + _ppa_cells(m.alone_before, m.alone_after) + " |"
        )
        if m.top_after is not None:
            lines.append(
                f"| {md_code(ctx.top)} with {md_code(m.module)} | "
                + _ppa_cells(ctx.before, m.top_after)
                + " |"
            )
    names = ", ".join(f"{md_code(m.module)}" for m in ctx.modules)
    lines.append(f"| {md_code(ctx.top)} with {names} | " + _ppa_cells(ctx.before, ctx.after) + " |")
    lines += ["", *(f"- {s}." for s in ctx.sentences())]
    gone = ctx.vanished()
    if gone:
        lines += [
            "",
            f"**The gain of {', '.join(f'{md_code(g)}' for g in gone)} vanishes in context**: "
            f"synthesis of the flattened {md_code(ctx.top)} removes the same logic from the "
            "original "
            "(outputs the top leaves unconnected, inputs it ties to constants), so the rewrite "
            "saves nothing in the chip.",
        ]
    lines += ["", f"Equivalence: {CLAIM}"]
    return lines


def multi_report(
    rows: Sequence[ModuleRow],
    context: ContextResult | None,
    *,
    run_id: str,
    branches: Sequence[str] = (),
    context_error: str = "",
) -> str:
    """The markdown report of a run over several modules."""
    improved = [r for r in rows if r.status == "improved"]
    lines = [
        f"# rtlopt run {md_code(run_id)}: {len(rows)} modules, {len(improved)} improved",
        "",
        *_module_table(rows),
        "",
    ]
    if branches:
        lines += [f"Branch: {md_code(b)}" for b in branches] + [""]
    lines += [
        "Each module's run directory holds its own report (`report.md`), candidates and proofs:",
        "",
        *(f"- {md_code(r.module)}: {md_code(r.run_dir)}" for r in rows if r.run_dir),
        "",
    ]
    if context is not None:
        lines += context_section(context)
    else:
        if context_error:
            lines += [f"In context: not measured ({context_error}).", ""]
        lines.append(f"Equivalence: {CLAIM}")
    return "\n".join(lines) + "\n"


def multi_pr_body(rows: Sequence[ModuleRow], context: ContextResult | None, run_id: str) -> str:
    """The pull-request description of a run over several modules."""
    improved = [r for r in rows if r.status == "improved"]
    names = ", ".join(f"{md_code(r.module)}" for r in improved)
    lines = [
        f"## rtlopt: {len(improved)} module(s) rewritten ({names})",
        "",
        "Each rewritten module keeps its ports and cycle behaviour; one commit per module.",
        "",
        *_module_table(rows),
        "",
    ]
    if context is not None:
        lines += [*context_section(context), ""]
    else:
        lines += [f"- Equivalence: {CLAIM}"]
    lines.append(f"- Run: {md_code(run_id)}")
    return "\n".join(lines) + "\n"
