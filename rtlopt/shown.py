"""Text derived from a candidate or a repository, made safe to show.

A module name (an escaped identifier holds any printable character), a comment, a file path
or a reason quoting either reaches a Markdown page (the ``check --summary`` pull-request
comment, ``report.md``, the pull-request body) and the terminal. Shown raw, ``|`` forges a
table cell, a backtick closes a code span, ``<img onerror=...>`` is HTML, ``[x](y)`` is a
link, and ``ESC[2J`` or a carriage return repaints the terminal. :func:`md_text` and
:func:`md_code` make such text inert in Markdown; :func:`terminal_text` strips what a
terminal would obey (the CLI escapes rich's markup on top: ``rtlopt.cli._common.shown``).
"""

from __future__ import annotations

import re

__all__ = ["md_code", "md_text", "short_value", "terminal_text"]

# C0 and C1 controls and DEL, and the Unicode marks that reorder or hide text (bidirectional
# overrides and isolates, line and paragraph separators)
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]")
_MD_SPECIAL = re.compile(r"([\\`|\[\]])")


def terminal_text(text: object, *, lines: bool = False) -> str:
    """``text`` with every control character (ESC, CR, BEL, backspace...) and every
    text-reordering mark replaced by a space: on one line, or with ``lines`` keeping its line
    breaks (``\\n`` only)."""
    if lines:
        return "\n".join(_CONTROLS.sub(" ", part) for part in str(text).split("\n"))
    return _CONTROLS.sub(" ", str(text))


def md_text(text: object) -> str:
    """``text`` as inert Markdown inline text (also a table cell): one line, no controls,
    ``&``, ``<`` and ``>`` as entities (no HTML), and the characters that start a code span,
    a link or an image or end a table cell behind a backslash."""
    s = terminal_text(text)
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", s)


def md_code(text: object) -> str:
    """``text`` as a Markdown code span that no backtick in it can close: the fence is one
    backtick longer than its longest run, ``|`` is escaped for table cells (GitHub reads
    ``\\|`` in a cell as ``|``), and controls are blanked."""
    s = terminal_text(text).replace("|", "\\|")
    runs = [len(r) for r in re.findall("`+", s)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip() else ""
    return f"{fence}{pad}{s}{pad}{fence}"


#: A simulated value wider than this many binary digits is shown shortened.
VALUE_DIGITS = 64
_DIGITS = {2: re.compile(r"[01xzXZ]+"), 16: re.compile(r"[0-9a-fA-FxzXZ]+")}


def short_value(value: object, radix: int = 2) -> str:
    """A simulated value as a line shows it: up to :data:`VALUE_DIGITS` bits as it is; a
    wider binary one (``radix`` 2) as its width and hex digits when it holds no x or z, its
    middle elided past 32 of them (``4000'h00000000...0000000000000001``), or, holding x or
    z, its first and last binary digits; a wider hex one (``radix`` 16, the inputs) its
    first and last hex digits (a 4000-bit value filled three screens)."""
    text = str(value)
    bits = len(text) * (4 if radix == 16 else 1)
    if bits <= VALUE_DIGITS or not _DIGITS[radix].fullmatch(text):
        return text
    if radix == 2 and set(text) <= {"0", "1"}:
        text, radix = f"{int(text, 2):0{(len(text) + 3) // 4}x}", 16
    if radix == 16:
        shown = text if len(text) <= 32 else f"{text[:8]}...{text[-16:]}"
        return f"{bits}'h{shown}"
    return f"{bits}'b{text[:16]}...{text[-32:]}"
