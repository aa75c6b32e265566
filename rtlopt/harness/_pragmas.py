"""What a synthesis tool reads as a directive and a simulator does not: tool directive
comments (``// synopsys translate_off``, ``/* synthesis full_case */``) and ``(* ... *)``
attributes."""

from __future__ import annotations

import re

from rtlopt.verilog import comments

__all__ = ["attributes", "tool_pragmas"]

#: Comments whose first word names a tool are read by that tool as directives (Yosys and
#: Design Compiler read ``// synopsys translate_off``, ``// synthesis full_case``, ...), so
#: synthesis and simulation would see different designs.
_PRAGMA_LEAD = re.compile(
    r"^(?://|/\*)\s*(synopsys|synthesis|pragma|cadence|ambit|exemplar|synplify|"
    r"rtl_synthesis|leonardo|magma|verplex|xilinx|altera|quartus)(?=\s|\*/|$)",
    re.I,
)
#: Directive words that matter wherever they appear in a comment.
_PRAGMA_WORD = re.compile(
    r"(translate_off|translate_on|synthesis_off|synthesis_on|full_case|parallel_case|"
    r"dc_script_begin|dc_script_end)",
    re.I,
)
#: ``(* name = value *)`` attributes; ``@(*)`` is an event control, not an attribute: what
#: follows ``(*`` when it is not one.
_EVENT_STAR_RE = re.compile(r"\s*\)")


def _pragma_key(comment: str) -> str:
    body = comment[2:-2] if comment.startswith("/*") else comment[2:]
    return " ".join(body.lower().split())


def tool_pragmas(text: str) -> list[tuple[int, str]]:
    """Comments that a synthesis or simulation tool reads as directives.

    Returns:
        ``(offset, key)`` pairs; ``key`` is the comment's text in lower case with its
        whitespace collapsed (so the same pragma in the reference has the same key).
    """
    out = []
    for offset, c in comments(text):
        if _PRAGMA_LEAD.match(c) or _PRAGMA_WORD.search(c):
            out.append((offset, _pragma_key(c)))
    return out


def attributes(code: str) -> list[tuple[int, str]]:
    """``(* ... *)`` attributes of comment-blanked code as ``(offset, normalized text)``."""
    # one pass (a lazy regex would scan to the end from every unclosed ``(*``: quadratic)
    found: list[tuple[int, str]] = []
    at = code.find("(*")
    while at >= 0:
        if _EVENT_STAR_RE.match(code, at + 2):
            at = code.find("(*", at + 1)
            continue
        end = code.find("*)", at + 2)
        if end < 0:
            break  # no attribute closes after this one, so none after a later one either
        found.append((at, " ".join(code[at + 2 : end].split())))
        at = code.find("(*", end + 2)
    return found
