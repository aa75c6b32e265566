"""The screen's rules on the shape of a candidate's active code: conditionals left open,
``$root``, delays, hierarchical names, and module names reserved for the harness or Yosys."""

from __future__ import annotations

import re

from rtlopt.harness._vocabulary import REF_SUFFIX
from rtlopt.verilog import line_of
from rtlopt.verilog_delays import delay_offsets, text_end

__all__ = ["structure_problems"]

_MODULE_DECL_RE = re.compile(
    r"\b(?:module|macromodule|primitive|interface|package)\s+"
    r"(?:automatic\s+|static\s+)?([A-Za-z_\\][^\s#(;]*)"
)
# a dotted name: ident . ident, not a port connection ``.name(`` and not a real number
_HIER_RE = re.compile(
    r"(?<![\w$.'\\])([A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[[^\]]*\]\s*)*\.\s*"
    r"([A-Za-z_][A-Za-z0-9_$]*)"
)
_DELAY_RE = re.compile(r"#\s*#|#\s*(?=[0-9A-Za-z_`.(])")
#: an event control right before a ``#``: ``@ev #(5)`` is a delay
_EVENT_BEFORE = re.compile(r"@\s*[\w$.]+\s*\Z")


def structure_problems(
    code: str, depth: int, tb_top: str, dotted_names: bool
) -> list[tuple[int, str]]:
    """Open conditionals, ``$root``, delays, hierarchical names and reserved module names in
    the active code."""
    problems: list[tuple[int, str]] = []
    if depth != 0:
        # an open conditional would swallow the files compiled after the candidate
        problems.append((line_of(code, len(code)), "unbalanced `ifdef/`endif"))

    if "$root" in code:
        problems.append((line_of(code, code.index("$root")), "$root is not allowed"))

    delays = set(delay_offsets(code))
    for m in _DELAY_RE.finditer(code):
        rest = code[m.end() : m.end() + 1]
        # `module m #` and `(` on the next line too (held-out trial 44: verilog-uart's style)
        override = "".join(m.group(0).split()) == "#" and rest == "("
        end = text_end(code, m.start())
        event = _EVENT_BEFORE.search(code, max(0, end - 128), end)
        if override and m.start() not in delays and not event:
            continue  # a parameter list #( ... ) after an instance's or a module's name
        problems.append((line_of(code, m.start()), "delays (#) are not allowed"))

    for m in () if dotted_names else _HIER_RE.finditer(code):
        problems.append(
            (
                line_of(code, m.start()),
                f"hierarchical reference '{m.group(1)}.{m.group(2)}' is not allowed",
            )
        )

    reserved = {tb_top}
    for m in _MODULE_DECL_RE.finditer(code):
        name = m.group(1).lstrip("\\")
        if (
            name in reserved
            or name.endswith(REF_SUFFIX)
            or name.startswith("rtlopt_")
            or name.startswith("$")
        ):
            owner = "Yosys's internal cells" if name.startswith("$") else "the equivalence harness"
            problems.append(
                (line_of(code, m.start()), f"module name '{name}' is reserved for {owner}")
            )
    return problems
