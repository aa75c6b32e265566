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

Any other text of such a branch (class E: no x literal; :func:`._tb_x_defines.branch_lines`)
is elaborated likewise with the macros entering it defined, at each of their values, and
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

from rtlopt.frontend.model import Design

__all__ = ["conditions", "fed_under", "switched_macros"]

log = logging.getLogger(__name__)

#: Value combinations elaborated at most (each is one elaboration of the repository).
_MAX_CONFIGS = 16
#: A module name no text defines: any module a user's build names.
UNKNOWN_MODULE = "rtlopt_any_module"
_CONDITION = re.compile(r"^[ \t]*`(?:ifdef|ifndef|elsif)[ \t]+(\w+)", re.M)
_DIRECTIVE_USE = re.compile(r"^[ \t]*`(?:ifdef|ifndef|elsif|undef)\b[^\n]*", re.M)


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
    return set(_CONDITION.findall(code))


def _values(name: str, texts: Iterable[str]) -> set[str] | None:
    """The values a build may give ``name`` (see the module's docstring), or None for a
    macro with arguments."""
    out: set[str] = set()
    used = False
    head = re.compile(rf"^[ \t]*`define[ \t]+{re.escape(name)}\b(\(?)([^\n]*)", re.M)
    given = re.compile(rf"(?:-D|\+define\+){re.escape(name)}=([^\s\"'+;]+)")
    use = re.compile(rf"`{re.escape(name)}\b")
    for text in texts:
        for m in head.finditer(text):
            if m.group(1):
                return None
            value = re.sub(r"//.*|/\*.*?\*/", "", m.group(2)).strip()
            if value:
                out.add(value)
        out |= {m.group(1) for m in given.finditer(text)}
        code = _DIRECTIVE_USE.sub("", head.sub("", text))
        used = used or use.search(code) is not None
    if used:
        out.add(UNKNOWN_MODULE)
    return out or {"1"}


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
        kept = {k: v for k, v in design.defines.items() if k not in off}
        defines: Mapping[str, str] = {**kept, **chosen}
        other = replace(design, sources=replace(design.sources, defines=dict(defines)))
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
