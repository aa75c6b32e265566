"""The instance analysis under another build's defines, for :mod:`._tb_x`'s x/z values
written in a branch inactive under rtlopt's defines (:mod:`._tb_x_defines`).

Where such a value stands in a text the elaboration reads, and each directive level keeping
its branch inactive is entered by defining one macro rtlopt's defines leave undefined
(```ifdef M``, the ```else`` of ```ifndef M``), :func:`rtlopt.frontend._open_inputs.open_inputs`
elaborates the repository again with those macros defined, once for each value a build may
give them: every value the repository spells (```define M v``, ``-DM=v``, ``+define+M=v``),
and where a text uses ```M`` as text, a module name no text defines (a user's module: an
unknown cell, whose outputs the analysis reads as x); ``1`` where no text uses it. Every
other macro a build may define that governs a directive of a compiled text is taken
undefined and defined with each of its values too (the x may reach the target only with
another build setting beside it). The inputs found x-fed (and their instances, for the
parameter check) are the ones fed.
Anything else feeds every input (fail closed): a level of an ```elsif`` chain or one that
needs a configured macro undefined, a macro with arguments, more than
:data:`_MAX_CONFIGS` value combinations, an elaboration that fails, a value in a text the
elaboration does not read.

Any other text of such a branch (class E: no x literal; :func:`._tb_x_defines.branch_lines`),
and a branch without text where its chain's taken one writes
(:func:`._tb_x_defines.left_branches`: the write it drops leaves its variable x), is
elaborated likewise with the macros entering it defined, at each of their values, and
the configured macros it needs undefined undefined (``off``: the ```else`` of ```ifdef
SYNTHESIS``, an ```elsif`` branch), the other macros as configured; :mod:`._tb_x` joins
the branches one build may enter together too.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from rtlopt.frontend.model import Design, SourceSet

__all__ = ["conditions", "fed_under", "switched_macros", "tool_readings", "valued"]

log = logging.getLogger(__name__)

#: Value combinations elaborated at most (each is one elaboration of the repository).
_MAX_CONFIGS = 16
#: A module name no text defines: any module a user's build names.
UNKNOWN_MODULE = "rtlopt_any_module"
#: The macros rtlopt's synthesis prelude (``data/synthesis_semantics.vh``) undefines.
PRELUDE_UNDEFINED = frozenset({"__ICARUS__"})
#: A directive naming a macro without using its value, anywhere on a line.
_DIRECTIVE_USE = re.compile(r"`(?:ifdef|ifndef|elsif|undef)\b[ \t]*\w*")


def switched_macros(levels: list[set[str]], configured: Iterable[str]) -> set[str] | None:
    """The macros whose definition enters a branch governed by ``levels`` (each one macro
    rtlopt's ``configured`` defines leave undefined), or None."""
    on = set(configured)
    out: set[str] = set()
    for ms in levels:
        if len(ms) != 1 or ms & on:
            return None
        out |= ms
    return out


def conditions(code: str) -> set[str]:
    """The macros the conditional directives of ``code`` test."""
    from rtlopt.evaluate._tb_x_defines import directives

    return {name for _, _, name in directives(code) if name}


#: A value given on a command line: quoted (``'"a.vh"'``, ``\\"a.vh\\"``, ``"a.vh"``) or bare.
_GIVEN = r"'[^'\n]*'|\\\"(?:[^\"\n\\]|\\.)*?\\\"|\"(?:[^\"\n\\]|\\.)*\"|[^\s\"'+;]+"


def _unquoted(value: str) -> set[str]:
    """What a tool may receive for a command line's ``value``: a shell's quotes removed, and
    the value as written (a Makefile's ``"-DF=\\"a.vh\\""``, a ``.f`` file's ``"a.vh"``)."""
    out = {value}
    if value[:1] in "'\"" and value[-1:] == value[:1] and len(value) > 1:
        out.add(value[1:-1])
    if value.startswith('\\"'):
        out.add(value.replace('\\"', '"'))
    return {v for v in out if v}


_USE = re.compile(r"`([A-Za-z_]\w*)")
_DEFINE_HEAD = re.compile(r"`define[ \t]+\w+")
_DEFINE_NAME = re.compile(r"`define[ \t]+([A-Za-z_]\w*)")


def valued(
    codes: Mapping[Path, str],
    defined: set[str],
    any_macro: bool,
    configured: Iterable[str],
    others: Iterable[str] = (),
) -> dict[str, tuple[Path, int]]:
    """The macros whose value a build may set beside rtlopt's (class AE): used as text
    (```SEL_INIT``, not a directive's name) in ``codes`` (lexed texts the elaboration reads
    or a build compiles), and given a value there rtlopt reads otherwise (tested by a
    conditional, ```ifndef SEL_INIT `define SEL_INIT 1'b0``, or set by the ``configured``
    defines), that a build may define (``defined``; any when ``any_macro``: ``-DSEL_INIT=x``,
    a ```define`` in a file compiled first: one of ``others``, the lexed texts, that does not
    test the macro itself); each with its first use (file, line)."""
    on = set(configured)
    tested = {n for c in codes.values() for n in conditions(c)} | on
    for c in others:  # a `define another file makes, not its own `ifndef default
        defined = defined | {n for n in _DEFINE_NAME.findall(c) if n not in conditions(c)}
    out: dict[str, tuple[Path, int]] = {}
    for path in sorted(codes, key=str):
        bare = _DIRECTIVE_USE.sub("", _DEFINE_HEAD.sub("", codes[path]))
        for m in _USE.finditer(bare):
            name = m.group(1)
            if name in tested and (any_macro or name in defined) and name not in out:
                out[name] = (path, bare.count("\n", 0, m.start()) + 1)
    return out


def _values(name: str, texts: Iterable[str]) -> set[str] | None:
    """The values a build may give ``name`` (see the module's docstring), or None for a
    macro with arguments."""
    out: set[str] = set()
    used = False
    head = re.compile(rf"`define[ \t]+{re.escape(name)}\b(\(?)([^\n]*)")
    given = re.compile(rf"(?:-D|\+define\+){re.escape(name)}=({_GIVEN})")
    # where a module's name stands: `M u (...), `M #(...) u (...)
    use = re.compile(rf"`{re.escape(name)}\b\s*(?:#|[A-Za-z_]\w*\s*[(\[])")
    texts = list(texts)
    for text in texts:
        for m in head.finditer(text):
            if m.group(1):
                return None
            value = re.sub(r"//.*|/\*.*?\*/", "", m.group(2)).strip()
            if value:
                out.add(value)
        for m in given.finditer(text):
            out |= {w for v in _unquoted(m.group(1)) for w in _variable_values(v, texts)}
        code = _DIRECTIVE_USE.sub("", head.sub("", text))
        used = used or use.search(code) is not None
    if used:
        out.add(UNKNOWN_MODULE)
    return out or {"1"}


def _variable_values(value: str, texts: list[str]) -> set[str]:
    """What a command line's ``value`` is: a make or shell variable (``$(TRACE)``) stands
    for each plain word the texts assign it (``TRACE ?= 1``); the value as written where
    it names none or no text assigns one."""
    from rtlopt.frontend._build_flags import variable_name

    var = variable_name(value)
    if var is None:
        return {value}
    assign = re.compile(
        rf"^[ \t]*(?:export[ \t]+)?{var}[ \t]*(?:\?=|:=|::=|=)[ \t]*([\w.+-]+)[ \t]*$", re.M
    )
    got = {a for t in texts for a in assign.findall(t)}
    return got or {value}


_INCLUDED = re.compile(r"`include[ \t]*`([A-Za-z_]\w*)")


def _unresolved(design: Design, chosen: Mapping[str, str], texts: list[str]) -> str:
    """A macro of ``chosen`` that a text includes by (```include `F``) whose value names no
    file rtlopt finds (beside the repository's sources, in its include folders, at its root),
    or "": the elaboration skips such an include, the build reads what it names."""
    used = {m for t in texts for m in _INCLUDED.findall(t)} & set(chosen)
    src = design.sources
    where = {Path(src.root), *src.include_dirs, *(Path(f).parent for f in src.files)}
    for m in sorted(used):
        v = chosen[m].strip()
        name = v[1:-1] if len(v) > 1 and (v[0], v[-1]) in (('"', '"'), ("<", ">")) else ""
        if not name or not any((Path(d) / name).is_file() for d in where):
            return str(m)
    return ""


def _sources(design: Design, defines: Mapping[str, str]) -> SourceSet:
    """The design's sources with ``defines``; without rtlopt's synthesis prelude where one
    of them is a macro it undefines (``__ICARUS__``: the Icarus build's reading keeps it)."""
    from rtlopt.frontend._sources import SYNTHESIS_PRELUDE

    prelude = design.sources.prelude
    if PRELUDE_UNDEFINED & set(defines):
        prelude = tuple(p for p in prelude if p.resolve() != SYNTHESIS_PRELUDE)
    return replace(design.sources, defines=dict(defines), prelude=prelude)


#: The simulators' readings a build's parameter setting is elaborated in beside rtlopt's:
#: each tool's label and its predefined macros (``SYNTHESIS`` undefined).
_SIMULATORS = (("Icarus", "iverilog"), ("Verilator", "verilator"))


def tool_readings(design: Design, texts: Iterable[str]) -> list[tuple[str, Design]]:
    """The design in each simulator's reading whose macros a conditional of ``texts`` tests
    (``SYNTHESIS`` undefined, the tool's predefined macros defined, no prelude undefining
    them): a label (``"; Icarus's reading"``) and the design."""
    from rtlopt.evaluate._tb_x_defines import PREDEFINED

    tested = {n for t in texts for n in conditions(t)}
    out: list[tuple[str, Design]] = []
    for label, tool in _SIMULATORS:
        macros = PREDEFINED[tool]
        if not (macros | {"SYNTHESIS"}) & tested:
            continue
        defines = {k: v for k, v in design.defines.items() if k != "SYNTHESIS"}
        defines.update({m: "1" for m in sorted(macros)})
        out.append((f"; {label}'s reading", replace(design, sources=_sources(design, defines))))
    return out


def fed_under(
    design: Design,
    macros: set[str],
    others: set[str],
    texts: list[str],
    off: frozenset[str] = frozenset(),
    memo: dict[frozenset[tuple[str, str]], list[object]] | None = None,
) -> list[object] | None:
    """The :class:`~rtlopt.frontend._open_inputs.OpenInput` the repository's instances feed
    with ``macros`` defined and each of ``others`` (the macros a build may define that govern
    a directive of a compiled text) undefined or defined, and the configured macros ``off``
    undefined, over every value combination (see the module's docstring), or None (fail
    closed); ``memo`` keeps each elaboration's findings by its defines."""
    from rtlopt.frontend._open_inputs import open_inputs

    values: dict[str, list[str | None]] = {}
    for m in sorted(macros | others):
        got = _values(m, texts)
        if got is None:
            return None
        values[m] = [*([None] if m not in macros else []), *sorted(got)]
    combos = list(itertools.product(*values.values()))
    if len(combos) > _MAX_CONFIGS:
        log.info("%s: %d configurations under %s", design.target.name, len(combos), macros)
        return None
    found: list[object] = []
    for combo in combos:
        chosen = {m: v for m, v in zip(values, combo, strict=True) if v is not None}
        lost = _unresolved(design, chosen, texts)
        if lost:
            log.info("%s: `include `%s names no file rtlopt finds", design.target.name, lost)
            return None
        kept = {k: v for k, v in design.defines.items() if k not in off}
        defines: Mapping[str, str] = {**kept, **chosen}
        other = replace(design, sources=_sources(design, defines))
        seen = frozenset(defines.items())
        memo = {} if memo is None else memo
        try:
            if seen not in memo:
                memo[seen] = list(open_inputs(other))
            found += memo[seen]
        except Exception as exc:  # noqa: BLE001 - no elaboration: fail closed
            log.info("%s: no elaboration under %s: %s", design.target.name, defines, exc)
            return None
    return found
