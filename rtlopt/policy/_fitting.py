"""Fitting a prompt to the model's budget: the code and the specification are shortened (with a
marker naming what was left out), the interface lines kept, until the prompt fits."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rtlopt.policy._types import Message, Prompt

OMITTED_CODE = "// ... {n} lines omitted to fit the prompt budget ..."
OMITTED_RANGE = "// ... {n} lines omitted (lines {a}-{b}) ..."
OMITTED_SPEC = "[... {n} lines of the specification omitted to fit the prompt budget ...]"
_SHARE_STEPS = 1024

_FENCE = re.compile(r"```verilog\n(.*?)\n```", re.S)
_SPEC_HEAD = "## Design Specification\n"
_ROOT_TAIL = re.compile(
    r"(?:Keep the module name `[^`\n]*` and its port list unchanged\.\n)?"
    r"Write a complete Verilog module with [^\n]*\n"
    r"Output only Verilog code within ```verilog fences\.\Z"
)
_HEADER_START = re.compile(r"\s*(?:macro)?module\b")
_INTERFACE_LINE = re.compile(r"\s*(?:input|output|inout|parameter|localparam|endmodule)\b")


def _largest_fitting(lo: int, hi: int, fits: Callable[[int], bool]) -> int:
    """The largest ``k`` in ``[lo, hi)`` that ``fits`` (``lo`` when none above it does), by
    bisection: ``fits(hi)`` is taken as false, and a smaller ``k`` fits whenever a larger one
    does."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


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
    chosen = keep | set(free[:head]) | set(free[len(free) - tail :] if tail else [])
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


_MARKER_LINE = re.compile(r"^\s*//\s*\.\.\.\s*\d+\s+lines?\s+omitted")


def _code_span(m: re.Match[str]) -> _Shrinkable:
    lines = tuple(m.group(1).split("\n"))
    # the interface, and the markers of a view that already omits lines (short, and they say
    # where the shown lines are)
    keep = _interface_lines(lines) | {i for i, ln in enumerate(lines) if _MARKER_LINE.match(ln)}
    return _Shrinkable(m.start(1), m.end(1), lines, frozenset(keep), OMITTED_CODE)


def _shrinkables(user: str) -> list[_Shrinkable]:
    """What may be cut: the specification, the reference's body, the body of the code after it
    (the previous attempt, or the code to edit).

    Prompts built by :func:`build_prompt` are recognised by their section headings (the
    specification ends at the next ``## `` heading or at the root instruction); any other
    prompt only has its ```verilog blocks shortened (interfaces kept).
    """
    ref = user.find("```verilog\n")
    spec_at = user.find(_SPEC_HEAD)
    ref_m = _FENCE.match(user, ref) if ref >= 0 else None
    if ref_m is None or spec_at < ref_m.end():
        return [_code_span(m) for m in _FENCE.finditer(user)]
    spans: list[_Shrinkable] = []
    spec_start = spec_at + len(_SPEC_HEAD)
    heading = user.find("\n## ", spec_start - 1)
    tail = _ROOT_TAIL.search(user, spec_start)
    ends = [
        x
        for x in (heading + 1 if heading >= 0 else -1, tail.start() if tail else -1)
        if x > spec_start
    ]
    spec_end = min(ends) if ends else -1
    if spec_end > spec_start:
        lines = tuple(user[spec_start:spec_end].rstrip("\n").split("\n"))
        spans.append(
            _Shrinkable(
                spec_start, spec_start + len("\n".join(lines)), lines, frozenset(), OMITTED_SPEC
            )
        )
    spans.append(_code_span(ref_m))
    after = max(spec_end, spec_start)
    spans.extend(_code_span(m) for m in _FENCE.finditer(user, after))
    return spans


def fit_prompt(prompt: Prompt, count_tokens: Callable[[Prompt], int], limit: int) -> Prompt | None:
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
            out.append(user[pos : sp.start])
            out.append(sp.render(-(-sp.free * share // _SHARE_STEPS)))  # ceil
            pos = sp.end
        out.append(user[pos:])
        msg: Message = {"role": "user", "content": "".join(out)}
        return prompt[:ui] + (msg,) + prompt[ui + 1 :]

    if count_tokens(build(0)) > limit:
        return None
    # build(0) fits, build(_SHARE_STEPS) (the whole prompt) does not
    return build(_largest_fitting(0, _SHARE_STEPS, lambda k: count_tokens(build(k)) <= limit))
