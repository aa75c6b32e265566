"""Prompt templates of TTT-RTL appendix H: system prompt, root prompt, non-root prompt.

The reference is the user's module with its synthesis numbers; the specification is the text of
``--spec FILE`` or, absent that, the module's own header comments. Non-root prompts append the
parent's code, its EDA feedback and a numeric target ("lower than {M}").

Additions beyond appendix H, each only present when it has content: the reference's critical
path and area split ("Reference Analysis"), lessons of the reflection playbook, the idea an IGR
chain implements, and the *edit* answer format for long modules: the reference section shows
only the interface, the code to edit is shown with the interface plus the region that matters
(:func:`focus_view`), and the model answers with SEARCH/REPLACE blocks (``rtlopt.policy._edits``).
:func:`idea_prompt` / :func:`parse_ideas` ask for IGR's ideas.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.errors import UsageError
from rtlopt.policy._fitting import fit_prompt as fit_prompt
from rtlopt.policy._types import Message, Prompt
from rtlopt.policy._views import estimate_tokens as estimate_tokens
from rtlopt.policy._views import fit_view as fit_view
from rtlopt.policy._views import focus_view as focus_view
from rtlopt.policy._views import free_lines as free_lines
from rtlopt.policy._views import interface_view as interface_view
from rtlopt.policy._views import relevant_lines as relevant_lines
from rtlopt.results import PPA, EvalResult, PpaDetails, Stage, Status

SYSTEM_PROMPT = (
    "You are an expert Verilog RTL designer.\n"
    "When reasoning, use <think>...</think> tags.\n"
    "Output only Verilog code within ```verilog fences."
)

SYSTEM_PROMPT_EDIT = (
    "You are an expert Verilog RTL designer.\n"
    "When reasoning, use <think>...</think> tags.\n"
    "Answer with SEARCH/REPLACE blocks that edit the code shown, as instructed."
)

EDIT_INSTRUCTIONS = (
    "Answer with SEARCH/REPLACE blocks that edit the code above; do not repeat the whole "
    "module. Each block is:\n"
    "<<<<<<< SEARCH\n"
    "(lines copied exactly from the code above, enough of them to be unique)\n"
    "=======\n"
    "(the lines that replace them)\n"
    ">>>>>>> REPLACE\n"
    "Every SEARCH is matched against the code above, not against the result of other blocks; "
    "blocks must not overlap. Lines replaced by a `// ... lines omitted` marker are not shown "
    "and cannot be searched.\n"
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
            raise UsageError(
                f"cannot read specification file: {exc.strerror}",
                path=p,
                hint="pass an existing text file to --spec",
            ) from exc
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


def _share(part: float, total: float) -> str:
    return f"{100.0 * part / total:.0f}%" if total > 0 else "-"


def details_lines(
    details: PpaDetails | None, total_area: float, *, rows: int = 6
) -> tuple[str, ...]:
    """What a designer looks at after synthesis: the critical path (start, end, cells) and
    where the area goes (by cell type, by submodule instance). Empty without details."""
    if details is None:
        return ()
    out: list[str] = []
    cp = details.critical_path
    if cp is not None:
        cells = " -> ".join(cp.cells[:24]) + (" -> ..." if len(cp.cells) > 24 else "")
        line = (
            f"Critical path: {cp.startpoint} -> {cp.endpoint}, "
            f"{fmt_number(cp.delay_ps)}ps through {len(cp.cells)} cells"
        )
        out.append(line + (f" ({cells})" if cells else ""))
        named = [s_ for s_ in cp.signals if s_ not in (cp.startpoint, cp.endpoint)]
        if named:
            out.append("Signals on the critical path: " + ", ".join(named[:12]))
    if details.area_by_cell:
        parts = [
            f"{a.name} x{a.count} {_share(a.area_um2, total_area)}"
            for a in details.area_by_cell[:rows]
        ]
        out.append("Area by cell type: " + ", ".join(parts))
    if len(details.area_by_instance) > 1:
        parts = [
            f"{a.name} {_share(a.area_um2, total_area)}" for a in details.area_by_instance[:rows]
        ]
        out.append("Area by submodule: " + ", ".join(parts))
    return tuple(out)


def _formal_counterexample(cex: Mapping[str, str], limit: int = 10) -> str:
    """``cycle 3: inputs a@0=01, ...; y expected 1, got 0`` from a formal counterexample."""
    ins = [
        f"{k}={v}"
        for k, v in cex.items()
        if k != "cycle" and not k.startswith(("expected ", "got "))
    ]
    outs = [
        f"{k[9:]} expected {v}, got {cex.get('got ' + k[9:], '?')}"
        for k, v in cex.items()
        if k.startswith("expected ")
    ]
    head = f"cycle {cex['cycle']}: " if "cycle" in cex else ""
    more = f" (+{len(ins) - limit} more)" if len(ins) > limit else ""
    return f"{head}inputs {', '.join(ins[:limit])}{more}; {'; '.join(outs[:4]) or 'outputs differ'}"


def feedback_lines(
    result: EvalResult, metric: str, *, errors: Sequence[str] = (), max_errors: int = 3
) -> tuple[str, ...]:
    """EDA feedback for a prompt from an evaluation result.

    A failure shows the first error, or the counterexample (inputs, expected and actual
    outputs, the cycle or vector); a design that reached synthesis shows its numbers, the
    critical path and where its area goes.

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
        Stage.SCREEN,
        Stage.COMPILE,
        Stage.INTERFACE,
    )
    out: list[str] = []
    if syntax_failed:
        detail = "; ".join(e.strip() for e in list(errors)[:max_errors]) or result.reason
        n = f"{result.compile_errors} error(s)" if result.compile_errors else "rejected"
        out.append(f"Syntax: FAIL ({n}: {detail})" if detail else f"Syntax: FAIL ({n})")
        return tuple(out)
    out.append("Syntax: PASS")
    func_failed = result.status is Status.INVALID and result.stage in (
        Stage.SIMULATION,
        Stage.FORMAL,
        Stage.NETLIST,
    )
    if func_failed:
        detail = result.reason
        # a netlist-check failure: the RTL simulation passed, its netlist's did not
        sim = result.netlist if result.stage is Stage.NETLIST else result.sim
        mm = sim.first_mismatch if sim is not None else None
        if mm is not None:
            ins = ", ".join(f"{k}={v}" for k, v in list(mm.inputs.items())[:8])
            detail = (
                f"first mismatch at {mm.time}: inputs {ins}; {mm.output} expected "
                f"{mm.expected}, got {mm.got}"
            )
        out.append(f"Functional Test: FAIL ({detail})" if detail else "Functional Test: FAIL")
        cex = result.formal.counterexample if result.formal is not None else None
        if mm is None and cex:
            out.append(f"Counterexample (formal): {_formal_counterexample(cex)}")
        return tuple(out)
    if reached >= order.index(Stage.SYNTHESIS) or result.status is Status.OK:
        out.append("Functional Test: PASS")
    if result.ppa is not None:
        fields, m = _fields_and_metric(result.ppa, metric)
        out.append(f"Synthesis: {fields}, {metric_name(metric)}={m}")
        out.extend(details_lines(result.ppa.details, result.ppa.area_um2))
    elif result.status is not Status.OK and result.reason:
        out.append(f"Synthesis: FAIL ({result.reason})")
    return tuple(out)


def module_name_of(code: str) -> str | None:
    """The first module name declared in ``code``."""
    m = _MODULE_NAME.search(code)
    return m.group(1) if m else None


def build_prompt(
    ref_code: str,
    ref_ppa: PPA,
    spec: str,
    metric: str,
    parent: ParentInfo | None = None,
    *,
    answer: str = "whole",
    code_view: str | None = None,
    lessons: Sequence[str] = (),
    idea: str | None = None,
) -> Prompt:
    """Build the chat prompt of appendix H (plus the sections named in the module docstring).

    Args:
        ref_code: The reference module (the user's module) as source text.
        ref_ppa: The reference's synthesis numbers (area um^2, delay ps, power uW); its
            details, when measured, become the "Reference Analysis" section.
        spec: The specification text (see :func:`load_spec`).
        metric: ``adp`` (area x delay) or ``ppa`` (area x delay x power).
        parent: The parent state for a non-root prompt; None for the root prompt.
        answer: ``whole`` (a complete module) or ``edit`` (SEARCH/REPLACE blocks against the
            code shown: the parent's, or the reference's for a root prompt).
        code_view: With ``edit``: the code to edit as shown (e.g. :func:`focus_view`);
            default the whole code.
        lessons: Lessons of the reflection playbook, one line each.
        idea: The optimization idea to implement (IGR).

    Returns:
        ``(system, user)`` messages.

    Raises:
        UsageError: unknown metric.
        ValueError: ``metric = "ppa"`` but power was not measured (resolve ``auto`` first),
            or an unknown ``answer``.
    """
    if answer not in ("whole", "edit"):
        raise ValueError(f"unknown answer format {answer!r}")
    edit = answer == "edit"
    name = metric_name(metric)
    ref_fields, ref_m = _fields_and_metric(ref_ppa, metric)
    target = ref_m
    mod = module_name_of(ref_code)
    keep = f"Keep the module name `{mod}` and its port list unchanged.\n" if mod else ""
    shown_ref = interface_view(ref_code) if edit else ref_code.strip()
    user = (
        "## Reference Implementation\n"
        "Below is a known working implementation that synthesizes to\n"
        f"{ref_fields} ({name}={ref_m}).\n"
        "Your task is to produce a functionally correct implementation\n"
        f"with lower {name} ({_METRIC_FORMULAS[metric]}).\n"
        + ("Its interface (the code to edit is below):\n" if edit else "")
        + f"```verilog\n{shown_ref}\n```\n"
        "## Design Specification\n"
        f"{spec.strip()}\n"
    )
    analysis = details_lines(ref_ppa.details, ref_ppa.area_um2)
    if analysis:
        user += "## Reference Analysis\n" + "".join(f"- {line}\n" for line in analysis)
    extra = _extra_sections(lessons, idea)
    tail = "Output only Verilog code within ```verilog fences."
    if parent is not None:
        attempt, target = _previous_attempt(parent, code_view, metric, target)
        user += attempt
        user += extra
        user += f"You are iteratively optimizing {name} (lower is better).\n"
        if edit:
            user += EDIT_INSTRUCTIONS
        user += keep
        user += f"Produce a design with {name} lower than {target}.\n"
    elif edit:
        shown = (code_view if code_view is not None else ref_code).strip()
        user += f"## Code to Edit\n```verilog\n{shown}\n```\n"
        user += extra
        user += EDIT_INSTRUCTIONS + keep
        user += f"Produce a design with {name} lower than {target}.\n"
    else:
        user += extra
        user += keep
        user += f"Write a complete Verilog module with {name} lower than {target}.\n"
    user += "Output only SEARCH/REPLACE blocks." if edit else tail
    system: Message = {"role": "system", "content": SYSTEM_PROMPT_EDIT if edit else SYSTEM_PROMPT}
    return (system, {"role": "user", "content": user})


def _extra_sections(lessons: Sequence[str], idea: str | None) -> str:
    """The reflection playbook's lessons and the IGR idea, when there are any."""
    extra = ""
    if lessons:
        extra += "## Lessons from Earlier Attempts\n" + "".join(
            f"- {line.strip()}\n" for line in lessons
        )
    if idea:
        extra += f"## Idea to Implement\n{idea.strip()}\n"
    return extra


def _previous_attempt(
    parent: ParentInfo, code_view: str | None, metric: str, target: str
) -> tuple[str, str]:
    """The parent's code, its feedback and its change of the figure of merit; and the value a
    child must beat (the parent's, when measured, else ``target``)."""
    name = metric_name(metric)
    shown = (code_view if code_view is not None else parent.code).strip()
    text = f"## Previous Attempt\n```verilog\n{shown}\n```\n"
    text += "## Feedback from Previous Attempt\n"
    text += "".join(f"- {line}\n" for line in parent.feedback)
    if parent.ppa is not None:
        target = fmt_number(parent.ppa.metric(metric))
        if parent.prev_metric is not None and parent.prev_metric > 0:
            cur = parent.ppa.metric(metric)
            rel = (parent.prev_metric - cur) / parent.prev_metric * 100.0
            verdict = f"improved by {rel:.1f}%" if rel >= 0 else f"worse by {-rel:.1f}%"
            text += (
                f"Previous {name}: {fmt_number(parent.prev_metric)} -> current: "
                f"{target} ({verdict})\n"
            )
    return text, target


def answer_format(code: str, setting: str, min_lines: int) -> str:
    """``whole`` or ``edit`` for a module of source ``code``: the setting, or with ``auto``
    edit when the module has more than ``min_lines`` lines."""
    if setting != "auto":
        return setting
    return "edit" if code.count("\n") + 1 > min_lines else "whole"


# --------------------------------------------------------------------------- IGR ideas

_IDEA_LINE = re.compile(r"^\s*(?:IDEA\s*\d*\s*[:.)-]|\d+\s*[.):-]|[-*\u2022])\s*(.+?)\s*$", re.I)


def idea_prompt(
    ref_code: str,
    ref_ppa: PPA,
    spec: str,
    metric: str,
    existing: Sequence[str],
    want: int,
    notes: str = "",
) -> Prompt:
    """Ask for ``want`` optimization ideas unlike ``existing`` (EvolVE's IGR, phase 1).

    Args:
        ref_code: The module as shown (e.g. its :func:`interface_view` when long).
        ref_ppa: Its synthesis numbers (and details).
        spec: The specification.
        metric: ``adp`` or ``ppa``.
        existing: Ideas already collected (the model must not repeat them).
        want: How many new ideas.
        notes: Text of the user's notes file (papers, guides), if any.
    """
    name = metric_name(metric)
    ref_fields, ref_m = _fields_and_metric(ref_ppa, metric)
    user = (
        "## Module\n"
        f"This module synthesizes to {ref_fields} ({name}={ref_m}).\n"
        f"```verilog\n{ref_code.strip()}\n```\n"
        f"## Design Specification\n{spec.strip()}\n"
    )
    analysis = details_lines(ref_ppa.details, ref_ppa.area_um2)
    if analysis:
        user += "## Reference Analysis\n" + "".join(f"- {line}\n" for line in analysis)
    if notes.strip():
        user += f"## Notes\n{notes.strip()}\n"
    if existing:
        user += "## Ideas Already Listed\n" + "".join(f"- {i}\n" for i in existing)
    user += (
        f"List {want} distinct ideas to lower the {name} ({_METRIC_FORMULAS[metric]}) of this "
        "module while keeping its cycle-level behaviour and ports"
        + (", each different from the ideas already listed" if existing else "")
        + ". One idea per line, each line starting with `IDEA:`, one sentence each; no code."
    )
    system: Message = {"role": "system", "content": "You are an expert Verilog RTL designer."}
    return (system, {"role": "user", "content": user})


def parse_ideas(text: str) -> list[str]:
    """Ideas from an answer: lines starting with ``IDEA:``, a number or a bullet (reasoning
    and code dropped; lines shorter than four words are not ideas)."""
    text = re.sub(r"<think>.*?(</think>|\Z)", "", text, flags=re.S | re.I)
    text = re.sub(r"```.*?(```|\Z)", "", text, flags=re.S)
    out: list[str] = []
    for raw in text.splitlines():
        m = _IDEA_LINE.match(raw)
        if m is None:
            continue
        idea = m.group(1).strip().strip("*").strip()
        if len(idea.split()) >= 4 and not idea.lower().startswith(("module ", "assign ")):
            out.append(idea[:300])
    return out
