"""Macro arguments the tools read differently (part of the screen of candidate text,
:mod:`rtlopt.harness._screen`).

A stringified argument (```"x`"``) keeps its line breaks, comments, tabs and blank runs in
Yosys 0.23; iverilog, and the preprocessed text every tool here reads, make one space of each.
``K = `S(p`` / ``  q)`` is ``"p  q"`` to a synthesis run on the written text and ``"p q"`` to
the proof. So a candidate writes an argument a stringification may reach (in the macro's own
body, or a macro it passes the argument on to; every argument of a macro whose definition is
not found) plainly: on one line, single blanks, no comment; and it uses no macro whose body
makes such a call. A reference that makes one anywhere in the texts its design reads (its
submodules, packages and headers too: :mod:`rtlopt.harness._hierarchy`) is two designs, one
per tool: every candidate of it is unchecked (:func:`reference_macro_problems`), as it is
when the reference uses a macro that names its argument inside a string literal, or one
that opens or closes an argument list.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.harness._hierarchy import DesignText, hierarchy_texts, included_texts, macro_texts
from rtlopt.harness._semantics import once_per_design
from rtlopt.verilog import DIRECTIVES, alternation, blank_comments, blank_spans, line_of

__all__ = [
    "design_macro_problems",
    "macro_argument_problems",
    "odd_body_macros",
    "odd_macro_calls",
    "reference_macro_problems",
    "string_argument_uses",
    "stringified_arguments",
    "unbalanced_macro_uses",
    "unbalanced_macros",
    "without_definitions",
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
        for name, params, body in _with_arguments(t):
            yield name, list(params), body


@functools.lru_cache(maxsize=1024)
def _with_arguments(text: str) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """:func:`_definitions` of one text (a repository's texts are read for every candidate)."""
    if "`define" not in text:
        return ()
    out = []
    for m in _DEFINITION.finditer(blank_comments(text, strings=False)):
        rest = "(" + m.group(2)
        close = _closing(rest, 0)
        params = tuple(
            p.group(1)
            for a, b in _pieces(rest, 1, close)
            if (p := re.match(r"\s*([A-Za-z_]\w*)", rest[a:b]))
        )
        out.append((m.group(1), params, rest[close + 1 :]))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _bodies(text: str) -> tuple[tuple[str, str, str], ...]:
    """``(name, body, body with comments and strings blanked)`` of every macro ``text``
    defines (with an argument list or not)."""
    if "`define" not in text:
        return ()
    code = blank_comments(text)
    found = _ANY_DEFINITION.finditer(code)
    return tuple((m.group(1), text[m.start(3) : m.end(3)], m.group(3)) for m in found)


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
    known = {k: frozenset(v) for k, v in out.items()}
    return known | dict.fromkeys(_plain_macros(texts) - known.keys(), PLAIN)


#: :func:`stringified_arguments`' mark of a macro defined without an argument list, whose body
#: uses no macro (held-out gate trial 53: ZipCPU's ```define ASSUME assume``): what follows a
#: use in parentheses is text after the macro, no argument list, and reads alike everywhere.
PLAIN = frozenset({-1})


def _plain_macros(texts: Iterable[str]) -> set[str]:
    """The macros every definition of which in ``texts`` has no argument list and a body
    that uses no macro."""
    plain: set[str] = set()
    other: set[str] = set()
    for t in texts:
        if "`define" not in t:
            continue
        for m in _ANY_DEFINITION.finditer(blank_comments(t)):
            (other if m.group(2) or "`" in m.group(3) else plain).add(m.group(1))
    return plain - other


#: Any macro definition: its name, its argument list if any, and its body.
_ANY_DEFINITION = re.compile(
    r"`define[ \t]+([A-Za-z_]\w*)(\((?:[^)\n]*)\))?((?:[^\n]*\\\r?\n)*[^\n]*)"
)

#: A macro use: a backtick word that is no compiler directive.
_MACRO_USE = re.compile(rf"`(?!(?:{alternation(DIRECTIVES)})\b)([A-Za-z_]\w*)")


def unbalanced_macros(texts: Iterable[str]) -> set[str]:
    """The macros ``texts`` define whose body (comments and strings aside) opens or closes a
    parenthesis it does not close or open."""
    return {
        name for t in texts for name, _, body in _bodies(t) if body.count("(") != body.count(")")
    }


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
        if risky is not None and risky.get(m.group(1)) == PLAIN:
            continue
        end = _closing(code, m.end() - 1)
        spans = _pieces(code, m.end(), end)
        if risky is not None and m.group(1) in risky:
            spans = [s for i, s in enumerate(spans) if i in risky[m.group(1)]]
        if m.group(2) or any(_odd(text[a:b]) for a, b in spans):
            out.append((m.start(), text[m.start() : end + 1]))
    return out


_ODD_CALL = (
    "a macro call whose stringified arguments hold a line break, a comment, a tab or blanks "
    "in a row (or with a blank before its argument list) is read differently by the tools "
    "(Yosys 0.23 keeps them in the string, iverilog and the text the proof reads do not)"
)


def _definition_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s macro definitions (continuation lines included)."""
    return [(m.start(), m.end()) for m in _ANY_DEFINITION.finditer(blank_comments(text))]


def without_definitions(text: str) -> str:
    """``text`` with its macro definitions blanked (offsets and lines kept): a definition is
    judged where a text uses its macro (:func:`odd_body_macros`,
    :func:`_string_argument_macros`)."""
    return blank_spans(text, _definition_spans(text)) if "`define" in text else text


def _repository_definitions_blanked(text: str, repository: list[str]) -> str:
    """``text`` with each macro definition blanked that a ``repository`` text holds byte
    for byte."""
    spans = _definition_spans(text) if "`define" in text else []
    if not spans:
        return text
    known = {t[a:b] for t in repository if "`define" in t for a, b in _definition_spans(t)}
    return blank_spans(text, [(a, b) for a, b in spans if text[a:b] in known])


def odd_body_macros(texts: Iterable[str], risky: Mapping[str, frozenset[int]]) -> set[str]:
    """The macros ``texts`` define whose body makes an odd call (:func:`odd_macro_calls`:
    ```define K `Q(p  q)``, read ``"p  q"`` by Yosys 0.23 and ``"p q"`` by iverilog), and
    every macro whose body uses one of them, to a fixed point."""
    bodies = [(name, body) for t in texts for name, body, _ in _bodies(t)]
    found = {name for name, body in bodies if odd_macro_calls(body, risky)}
    while True:
        more = {n for n, body in bodies if n not in found and set(_used(body)) & found}
        if not more:
            return found
        found |= more


def macro_argument_problems(text: str, texts: Callable[[], Iterable[str]]) -> list[tuple[int, str]]:
    """Macro calls of the candidate ``text`` the tools read differently: an odd call
    (:func:`odd_macro_calls`), or a use of a macro whose body makes one
    (:func:`odd_body_macros`). ``texts``: the repository's texts, for the macros'
    definitions (read only when ``text`` uses a macro). There is no exemption for a call the
    reference makes too: the same call, used otherwise, gives another design to Yosys than to
    the proof (``K == "p q"``); a reference that makes one is unchecked
    (:func:`reference_macro_problems`). The candidate's own macro definitions are judged as
    written (a directive line it keeps is matched with its blanks collapsed, and its macros
    reach the files read after it), unless a repository text has the same one byte for byte
    (then it is judged where it is used, as the reference's)."""
    if not _MACRO_USE.search(blank_comments(text)):
        return []
    defs = list(texts())
    code = _repository_definitions_blanked(text, [t for t in defs if t is not text])
    uses = [(m.start(), m.group(1)) for m in _MACRO_USE.finditer(blank_comments(code))]
    known = stringified_arguments(defs)
    odd = odd_body_macros(defs, known)
    out = [
        (line_of(text, at), f"{_ODD_CALL}; write its arguments on one line with single spaces")
        for at, _ in odd_macro_calls(code, known)
    ]
    out += [
        (line_of(text, at), f"macro `{name} makes such a call in its body: {_ODD_CALL}")
        for at, name in uses
        if name in odd
    ]
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
    bodies = [(name, body) for t in texts for name, body, _ in _bodies(t)]
    while True:
        more = {n for n, body in bodies if n not in found and set(_used(body)) & found}
        if not more:
            return found
        found |= more


def _used(text: str) -> list[str]:
    """The macros ``text`` uses (called or not)."""
    return [m.group(1) for m in _MACRO_USE.finditer(text)]


#: Why a string-substituting macro is not judged (:func:`_string_argument_macros`).
_WHY_STRING = (
    "names its argument inside a string literal: iverilog's preprocessor (the text every "
    "tool here reads) substitutes it there, Yosys and IEEE 1800 do not"
)


def string_argument_uses(text: str, texts: Callable[[], Iterable[str]]) -> list[tuple[int, str]]:
    """Calls, in the candidate ``text``, of a macro that names an argument inside a string
    literal (:func:`_string_argument_macros` of ``texts``, read only when a macro is
    called): the preprocessed text the proof reads substitutes it, the repository's
    synthesis does not, so the candidate cannot be judged on that text (in its own macro
    definitions too, as :func:`macro_argument_problems`)."""
    code = blank_comments(text)
    calls = [(m.start(), m.group(1)) for m in _MACRO_USE.finditer(code)]
    if not calls:
        return []
    bad = _string_argument_macros(texts())
    return [
        (line_of(text, at), f"macro `{name} {_WHY_STRING}; write the string out")
        for at, name in calls
        if name in bad
    ]


def _first_problem(
    code: str, risky: Mapping[str, frozenset[int]], kinds: list[tuple[set[str], str]]
) -> tuple[int, str] | None:
    """What the tools read differently in ``code`` (a design text, its definitions blanked),
    first by offset, as ``(offset, message)``: an odd call, or a use of a macro of one of
    ``kinds`` (``(names, why)``)."""
    found: list[tuple[int, str]] = [
        (at, f"makes the call {call.split(chr(10), 1)[0]!r}: {_ODD_CALL}")
        for at, call in odd_macro_calls(code, risky)[:1]
    ]
    for m in _MACRO_USE.finditer(blank_comments(code)):
        why = next((w for names, w in kinds if m.group(1) in names), None)
        if why is not None:
            found.append((m.start(), f"uses macro `{m.group(1)}, {why}"))
            break
    return min(found) if found else None


def reference_macro_problems(
    design_texts: Sequence[DesignText],
    unfollowed: Sequence[tuple[Path, int, str]],
    texts: Callable[[], Iterable[str]],
    reading: Callable[[str], str] = lambda code: code,
) -> list[tuple[int, str]]:
    """The first macro use of the reference's hierarchy (``design_texts``: every text the
    design reads, :func:`rtlopt.harness._hierarchy.hierarchy_texts`) that the tools read
    differently (an odd call, a macro whose body makes one, a string-substituting macro, an
    unbalanced macro), as an "unchecked" problem on the candidate's line 1: a proof on the
    one reading says nothing of the other, whatever the candidate keeps. An include named
    by a macro (``unfollowed``) cannot be judged: unchecked too. ``texts``: the macros'
    definitions (read only when a design text uses a macro). ``reading``: the text as the
    hardware builds read it (a branch only formal verification takes, blanked: its macro
    calls are no build's design, held-out gate trial 53's ```ASSUME(...)``)."""
    for path, line, directive in unfollowed[:1]:
        return [
            (
                1,
                f"unchecked: the reference design, {path.name} line {line}, {directive} names "
                "its header by a macro: the macro calls it holds cannot be judged",
            )
        ]
    codes = [(d, reading(without_definitions(d.text))) for d in design_texts]
    codes = [(d, c) for d, c in codes if _MACRO_USE.search(blank_comments(c))]
    if not codes:
        return []
    defs = list(texts())
    risky = stringified_arguments(defs)
    kinds = [
        (odd_body_macros(defs, risky), f"whose body makes an odd call: {_ODD_CALL}"),
        (_string_argument_macros(defs), f"which {_WHY_STRING}"),
        (unbalanced_macros(defs), "which opens or closes a parenthesis it does not close or open"),
    ]
    for d, code in codes:
        hit = _first_problem(code, risky, kinds)
        if hit is not None:
            line = d.line + code.count("\n", 0, hit[0])
            return [(1, f"unchecked: the reference design, {d.path.name} line {line}, {hit[1]}")]
    return []


def _header_problems(
    own: str, design: Design, texts: Callable[[], list[str]]
) -> list[tuple[int, str]]:
    """The candidate rules on the headers the candidate ``own`` includes (a header only a
    module outside the reference's hierarchy includes is judged nowhere else)."""
    found = included_texts(own, design)
    out = [
        (1, f"{directive} names its header by a macro: the macro calls it holds cannot be judged")
        for _, _, directive in found.unfollowed
    ]
    for h in found.texts:
        rules = (macro_argument_problems, unbalanced_macro_uses, string_argument_uses)
        for line, msg in (hit for rule in rules for hit in rule(h.text, texts)):
            out.append((1, f"the header {h.path.name} the candidate includes, line {line}: {msg}"))
    return out


_REFERENCES: dict[int, tuple[object, list[tuple[int, str]]]] = {}


def design_macro_problems(own: str, design: Design) -> list[tuple[int, str]]:
    """Macro calls the tools read differently, in the candidate's own text ``own`` and the
    headers it includes (screened), and in the texts the reference's design reads (every
    candidate unchecked: :func:`reference_macro_problems`, once per design)."""
    read: list[str] = []

    def texts() -> list[str]:  # the macros' definitions, read once for all the rules
        if not read:
            read.extend([own, *macro_texts(design)])
            read.extend(t.text for t in hierarchy_texts(design).texts)
        return read

    from rtlopt.harness._verification_only import hardware_reading

    def hardware(code: str) -> str:
        return hardware_reading(design, code)

    def reference() -> list[tuple[int, str]]:
        found = hierarchy_texts(design)
        defs = lambda: [*macro_texts(design), *(t.text for t in found.texts)]  # noqa: E731
        return reference_macro_problems(found.texts, found.unfollowed, defs, hardware)

    mine = hardware(own)
    return [
        *macro_argument_problems(mine, texts),
        *unbalanced_macro_uses(mine, texts),
        *string_argument_uses(mine, texts),
        *_header_problems(own, design, texts),
        *once_per_design(_REFERENCES, design, reference),
    ]
