"""Which Verilog texts of the repository reach the target through their module bodies, for
:mod:`._tb_x` and :mod:`._foreign_x_anytext`. Every function reads texts whose comments and
strings :func:`._tb_x_forms.lexed` blanked.

A text is split into its top-level design units (a unit keyword to its end keyword, nested
units inside the enclosing one) and the text outside them (directives, ``bind``, ``config``:
one more body, named by no unit). A body **names** the identifiers and macros its text holds,
and those of the files its ```include`` directives name (by file name, any folder, at any
depth; an include no text of the repository answers, a library's ``uvm_macros.svh``, names
none of its units, as rtlopt reads a module the repository does not define as a cell). A
text whose unit keywords and end keywords do not pair up is one body holding every unit it
defines (fail closed).

- :func:`ancestors`: the target and every unit name one of whose bodies names an ancestor,
  or a macro whose definition names one (at any depth of units and macros). Bodies of one
  name in several files (three ``module testbench``) are judged each by its own text: a
  testbench instantiating a flash model is no ancestor because another testbench of that
  name instantiates the SoC. A body holding a ``bind`` or ``config`` statement (the text
  outside the units too) that names an ancestor makes every unit it names one.
- :func:`related`: whether a text holds a body (not the target's own) naming an ancestor.
- :func:`instance_read`: the Verilog texts whose x values only their units' instances can
  carry (every x literal inside a unit's body, none in a macro definition, and no unit a
  body of the build names, through any bodies and macros, nor one the build compiles from
  another file, nor one a ``bind``, a ``config`` or any text outside the units names): the
  instance analysis judges them (an ancestor among them is a testbench the build does not
  elaborate: :mod:`._tb_x` feeds every input), no opaque reading does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.evaluate import _tb_x_forms as tf

__all__ = [
    "BIND",
    "Body",
    "ancestors",
    "bodies",
    "hierarchy",
    "instance_read",
    "outside",
    "related",
]

#: A ``bind`` or ``config`` statement at a line's start.
_BINDING = re.compile(r"^[ \t]*(?:bind[ \t]+[A-Za-z_$\\]|config[ \t]+\w+[ \t]*;)", re.M)
#: A ``bind`` statement into every instance of a module: its scope and the module bound.
_BIND_PAIR = re.compile(
    r"^[ \t]*bind\s+([A-Za-z_]\w*)(?:\s*:\s*[\w$.\[\]\s,]+?)?\s+([A-Za-z_]\w*)"
    r"\s*(?:#|[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)?\()",
    re.M,
)
#: The mark of a body holding a ``bind`` not read as one pair, or a ``config``.
BIND = "\0bind"
_INCLUDE = re.compile(r"`include\s*[\"<]([^\">\n]+)[\">]")
_DEFINE_LINE = re.compile(r"`define\b.*(?:\\\n.*)*")
_X = re.compile(r"(?<![\w'])\d*'[sS]?[bBoOhH]?[0-9a-fA-F_]*[xXzZ?][0-9a-fA-F_xXzZ?]*")


@dataclass(frozen=True)
class Body:
    """One top-level unit's text (``name``; None for the text outside every unit, or the
    whole text where units do not pair up: ``names`` then holds every unit it defines)."""

    name: str | None
    start: int
    end: int
    words: frozenset[str]
    names: tuple[str, ...] = field(default=())


def spans(code: str) -> list[tuple[str, int, int]] | None:
    """The top-level units of ``code``: (name, start, end after the end keyword), or None
    where unit and end keywords do not pair up."""
    events = [(m.start(), 1, m.group(1)) for m in tf._UNIT.finditer(code)]
    events += [(m.end(), -1, "") for m in tf._END.finditer(code)]
    out: list[tuple[str, int, int]] = []
    depth, start, name = 0, 0, ""
    for at, step, n in sorted(events):
        if step > 0 and depth == 0:
            start, name = at, n
        depth += step
        if depth < 0:
            return None
        if step < 0 and depth == 0:
            out.append((name, start, at))
    return out if depth == 0 else None


def _named(text: str) -> set[str]:
    """The identifiers and macros ``text`` names, each ``bind`` statement it holds as
    ``"\0bind:<scope>:<module>"``, and :data:`BIND` where it holds one not read so or a
    ``config``."""
    out = tf.words(text) | tf.macro_uses(text)
    statements = _BINDING.findall(text)
    if statements:
        pairs = _BIND_PAIR.findall(text)
        out |= {f"{BIND}:{scope}:{module}" for scope, module in pairs}
        if len(pairs) < len(statements):
            out.add(BIND)
    return out


def _bind_pairs(words: Iterable[str]) -> list[tuple[str, str]]:
    """The (scope, module) of the ``bind`` statements among ``words``."""
    out = []
    for w in words:
        if w.startswith(BIND + ":"):
            scope, _, module = w[len(BIND) + 1 :].partition(":")
            out.append((scope, module))
    return out


def bodies(code: str, includes: dict[str, set[str]]) -> list[Body]:
    """The bodies of ``code`` (see the module's docstring); ``includes``: per file name, what
    the texts of that name name."""
    found = spans(code)
    if found is None:
        names = tuple(tf.units(code))
        return [Body(None, 0, len(code), frozenset(_with_includes(code, includes)), names)]
    out = [Body(n, a, b, frozenset(_with_includes(code[a:b], includes))) for n, a, b in found]
    rest, last = [], 0
    for _, a, b in found:
        rest.append(code[last:a])
        last = b
    rest.append(code[last:])
    outside = "\n".join(rest)
    out.append(Body(None, 0, len(code), frozenset(_with_includes(outside, includes))))
    return out


def _with_includes(text: str, includes: dict[str, set[str]]) -> set[str]:
    got = _named(text)
    for m in _INCLUDE.finditer(text):
        got |= includes.get(Path(m.group(1).strip()).name, set())
    return got


def include_names(codes: dict[Path, str]) -> dict[str, set[str]]:
    """Per file name, what the texts of that name name, their own includes followed."""
    direct: dict[str, set[str]] = {}
    inner: dict[str, set[str]] = {}
    for p, c in codes.items():
        direct.setdefault(p.name, set()).update(_named(c))
        inner.setdefault(p.name, set()).update(
            Path(m.group(1).strip()).name for m in _INCLUDE.finditer(c)
        )
    out: dict[str, set[str]] = {}
    for name in direct:
        seen, left, got = {name}, [name], set()
        while left:
            n = left.pop()
            if n not in direct:
                continue  # outside the repository (``uvm_macros.svh``): names no unit of it
            got |= direct[n]
            for i in inner[n] - seen:
                seen.add(i)
                left.append(i)
        out[name] = got
    return out


def with_include_names(code: str, raw: str) -> str:
    """``code`` (``raw`` lexed: strings blanked, offsets kept) with the file names of its
    ```include`` directives as ``raw`` spells them."""
    out = code
    for m in _INCLUDE.finditer(raw):
        if code.startswith("`include", m.start()):
            out = out[: m.start()] + raw[m.start() : m.end()] + out[m.end() :]
    return out


def all_bodies(
    codes: dict[Path, str], every: dict[Path, str], raw: dict[Path, str] | None = None
) -> dict[Path, list[Body]]:
    """The bodies of every Verilog text ``codes`` (lexed), their includes answered by
    ``every`` lexed text of the repository (``raw``: the texts as written, for the names the
    lexing blanked in include directives)."""
    if raw is not None:
        every = {p: with_include_names(c, raw[p]) if p in raw else c for p, c in every.items()}
        codes = {p: every.get(p, c) for p, c in codes.items()}
    includes = include_names(every)
    out = {p: bodies(c, includes) for p, c in codes.items()}
    for p, c in every.items():  # a ``bind`` or ``config`` in a text without a unit
        if p not in out and _BINDING.search(c):
            out[p] = [Body(None, 0, len(c), frozenset(_with_includes(c, includes)))]
    return out


def _macro_bodies(codes: Iterable[str]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for code in codes:
        for m in tf._DEFINE.finditer(code):
            out.setdefault("`" + m.group(1), set()).update(_named(m.group(2)))
    return out


def _names_of(b: Body) -> set[str]:
    return {b.name} if b.name is not None else set(b.names)


def root_files(per_file: dict[Path, list[Body]], tops: set[str]) -> set[Path]:
    """The files holding a root of the hierarchies holding the target: an ancestor (of
    ``tops``) no other ancestor's body names (a testbench's top); every file holding an
    ancestor where none is a root."""
    holding = {p: {n for b in bs for n in _names_of(b) if n in tops} for p, bs in per_file.items()}
    named = {
        w
        for bs in per_file.values()
        for b in bs
        if _names_of(b) & tops
        for w in b.words - _names_of(b)
    }
    found = {p for p, ns in holding.items() if ns - named}
    return found or {p for p, ns in holding.items() if ns}


def ancestors(per_file: dict[Path, list[Body]], codes: dict[Path, str], target: str) -> set[str]:
    """``target``, every unit name with a body naming an ancestor and every macro (```M``)
    whose definition names one, at any depth; a body holding a ``bind`` or ``config`` that
    names an ancestor makes every unit or macro it names one."""
    macros = _macro_bodies(codes.values())
    every = [b for bs in per_file.values() for b in bs if _names_of(b)]
    binding = [b for bs in per_file.values() for b in bs if BIND in b.words]
    pairs = [p for bs in per_file.values() for b in bs for p in _bind_pairs(b.words)]
    known = {n for b in every for n in _names_of(b)} | set(macros)
    found = {target}
    grew = True
    while grew:
        grew = False
        for m, ws in macros.items():
            if m not in found and ws & found:
                found.add(m)
                grew = True
        for b in every:
            own = _names_of(b)
            if not own <= found and (b.words - own) & found:
                found |= own
                grew = True
        for b in binding:
            if b.words & found and not (b.words & known) <= found:
                found |= b.words & known
                grew = True
        for scope, module in pairs:
            if module in found and scope not in found:
                found.add(scope)
                grew = True
    return found


def related(bs: list[Body], tops: set[str], target: str) -> bool:
    """Whether a body of a text (not the target's own) names one of ``tops``."""
    for b in bs:
        own = _names_of(b)
        if own == {target}:
            continue
        if (b.words - own) & tops:
            return True
    return False


def instance_read(
    per_file: dict[Path, list[Body]], codes: dict[Path, str], built: set[Path]
) -> set[Path]:
    """The texts whose x values only their units' instances carry (see the module's
    docstring); ``built``: the resolved files the build compiles."""
    macros = _macro_bodies(codes.values())
    reached: set[str] = set()
    left: list[str] = []
    for p, bs in per_file.items():
        if p.resolve() in built:
            left += [w for b in bs for w in [*b.words, *_names_of(b)]]
    by_name: dict[str, list[Body]] = {}
    for bs in per_file.values():
        for b in bs:
            for n in _names_of(b):
                by_name.setdefault(n, []).append(b)
    while left:
        w = left.pop()
        if w in reached:
            continue
        reached.add(w)
        left += [v for b in by_name.get(w, []) for v in b.words]
        left += list(macros.get(w, ()))
    # a ``bind`` or ``config`` (a body holding one, the text outside the units) may put an
    # instance anywhere: what such a text names is reached too
    bound = {w for bs in per_file.values() for b in bs if BIND in b.words for w in b.words}
    bound |= {m for bs in per_file.values() for b in bs for _, m in _bind_pairs(b.words)}
    out: set[Path] = set()
    for p, bs in per_file.items():
        code = codes[p]
        inside = [(b.start, b.end) for b in bs if b.name is not None]
        if not inside or any(b.name is None and b.names for b in bs):
            continue
        if {b.name for b in bs if b.name is not None} & (reached | bound):
            continue
        defines = [(m.start(), m.end()) for m in _DEFINE_LINE.finditer(code)]
        xs = [m.start() for m in _X.finditer(code)]
        if all(
            any(a <= x < e for a, e in inside) and not any(a <= x < e for a, e in defines)
            for x in xs
        ):
            out.add(p)
    return out


def hierarchy(per_file: dict[Path, list[Body]], codes: dict[Path, str], tops: set[str]) -> set[str]:
    """The unit names and macros of the hierarchies holding the target: ``tops`` (its
    ancestors) and every unit or macro their bodies name, at any depth; a body holding a
    ``bind`` or ``config`` naming one adds every unit it names."""
    macros = _macro_bodies(codes.values())
    by_name: dict[str, list[Body]] = {}
    for bs in per_file.values():
        for b in bs:
            for n in _names_of(b):
                by_name.setdefault(n, []).append(b)
    binding = [b for bs in per_file.values() for b in bs if BIND in b.words]
    pairs = [p for bs in per_file.values() for b in bs for p in _bind_pairs(b.words)]
    known = set(by_name) | set(macros)
    found: set[str] = set()
    left = list(tops)
    while left:
        while left:
            n = left.pop()
            if n in found:
                continue
            found.add(n)
            for b in by_name.get(n, []):
                left += [w for w in b.words if w in known]
            left += [w for w in macros.get(n, ()) if w in known]
        for b in binding:
            if b.words & found and not (b.words & known) <= found:
                left += [w for w in b.words & known if w not in found]
        left += [m for scope, m in pairs if scope in found and m not in found]
    return found


def outside(per_file: dict[Path, list[Body]], held: set[str]) -> dict[Path, list[tuple[int, int]]]:
    """Per text, the spans of its units' bodies outside the hierarchies ``held``
    (:func:`hierarchy`) naming nothing there: their values reach the target through no
    instance and no hierarchical name."""
    out: dict[Path, list[tuple[int, int]]] = {}
    for p, bs in per_file.items():
        for b in bs:
            if b.name is None or b.name in held:
                continue
            if not (b.words - {b.name}) & held:
                out.setdefault(p, []).append((b.start, b.end))
    return out
