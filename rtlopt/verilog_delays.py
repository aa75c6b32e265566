"""Delays in Verilog code, in any spelling: one reading for the candidate screen and the gate.

A ``#`` is a delay after a keyword a statement or an assignment starts with
(:data:`rtlopt.verilog.BEFORE_DELAY`), after punctuation (``);``, ``@(posedge c)``), a
number or nothing, and after a net declaration's or a gate primitive's word (``wire #(2) w``,
``and #1 g(...)``), in every form of its value (``#5``, ``#(5)``, ``# (2.5)``, ``#DLY``,
``` #`TCK ```, ``#(1:2:3)``); after another name it opens an instance's or a declaration's
parameter list (``sub #(8) u``, ``module m #(``, also after the header's package import:
``module m import p::*; #(``); ``##N`` counts clock cycles, no time unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rtlopt.verilog import BEFORE_DELAY

__all__ = ["delay_offsets", "has_delay", "text_end"]

_HASH = re.compile(r"(?<!#)#(?!#)\s*(?=[0-9.(A-Za-z_`$])")
#: Words a delay follows besides :data:`rtlopt.verilog.BEFORE_DELAY`: net declarations and
#: gate primitives (``wire #(2) w``, ``and #1 g(...)``), whose delays the time unit scales.
_BEFORE_NET_DELAY = frozenset(
    "wire tri tri0 tri1 triand trior trireg wand wor uwire supply0 supply1 and or nand nor "
    "xor xnor buf not bufif0 bufif1 notif0 notif1 nmos pmos cmos rnmos rpmos rcmos tran "
    "rtran tranif0 tranif1 rtranif0 rtranif1 pullup pulldown".split()
)
_WORD_BEFORE = re.compile(r"[\w$]+\s*\Z")
#: A module header's package import, after which ``#(`` opens its parameter list.
_IMPORT_BEFORE = re.compile(r"\bimport\s[^;]*;\s*\Z")


def text_end(code: str, at: int) -> int:
    """The offset just past the last character before ``at`` that is not white space (a
    blanked comment of any length between a name and its ``#(`` is white space: held-out
    trial 49, biriscv's ``module dport_mux`` / comment lines / ``#(``)."""
    while at > 0 and code[at - 1].isspace():
        at -= 1
    return at


def delay_offsets(code: str) -> Iterator[int]:
    """The offsets of the delays of ``code`` (comments and strings blanked)."""
    for m in _HASH.finditer(code):
        end = text_end(code, m.start())
        word = _WORD_BEFORE.search(code, max(0, end - 64), end)
        name = word.group(0).strip() if word else ""
        if name and name not in BEFORE_DELAY | _BEFORE_NET_DELAY and not name[0].isdigit():
            continue
        if not name and _IMPORT_BEFORE.search(code, max(0, end - 256), end):
            continue  # module m import p::*; #(parameter ...)
        yield m.start()


def has_delay(code: str) -> bool:
    """Whether ``code`` (comments and strings blanked) holds a delay."""
    return next(delay_offsets(code), None) is not None
