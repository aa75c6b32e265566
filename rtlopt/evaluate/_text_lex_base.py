"""The lexers' shared parts (:mod:`._text_lex`, :mod:`._text_lex_scripts`): what a lexer
returns, how it gives up, and the end of a quoted string."""

from __future__ import annotations

__all__ = ["Lexed", "Unsure", "quoted_end"]

#: ``(comments, strings)``: the spans ``(start, end)`` of the comments (from the marker to
#: the end of the comment, the newline excluded) and of the one-line double-quoted strings
#: (quotes included).
Lexed = tuple[list[tuple[int, int]], list[tuple[int, int]]]


class Unsure(Exception):
    """A construct the lexer cannot follow: nothing of the file is a comment or string."""


def quoted_end(text: str, i: int, quote: str) -> int:
    """The offset past the string opened by ``quote`` at ``i`` (``\\`` escapes a
    character, a backslash-newline continues it; a raw newline ends nothing: unsure)."""
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == quote:
            return j + 1
        elif text[j] == "\n":
            raise Unsure("a string broken by a newline")
        else:
            j += 1
    raise Unsure("an unterminated string")
