"""Array queries a candidate adds: constants the simulator reads otherwise than both proofs.

iverilog 11 evaluates ``$bits`` (and the other array queries) of a net or variable inside a
constant expression as 0, while slang and Yosys read the width: a candidate's
``localparam ONE = $bits(a) - 23;`` is 1 to both proofs and ``-23`` to the simulator the
repository builds with. Whether a query's argument is a type or a signal, and whether its
statement is a constant context, is not judged from the text: a statement of the candidate
that holds an array query must be a statement of the reference (whitespace aside).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rtlopt.verilog import blank_comments, line_of

__all__ = ["array_query_problems"]

#: The array query system functions.
QUERY = re.compile(
    r"\$(?:bits|size|left|right|high|low|increment|dimensions|unpacked_dimensions)\b"
)


def array_query_problems(code: str, references: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """Each statement of ``code`` (comments blanked) holding an array query that no
    reference text (``references``) holds."""
    found = list(QUERY.finditer(code))
    if not found:
        return []
    known = {s for t in references() for s in _statements(blank_comments(t))}
    out: list[tuple[int, str]] = []
    for m in found:
        start = code.rfind(";", 0, m.start()) + 1
        end = code.find(";", m.end())
        stmt = _squeeze(code[start : end if end >= 0 else len(code)])
        if stmt in known:
            continue
        out.append(
            (
                line_of(code, m.start()),
                f"{m.group(0)} in a statement the reference does not have: iverilog evaluates "
                "an array query of a net or variable in a constant expression otherwise than "
                "slang and Yosys (as 0), so the proofs would not read what the simulator "
                "builds (write the width as a number or a parameter)",
            )
        )
    return out


def _statements(code: str) -> set[str]:
    return {_squeeze(s) for s in code.split(";")}


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)
