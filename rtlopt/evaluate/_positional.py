"""Where the repository may connect the target's ports by position.

``rtlopt evaluate`` judges a candidate whose ports are listed in another order than the
reference's in the reference's order (only ``optimize`` writes that order back). The user
applies the candidate as written, so where any text of the repository may instantiate the
target by position (``mux dut(s, a, b, y);``), or names it where rtlopt cannot tell how (a
macro body, an instance it cannot read), the candidate is judged as written: another port
order is refused.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.verilog import skip_parens

__all__ = ["positional_site", "positional_sites"]

log = logging.getLogger(__name__)

_NAME = re.compile(r"\s*(?:[A-Za-z_][\w$]*|\\\S+)\s*(?:\[[^\]]*\]\s*)*\(\s*(.)", re.S)


def positional_sites(name: str, code: str) -> list[int]:
    """The offsets in ``code`` (comments and strings blanked) where ``name`` may be
    instantiated by position, or named where rtlopt cannot tell how (a macro's body)."""
    out = []
    word = re.compile(rf"(?<![\w$.`]){re.escape(name)}(?![\w$])")
    for m in word.finditer(code):
        start = code.rfind("\n", 0, m.start()) + 1
        before = code[start : m.start()]
        if re.search(r"\b(?:module|macromodule|endmodule\s*:)\s*$", before):
            continue
        line_end = code.find("\n", m.end())
        logical = code[start : len(code) if line_end < 0 else line_end]
        if re.match(r"\s*`define\b", logical) or code[start : m.start()].rstrip().endswith("\\"):
            out.append(m.start())  # in a macro's body: any use
            continue
        at = m.end()
        rest = code[at:]
        skip = re.match(r"\s*#\s*\(", rest)
        if skip:
            at = skip_parens(code, at + skip.end() - 1)
        got = _NAME.match(code, at)
        if got is None:
            continue  # no instance: a mention (a type, a name in an expression)
        if got.group(1) not in ".)":
            out.append(m.start())
    return out


def positional_site(design: Design, own: Path | None = None) -> str:
    """``path:line`` of the first text of the repository that may instantiate the target by
    position (see :func:`positional_sites`), or ""."""
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    others, _ = other_texts(design, own)
    return _first(design.target.name, [*repository_texts(design), *others], Path(design.root))


def _first(name: str, texts: Iterable[tuple[Path, str]], root: Path) -> str:
    for path, text in sorted(texts, key=lambda t: str(t[0])):
        if name not in text:
            continue
        from rtlopt.evaluate._tb_x_forms import lexed

        code = lexed(text)
        sites = positional_sites(name, code)
        if sites:
            line = code.count("\n", 0, sites[0]) + 1
            try:
                rel = path.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                rel = path.as_posix()
            log.info("%s: may be instantiated by position at %s:%d", name, rel, line)
            return f"{rel}:{line}"
    return ""
