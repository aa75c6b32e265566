"""The lines of the target module a compilation drops: code in branches the current defines
switch off and every directive line, found by a second, marked ``iverilog -E`` (the preprocess
stage's switched-off comparison, :func:`rtlopt.evaluate._switched.switched_off_change`)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path

from rtlopt.evaluate._configs import tested_macros
from rtlopt.evaluate._placement import repository_includes
from rtlopt.frontend.model import Design
from rtlopt.verilog import (
    PREPROCESSOR_DIRECTIVES,
    ModuleSpan,
    alternation,
    blank_comments,
    module_spans,
)

__all__ = ["switched_off_lines"]


def switched_off_lines(
    design: Design,
    preprocess: Callable[[Sequence[Path], Path], tuple[str, list[str]]],
    text: str,
    state: Path,
    depth: int,
    wd: Path,
    extra: frozenset[str] = frozenset(),
) -> tuple[tuple[str, ...], frozenset[str]]:
    """The lines of the target module in ``text`` that this compilation drops (code and
    comments in branches the current defines switch off, and every line holding a
    directive: a ``define`` / ``undef`` inside the module changes what later files of the
    unit see), white space normalised, and which of the macros the module's conditionals
    test are defined where the module starts; ((), {}) for a module without directives.

    Both come from a second ``iverilog -E`` of the text, in the same macro state as the
    candidate, with a marker token in front of every module line and a probe per tested
    macro in front of the module: no alignment of output to source lines. The lines
    between two directives are switched off together: they are dropped when none of their
    markers survives (a marker inside a block comment never does)."""
    lines = text.split("\n")
    code = blank_comments(text, strings=False).split("\n")
    name = design.target.name
    span = next((m for m in module_spans(text) if m.name == name), None)
    first, last = (0, len(lines)) if span is None else (span.line - 1, _end_line(text, span))
    last = min(last, len(code))
    directives = {i for i in range(first, last) if _DIRECTIVE.search(code[i])}
    if not directives and not extra:
        return (), frozenset()
    tested = sorted(tested_macros("\n".join(code[first:last])) | extra)
    tag = "rtlopt_line_" + secrets.token_hex(6) + "_"
    marked: list[str] = []
    for i, line in enumerate(lines):
        if i == first:
            for k, macro in enumerate(tested):
                marked += [f"`ifdef {macro}", f"{tag}d{k}", "`endif"]
        continued = i > 0 and lines[i - 1].rstrip().endswith("\\")
        if first <= i < last and not continued:
            marked.append(f"{tag}{i}")
        marked.append(line)
    wd.mkdir(parents=True, exist_ok=True)
    src = wd / "marked.in.v"
    resolved, _ = repository_includes(design, "\n".join(marked))
    src.write_text(resolved + "\n" + "`endif\n" * depth)
    out, _ = preprocess([state, src], wd)
    seen = {int(n) for n in re.findall(re.escape(tag) + r"(\d+)", out)}
    defined = frozenset(tested[int(k)] for k in re.findall(re.escape(tag) + r"d(\d+)", out))
    dropped: set[int] = set()
    segment: list[int] = []
    for i in [*range(first, last), last]:
        if i == last or i in directives:
            if not any(j in seen for j in segment):
                dropped.update(segment)
            segment = []
        else:
            segment.append(i)
    off = tuple(
        " ".join(lines[i].split())
        for i in range(first, last)
        if lines[i].strip() and (i in directives or i in dropped)
    )
    return off, defined


def _end_line(text: str, span: ModuleSpan) -> int:
    """The 0-based line after the one that ends ``span``."""
    return text.count("\n", 0, span.end) + 1


#: A conditional or macro-state directive line (``switched_off`` counts it as dropped).
_DIRECTIVE = re.compile(rf"`({alternation(PREPROCESSOR_DIRECTIVES)})\b")
