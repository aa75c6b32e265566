"""Hierarchical references of an added or edited file into the design, for the gate's screen.

A reference through a hierarchical name that starts at a module of the design or at an
instance another file declares (or at ``$root``) reaches into another module. It counts as a
write unless it stands where it can only be read, decided as the evaluate reach rule decides
it (:func:`rtlopt.evaluate._reach_reads.read_only`): an assignment's right side, an index, a
condition, an argument of a report task. Anything else may write it, whatever the spelling:
``+=``, ``++``, a concatenation on the left, a task's output argument, ``$sscanf``'s
destination, a port connection, an escaped name (``\\tb .u.c``). A name counts as the file's
own only where the module that holds the reference declares it (a variable, net, port,
instance or block label); a declaration in another module of the file is no cover.
"""

from __future__ import annotations

import re

from rtlopt.evaluate._reach_reads import macro_definitions, read_only
from rtlopt.verilog import ModuleSpan, line_of, module_spans

__all__ = ["hierarchical_writes"]

_IDENT = r"(?:\\\S+(?=\s)|[A-Za-z_][A-Za-z0-9_$]*)"
_SEGMENT = rf"{_IDENT}(?:\s*\[[^\]\[;]*\])*"
#: A hierarchical name: two segments or more (escaped segments too), or one under ``$root``.
_PATH = re.compile(
    rf"(?<![\w$.'`\\:])((?:\$root\s*\.\s*)?{_SEGMENT}(?:\s*\.\s*{_SEGMENT})+|\$root\s*\.\s*{_SEGMENT})"
)
#: Report tasks that only read their arguments, besides those the evaluate rule knows.
_DUMP = re.compile(r"\$dump(?:vars|ports)\s*\([^;()]*$")


def hierarchical_writes(code: str, names: set[str] | None) -> list[tuple[int, str]]:
    """``(line, name)`` of each hierarchical reference of ``code`` (comments blanked) that
    starts at ``names`` (None: any name) or ``$root``, is not the holding module's own, and
    does not stand where it is only read."""
    spans = module_spans(code)
    macros = macro_definitions([code])
    out: list[tuple[int, str]] = []
    for m in _PATH.finditer(code):
        path = m.group(1)
        first = _first(path)
        if first != "$root":
            if names is not None and first not in names:
                continue
            if _local(_unit(code, spans, m.start()), first):
                continue
        if read_only(code, m.start(), m.end(), macros) or _DUMP.search(
            code[max(0, m.start() - 400) : m.start()]
        ):
            continue
        out.append((line_of(code, m.start()), " ".join(path.split())))
    return out


def _first(path: str) -> str:
    """The first segment of a hierarchical name (an escaped one without its backslash)."""
    if path.startswith("$root"):
        return "$root"
    if path.startswith("\\"):
        return path[1:].split()[0]
    return re.split(r"[\s.\[]", path, maxsplit=1)[0]


def _unit(code: str, spans: list[ModuleSpan], at: int) -> str:
    """The text of the innermost module that holds ``at`` ("" outside every module: a
    declaration of the compilation unit is no cover, it is a finding of its own)."""
    inside = [s for s in spans if s.start <= at < s.end]
    if not inside:
        return ""
    s = min(inside, key=lambda s: s.end - s.start)
    return code[s.start : s.end]


def _local(unit: str, name: str) -> bool:
    """Whether module text ``unit`` declares ``name``: a variable, net or port (of a struct or
    interface type: ``s.f`` is its field), an instance, a block label or a clocking block."""
    if not unit:
        return False
    n = re.escape(name)
    return bool(
        re.search(rf"\b[A-Za-z_][\w$]*(?:\s*\[[^\]]*\])*\s+{n}\s*(?:\[[^\]]*\]\s*)*[;,=)]", unit)
        or re.search(
            rf"(?<![\w$.`])[A-Za-z_][\w$]*\s*(?:#\s*\((?:[^()]|\([^()]*\))*\)\s*)?"
            rf"{n}\s*(?:\[[^\]]*\]\s*)*\(",
            unit,
        )
        or re.search(
            rf"\b(?:begin|fork)\s*:\s*{n}\b|(?<![\w$.`]){n}\s*:\s*(?:begin|for|if|case)\b"
            rf"|\bclocking\s+{n}\b",
            unit,
        )
    )
