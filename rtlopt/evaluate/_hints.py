"""Compile errors explained from the reference: what the candidate left out.

A reference may ```include`` a header *inside* its module (biriscv's ALU includes
``biriscv_defs.v`` after its port list); its macros then exist only from that line on. A
candidate that drops the include fails with a cascade of raw syntax errors that name neither
the macro nor the header. :func:`missing_include` names both.
"""

from __future__ import annotations

import re
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.verilog import blank_comments

__all__ = ["missing_include"]

_INCLUDE = re.compile(r'`include\s+"([^"\n]+)"')
_DEFINE = re.compile(r"`define\s+([A-Za-z_][A-Za-z0-9_$]*)")
_USE = re.compile(r"`([A-Za-z_][A-Za-z0-9_$]*)")


def _header_macros(name: str, design: Design) -> set[str]:
    for d in (design.target.file.parent, *design.include_dirs):
        p = Path(d) / name
        try:
            if p.is_file():
                return set(_DEFINE.findall(p.read_text(errors="replace")))
        except OSError:
            continue
    return set()


def missing_include(text: str, design: Design) -> str | None:
    """Why a candidate that does not compile lacks a macro, when the reference includes the
    header defining it inside the target module and the candidate does not; else None.

    Returns:
        ``macro `X` is undefined: the reference includes F at line N inside the module;
        keep that include``.
    """
    try:
        ref = design.target.text()
    except OSError:
        return None
    ref_code = blank_comments(ref, strings=False)
    cand_code = blank_comments(text, strings=False)
    included = set(_INCLUDE.findall(cand_code))
    defined = set(_DEFINE.findall(cand_code))
    used = [m.group(1) for m in _USE.finditer(cand_code)]
    for m in _INCLUDE.finditer(ref_code):
        name = m.group(1)
        if name in included:
            continue
        macros = _header_macros(name, design) - defined
        missing = next((u for u in used if u in macros), None)
        if missing is None:
            continue
        line = design.target.line + ref_code.count("\n", 0, m.start())
        return (
            f"macro `{missing}` is undefined: the reference includes {name} at line {line} "
            "inside the module; keep that include"
        )
    return None
