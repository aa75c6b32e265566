"""A power whose exponent is read at run time.

iverilog 11 evaluates ``**`` at run time otherwise than IEEE 1800 (table 11-4) and both proofs
(Yosys, slang) when the exponent is negative: in an expression wider than 32 bits it returns 0
(``1 ** k`` with ``k = -7``; ``(-1) ** k``). Only the reference's own spelling of such a power
is read alike by every side; a candidate's new one is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rtlopt.verilog import blank_comments, line_of

__all__ = ["power_problems"]

_DECLARED = re.compile(r"\b(?:parameter|localparam|genvar)\b([^;]*)")
_NAME = re.compile(r"(?<![\w$'])([A-Za-z_][\w$]*)")


def _operand(code: str, at: int) -> str:
    """The right operand starting at ``at``: a parenthesized group, a call, or one token."""
    i = at
    while i < len(code) and code[i] in " \t\r\n":
        i += 1
    start = i
    if i < len(code) and code[i] in "-+~!":
        i += 1
        while i < len(code) and code[i] in " \t\r\n":
            i += 1
    m = re.match(r"[\w$']+(?:\s*'\s*[sS]?[bBoOdDhH]\s*[\w?]+)?", code[i:])
    if m is not None:
        i += m.end()
    while i < len(code) and code[i] in " \t\r\n":
        i += 1
    if i < len(code) and code[i] == "(":
        depth = 0
        while i < len(code):
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
            if depth == 0:
                break
    return code[start:i]


def _constants(code: str) -> set[str]:
    names: set[str] = set()
    for m in _DECLARED.finditer(code):
        names.update(n for n in _NAME.findall(m.group(1)))
    return names


def power_problems(code: str, references: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """Each ``**`` of comment-blanked ``code`` whose exponent reads a signal (may be negative
    at run time), unless a reference text holds the same power."""
    found: list[tuple[int, str]] = []
    consts: set[str] | None = None
    refs: list[str] | None = None
    for m in re.finditer(r"\*\*", code):
        exponent = _operand(code, m.end())
        if consts is None:
            consts = _constants(code)
        names = {n for n in _NAME.findall(exponent) if not n.startswith("$")}
        names -= {"signed", "unsigned"}
        run_time = bool(names - consts)
        if not run_time:  # a constant: folded at elaboration (a parameter's value is compared)
            continue
        if refs is None:
            refs = ["".join(blank_comments(t).split()) for t in references()]
        spelled = "".join(("**" + exponent).split())
        if any(spelled in r for r in refs):
            continue
        found.append(
            (
                line_of(code, m.start()),
                f"a power whose exponent reads a signal (`**{exponent.strip()}`): iverilog "
                "evaluates a negative exponent at run time otherwise than the proofs (IEEE "
                "1800 table 11-4); write the power as a shift or a product, or with an "
                "unsigned constant exponent",
            )
        )
    return found
