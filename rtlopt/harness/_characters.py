"""Characters the tools read differently from the screen's lexer (part of the screen of
candidate text, :mod:`rtlopt.harness._screen`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from rtlopt.verilog import DIRECTIVES, alternation, blank_comments, line_of, scan

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


#: A macro use (a backtick word that is no compiler directive), its argument list next.
_MACRO_CALL = re.compile(rf"`(?!(?:{alternation(DIRECTIVES)})\b)[A-Za-z_]\w*\s*\(")

#: What tools read differently in a macro argument: Yosys 0.23 keeps a stringified
#: argument's line breaks, comments and blank runs, iverilog (and the preprocessed text every
#: tool here reads) one space for each.
_ODD_ARGUMENT = re.compile(r"\n|\t|\r|\f|\v|  |/[/*]")


#: A macro definition with an argument list, and its body (continuation lines included).
_DEFINITION = re.compile(r"`define[ \t]+([A-Za-z_]\w*)\(((?:[^\n]*\\\r?\n)*[^\n]*)")


def plain_macros(texts: Iterable[str]) -> set[str]:
    """The macros with arguments every definition in ``texts`` of which has a body without a
    backtick: no stringification (```"``) and no other macro to pass an argument on to."""
    plain: set[str] = set()
    other: set[str] = set()
    for t in texts:
        for m in _DEFINITION.finditer(blank_comments(t, strings=False)):
            (other if "`" in m.group(2) else plain).add(m.group(1))
    return plain - other


def odd_macro_calls(text: str) -> list[tuple[int, str]]:
    """``(offset, call)`` of each macro call of ``text`` whose argument list holds a line
    break, a comment, a tab or a run of blanks."""
    code = blank_comments(text)
    out: list[tuple[int, str]] = []
    for m in _MACRO_CALL.finditer(code):
        depth, end = 0, len(code)
        for k in range(m.end() - 1, len(code)):
            if code[k] in "()":
                depth += 1 if code[k] == "(" else -1
                if depth == 0:
                    end = k + 1
                    break
        call = text[m.start() : end]
        if _ODD_ARGUMENT.search(call):
            out.append((m.start(), call))
    return out


_ODD_CALL = (
    "a macro call whose arguments hold a line break, a comment, a tab or blanks in a row is "
    "not allowed unless the candidate and the reference have it byte for byte (a stringified "
    "argument keeps them in Yosys 0.23, not in iverilog); write its arguments on one line "
    "with single spaces, or keep the reference's call as it is"
)


def macro_argument_problems(
    text: str, reference: Callable[[], tuple[str, str]], plain: Callable[[], set[str]]
) -> list[tuple[int, str]]:
    """Macro calls (:func:`odd_macro_calls`) the candidate and the reference do not share
    byte for byte: one of the candidate the reference's file (``reference()[0]``) does not
    hold, or one of the reference's module (``reference()[1]``) the candidate does not. A
    stringified argument (```"x`"``) keeps its line breaks, comments and blank runs in Yosys
    0.23, not in iverilog (nor in the preprocessed text the tools here read), so the value
    depends on the tool. ``plain``: the macros whose bodies neither stringify nor pass an
    argument on (:func:`plain_macros`; asked for only when such a call is found)."""
    ref_file, ref_module = reference()
    mine, theirs = odd_macro_calls(text), odd_macro_calls(ref_module)
    if not mine and not theirs:
        return []
    names = plain()
    out: list[tuple[int, str]] = []
    for at, call in mine:
        if _name(call) not in names and call not in ref_file:
            out.append((line_of(text, at), f"{_ODD_CALL} (the reference's file has no such call)"))
    for _, call in theirs:
        if _name(call) not in names and call not in text:
            first = call.split("\n", 1)[0]
            out.append((1, f"{_ODD_CALL} (the reference's call {first!r} is not kept as it is)"))
    return out


def _name(call: str) -> str:
    return re.split(r"[\s(]", call[1:], maxsplit=1)[0]
