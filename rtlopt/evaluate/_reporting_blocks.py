"""Switched-off blocks of assertions that only report: no build's design depends on them.

A module often guards its assertions with a project macro (cv32e40p's ```ifdef
CV32E40P_ASSERT_ON``). A build that defines the macro reads the module with those assertions,
one that does not reads it without: when the block holds nothing but assertions whose actions
only report and whose conditions write nothing (:func:`rtlopt.harness._dormant.
only_reporting_assertions`), both builds compute the same values. A rewrite that drops such a
block, or keeps it, therefore reads as the reference in every build where the rest of the
switched-off code and every other directive stays as the repository has it: the switched-off
comparison (:func:`rtlopt.evaluate._switched.switched_off_change` and the view path's) reads
both sides without these blocks. Only a plain ```ifdef M`` ... ```endif`` counts (no
``else``/``elsif``: a block with another branch selects code in the builds without ``M``), with
a body switched off in this build, holding no directive or macro.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = ["without_any_reporting_block", "without_reporting_blocks", "without_reporting_lines"]

_IFDEF = re.compile(r"^`ifdef[ \t]+([A-Za-z_]\w*)$")
_ENDIF = re.compile(r"^`endif$")
_BLOCK = re.compile(
    r"^[ \t]*`ifdef[ \t]+([A-Za-z_]\w*)[ \t]*\n((?:[^`\n]*\n)*?)[ \t]*`endif[ \t]*$", re.M
)


def _reporting(body: str) -> bool:
    """Nothing but assertions that report, none ending the simulation (``$fatal``,
    ``$finish``, ``$stop``: how a build's simulation ends is not proven)."""
    from rtlopt.harness._dormant import reports_only

    return reports_only(body)


def without_reporting_lines(lines: Sequence[str]) -> list[str]:
    """``lines`` (a module's switched-off and directive lines, white space normalised) without
    each ```ifdef M`` ... ```endif`` run whose body only asserts and reports."""
    from rtlopt.verilog import blank_comments

    code = [blank_comments(ln, strings=False).strip() for ln in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        if _IFDEF.match(code[i]):
            j = i + 1
            while j < len(lines) and "`" not in code[j]:
                j += 1
            if j < len(lines) and _ENDIF.match(code[j]) and _reporting("\n".join(code[i + 1 : j])):
                i = j + 1
                continue
        out.append(lines[i])
        i += 1
    return out


#: What ends an item or a statement before a block that stands on its own: a ``;``, or a
#: keyword that opens or closes a body (a block after ``if (c)`` or ``else`` would be its
#: branch: red-team round 125, ``if (0) `ifdef DBG initial $display(..); `endif assign``).
_ITEM_END = re.compile(
    r"(?:;|\b(?:begin|end|endgenerate|endcase|endfunction|endtask|generate|endmodule)\b"
    r"(?:[ \t]*:[ \t]*[A-Za-z_][\w$]*)?)\s*$"
)
#: What may not follow such a block: an ``else`` would become the assertion's fail action.
_ELSE_NEXT = re.compile(r"\s*(?:`(?:ifdef|ifndef|else|elsif|endif)\b[^\n]*\n\s*)*else\b")


def _standalone(code: str, start: int, end: int) -> bool:
    """Whether the block ``code[start:end]`` (comments blanked) stands between two items or
    statements: removing it changes what no other text is read as."""
    before = re.sub(r"(?m)^[ \t]*`[^\n]*$", "", code[:start])  # other directive lines aside
    return bool(_ITEM_END.search(before) or not before.strip()) and not _ELSE_NEXT.match(code, end)


def without_reporting_blocks(code: str, defined: Iterable[str]) -> str:
    """``code`` (comments blanked) with each ```ifdef M`` ... ```endif`` block whose macro is
    not in ``defined``, whose body only asserts and reports and that stands between items or
    statements (:func:`_standalone`) blanked (line breaks kept)."""
    state = set(defined)
    spans = [
        m.span()
        for m in _BLOCK.finditer(code)
        if m.group(1) not in state and _reporting(m.group(2)) and _standalone(code, *m.span())
    ]
    for start, end in reversed(spans):
        code = code[:start] + re.sub(r"[^\n]", " ", code[start:end]) + code[end:]
    return code


def without_any_reporting_block(text: str) -> str:
    """``text`` (as written, comments kept) with every ```ifdef M`` ... ```endif`` block whose
    body only asserts and reports blanked, whatever ``M`` (line breaks kept): a
    configuration that defines ``M`` computes the same values without it. An evaluation of
    that configuration reads the module without them (cv32e40p_sleep_unit's
    ``CV32E40P_ASSERT_ON`` properties name ``id_stage_i``, a module above it, which the
    module alone does not elaborate)."""
    from rtlopt.verilog import blank_comments

    code = blank_comments(text, strings=False)
    if len(code) != len(text):
        return text
    spans = [
        m.span()
        for m in _BLOCK.finditer(code)
        if _reporting(m.group(2)) and _standalone(code, *m.span())
    ]
    for start, end in reversed(spans):
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    return text
