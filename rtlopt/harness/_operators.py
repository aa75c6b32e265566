"""Statements with more operators than the in-process parser can bind: a chain of binary
operators is one left-deep tree that slang binds by recursion."""

from __future__ import annotations

import re
from collections.abc import Callable

from rtlopt.verilog import blank_comments, line_of

__all__ = ["MAX_OPERATORS", "operator_problems"]

#: Binary operators (and ``?``): a chain of them is one left-deep tree that slang binds by
#: recursion, so some tens of thousands in one statement overflow the stack of the process
#: that parses the candidate (a segmentation fault of rtlopt itself, not of a tool).
_OPERATOR_RE = re.compile(r"<<<|>>>|===|!==|==|!=|<=|>=|<<|>>|&&|\|\||\*\*|~\^|\^~|[-+*/%&|^<>?]")
#: The longest operator chain of one statement a candidate may have when the reference has no
#: longer one (far above hand-written code, far below the ~30,000 that crashed pyslang 12).
MAX_OPERATORS = 10_000


def _longest_statement(code: str) -> tuple[int, int]:
    """The most operators in one ``;``-separated statement of comment-blanked code, and where
    that statement starts."""
    best, where, at = 0, 0, 0
    for part in code.split(";"):
        n = len(_OPERATOR_RE.findall(part))
        if n > best:
            best, where = n, at
        at += len(part) + 1
    return best, where


def operator_problems(code: str, references: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """A statement with more operators than the parser can bind (see :data:`MAX_OPERATORS`)."""
    n, where = _longest_statement(code)
    if n <= MAX_OPERATORS:
        return []
    limit = max([MAX_OPERATORS] + [_longest_statement(blank_comments(t))[0] for t in references()])
    if n <= limit:
        return []
    return [
        (
            line_of(code, where),
            f"a statement with {n} operators (the parser binds at most {limit} here: split it)",
        )
    ]
