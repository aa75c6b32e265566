"""The values probes try for a parameter: the numbers a change or the module writes beside it
(each with its neighbours), common widths, one past every width (:func:`beyond`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol


class _Values(Protocol):
    """A parameterization (:class:`rtlopt.frontend._params.Parameterization`): its values."""

    @property
    def values(self) -> tuple[tuple[str, str], ...]: ...


__all__ = [
    "PROBE_ABOVE",
    "PROBE_BEYOND_MAX",
    "PROBE_INTEGERS",
    "PROBE_MAX",
    "PROBE_TRIES",
    "around",
    "beyond",
    "probe_values",
    "sizes",
]

#: Values tried for an integer parameter, after the numbers the module compares it with (and
#: their neighbours): common widths.
PROBE_INTEGERS = ("2", "4", "1", "8", "3", "5", "16", "32", "0", "6", "7", "12")
#: At most this many single-parameter elaborations are tried when looking for probes.
PROBE_TRIES = 32
#: No value above this is probed (a 32'hffff_ffff in the text is no width to elaborate).
PROBE_MAX = 1024
#: The least value of the one probe per parameter above every width (:func:`beyond`): an
#: ``integer``'s 32 bits, plus one.
PROBE_ABOVE = 33
#: Numbers and sizes above this are left out of :func:`beyond` (a counter's terminal count is
#: no width).
PROBE_BEYOND_MAX = 258


def _probe_values(text: str, guards: Sequence[str], base: _Values) -> list[tuple[str, str]]:
    """``(parameter, value)`` pairs to try, most targeted first: for each parameter named in a
    guard, the numbers the guard compares with (and their neighbours) then common widths; for a
    string parameter, the strings of the module's text."""
    defaults = dict(base.values)
    strings = list(dict.fromkeys(re.findall(r'"[^"\n]*"', text)))
    out: list[tuple[str, str]] = []
    for guard in guards:
        numbers = [int(n) for n in re.findall(r"\b\d+\b", guard)]
        near = [str(v) for n in numbers for v in (n, n + 1, n - 1) if 0 <= v <= PROBE_MAX]
        for name in dict.fromkeys(re.findall(r"[A-Za-z_][A-Za-z0-9_$]*", guard)):
            if name not in defaults:
                continue
            values = strings if defaults[name].startswith('"') else [*near, *PROBE_INTEGERS]
            out += [(name, v) for v in values if v != defaults[name]]
    return list(dict.fromkeys(out))[:PROBE_TRIES]


def probe_values(text: str, name: str, default: str, numbers: Sequence[int] = ()) -> list[str]:
    """Values to try for parameter ``name`` (default ``default``) of the module in ``text``,
    most targeted first, the default left out: for a string parameter, the strings of the
    text; else ``numbers`` (a change's own literals), then the numbers the text writes beside
    ``name`` or a localparam derived from it (a comparison, a bound, a width; beside ``$clog2``
    also the powers of two around them), each with its neighbours, then common widths."""
    from rtlopt.frontend._param_deps import compared, literal_numbers

    if default.startswith('"'):
        strings = dict.fromkeys(re.findall(r'"[^"\n]*"', text))
        return [s for s in strings if s != default]
    toks = re.findall(
        r"\$?[A-Za-z_][A-Za-z0-9_$]*|\d*'[sS]?[bBoOdDhH][0-9a-fA-F_]+|\d[\d_]*|\S", text
    )
    related = {name}
    for decl in re.findall(r"\blocalparam\b[^;]*", text):
        if related & set(re.findall(r"[A-Za-z_][A-Za-z0-9_$]*", decl)):
            related |= set(re.findall(r"([A-Za-z_][A-Za-z0-9_$]*)\s*=(?!=)", decl))
    near = compared(text, related)
    for i, t in enumerate(toks):
        if t in related:
            near += literal_numbers(toks[max(0, i - 8) : i + 9])
    return [v for v in around([*numbers, *near], "$clog2" in text) if v != default]


def beyond(numbers: Sequence[int], text: str) -> str:
    """A value past every width that ``numbers`` (a change's own) and the sized literals of
    ``text`` (``32'hffff_ffff``) can hold, at least :data:`PROBE_ABOVE`: two more than the
    largest number (an MSB index n holds n + 1 bits), one more than the largest size, at most
    :data:`PROBE_MAX`. A change wrong only above a fixed width (an 8-bit temporary, a 32-bit
    ``integer``, a parameter declared ``[4:0]``) shows there; no other rule picks such a value."""
    sized = [int(n) for n in re.findall(r"(?<![\w$'])(\d+)\s*'[sS]?[bBoOdDhH]", text)]
    widths = [PROBE_ABOVE, *(n + 2 for n in numbers), *(n + 1 for n in sized)]
    return str(min(max(w for w in widths if w <= PROBE_BEYOND_MAX), PROBE_MAX))


def around(
    numbers: Sequence[int], clog2: bool = False, common: bool = True, negative: bool = False
) -> list[str]:
    """Each of ``numbers`` followed by its neighbours (n, n + 1, n - 1: both sides of any
    comparison with n; with ``clog2`` also the powers of two they give, and one past), then
    (``common``) common widths: from 0 to :data:`PROBE_MAX`, each once; with ``negative`` (a
    parameter that sizes nothing: an override may make it negative) the negative ones after
    the others."""
    values: list[int] = []
    for n in numbers:
        values += [n, n + 1, n - 1]
        if clog2 and n <= 20:
            values += [2**n, 2**n + 1, 2**n - 1]
    out = [str(v) for v in values if 0 <= v <= PROBE_MAX]
    out += [str(v) for v in values if negative and -PROBE_MAX <= v < 0]
    return list(dict.fromkeys([*out, *(PROBE_INTEGERS if common else ())]))


def sizes(text: str, name: str) -> bool:
    """Whether ``text`` sizes something with parameter ``name`` (``[NAME-1:0]``,
    ``$clog2(NAME)``): then 0 is no configuration (zero register sets, an empty range) and is
    not probed. Comments and strings are not read (a comment saying ``P - 1`` left a
    parameter with no probe at all: red-team round 113)."""
    from rtlopt.verilog import blank_comments

    n = re.escape(name)
    code = blank_comments(text)
    return re.search(rf"(?<![\w$]){n}\s*-\s*1(?![\w])|\$clog2\s*\(\s*{n}\s*\)", code) is not None
