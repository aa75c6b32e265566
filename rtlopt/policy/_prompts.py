"""Prompt templates of TTT-RTL appendix H: system prompt, root prompt, non-root prompt.

The reference is the user's module with its synthesis numbers; the specification is the text of
``--spec FILE`` or, absent that, the module's own header comments. Non-root prompts append the
parent's code, its EDA feedback and a numeric target ("lower than {M}").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.errors import UsageError
from rtlopt.policy._types import Message, Prompt
from rtlopt.results import PPA, EvalResult, Stage, Status

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


# --------------------------------------------------------------------------- fitting a budget

OMITTED_CODE = "// ... {n} lines omitted to fit the prompt budget ..."
OMITTED_SPEC = "[... {n} lines of the specification omitted to fit the prompt budget ...]"
_SHARE_STEPS = 1024

_FENCE = re.compile(r"```verilog\n(.*?)\n```", re.S)
_SPEC_HEAD = "## Design Specification\n"
_PARENT_HEAD = "## Previous Attempt\n"
_ROOT_TAIL = re.compile(
    r"(?:Keep the module name `[^`\n]*` and its port list unchanged\.\n)?"
    r"Write a complete Verilog module with [^\n]*\n"
    r"Output only Verilog code within ```verilog fences\.\Z"
)
_HEADER_START = re.compile(r"\s*(?:macro)?module\b")
_INTERFACE_LINE = re.compile(r"\s*(?:input|output|inout|parameter|localparam|endmodule)\b")


def _interface_lines(lines: Sequence[str]) -> set[int]:
    """Indices of the lines that make a module's interface: the header up to its first ``;``,
    port and parameter declarations, and ``endmodule``."""
    keep: set[int] = set()
    in_header = False
    for i, line in enumerate(lines):
        if _HEADER_START.match(line):
            in_header = True
        if in_header:
            keep.add(i)
            if ";" in line.split("//", 1)[0]:
                in_header = False
        elif _INTERFACE_LINE.match(line):
            keep.add(i)
    return keep


def _shrink_lines(lines: Sequence[str], keep: set[int], kept_free: int, marker: str) -> str:
    """``lines`` with all of ``keep`` and the first/last ``kept_free`` other lines; each run of
    dropped lines becomes one marker line naming how many were dropped."""
    free = [i for i in range(len(lines)) if i not in keep]
    if kept_free >= len(free):
        return "\n".join(lines)
    head = (kept_free + 1) // 2
    tail = kept_free - head
    chosen = keep | set(free[:head]) | set(free[len(free) - tail:] if tail else [])
    out: list[str] = []
    dropped = 0
    for i, line in enumerate(lines):
        if i in chosen:
            if dropped:
                out.append(marker.format(n=dropped))
                dropped = 0
            out.append(line)
        else:
            dropped += 1
    if dropped:
        out.append(marker.format(n=dropped))
    return "\n".join(out)


@dataclass(frozen=True)
class _Shrinkable:
    """A span of the user message that may be shortened: [start, end) and how."""

    start: int
    end: int
    lines: tuple[str, ...]
    keep: frozenset[int]
    marker: str

    @property
    def free(self) -> int:
        return len(self.lines) - len(self.keep)

    def render(self, kept_free: int) -> str:
        return _shrink_lines(self.lines, set(self.keep), kept_free, self.marker)


def _code_span(m: re.Match[str]) -> _Shrinkable:
    lines = tuple(m.group(1).split("\n"))
    return _Shrinkable(m.start(1), m.end(1), lines, frozenset(_interface_lines(lines)),
                       OMITTED_CODE)


def _shrinkables(user: str) -> list[_Shrinkable]:
    """What may be cut: the specification, the reference's body, the parent's body.

    Prompts built by :func:`build_prompt` are recognised by their section headings; any other
    prompt only has its ```verilog blocks shortened (interfaces kept).
    """
    ref = user.find("```verilog\n")
    spec_at = user.find(_SPEC_HEAD)
    ref_m = _FENCE.match(user, ref) if ref >= 0 else None
    if ref_m is None or spec_at < ref_m.end():
        return [_code_span(m) for m in _FENCE.finditer(user)]
    spans: list[_Shrinkable] = []
    spec_start = spec_at + len(_SPEC_HEAD)
    parent_at = user.rfind(_PARENT_HEAD + "```verilog\n")
    parent_m = None
    if parent_at > spec_start:
        parent_m = _FENCE.match(user, parent_at + len(_PARENT_HEAD))
        spec_end = parent_at
    else:
        tail = _ROOT_TAIL.search(user, spec_start)
        spec_end = tail.start() if tail else -1
    if spec_end > spec_start:
        lines = tuple(user[spec_start:spec_end].rstrip("\n").split("\n"))
        spans.append(_Shrinkable(spec_start, spec_start + len("\n".join(lines)), lines,
                                 frozenset(), OMITTED_SPEC))
    spans.append(_code_span(ref_m))
    if parent_m is not None:
        spans.append(_code_span(parent_m))
    return spans


def fit_prompt(prompt: Prompt, count_tokens: Callable[[Prompt], int],
               limit: int) -> Prompt | None:
    """``prompt`` shortened until ``count_tokens`` says it fits in ``limit`` tokens.

    The system message, the instruction lines and the feedback are never touched; each module
    keeps its interface (header, port and parameter declarations, ``endmodule``). What may be
    cut: the specification (its last lines), the reference's body and the previous attempt's
    body (their middle lines). Every one of them keeps the same share of its lines (at least
    one line while the share is above zero), the largest share that fits, found by bisection;
    each cut is marked with a line naming how many lines were omitted.

    Returns:
        The prompt itself when it fits, a shortened copy, or None when even the interfaces
        and the instruction alone do not fit (the caller skips the rollouts and records an
        infrastructure error).
    """
    if count_tokens(prompt) <= limit:
        return prompt
    users = [i for i, m in enumerate(prompt) if m["role"] == "user"]
    if not users:
        return None
    ui = users[-1]
    user = prompt[ui]["content"]
    spans = sorted(_shrinkables(user), key=lambda sp: sp.start)

    def build(share: int) -> Prompt:
        out, pos = [], 0
        for sp in spans:
            out.append(user[pos:sp.start])
            out.append(sp.render(-(-sp.free * share // _SHARE_STEPS)))  # ceil
            pos = sp.end
        out.append(user[pos:])
        msg: Message = {"role": "user", "content": "".join(out)}
        return prompt[:ui] + (msg,) + prompt[ui + 1:]

    if count_tokens(build(0)) > limit:
        return None
    lo, hi = 0, _SHARE_STEPS  # build(lo) fits, build(hi) (the whole prompt) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if count_tokens(build(mid)) <= limit:
            lo = mid
        else:
            hi = mid
    return build(lo)
