"""The grammar of a hierarchical name the reach rule (:mod:`._reach`) looks for.

A name *into* the target starts at one of its **anchors** (the target's module name: a root of
a simulation, or ``$root.m``; the name of any instance of it) and goes on through selects
(``u[0]``, ``u[I[0]]``: brackets nest, and a select may hold any expression) and ``.name``
components: ``tb.t.u[I[0]].c``. :class:`Paths` finds every such name in a text (comments
blanked). A function-like macro whose body joins a formal argument with ``.`` (``p.n``,
`` `ROOT.n``) builds such a name from its arguments: :func:`path_builders` lists those macros
and :func:`built_path_uses` the uses whose arguments may name the target's instances or inner
names (fail closed where the expanded text is not known).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

__all__ = [
    "PathMatch",
    "Paths",
    "built_path_uses",
    "macro_argument_words",
    "macro_arguments",
    "path_builders",
    "skip_selects",
    "split_arguments",
]

#: How far a select (``[...]``, nested) may run: a longer one is read as a select anyway.
_SELECT_CHARS = 2000
_NAME = re.compile(r"[A-Za-z_][\w$]*|\\\S+")


def skip_selects(code: str, at: int) -> int:
    """Past the blanks and the selects (``[...]``, brackets nested to any depth) from
    ``at``; an unclosed bracket runs to the end of ``code`` (what follows is read as a
    select: the conservative side)."""
    n = len(code)
    while True:
        while at < n and code[at].isspace():
            at += 1
        if at >= n or code[at] != "[":
            return at
        level, k = 0, at
        stop = min(n, at + _SELECT_CHARS)
        while k < stop:
            if code[k] == "[":
                level += 1
            elif code[k] == "]":
                level -= 1
                if level == 0:
                    break
            k += 1
        at = k + 1


@dataclass(frozen=True)
class PathMatch:
    """A hierarchical name from an anchor: ``group(0)`` its text up to the first component
    after the anchor, ``group(1)`` that component, ``later`` every component after the
    anchor (``tb.t.u.c.d`` from ``u``: ``("c", "d")``), ``anchor`` the anchor's name."""

    text: str
    first: int
    last: int
    anchor: str
    later: tuple[str, ...]

    def start(self) -> int:
        return self.first

    def end(self) -> int:
        return self.last

    def group(self, index: int = 0) -> str:
        return self.text if index == 0 else self.later[0]


class Paths:
    """Every hierarchical name in a text that starts at one of ``anchors`` (an escaped
    spelling, ``\\u .c``, included) and goes on through selects and ``.name``."""

    def __init__(self, anchors: Iterable[str]) -> None:
        names = sorted({a for a in anchors if a})
        alternatives = "|".join(re.escape(a) for a in names)
        self.anchors = frozenset(names)
        self._start = re.compile(rf"(?<![\w$])\\?(?:{alternatives})(?![\w$])") if names else None

    def __bool__(self) -> bool:
        return self._start is not None

    def finditer(self, code: str) -> Iterator[PathMatch]:
        if self._start is None:
            return
        for m in self._start.finditer(code):
            found = self._path(code, m)
            if found is not None:
                yield found

    def search(self, code: str) -> PathMatch | None:
        return next(self.finditer(code), None)

    @staticmethod
    def _path(code: str, m: re.Match[str]) -> PathMatch | None:
        later: list[str] = []
        at = m.end()
        end = 0
        while len(later) < 32:
            k = skip_selects(code, at)
            if k >= len(code) or code[k] != ".":
                break
            k += 1
            while k < len(code) and code[k] in " \t\r\n":
                k += 1
            name = _NAME.match(code, k)
            if name is None:
                break
            later.append(name.group(0))
            at = name.end()
            end = end or at
        if not later:
            return None
        anchor = m.group(0).lstrip("\\")
        return PathMatch(code[m.start() : end], m.start(), end, anchor, tuple(later))


#: ``(name, formals, body)`` of a function-like macro.
_Definition = tuple[str, list[str], str]


def path_builders(definitions: Iterable[_Definition]) -> set[str]:
    """The function-like macros whose body joins a formal argument with ``.`` into a
    hierarchical name (``p.n``, ``p[i].n``, `` `ROOT.n``, ``p``.``n``): a word, a select or a
    macro before the dot and a formal after it, or a formal before it; and those whose body
    hands a formal to such a macro (```define OUTER(p) `AT(p, c)``). A dot after ``(``,
    ``,`` or a blank that follows no name is a named connection (``.p(p)``), no join."""
    defs = list(definitions)
    out: set[str] = set()
    for name, formals, body in defs:
        text = body.replace("``", "")
        for f in formals:
            w = re.escape(f)
            before = re.search(rf"(?<![\w$`]){w}\s*(?:\[[^\n]*?\]\s*)*\.\s*[A-Za-z_\\`]", text)
            after = re.search(rf"(?:[\w$\]\)]|`[A-Za-z_][\w$]*)\s*\.\s*{w}(?![\w$])", text)
            if f and (before or after):
                out.add(name)
                break
    grown = True
    while grown:  # a macro handing a formal on to a builder builds a path too
        grown = False
        for name, formals, body in defs:
            if name in out:
                continue
            if any(m in out and words & set(formals) for _, m, words in macro_argument_words(body)):
                out.add(name)
                grown = True
    return out


def split_arguments(code: str, at: int, limit: int | None = None) -> tuple[list[str], int]:
    """The argument texts of a macro use whose ``(`` is at ``at`` (nesting ``(``, ``[``,
    ``{``; split at the commas outside them; at most ``limit`` characters read) and the
    offset past its ``)``."""
    level, k, cut = 0, at, [at]
    stop = len(code) if limit is None else min(len(code), at + limit)
    while k < stop:
        c = code[k]
        if c in "([{":
            level += 1
        elif c in ")]}":
            level -= 1
            if level == 0:
                break
        elif c == "," and level == 1:
            cut.append(k)
        k += 1
    cut.append(k)
    return [code[a + 1 : b] for a, b in zip(cut, cut[1:], strict=False)], k + 1


def macro_arguments(code: str, macro: str | None = None) -> Iterator[tuple[int, str, list[str]]]:
    """``(offset, macro name, its arguments' texts)`` of every use of a function-like macro
    in ``code`` (of ``macro`` alone when given); arguments nest (``(``, ``[``, ``{``) and are
    split at the commas outside them."""
    pattern = re.escape(macro) if macro else r"[A-Za-z_][\w$]*"
    for m in re.finditer(rf"`({pattern})\s*\(", code):
        yield m.start(), m.group(1), split_arguments(code, m.end() - 1, 8000)[0]


def macro_argument_words(
    code: str, macro: str | None = None
) -> Iterator[tuple[int, str, set[str]]]:
    """``(offset, macro name, the words of its arguments)`` of every use of a function-like
    macro in ``code`` (of ``macro`` alone when given); arguments nest (``(``, ``[``, ``{``)."""
    for at, name, args in macro_arguments(code, macro):
        yield at, name, set(re.findall(r"`?[A-Za-z_][\w$]*", ",".join(args)))


def built_path_uses(code: str, builders: set[str], names: set[str]) -> Iterator[re.Match[str]]:
    """Every use in ``code`` of a macro of ``builders`` whose arguments hold one of ``names``
    (an anchor or an inner name of the target) or another macro (what it expands to is not
    read here), as a match of its text up to the opening parenthesis."""
    for at, macro, words in macro_argument_words(code):
        if macro in builders and (words & names or any(w.startswith("`") for w in words)):
            use = re.compile(rf"`{re.escape(macro)}\s*\(").match(code, at)
            if use is not None:
                yield use
