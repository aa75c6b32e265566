"""Prompt templates of TTT-RTL appendix H: system prompt, root prompt, non-root prompt.

The reference is the user's module with its synthesis numbers; the specification is the text of
``--spec FILE`` or, absent that, the module's own header comments. Non-root prompts append the
parent's code, its EDA feedback and a numeric target ("lower than {M}").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.errors import UsageError
from rtlopt.evaluate.result import PPA, EvalResult, Stage, Status
from rtlopt.policy._types import Message, Prompt

SYSTEM_PROMPT = (
    "You are an expert Verilog RTL designer.\n"
    "When reasoning, use <think>...</think> tags.\n"
    "Output only Verilog code within ```verilog fences."
)

NO_SPEC = (
    "No written specification is available: the reference implementation above is the "
    "specification. Keep its module name, ports and cycle-level behaviour exactly."
)

_METRIC_NAMES = {"adp": "ADP", "ppa": "PPA-product"}
_METRIC_FORMULAS = {"adp": "Area \u00d7 Delay", "ppa": "Area \u00d7 Delay \u00d7 Power"}
_MODULE_NAME = re.compile(r"\bmodule\s+(?:automatic\s+|static\s+)?([A-Za-z_][A-Za-z0-9_$]*)")


@dataclass(frozen=True)
class ParentInfo:
    """The parent state of a non-root prompt.

    Attributes:
        code: The parent's Verilog.
        ppa: Its synthesis numbers, None when it did not reach synthesis.
        feedback: Feedback lines without the leading "- ", e.g. ``"Syntax: PASS"``,
            ``"Functional Test: FAIL (first mismatch: ...)"``; see :func:`feedback_lines`.
        prev_metric: The metric of the attempt the parent improved on (its own parent, or the
            reference for a child of the root), None when unknown.
    """

    code: str
    ppa: PPA | None
    feedback: tuple[str, ...] = field(default_factory=tuple)
    prev_metric: float | None = None


def metric_name(metric: str) -> str:
    """Display name of a metric kind: ``ADP`` or ``PPA-product``."""
    if metric not in _METRIC_NAMES:
        raise UsageError(f"unknown metric {metric!r}", hint="use adp or ppa")
    return _METRIC_NAMES[metric]


def fmt_number(x: float) -> str:
    """Format a metric for a prompt: 4-6 significant digits, thousands separators if large.

    >>> fmt_number(1552.7412), fmt_number(3402207.3), fmt_number(0.0123456)
    ('1552.74', '3,402,207', '0.0123456')
    """
    if x != x or x in (float("inf"), float("-inf")):
        return str(x)
    ax = abs(x)
    if ax >= 1e4:
        return f"{x:,.0f}"
    if ax >= 1:
        return f"{x:.2f}".rstrip("0").rstrip(".")
    if ax == 0:
        return "0"
    return f"{x:.6g}"


def _fields_and_metric(ppa: PPA, metric: str) -> tuple[str, str]:
    parts = [f"area={fmt_number(ppa.area_um2)}\u03bcm^2", f"delay={fmt_number(ppa.delay_ps)}ps"]
    if ppa.power_uw is not None:
        parts.append(f"power={fmt_number(ppa.power_uw)}\u03bcW")
    return ", ".join(parts), fmt_number(ppa.metric(metric))


def load_spec(spec_file: Path | str | None, header_comment: str = "") -> str:
    """The specification text: the file's content, else the module's header comments.

    Comment markers (``//``, ``/*``, ``*/``, leading ``*``) are stripped from the header
    comment. Returns :data:`NO_SPEC` when both are empty.

    Raises:
        UsageError: ``spec_file`` is given but cannot be read.
    """
    if spec_file is not None:
        p = Path(spec_file)
        try:
            text = p.read_text(errors="replace").strip()
        except OSError as exc:
            raise UsageError(f"cannot read specification file: {exc.strerror}", path=p,
                             hint="pass an existing text file to --spec") from exc
        if text:
            return text
    lines = []
    for raw in header_comment.splitlines():
        line = raw.strip()
        line = re.sub(r"^(//+|/\*+|\*+/|\*+)", "", line)
        line = re.sub(r"\*+/$", "", line).strip()
        lines.append(line)
    text = "\n".join(lines).strip()
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text or NO_SPEC


def feedback_lines(result: EvalResult, metric: str, *, errors: Sequence[str] = (),
                   max_errors: int = 3) -> tuple[str, ...]:
    """EDA feedback for a prompt from an evaluation result.

    Args:
        result: The parent's evaluation.
        metric: ``adp`` or ``ppa``.
        errors: The first compiler error lines, if the caller has them (shown up to
            ``max_errors``); otherwise ``result.reason`` is shown for a syntax failure.
        max_errors: How many error lines to show.
    """
    order = list(Stage)
    reached = order.index(result.stage)
    syntax_failed = result.status is Status.INVALID and result.stage in (
        Stage.SCREEN, Stage.COMPILE, Stage.INTERFACE)
    out: list[str] = []
    if syntax_failed:
        detail = "; ".join(e.strip() for e in list(errors)[:max_errors]) or result.reason
        n = f"{result.compile_errors} error(s)" if result.compile_errors else "rejected"
        out.append(f"Syntax: FAIL ({n}: {detail})" if detail else f"Syntax: FAIL ({n})")
        return tuple(out)
    out.append("Syntax: PASS")
    func_failed = result.status is Status.INVALID and result.stage in (
        Stage.SIMULATION, Stage.FORMAL, Stage.NETLIST)
    if func_failed:
        detail = result.reason
        mm = result.sim.first_mismatch if result.sim is not None else None
        if mm is not None:
            ins = ", ".join(f"{k}={v}" for k, v in list(mm.inputs.items())[:8])
            detail = f"first mismatch at {mm.time}: inputs {ins}; {mm.output} expected " \
                     f"{mm.expected}, got {mm.got}"
        out.append(f"Functional Test: FAIL ({detail})" if detail else "Functional Test: FAIL")
        return tuple(out)
    if reached >= order.index(Stage.SYNTHESIS) or result.status is Status.OK:
        out.append("Functional Test: PASS")
    if result.ppa is not None:
        fields, m = _fields_and_metric(result.ppa, metric)
        out.append(f"Synthesis: {fields}, {metric_name(metric)}={m}")
    elif result.status is not Status.OK and result.reason:
        out.append(f"Synthesis: FAIL ({result.reason})")
    return tuple(out)


def module_name_of(code: str) -> str | None:
    """The first module name declared in ``code``."""
    m = _MODULE_NAME.search(code)
    return m.group(1) if m else None


def build_prompt(ref_code: str, ref_ppa: PPA, spec: str, metric: str,
                 parent: ParentInfo | None = None) -> Prompt:
    """Build the chat prompt of appendix H.

    Args:
        ref_code: The reference module (the user's module) as source text.
        ref_ppa: The reference's synthesis numbers (area um^2, delay ps, power uW).
        spec: The specification text (see :func:`load_spec`).
        metric: ``adp`` (area x delay) or ``ppa`` (area x delay x power).
        parent: The parent state for a non-root prompt; None for the root prompt.

    Returns:
        ``(system, user)`` messages.

    Raises:
        UsageError: unknown metric.
        ValueError: ``metric = "ppa"`` but power was not measured (resolve ``auto`` first).
    """
    name = metric_name(metric)
    ref_fields, ref_m = _fields_and_metric(ref_ppa, metric)
    target = ref_m
    mod = module_name_of(ref_code)
    keep = (f"Keep the module name `{mod}` and its port list unchanged.\n" if mod else "")
    user = (
        "## Reference Implementation\n"
        "Below is a known working implementation that synthesizes to\n"
        f"{ref_fields} ({name}={ref_m}).\n"
        "Your task is to produce a functionally correct implementation\n"
        f"with lower {name} ({_METRIC_FORMULAS[metric]}).\n"
        f"```verilog\n{ref_code.strip()}\n```\n"
        "## Design Specification\n"
        f"{spec.strip()}\n"
    )
    if parent is not None:
        user += f"## Previous Attempt\n```verilog\n{parent.code.strip()}\n```\n"
        user += "## Feedback from Previous Attempt\n"
        user += "".join(f"- {line}\n" for line in parent.feedback)
        if parent.ppa is not None:
            target = fmt_number(parent.ppa.metric(metric))
            if parent.prev_metric is not None and parent.prev_metric > 0:
                cur = parent.ppa.metric(metric)
                rel = (parent.prev_metric - cur) / parent.prev_metric * 100.0
                verdict = f"improved by {rel:.1f}%" if rel >= 0 else f"worse by {-rel:.1f}%"
                user += (f"Previous {name}: {fmt_number(parent.prev_metric)} -> current: "
                         f"{target} ({verdict})\n")
        user += f"You are iteratively optimizing {name} (lower is better).\n"
        user += keep
        user += f"Produce a design with {name} lower than {target}.\n"
    else:
        user += keep
        user += f"Write a complete Verilog module with {name} lower than {target}.\n"
    user += "Output only Verilog code within ```verilog fences."
    system: Message = {"role": "system", "content": SYSTEM_PROMPT}
    return (system, {"role": "user", "content": user})
