"""Macro arguments the tools read differently (part of the screen of candidate text,
:mod:`rtlopt.harness._screen`).

A stringified argument (```"x`"``) keeps its line breaks, comments, tabs and blank runs in
Yosys 0.23; iverilog, and the preprocessed text every tool here reads, make one space of each.
``K = `S(p`` / ``  q)`` is ``"p  q"`` to a synthesis run on the written text and ``"p q"`` to
the proof. So an argument a stringification may reach (in the macro's own body, or a macro it
passes the argument on to; every argument of a macro whose definition is not found) must be
written as the reference writes it, or plainly: on one line, single blanks, no comment.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping

from rtlopt.verilog import DIRECTIVES, alternation, blank_comments, line_of

__all__ = [
    "macro_argument_problems",
    "odd_macro_calls",
    "string_argument_uses",
    "stringified_arguments",
    "unbalanced_macro_uses",
    "unbalanced_macros",
]

#: A macro use (a backtick word that is no compiler directive), its argument list next.
_MACRO_CALL = re.compile(rf"`(?!(?:{alternation(DIRECTIVES)})\b)([A-Za-z_]\w*)(\s*)\(")

#: What the tools read differently in a stringified argument, its ends trimmed as Yosys trims
#: them (blanks before it on its first line, white space after it).
_ODD_ARGUMENT = re.compile(r"\n|\t|\r|\f|\v|  |/[/*]")


def _odd(argument: str) -> bool:
    return _ODD_ARGUMENT.search(argument.lstrip(" ").rstrip(" \t\r\n")) is not None


#: A macro definition with an argument list, and the rest (continuation lines included).
_DEFINITION = re.compile(r"`define[ \t]+([A-Za-z_]\w*)\(((?:[^\n]*\\\r?\n)*[^\n]*)")


def _closing(code: str, start: int) -> int:
    """The offset of the ``)`` that closes the ``(`` at ``start`` (``len(code)``: none)."""
    depth = 0
    for k in range(start, len(code)):
        if code[k] in "()":
            depth += 1 if code[k] == "(" else -1
            if depth == 0:
                return k
    return len(code)


def _pieces(code: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the top-level comma-separated pieces of ``code[start:end]``."""
    out: list[tuple[int, int]] = []
    depth, at = 0, start
    for k in range(start, end):
        ch = code[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append((at, k))
            at = k + 1
    out.append((at, end))
    return out


def _definitions(texts: Iterable[str]) -> Iterator[tuple[str, list[str], str]]:
    """``(name, argument names, body)`` of each macro with arguments ``texts`` define."""
    for t in texts:
        for m in _DEFINITION.finditer(blank_comments(t, strings=False)):
            rest = "(" + m.group(2)
            close = _closing(rest, 0)
            params = [
                p.group(1)
                for a, b in _pieces(rest, 1, close)
                if (p := re.match(r"\s*([A-Za-z_]\w*)", rest[a:b]))
            ]
            yield m.group(1), params, rest[close + 1 :]


def stringified_arguments(texts: Iterable[str]) -> dict[str, frozenset[int]]:
    """Macro -> the positions of its arguments a stringification may reach, for each macro
    with arguments ``texts`` define: every argument its body names where the body stringifies
    or pastes (```"``, ````````), and every one it passes on to another macro call. A macro
    defined several times: the union. One not here: every argument (not known)."""
    out: dict[str, set[int]] = {}
    for name, params, body in _definitions(texts):
        regions = [body] if '`"' in body or "``" in body else []
        regions += [
            body[c.end() - 1 : _closing(body, c.end() - 1) + 1] for c in _MACRO_CALL.finditer(body)
        ]
        found = out.setdefault(name, set())
        for i, param in enumerate(params):
            if any(re.search(rf"\b{re.escape(param)}\b", r) for r in regions):
                found.add(i)
    return {k: frozenset(v) for k, v in out.items()}


#: Any macro definition: its name, its argument list if any, and its body.
_ANY_DEFINITION = re.compile(
    r"`define[ \t]+([A-Za-z_]\w*)(\((?:[^)\n]*)\))?((?:[^\n]*\\\r?\n)*[^\n]*)"
)

#: A macro use: a backtick word that is no compiler directive.
_MACRO_USE = re.compile(rf"`(?!(?:{alternation(DIRECTIVES)})\b)([A-Za-z_]\w*)")


def unbalanced_macros(texts: Iterable[str]) -> set[str]:
    """The macros ``texts`` define whose body (comments and strings aside) opens or closes a
    parenthesis it does not close or open."""
    out: set[str] = set()
    for t in texts:
        if "`define" in t:
            for m in _ANY_DEFINITION.finditer(blank_comments(t)):
                if m.group(3).count("(") != m.group(3).count(")"):
                    out.add(m.group(1))
    return out


def unbalanced_macro_uses(text: str, texts: Callable[[], Iterable[str]]) -> list[tuple[int, str]]:
    """Uses in ``text`` of a macro whose body (as ``texts`` define it) opens or closes more
    parentheses than it closes or opens: such a macro builds an argument list with the text
    around its use (```OPEN p  q `CLOSE``), which :func:`odd_macro_calls` cannot see, so its
    use is not allowed in a candidate (asked for only when ``text`` uses a macro)."""
    code = blank_comments(text)
    uses = [(m.start(), m.group(1)) for m in _MACRO_USE.finditer(code)]
    if not uses:
        return []
    unbalanced = unbalanced_macros(texts())
    return [
        (
            line_of(text, at),
            f"macro `{name} opens or closes a parenthesis it does not close or open: its use is "
            "not allowed in a candidate (the argument list it builds with the text around it "
            "is read differently by the tools); write the expression out",
        )
        for at, name in uses
        if name in unbalanced
    ]


def odd_macro_calls(
    text: str, risky: Mapping[str, frozenset[int]] | None = None
) -> list[tuple[int, str]]:
    """``(offset, call)`` of each macro call of ``text`` with a blank before its argument
    list, or an argument a stringification may reach (``risky``: :func:`stringified_arguments`;
    None: every argument) that holds a line break, a comment, a tab or a blank run (blanks
    at its ends aside, which every tool drops)."""
    code = blank_comments(text)
    out: list[tuple[int, str]] = []
    for m in _MACRO_CALL.finditer(code):
        end = _closing(code, m.end() - 1)
        spans = _pieces(code, m.end(), end)
        if risky is not None and m.group(1) in risky:
            spans = [s for i, s in enumerate(spans) if i in risky[m.group(1)]]
        if m.group(2) or any(_odd(text[a:b]) for a, b in spans):
            out.append((m.start(), text[m.start() : end + 1]))
    return out


_ODD_CALL = (
    "a macro call whose stringified arguments hold a line break, a comment, a tab or blanks "
    "in a row is not allowed unless the candidate and the reference have it byte for byte "
    "(Yosys 0.23 keeps them in the string, iverilog does not); write its arguments on one "
    "line with single spaces, or keep the reference's call as it is"
)


def macro_argument_problems(
    text: str,
    reference: Callable[[], tuple[str, str]],
    risky: Callable[[], Mapping[str, frozenset[int]]],
) -> list[tuple[int, str]]:
    """Macro calls (:func:`odd_macro_calls`) the candidate and the reference do not share
    byte for byte: one of the candidate the reference's file (``reference()[0]``) does not
    hold, or one of the reference's module (``reference()[1]``) the candidate does not.
    ``risky``: :func:`stringified_arguments` of the repository's texts (asked for only when
    a call with such an argument is found)."""
    ref_file, ref_module = reference()
    if not odd_macro_calls(text) and not odd_macro_calls(ref_module):
        return []
    known = risky()
    out: list[tuple[int, str]] = []
    for at, call in odd_macro_calls(text, known):
        if call not in ref_file:
            out.append((line_of(text, at), f"{_ODD_CALL} (the reference's file has no such call)"))
    for _, call in odd_macro_calls(ref_module, known):
        if call not in text:
            first = call.split("\n", 1)[0]
            out.append((1, f"{_ODD_CALL} (the reference's call {first!r} is not kept as it is)"))
    return out


#: A plain string literal in a macro body (not the stringification ```"...`"``).
_PLAIN_STRING = re.compile(r'(?<!`)"((?:[^"\\\n]|\\.)*)"')


def _string_argument_macros(texts: Iterable[str]) -> set[str]:
    """Macros whose body names one of their arguments inside a plain string literal
    (```define S(x) "x"``): ``iverilog -E``, whose output every tool here reads, substitutes
    it there; IEEE 1800 (22.5.1), Yosys 0.23 and slang do not. And every macro whose body
    uses one of them."""
    texts = list(texts)
    found: set[str] = set()
    for name, params, body in _definitions(texts):
        strings = [x.group(1) for x in _PLAIN_STRING.finditer(body)]
        if any(re.search(rf"\b{re.escape(n)}\b", x) for n in params for x in strings):
            found.add(name)
    # and every macro whose body uses one (```define K `S(p q)``), to a fixed point
    bodies = [(m.group(1), m.group(3)) for t in texts for m in _ANY_DEFINITION.finditer(t)]
    while True:
        more = {n for n, body in bodies if n not in found and set(_used(body)) & found}
        if not more:
            return found
        found |= more


def _used(text: str) -> list[str]:
    """The macros ``text`` uses (called or not)."""
    return [m.group(1) for m in _MACRO_USE.finditer(text)]


def string_argument_uses(
    text: str, reference: str, texts: Callable[[], Iterable[str]]
) -> list[tuple[int, str]]:
    """Calls, in the candidate ``text`` or the ``reference`` module, of a macro that names an
    argument inside a string literal (:func:`_string_argument_macros` of ``texts``, read only
    when a macro is called): the preprocessed text the proof reads substitutes it, the
    repository's synthesis does not, so neither side can be judged on that text."""
    calls = [(m.start(), m.group(1)) for m in _MACRO_USE.finditer(blank_comments(text))]
    ref_calls = _used(blank_comments(reference))
    if not calls and not ref_calls:
        return []
    bad = _string_argument_macros(texts())
    why = (
        "names its argument inside a string literal: iverilog's preprocessor (the text every "
        "tool here reads) substitutes it there, Yosys and IEEE 1800 do not"
    )
    out = [
        (line_of(text, at), f"macro `{name} {why}; write the string out")
        for at, name in calls
        if name in bad
    ]
    out += [
        (1, f"unchecked: the reference module calls macro `{name}, which {why}")
        for name in dict.fromkeys(ref_calls)
        if name in bad
    ]
    return out
