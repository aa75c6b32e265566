"""Frontend-independent text helpers: module spans and header comments.

These work on raw source text with a small lexer that blanks out comments and strings, so they
never need include files or defines. Write-back uses them to re-locate a module in another
version of a file; both parser frontends use them for ``Module.start``/``end`` so that the two
agree to the character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ModuleSpan", "blank_comments", "find_span", "header_comment", "module_spans", "splice_module",
]

_MODULE_RE = re.compile(r"\b(module|macromodule|endmodule)\b")
_NAME_RE = re.compile(r"\s*(?:(?:static|automatic)\s+)?(\\\S+|[A-Za-z_][A-Za-z0-9_$]*)")


@dataclass(frozen=True)
class ModuleSpan:
    """Where one module sits in a text.

    Attributes:
        name: Module name.
        start: Offset of the ``module`` keyword.
        end: Offset just past ``endmodule``.
        line: 1-based line of the ``module`` keyword.
    """

    name: str
    start: int
    end: int
    line: int


def blank_comments(text: str) -> str:
    """The text with comments and string literals replaced by spaces (newlines kept).

    The result has the same length as the input, so offsets carry over.
    """
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out)


def module_spans(text: str) -> list[ModuleSpan]:
    """Every ``module``..``endmodule`` span of a text, in order (nested modules included).

    Modules inside ``ifdef`` branches are all reported; callers pick by name and line.
    """
    clean = blank_comments(text)
    spans: list[ModuleSpan] = []
    stack: list[tuple[str, int]] = []
    for m in _MODULE_RE.finditer(clean):
        # a backslash-escaped identifier or `module written as a macro name is not a keyword
        if m.start() > 0 and clean[m.start() - 1] in "`\\$":
            continue
        if m.group(1) == "endmodule":
            if stack:
                name, start = stack.pop()
                spans.append(ModuleSpan(name, start, m.end(), text.count("\n", 0, start) + 1))
            continue
        nm = _NAME_RE.match(clean, m.end())
        if nm is None:
            continue
        stack.append((nm.group(1), m.start()))
    spans.sort(key=lambda s: s.start)
    return spans


def find_span(text: str, name: str, line: int | None = None) -> ModuleSpan | None:
    """The span of module ``name``; the one nearest ``line`` when several have that name."""
    cands = [s for s in module_spans(text) if s.name == name]
    if not cands:
        return None
    if line is None:
        return cands[0]
    return min(cands, key=lambda s: abs(s.line - line))


def splice_module(text: str, span: ModuleSpan, new_module_text: str) -> str:
    """Replace the span's ``module``..``endmodule`` with new text, keeping everything else."""
    new = new_module_text.strip()
    return text[: span.start] + new + text[span.end:]


def _comment_lines_above(lines: list[str], idx: int) -> list[str]:
    """Contiguous comment lines directly above line index ``idx`` (blank lines allowed between)."""
    block: list[str] = []
    i = idx - 1
    in_block = False
    while i >= 0:
        s = lines[i].strip()
        if in_block:
            block.append(lines[i])
            if "/*" in s:
                in_block = False
            i -= 1
            continue
        if s.endswith("*/"):
            block.append(lines[i])
            if "/*" not in s:
                in_block = True
            i -= 1
            continue
        if s.startswith("//"):
            block.append(lines[i])
            i -= 1
            continue
        if s == "" and block:
            # a blank line ends the block only if another blank line or code follows above
            j = i - 1
            if j >= 0 and (lines[j].strip().startswith("//") or lines[j].strip().endswith("*/")):
                i -= 1
                continue
            break
        if s == "":
            i -= 1
            continue
        break
    block.reverse()
    return block


def _leading_comments(text: str) -> str:
    """Comments at the very top of the file, before any code."""
    clean = blank_comments(text)
    stripped = clean.lstrip()
    first_code = len(clean) - len(stripped)
    return text[:first_code].strip()


def header_comment(text: str, start: int) -> str:
    """The file's leading comments plus the comment block right above ``module`` at ``start``.

    Either part may be empty; when they are the same block it appears once.
    """
    lines = text[:start].split("\n")
    # the module keyword's own line may carry text before it (rare); ignore that part
    above = "\n".join(_comment_lines_above(lines, len(lines) - 1)).strip()
    lead = _leading_comments(text)
    # leading comments that extend into code (directives like `timescale) stop at the first code
    parts: list[str] = []
    if lead and lead not in above:
        parts.append(lead)
    if above:
        parts.append(above)
    return "\n\n".join(parts)
