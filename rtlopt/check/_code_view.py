"""The code of a build text without its comments, as its language reads it, for the gate.

A ``#`` inside a quoted string is no comment (``echo "== regression #2"; iverilog
-DFAST_INV``): the shell runs the rest of the line. So a text's comments are found by the
lexer of the language its name gives (:func:`rtlopt.evaluate._text_lex.lexed`: shell, Make,
Tcl, YAML, Python, TOML, JSON5, Hjson, Verilog), which knows its quoting, here-documents and
continuations. Where no lexer knows the language or it meets a construct it cannot follow,
each line is read on its own (:func:`strip_comment`): a ``#`` is a comment only where a word
starts outside quotes (quotes before it balanced), ``//`` only at the line's start; a ``#``
after an open quote is kept as code (fail closed: more is judged, never less).
"""

from __future__ import annotations

from pathlib import Path

from rtlopt.evaluate._text_lex import lexed
from rtlopt.verilog import blank_spans

__all__ = ["code_view", "strip_comment"]


def code_view(rel: str, text: str) -> str:
    """``text`` with its comments blanked (newlines and offsets kept): by its language's
    lexer, else line by line (:func:`strip_comment`)."""
    found = lexed(Path(rel), text)
    if found is not None:
        return blank_spans(text, found[0])
    return "\n".join(strip_comment(line) for line in text.split("\n"))


def strip_comment(line: str) -> str:
    """``line`` up to its comment, read without knowing the language: a ``#`` where a word
    starts, outside single and double quotes (a backslash escapes the next character outside
    single quotes), or ``//`` starting the line. An unclosed quote keeps the rest."""
    if line.lstrip().startswith("//"):
        return ""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and quote != "'":
            i += 2
            continue
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
        i += 1
    return line
