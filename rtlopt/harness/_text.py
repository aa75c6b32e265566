"""Source-text helpers: blanking comments and strings, renaming modules with word boundaries."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_ESCAPED = re.compile(r"\\\S+")


def _scan(text: str) -> Iterator[tuple[str, int, int]]:
    """Comments and string literals of Verilog text: ``(kind, start, end)`` spans.

    ``kind`` is ``comment`` (``//`` to the end of the line or ``/* ... */``, delimiters
    included) or ``string`` (the characters between the quotes). Escaped identifiers are
    skipped whole, so a quote or ``//`` inside one is literal.
    """
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield "comment", i, j
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            yield "comment", i, j
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j, n - 1)
            yield "string", i + 1, j
            i = j + 1
        elif c == "\\":  # escaped identifier: skip to whitespace so a quote inside is literal
            m = _ESCAPED.match(text, i)
            i = m.end() if m else i + 1
        else:
            i += 1


def blank_comments(text: str, *, strings: bool = True) -> str:
    """Replace comments (and, by default, string literals) with spaces.

    Newlines are kept so that character offsets and line numbers stay the same as in ``text``.
    String literals keep their quotes so that constructs such as ``import "DPI-C"`` can still be
    recognised by their shape.

    Args:
        text: Verilog source.
        strings: Also blank the contents of string literals.
    """
    out = list(text)
    for kind, a, b in _scan(text):
        if kind == "string" and not strings:
            continue
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "
    return "".join(out)


def comments(text: str) -> list[tuple[int, str]]:
    """Every comment of ``text`` as ``(offset, text with its delimiters)``, in order."""
    return [(a, text[a:b]) for kind, a, b in _scan(text) if kind == "comment"]


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


def _skip_ws(code: str, i: int) -> int:
    n = len(code)
    while i < n and code[i].isspace():
        i += 1
    return i


def _skip_parens(code: str, i: int) -> int:
    """``code[i]`` is ``(``; return the offset just past the matching ``)``."""
    depth = 0
    n = len(code)
    while i < n:
        if code[i] == "(":
            depth += 1
        elif code[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _skip_brackets(code: str, i: int) -> int:
    while i < len(code) and code[i] == "[":
        j = code.find("]", i)
        if j < 0:
            return len(code)
        i = _skip_ws(code, j + 1)
    return i


def module_name_sites(code: str, names: Iterable[str]) -> list[tuple[int, int, str]]:
    """Where ``names`` occur as module names: declarations, instantiations, end labels.

    Args:
        code: Source with comments and strings blanked (see :func:`blank_comments`).
        names: Module names of interest.

    Returns:
        ``(start, end, name)`` spans, sorted by start.
    """
    wanted = set(names)
    sites: list[tuple[int, int, str]] = []
    if not wanted:
        return sites
    prev_word = ""
    prev_end = 0
    for m in _IDENT.finditer(code):
        word = m.group(0)
        start, end = m.start(), m.end()
        if start > 0 and code[start - 1] in "`$\\.":
            prev_word, prev_end = word, end
            continue
        if word in wanted:
            between = code[prev_end:start]
            if prev_word in ("module", "macromodule") and not between.strip():
                sites.append((start, end, word))
            elif prev_word == "endmodule" and between.strip() == ":":
                sites.append((start, end, word))
            elif _is_instantiation(code, end):
                sites.append((start, end, word))
        prev_word, prev_end = word, end
    return sites


def _is_instantiation(code: str, i: int) -> bool:
    """Does the text after a type name look like ``#(...) inst [..] (`` or ``inst (``?"""
    i = _skip_ws(code, i)
    if i < len(code) and code[i] == "#":
        i = _skip_ws(code, i + 1)
        if i < len(code) and code[i] == "(":
            i = _skip_ws(code, _skip_parens(code, i))
        else:
            m = re.compile(r"[\w.]+").match(code, i)
            if not m:
                return False
            i = _skip_ws(code, m.end())
    m = _IDENT.match(code, i) or _ESCAPED.match(code, i)
    if not m:
        return False
    i = _skip_ws(code, m.end())
    i = _skip_brackets(code, i)
    return i < len(code) and code[i] == "("


def rename_modules(text: str, mapping: Mapping[str, str]) -> str:
    """Rename module declarations, instantiation type names and end labels.

    Signals, ports and instance names that happen to share a module's name are left alone.

    Args:
        text: Verilog source.
        mapping: Old module name to new module name.
    """
    code = blank_comments(text)
    sites = module_name_sites(code, mapping)
    parts: list[str] = []
    last = 0
    for start, end, name in sites:
        parts.append(text[last:start])
        parts.append(mapping[name])
        last = end
    parts.append(text[last:])
    return "".join(parts)
