"""Text macros whose expansion holds a compiler directive (```define MK(n, v) `define n v``,
```define DEF `define``): a call of one (```MK(FAST, 1)``) is that directive where it stands.

Ground floor (imports only :mod:`rtlopt.verilog`): the candidate screen
(:mod:`rtlopt.harness._screen`) and the gate (:mod:`rtlopt.check._closure`) follow a macro
through the macros its bodies use the same way.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from rtlopt.verilog import DIRECTIVES

__all__ = ["MACRO_USE", "directive_in_expansion"]

#: A backtick word: a compiler directive or a text macro's use (group 1: its name).
MACRO_USE = re.compile(r"`\s*([A-Za-z_][A-Za-z0-9_$]*)")


def directive_in_expansion(
    name: str, bodies: Mapping[str, str], directives: Collection[str] = DIRECTIVES
) -> str | None:
    """The first compiler directive of ``directives`` the body of macro ``name`` holds,
    followed through the macros it uses (``bodies``: each macro's bodies, one text), or
    None."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        macro = todo.pop()
        if macro in seen:
            continue
        seen.add(macro)
        for m in MACRO_USE.finditer(bodies.get(macro, "")):
            if m.group(1) in directives:
                return m.group(1)
            todo.append(m.group(1))
    return None
