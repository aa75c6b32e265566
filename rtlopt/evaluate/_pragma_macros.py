"""Synthesis pragmas that reach Yosys through a macro body.

Yosys's preprocessor keeps a block comment in a macro's body, and its lexer honours the
expanded ``/* synthesis translate_off */`` (and ``full_case``, ``parallel_case``): a stretch
between ```OFF`` and ```ON`` is dropped by synthesis of the written text, while the
preprocessed text every tool of rtlopt reads has no comment left, so the proof reads what
synthesis never builds. :func:`pragma_macro_use` finds such macros in every file the design
may read, and says why a change is unchecked where the candidate or the reference's design
uses one (fail closed).
"""

from __future__ import annotations

import re

from rtlopt.evaluate._repo_texts import repository_texts
from rtlopt.frontend.model import Design

__all__ = ["pragma_macro_use"]

_DEFINE = re.compile(r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)((?:[^\n]*\\\n)*[^\n]*)", re.M)
#: A comment Yosys may read as a pragma (translate_off/on, full_case, parallel_case, ...).
#: No word boundary after the word: Yosys honours ``/* synthesistranslate_off */`` too.
_PRAGMA = re.compile(r"(?://|/\*)\s*(?:synopsys|synthesis|pragma)", re.I)
_FOUND: dict[int, tuple[object, dict[str, str]]] = {}


def _pragma_macros(design: Design) -> dict[str, str]:
    """Macro name -> where a file of the design defines it with a pragma comment in its body."""
    hit = _FOUND.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    out: dict[str, str] = {}
    for f, text in repository_texts(design):
        if "`define" not in text:
            continue
        for m in _DEFINE.finditer(text):
            if _PRAGMA.search(m.group(2)):
                out.setdefault(m.group(1), f"{f.name}:{text.count(chr(10), 0, m.start()) + 1}")
    if len(_FOUND) > 8:
        _FOUND.clear()
    _FOUND[id(design)] = (design, out)
    return out


def pragma_macro_use(design: Design, candidate: str, reference_texts: list[str]) -> str:
    """Why a change is unchecked because the candidate or a text of the reference's design
    uses a macro whose body holds a synthesis pragma comment, or ""."""
    macros = _pragma_macros(design)
    if not macros:
        return ""
    use = re.compile(rf"`({'|'.join(map(re.escape, sorted(macros)))})(?![\w$])")
    for who, text in [("the candidate", candidate)] + [
        ("the reference", t) for t in reference_texts
    ]:
        m = use.search(text)
        if m:
            return (
                f"{who} uses `{m.group(1)}, whose body ({macros[m.group(1)]}) holds a synthesis "
                "pragma comment: synthesis of the written text reads it (a translate_off drops "
                "what follows), the preprocessed text the proof reads does not"
            )
    return ""
