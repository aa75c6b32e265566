"""Several readings of one Verilog text at once, for the simulators' readings.

Every design is read with ``SYNTHESIS`` defined (``frontend._sources.CONTEXT_DEFINES``), but
a simulator reads the same text without it (and with its own macro: ``__ICARUS__``,
``VERILATOR``, ...). :func:`walk` reads a text in several macro states together, following
```include`` and applying ```define`` / ```undef`` in each reading where they stand, and
reports each stretch of text with the readings that take it. :func:`definitions` collects
the bodies each reading gives the design's macros (the design's files in order, the headers
they include followed).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.verilog import (
    PREPROCESSOR_DIRECTIVES,
    alternation,
    blank_comments,
    directive_line_end,
)

__all__ = ["Bodies", "Event", "Reading", "blanked", "definitions", "resolver", "walk"]

_DIRECTIVE = re.compile(rf"`({alternation(PREPROCESSOR_DIRECTIVES)})\b")
_ARGUMENT = re.compile(r"[ \t]*([A-Za-z_][\w$]*)?")
_INCLUDE_NAME = re.compile(r'[ \t]*"([^"\n]+)"|[ \t]*<([^>\n]+)>')

#: A macro's bodies: every definition a reading reaches (usually one).
Bodies = dict[str, frozenset[str]]

#: Headers followed at most this deep.
MAX_DEPTH = 12


@dataclass
class Reading:
    """One macro state walked: the defined macros and the bodies given so far."""

    defined: set[str]
    bodies: dict[str, set[str]] = field(default_factory=dict)
    #: where each macro was last defined (file, line)
    where: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: the macros the conditionals walked test
    tested: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Event:
    """A stretch of text (``kind`` "text"), a macro definition ("define": ``name`` and
    ``text`` its body), or an include ("include": ``name`` the header, ``text`` its path or
    "" when not found), with the readings that take it (one flag per reading), the file
    and the line it starts on."""

    kind: str
    text: str
    taken: tuple[bool, ...]
    file: str
    line: int
    name: str = ""


def body_of(definition: str) -> str:
    """The body of a ```define``'s text after its name (the formal list dropped, line
    continuations joined)."""
    text = definition.replace("\\\n", "\n")
    if text.startswith("("):
        depth = 0
        for i, ch in enumerate(text):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                return text[i + 1 :].strip()
    return text.strip()


def _branch(
    kind: str,
    arg: str,
    stack: list[tuple[tuple[bool, ...], tuple[bool, ...]]],
    active: tuple[bool, ...],
    readings: Sequence[Reading],
) -> tuple[bool, ...]:
    """Which readings read on after the conditional directive ``kind`` (``stack`` updated: per
    open conditional, the readings active around it and those a branch of it took).

    Raises:
        ValueError: an ```elsif``, ```else`` or ```endif`` without its ```ifdef``.
    """
    if kind in ("ifdef", "ifndef"):
        taken = tuple((arg in r.defined) == (kind == "ifdef") for r in readings)
        stack.append((active, taken))
        return tuple(o and t for o, t in zip(active, taken, strict=True))
    if not stack:
        raise ValueError(f"`{kind} without `ifdef")
    if kind == "endif":
        return stack.pop()[0]
    outer, taken = stack[-1]
    now = tuple(
        not t and (kind == "else" or arg in r.defined) for t, r in zip(taken, readings, strict=True)
    )
    stack[-1] = (outer, tuple(t or w for t, w in zip(taken, now, strict=True)))
    return tuple(o and w for o, w in zip(outer, now, strict=True))


def walk(
    code: str,
    readings: Sequence[Reading],
    *,
    file: str = "",
    resolve: Callable[[str, str], Path | None] | None = None,
    depth: int = 0,
) -> Iterator[Event]:
    """The events of ``code`` (comments blanked) read in each of ``readings`` together
    (their states updated in place); an include a reading takes is followed when ``resolve``
    (the header's name, the including file) finds it.

    Raises:
        ValueError: unbalanced conditionals.
    """
    n = len(readings)
    stack: list[tuple[tuple[bool, ...], tuple[bool, ...]]] = []
    active: tuple[bool, ...] = (True,) * n
    pos = 0

    def line(at: int) -> int:
        return code.count("\n", 0, at) + 1

    for m in _DIRECTIVE.finditer(code):
        if m.start() < pos:
            continue
        if any(active) and code[pos : m.start()].strip():
            yield Event("text", code[pos : m.start()], active, file, line(pos))
        kind, arg, start, pos = m.group(1), "", m.start(), m.end()
        if kind in ("ifdef", "ifndef", "elsif", "undef", "define"):
            a = _ARGUMENT.match(code, pos)
            assert a is not None
            arg, pos = a.group(1) or "", a.end()
        if kind in ("ifdef", "ifndef", "elsif"):
            for r in readings:
                r.tested.add(arg)
        if kind in ("ifdef", "ifndef", "elsif", "else", "endif"):
            active = _branch(kind, arg, stack, active, readings)
        elif kind == "define":
            end = directive_line_end(code, pos)
            body = body_of(code[pos:end])
            for on, r in zip(active, readings, strict=True):
                if on:
                    r.defined.add(arg)
                    r.bodies.setdefault(arg, set()).add(body)
                    r.where[arg] = (file, line(start))
            if any(active):
                yield Event("define", body, active, file, line(start), arg)
            pos = end
        elif kind == "undef":
            for on, r in zip(active, readings, strict=True):
                if on:
                    r.defined.discard(arg)
        elif kind == "undefineall":
            for on, r in zip(active, readings, strict=True):
                if on:
                    r.defined.clear()
        elif kind == "include":
            inc = _INCLUDE_NAME.match(code, pos)
            name = "" if inc is None else (inc.group(1) or inc.group(2))
            pos = pos if inc is None else inc.end()
            if not any(active):
                continue
            found = resolve(name, file) if resolve and name else None
            yield Event("include", str(found or ""), active, file, line(start), name)
            if found is None or depth >= MAX_DEPTH:
                continue
            try:
                header = blanked(found)
            except OSError:
                continue
            # each reading that does not take the include walks the header with no effect
            sub = [
                r if on else Reading(set(r.defined)) for on, r in zip(active, readings, strict=True)
            ]
            for e in walk(header, sub, file=str(found), resolve=resolve, depth=depth + 1):
                yield Event(
                    e.kind,
                    e.text,
                    tuple(a and b for a, b in zip(active, e.taken, strict=True)),
                    e.file,
                    e.line,
                    e.name,
                )
    if stack:
        raise ValueError("`ifdef without `endif")
    if any(active) and code[pos:].strip():
        yield Event("text", code[pos:], active, file, line(pos))


def blanked(f: Path) -> str:
    """The text of ``f``, comments blanked (read once per version of the file).

    Raises:
        OSError: it cannot be read.
    """
    return _blanked(str(f), f.stat().st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def _blanked(f: str, _mtime: int) -> str:
    return blank_comments(Path(f).read_text(errors="replace"), strings=False)


def resolver(include_dirs: Sequence[Path]) -> Callable[[str, str], Path | None]:
    """Finds a header in the including file's folder, then in ``include_dirs``."""

    def resolve(name: str, including: str) -> Path | None:
        here = [Path(including).parent] if including else []
        for d in (*here, *include_dirs):
            p = d / name
            if p.is_file():
                return p
        return None

    return resolve


def definitions(
    files: Sequence[Path],
    include_dirs: Sequence[Path],
    defined: frozenset[str],
    predefined: tuple[tuple[str, str], ...] = (),
) -> Reading:
    """The reading of ``files`` in order in one unit starting with ``defined`` (the headers
    they include followed): the macros defined at the end, the bodies each macro is given,
    where each was defined last, the macros tested. Shared: copy before changing it."""
    stamp = tuple((str(f), _mtime(f)) for f in files)
    return _definitions(stamp, tuple(include_dirs), defined, predefined)


def _mtime(f: Path) -> int:
    try:
        return f.stat().st_mtime_ns
    except OSError:
        return 0


@functools.lru_cache(maxsize=32)
def _definitions(
    files: tuple[tuple[str, int], ...],
    include_dirs: tuple[Path, ...],
    defined: frozenset[str],
    predefined: tuple[tuple[str, str], ...],
) -> Reading:
    r = Reading(set(defined), {k: {v} for k, v in predefined if k in defined})
    resolve = resolver(include_dirs)
    for f, _ in files:
        try:
            code = blanked(Path(f))
            for _ in walk(code, [r], file=f, resolve=resolve):
                pass
        except (OSError, ValueError):
            continue
    return r
