"""``full_case`` and ``parallel_case`` (a tool comment or an attribute) where the reference
does not hold them on the same case statement (red-team round 119).

The proofs read a case as a simulator does; Yosys's synthesis reads these pragmas as claims
(no other value comes, no two items match) and drops what the claim rules out. The screen
used to allow any pragma whose text the reference holds somewhere: a candidate that moved
``(* full_case *)`` onto an incomplete case, or ``// synopsys parallel_case`` onto
overlapping ``casez`` items, was proven while its netlist, measured and written back,
computed another function. Such a pragma is allowed only on a case statement that the
reference holds with the same pragma, word for word (comments aside)."""

from __future__ import annotations

import re

from rtlopt.harness._pragmas import attributes, tool_pragmas
from rtlopt.verilog import blank_comments, line_of

__all__ = ["moved_case_pragmas", "moved_claims"]

_CLAIM = re.compile(r"full_case|parallel_case", re.I)
#: Attributes and blanks only (what may stand between an attribute and its case).
_ATTRIBUTES = re.compile(r"\s*(?:\(\*[^;]*?\*\)\s*)*")
_CASE = re.compile(r"\b(casex|casez|case)\b|\bendcase\b")


def _cases(code: str) -> list[tuple[int, int]]:
    """The spans of the case statements of comment-blanked ``code``, nested ones too."""
    out: list[tuple[int, int]] = []
    stack: list[int] = []
    for m in _CASE.finditer(code):
        if m.group(1):
            stack.append(m.start())
        elif stack:
            out.append((stack.pop(), m.end()))
    return out


def _governed(spans: list[tuple[int, int]], code: str, at: int) -> tuple[int, int] | None:
    """The case statement a pragma at ``at`` governs: an attribute stands before its
    ``case`` (nothing but blanks and other attributes between), a comment after ``case (...)``
    on its first line."""
    after = [s for s in spans if s[0] >= at and _ATTRIBUTES.fullmatch(code, at, s[0])]
    inside = [s for s in spans if s[0] < at < s[1]]
    if after:
        return min(after)
    return max(inside) if inside else None


def _words(code: str, span: tuple[int, int]) -> str:
    return " ".join(code[span[0] : span[1]].split())


def _claims(text: str, code: str, pragmas: list[tuple[int, str]]) -> dict[str, list[str]]:
    """Each governed case statement's words -> the claims (pragma keys) on it."""
    spans = _cases(code)
    out: dict[str, list[str]] = {}
    for at, key in pragmas:
        if not _CLAIM.search(key):
            continue
        span = _governed(spans, code, at)
        out.setdefault(_words(code, span) if span else "", []).append(key)
    return out


def moved_case_pragmas(
    text: str,
    code: str,
    pragmas: list[tuple[int, str]],
    references: list[tuple[str, str, list[tuple[int, str]]]],
) -> list[tuple[int, str]]:
    """``(offset, key)`` of each ``full_case``/``parallel_case`` pragma of the candidate
    (``text``, its comment-blanked ``code`` and its pragmas: comments and attributes by
    offset) on a case statement no reference text (each as the same triple) holds with that
    pragma, word for word."""
    held: set[tuple[str, str]] = set()
    for rtext, rcode, rpragmas in references:
        for words, keys in _claims(rtext, rcode, rpragmas).items():
            held |= {(words, k) for k in keys}
    spans = _cases(code)
    out: list[tuple[int, str]] = []
    for at, key in pragmas:
        if not _CLAIM.search(key):
            continue
        span = _governed(spans, code, at)
        if span is None or (_words(code, span), key) not in held:
            out.append((at, key))
    return out


def moved_claims(
    text: str,
    code: str,
    found: list[tuple[int, str]],
    ref_texts: list[str],
    ref_keys: set[str],
) -> list[tuple[int, str]]:
    """``(line, problem)`` for each ``full_case``/``parallel_case`` of the candidate
    (``found``: its pragma comments and attributes by offset) that the reference holds
    (``ref_keys``), on a case statement it does not hold it on."""
    mine = [(o, k) for o, k in found if k in ref_keys]
    if not mine:
        return []
    refs = []
    for t in ref_texts:
        c = blank_comments(t)
        refs.append((t, c, [*tool_pragmas(t), *attributes(c)]))
    return [
        (
            line_of(text, off),
            f"'{key[:40]}' on a case statement the reference does not hold it on, word for "
            "word: synthesis reads the claim (no other value, no two items match) and the "
            "proof does not, so the netlist would compute another function; keep the "
            "reference's case with it, or drop it",
        )
        for off, key in moved_case_pragmas(text, code, mine, refs)
    ]
