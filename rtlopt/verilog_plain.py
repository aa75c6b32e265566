"""The text every tool of the flow reads: simulator-only readings blanked.

Ground floor (imports only :mod:`rtlopt.verilog`). Yosys and slang read some constructs
otherwise than a simulator: ``unique``/``priority`` qualifiers and ``full_case``/
``parallel_case`` (attributes or comment pragmas) as "don't care", ``init`` as a power-up
value, ``no_rw_check`` as an x read... :func:`plain_case_qualifiers` blanks them, so every
tool reads the plain statement a simulator runs.
"""

from __future__ import annotations

import re

from rtlopt.verilog import blank_comments, blank_spans, scan

__all__ = ["plain_case_qualifiers"]

#: Token kinds of :func:`scan` whose text is no code (names may hold any character).
_OPAQUE = ("escaped", "string")
#: ``unique``/``unique0``/``priority`` before ``case``/``casez``/``casex``/``if``.
_QUALIFIER = re.compile(r"(?<![\w$`\\.'])(?:unique0|unique|priority)(?=\s+(?:case[xz]?|if)\b)")


#: An attribute instance ``(* name ... *)`` (not ``@(*)``: a name, escaped or not, follows
#: the opening).
_ATTRIBUTE = re.compile(r"\(\*\s*\\?[A-Za-z_].*?\*\)", re.S)
#: Attributes that change nothing a design computes in any tool of the flow (a simulator
#: ignores every attribute): kept; every other attribute instance is blanked, since Yosys
#: reads many otherwise than a simulator: ``full_case``/``parallel_case`` (don't cares),
#: ``init`` (a power-up value iverilog does not give), ``no_rw_check`` and the memory styles
#: that say it (a read at a written address x), ``nosync``, ``anyseq``... (round 66).
_KEPT_ATTRIBUTES = frozenset(
    {"keep", "keep_hierarchy", "dont_touch", "async_reg", "async", "src", "mark_debug"}
    | {"blackbox", "whitebox", "lib_whitebox", "noblackbox", "syn_keep", "syn_preserve"}
    | {"preserve", "no_ungroup", "no_boundary_optimization", "use_dsp", "dont_merge"}
)
#: A comment Yosys reads as a case directive (``// synopsys full_case``, ``/* synthesis
#: parallel_case */``): blanked wherever the word stands in a comment (round 66).
_CASE_PRAGMA = re.compile(r"full_case|parallel_case", re.I)


def _read_otherwise(attribute: str) -> bool:
    """Whether an attribute instance ``(* ... *)`` names anything but
    :data:`_KEPT_ATTRIBUTES` (plain or escaped names; a part not read as a name counts)."""
    for spec in attribute[2:-2].split(","):
        name = spec.split("=", 1)[0].strip().lstrip("\\").strip()
        if name.lower() not in _KEPT_ATTRIBUTES:
            return True
    return False


def plain_case_qualifiers(text: str) -> str:
    """``text`` with the ``unique``/``unique0``/``priority`` qualifiers of its case and if
    statements, every attribute instance naming anything but :data:`_KEPT_ATTRIBUTES` and
    every comment naming ``full_case`` or ``parallel_case`` blanked (offsets and lines kept).

    In simulation they only add warnings (the attributes not even that): when no item (or
    branch) matches, no statement runs, as in a plain case or if, and the first item that
    matches is taken. Synthesis (Yosys ``full_case``/``parallel_case``, slang's view) reads
    a value no item gives, or two items matching, as "don't care" instead (round 56: a
    ``(* parallel_case *)`` case with its overlapping items swapped was proven), and an
    ``init`` attribute as a power-up value (round 57: a register x in simulation read as
    defined); every tool of the flow reads the plain statement, so the proof keeps the value
    a simulator computes."""
    tokens = list(scan(text))
    code = blank_spans(blank_comments(text), [(a, b) for k, a, b in tokens if k in _OPAQUE])
    spans = [m.span() for m in _QUALIFIER.finditer(code)]
    # attribute names may be escaped (``(* \\parallel_case *)``: Yosys reads the same name):
    # an escaped identifier is found as a name (``\\___``), its characters never end the
    # attribute (``(* keep = \\p*) , parallel_case *)``: round 67), and it is judged as written
    names = blank_spans(blank_comments(text), [(a, b) for k, a, b in tokens if k == "string"])
    for k, a, b in tokens:
        if k == "escaped":
            names = names[:a] + "\\" + "_" * (b - a - 1) + names[b:]
    spans += [
        m.span() for m in _ATTRIBUTE.finditer(names) if _read_otherwise(text[m.start() : m.end()])
    ]
    spans += [(a, b) for k, a, b in tokens if k == "comment" and _CASE_PRAGMA.search(text, a, b)]
    return blank_spans(text, sorted(spans)) if spans else text
