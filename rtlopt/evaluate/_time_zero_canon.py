"""What a reader of a late block's outputs computes, for the time-0 rule
(:mod:`rtlopt.evaluate._time_zero_readers`): its text with assignments rewritten by identities
exact on four-valued (0, 1, x, z) values, so that two readers computing the same value from
the same names, x included, compare equal.

The readers of a block that runs only on an event see its outputs x until that event; the
rule asks that they be the same items on both sides (the candidate's names renamed to the
reference's where they pair, :func:`rtlopt.evaluate._time_zero_align.aligned`). Equal texts
compute equal values from equal values; so do texts equal after these rewrites, each exact
for every value of its operands, x and z included (the proofs read 0/1 values only, so no
0/1 identity may be used here):

* ``lhs = ~ c ;`` (or ``<=``) with ``lhs`` and ``c`` both declared one bit, unsigned, by
  plain words (:attr:`ModuleItems.dims`): ``lhs = ! c ;`` (the context is one bit wide; both
  give x for x and z);
* ``lhs = ! c ? A : B ;`` (or ``~ c`` with ``c`` one bit as above) with ``c`` a signal's
  name and ``A``, ``B`` operands (names, numbers and selects, bracketed groups; no operator
  outside brackets, no call): ``lhs = c ? B : A ;`` (a condition of x or z merges both arms bit by
  bit, which is symmetric; a defined one picks the same arm).

An assignment is read only where its left side is one name after ``)``, ``begin``, ``;``,
``else``, ``end`` or ``assign`` and its right side runs to the next ``;`` outside brackets;
anything else is left as written (compared as text: fail closed).
"""

from __future__ import annotations

import re

from rtlopt.harness._event_blocks import ModuleItems

__all__ = ["computed"]

#: Tokens after which a name followed by ``=`` or ``<=`` starts an assignment statement.
_STARTS = frozenset({")", "begin", ";", "else", "end", "assign"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: A token an operand may hold outside brackets: a name, a number's parts (``4 'h f``).
_WORD = re.compile(r"(?:[A-Za-z0-9_]+|'[sS]?[bBoOdDhH]?[0-9A-Za-z_?]*)\Z")
#: Words that are operators (an operand holds none outside brackets).
_KEYWORDS = frozenset(
    {"inside", "dist", "with", "matches", "iff", "or", "and", "not", "implies", "until"}
)
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())


def computed(text: str, items: ModuleItems) -> str:
    """``text`` (an item's tokens) with its assignments rewritten as the module docstring
    says, ``items`` being its side's module (for widths)."""
    tokens = text.split(" ")
    bits = {n for n, d in items.dims if d == ""} - items.shadowed
    out: list[str] = []
    k = 0
    while k < len(tokens):
        end = _assignment(tokens, k)
        if end is None:
            out.append(tokens[k])
            k += 1
            continue
        lhs, rhs = tokens[k], tokens[k + 2 : end]
        out += [lhs, tokens[k + 1], *_rewritten(lhs, rhs, bits, items.signals)]
        k = end
    return " ".join(out)


def _assignment(tokens: list[str], k: int) -> int | None:
    """Where the right side of an assignment whose left side is ``tokens[k]`` ends (its
    ``;``), or None."""
    if k + 1 >= len(tokens) or tokens[k + 1] not in ("=", "<="):
        return None
    if not _NAME.match(tokens[k]) or (k and tokens[k - 1] not in _STARTS):
        return None
    depth = 0
    for j in range(k + 2, len(tokens)):
        t = tokens[j]
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
            if depth < 0:
                return None
        elif t == ";" and depth == 0:
            return j
    return None


def _rewritten(lhs: str, rhs: list[str], bits: set[str], signals: frozenset[str]) -> list[str]:
    """The right side ``rhs`` of an assignment to ``lhs`` rewritten (module docstring)."""
    if len(rhs) == 2 and rhs[0] == "~" and lhs in bits and rhs[1] in bits:
        return ["!", rhs[1]]
    if len(rhs) < 6 or rhs[2] != "?" or rhs[1] not in signals:
        return rhs
    if not (rhs[0] == "!" or (rhs[0] == "~" and rhs[1] in bits)):
        return rhs
    arms = _split_arms(rhs[3:])
    if arms is None:
        return rhs
    first, second = arms
    return [rhs[1], "?", *second, ":", *first]


def _split_arms(tokens: list[str]) -> tuple[list[str], list[str]] | None:
    """``A : B`` split into its two operands, or None when either is not one operand."""
    depth, colons = 0, []
    for j, t in enumerate(tokens):
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
        elif depth == 0 and t == ":":
            colons.append(j)
    if len(colons) != 1:
        return None
    first, second = tokens[: colons[0]], tokens[colons[0] + 1 :]
    return (first, second) if _operand(first) and _operand(second) else None


def _operand(tokens: list[str]) -> bool:
    """Whether ``tokens`` are one operand: outside brackets only names and a number's parts
    (a select or a group follows a name or stands alone; no call), balanced."""
    if not tokens:
        return False
    depth = 0
    for k, t in enumerate(tokens):
        if t in _OPEN:
            if t == "(" and depth == 0 and k and _WORD.match(tokens[k - 1]):
                return False  # a call: what it does is not read here
            depth += 1
        elif t in _CLOSE:
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0 and (not _WORD.match(t) or t in _KEYWORDS):
            return False
    return depth == 0
