"""The gate's rule on compiler directives written after other code on their line.

Many of rtlopt's readings look for a directive at the start of a line (``^[ \\t]*`define``),
as most sources write them; a tool reads one anywhere (```timescale 1ns/1ps `define FAST``).
So in a changed Verilog file, a line holding a directive after other code (comments and strings
aside) that the base does not hold the same (blanks aside) or that the change removes is a
finding: fail closed rather than judge with the wrong defines. A reindented file keeps its
lines, so it stays free of this finding.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath

from rtlopt.verilog import blank_comments

__all__ = ["midline_directive_findings", "midline_lines"]

_VERILOG = (".v", ".sv", ".vh", ".svh", ".verilog", ".vlog", ".svi", ".svp")
_DIRECTIVE = re.compile(
    r"`(?:define|undef|undefineall|ifdef|ifndef|elsif|else|endif|include|resetall|line"
    r"|begin_keywords|end_keywords|pragma|default_nettype|unconnected_drive"
    r"|nounconnected_drive|celldefine|endcelldefine|timescale)(?![\w$])"
)


def midline_lines(text: str) -> Counter[str]:
    """The lines of ``text`` (whitespace collapsed) holding a directive after other code."""
    out: Counter[str] = Counter()
    for line in blank_comments(text).splitlines():
        stripped = line.strip()
        for m in _DIRECTIVE.finditer(stripped):
            if m.start() > 0:
                out[" ".join(stripped.split())] += 1
                break
    return out


def midline_directive_findings(
    changes: Mapping[str, str], read_base: Callable[[str], str | None], new_tree: Path
) -> list[tuple[str, str]]:
    """Each changed Verilog file whose lines with a directive after other code differ
    between the base and the change, with its finding."""
    found = []
    for rel, status in sorted(changes.items()):
        if PurePosixPath(rel).suffix.lower() not in _VERILOG:
            continue
        new_path = new_tree / rel
        new = new_path.read_text(errors="replace") if new_path.is_file() else ""
        old = (read_base(rel) or "") if status != "A" else ""
        before, after = midline_lines(old), midline_lines(new)
        if before == after:
            continue
        line = next(iter((after - before) or (before - after)))
        found.append(
            (
                rel,
                f"the change adds or removes a compiler directive written after other code on its"
                f" line ({line[:80]}), which rtlopt does not read where a tool does; put each"
                " directive on a line of its own",
            )
        )
    return found
