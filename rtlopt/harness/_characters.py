"""Characters the tools read differently from the screen's lexer (part of the screen of
candidate text, :mod:`rtlopt.harness._screen`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rtlopt.verilog import blank_comments, line_of, scan

#: Characters allowed outside comments and strings: printable ASCII and IEEE white space
#: (NUL is reported on its own).
_FOREIGN_CHAR = re.compile(r"[^\x00\t\n\r\f\x20-\x7e]")


_LONE_CR = re.compile(r"\r(?!\n)")


def _odd_characters(text: str, code: str) -> dict[str, int]:
    """Control and non-ASCII characters outside comments and strings, and escaped identifiers
    ended by a carriage return or form feed (iverilog ends them there, Yosys does not), each
    with its first offset. Keys: the character, or ``"\\" + char`` for an identifier end."""
    found: dict[str, int] = {}
    for m in _FOREIGN_CHAR.finditer(code):
        found.setdefault(m.group(), m.start())
    for kind, start, end in scan(text):
        if kind == "escaped" and end < len(text) and text[end] in "\r\f":
            found.setdefault("\\" + text[end], end)
        elif kind == "comment" and text.startswith("//", start):
            # iverilog and Yosys end a line comment at a lone carriage return, the screen's
            # lexer at a line feed: what follows it would be code the screen never read
            cr = _LONE_CR.search(text, start, min(end + 1, len(text)))
            if cr and cr.start() < end:
                found.setdefault("//\r", cr.start())
    return found


#: A backslash with blanks after it at the end of a line: iverilog continues a macro body
#: there, Yosys ends it (the next line is code to one tool, macro text to the other).
_BACKSLASH_BLANKS = re.compile(r"\\[ \t\r\f\v]+(?=\n|$)")


def continuation_problems(
    text: str, code: str, reference_file: Callable[[], str]
) -> list[tuple[int, str]]:
    """A line ending in a backslash and blanks, where the candidate and the reference's file
    do not have the same ones: the tools disagree on whether it continues a macro, so
    adding, removing or moving one changes what one of them reads."""
    if "\\" not in code:
        return []
    ref = reference_file()
    mine = [m.group() for m in _BACKSLASH_BLANKS.finditer(code)]
    theirs = [m.group() for m in _BACKSLASH_BLANKS.finditer(blank_comments(ref))]
    if mine == theirs:
        return []
    first = _BACKSLASH_BLANKS.search(code)
    return [
        (
            line_of(text, first.start()) if first else 1,
            "a backslash followed by blanks ends a line here or in the reference (iverilog "
            "continues a macro body there, Yosys ends it); keep the repository's lines as they "
            "are, or remove the blanks in a commit of their own",
        )
    ]


def character_problems(
    text: str, code: str, references: Callable[[], Sequence[str]]
) -> list[tuple[int, str]]:
    """Characters the tools read differently from the screen's lexer, unless the reference
    has them already (a copy of the original file is not the candidate's doing): control
    characters other than IEEE white space and non-ASCII characters outside comments and
    strings (a vertical tab inside an escaped identifier hid code from the screen), and escaped
    identifiers ended by a carriage return or form feed. ``references``: the reference
    modules' texts (asked for only when the candidate has such a character)."""
    found = _odd_characters(text, code)
    if not found:
        return []
    allowed: set[str] = set()
    for ref in references():
        allowed |= set(_odd_characters(ref, blank_comments(ref)))
    problems: list[tuple[int, str]] = []
    for key, at in sorted(found.items(), key=lambda kv: kv[1]):
        if key in allowed:
            continue
        ch = key[-1]
        if key == "//\r":
            msg = (
                "carriage return without a line feed in a // comment is not allowed (the "
                "tools end the comment there); end the line with a line feed"
            )
        elif key.startswith("\\"):
            what = "carriage return" if ch == "\r" else "form feed"
            msg = (
                f"escaped identifier ended by a {what} is not allowed (iverilog ends it there, "
                "Yosys does not); end it with a space"
            )
        else:
            kind = "control character" if ord(ch) < 0x80 else "non-ASCII character"
            msg = (
                f"{kind} U+{ord(ch):04X} outside comments and strings is not allowed "
                "(the tools read it differently); remove it"
            )
        problems.append((line_of(text, at), msg))
    return problems
