"""Whether a hierarchical name the reach rule (:mod:`._reach`) found only reads what it names
(a port's value read from outside is what the proof compares; anything that may write it is
state the proof does not see)."""

from __future__ import annotations

import re

from rtlopt.evaluate._reach_paths import skip_selects

__all__ = ["Macros", "macro_definitions", "read_only"]


def read_only(code: str, start: int, end: int, macros: Macros, depth: int = 0) -> bool:
    """Whether the hierarchical name at ``code[start:end]`` (ending at a port) stands where it
    can only be read: an operand on an assignment's right side, an index, a condition
    (``if``, ``while``, ``case``, ``wait``, an event or delay control), an argument of a report
    task or of an assertion, an argument of a macro (``macros``: the repository's
    definitions) that its every definition only reads. Anything else may write it (an
    assignment's left side, a concatenation there, ``++``/``--``, a task's ``output``
    argument, ``$sscanf``'s destination, a port connection, a macro defined nowhere here): a
    port written from outside is state, not a value the ports carry (fail closed)."""
    if written_after(code, end):
        return False
    before = code[max(0, start - 4000) : start]
    if re.search(r"(?:\+\+|--)\s*$", before):
        return False
    base = start - len(before)
    level = 0
    i = len(before) - 1
    while i >= 0:
        c = before[i]
        if c in ")]}":
            level += 1
        elif c in "([{" and level:
            level -= 1
        elif c == "[":
            return True  # an index or a range
        elif c in "({":
            if written_after(code, _closing(code, base + i)):
                return False  # ``{u.y, b} = ...``, ``(u.y)++``
            word = re.search(r"(`?\$?[\w$]+|[@#])\s*$", before[:i]) if c == "(" else None
            if word is None or word.group(1) in _GROUPING:
                i -= 1  # a parenthesized operand or a concatenation: judged by what holds it
                continue
            if word.group(1).startswith("`"):
                arg = _argument_index(before, i)
                return _macro_reads(word.group(1)[1:], arg, macros, depth)
            return word.group(1) in _READING_CALLS
        elif c == ";" and not level:
            return False  # a statement's start: no assignment before it
        elif c == "=" and not level:
            op = re.search(r"[=!<>?]*$", before[: i + 1])
            assert op is not None
            if op.group(0) in ("=", "<=", "<<=", ">>=", "<<<=", ">>>="):
                return True  # an assignment's right side (or a comparison's, ``<=``)
            i = op.start()  # a comparison (``==``, ``>=``): an operand
            continue
        i -= 1
    return False


#: ``(formals, body)`` of each definition of each function-like macro of the repository.
Macros = dict[str, list[tuple[list[str], str]]]
#: After a name or a closing bracket: what writes it (or a path on below it).
_WRITTEN = re.compile(r"\.|\+\+|--|<=|=(?!=)|[-+*/%&|^]=|<<<?=|>>>?=")


def written_after(code: str, at: int) -> bool:
    """Whether what follows ``at`` (blanks and selects, brackets nested, skipped) writes the
    name or goes on below it."""
    return _WRITTEN.match(code, skip_selects(code, at)) is not None


_MACRO_DEFINITION = re.compile(
    r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)\(([^)\n]*)\)((?:[^\n]*\\\n)*[^\n]*)", re.M
)


def macro_definitions(texts: list[str]) -> Macros:
    out: Macros = {}
    for t in texts:
        if "`define" not in t:
            continue
        for m in _MACRO_DEFINITION.finditer(t):
            formals = [f.split("=")[0].strip() for f in m.group(2).split(",")]
            out.setdefault(m.group(1), []).append((formals, m.group(3).replace("\\\n", " \n")))
    return out


def _macro_reads(name: str, arg: int, macros: Macros, depth: int) -> bool:
    """Whether every definition of macro ``name`` only reads its argument ``arg`` (a macro
    defined nowhere the rule reads, or nested too deep: may write)."""
    defs = macros.get(name)
    if not defs or depth > 4:
        return False
    for formals, body in defs:
        if arg >= len(formals) or "``" in body:
            return False
        for use in re.finditer(rf"(?<![\w$`]){re.escape(formals[arg])}(?![\w$])", body):
            if not read_only(body, use.start(), use.end(), macros, depth + 1):
                return False
    return True


def _closing(code: str, at: int) -> int:
    """Just past the bracket that closes the one at ``at`` (or the end)."""
    level = 0
    for k in range(at, min(len(code), at + 8000)):
        if code[k] in "([{":
            level += 1
        elif code[k] in ")]}":
            level -= 1
            if level == 0:
                return k + 1
    return len(code)


def _argument_index(before: str, open_at: int) -> int:
    """Which argument (from 0) of the call whose ``(`` is at ``open_at`` ends ``before``."""
    level, count = 0, 0
    for c in before[open_at + 1 :]:
        if c in "([{":
            level += 1
        elif c in ")]}":
            level -= 1
        elif c == "," and level == 0:
            count += 1
    return count


#: Words before ``(`` whose parentheses hold an operand, a condition or values only read.
_READING_CALLS = frozenset(
    {
        "if", "while", "case", "casez", "casex", "wait", "repeat", "@", "#", "iff",
        "assert", "assume", "cover", "property", "sequence", "expect", "restrict",
        "$display", "$displayb", "$displayh", "$displayo", "$write", "$writeb", "$writeh",
        "$writeo", "$strobe", "$strobeb", "$strobeh", "$strobeo", "$monitor", "$fdisplay",
        "$fwrite", "$fstrobe", "$fmonitor", "$error", "$warning", "$info", "$fatal",
        "$sformatf", "$psprintf", "$signed", "$unsigned", "$bits", "$clog2", "$countones",
        "$onehot", "$onehot0", "$isunknown", "$past", "$rose", "$fell", "$stable",
        "$changed", "$size", "$high", "$low", "$left", "$right", "$time", "$realtime",
    }
)  # fmt: skip
#: Words before ``(`` that make it a parenthesized operand (an operator keyword).
_GROUPING = frozenset({"or", "and", "not", "inside", "dist", "return"})
