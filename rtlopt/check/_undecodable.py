"""A changed source whose code is not UTF-8, for the gate.

The gate reads sources as UTF-8 text, as the evaluator does (:mod:`rtlopt.frontend._encoding`):
a byte that is not UTF-8 in a string literal or a name would be judged as U+FFFD on both
sides while every build compiles the byte itself, so ``"\\x80"`` against ``8'hBD`` could be
"proven". A changed file the design reads (or any changed Verilog file) whose code holds
such a byte, in the base's text or the change's, is a finding naming the line and the fix;
trusted or not (it is no configuration).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rtlopt.check._check import ModuleCheck

__all__ = ["undecodable_checks"]


def undecodable_checks(
    changes: Mapping[str, str], base: Path, change: Path, read: frozenset[str]
) -> list[ModuleCheck]:
    """A finding for each changed file (``changes``: path -> git status) that the design
    reads (``read``) or that has a Verilog suffix whose code, in the base's tree or the
    change's, holds a byte that is not UTF-8."""
    from rtlopt.check._build_texts import VERILOG_SUFFIXES
    from rtlopt.frontend._encoding import ENCODING_HINT, undecodable_problem

    out: list[ModuleCheck] = []
    for rel in sorted(changes):
        if rel not in read and not rel.lower().endswith(VERILOG_SUFFIXES):
            continue
        for side, tree in (("base", base), ("change", change)):
            p = tree / rel
            if not p.is_file():
                continue
            why = undecodable_problem(p)
            if why is not None:
                out.append(
                    ModuleCheck(
                        rel, "(file)", "encoding", findings=[f"{side}: {why}; {ENCODING_HINT}"]
                    )
                )
                break
    return out
