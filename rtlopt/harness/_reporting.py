"""Whether a run of skipped code holds assertions that only report (the rule the view path
applies to the assertions it drops), apart from the dormant-branch rules that use it."""

from __future__ import annotations

import re

__all__ = ["only_reporting_assertions"]


#: A macro whose body uses another (what it expands to is not known here).
_NESTED_MACRO = re.compile(r"`define\s+\w+(?:\([^)]*\))?[^\n]*`\w")
#: The contexts a skipped run of assertions is read in: module items, then statements.
_WRAPS = (
    ("module rtlopt_skipped;\n", "\nendmodule\n"),
    ("module rtlopt_skipped;\ninitial begin\n", "\nend\nendmodule\n"),
)


def only_reporting_assertions(code: str) -> bool:
    """Whether a skipped run (comments blanked) holds assertions that only report: read as
    module items or as statements without a syntax error, and no action or condition that
    writes or waits (:func:`rtlopt.harness._dropped.dropped_problems`, the rule the view
    path applies to the assertions it drops). Such a branch (cv32e40p's ```ifdef
    CV32E40P_ASSERT_ON`` blocks) changes no value in the build that reads it."""
    from pyslang import syntax

    from rtlopt.harness._dropped import dropped_problems

    if _NESTED_MACRO.search(code) or "`" in code:
        return False  # a directive or a macro: read in a state not known here
    for head, tail in _WRAPS:
        text = head + code + tail
        tree = syntax.SyntaxTree.fromText(text)
        if any(d.isError() for d in tree.diagnostics):
            continue
        try:
            return not dropped_problems(text)
        except (RuntimeError, RecursionError):
            return False
    return False
