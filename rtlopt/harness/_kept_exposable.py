"""Which signals a kept check reads a proof can compare by name.

The proofs expose what a kept check reads as outputs of both sides (``expose w:<name>`` after
``flatten``): that finds a net or variable a module-level item declares. A signal declared in a
generate block (Yosys names it ``<block>.<name>``) or as a memory (no wire at all) is exposed
by no proof, so the screen asks for the code defining it word for word instead (fail closed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["comparable_names", "defines"]

#: A module item that declares nothing (normalised text: one space between tokens).
_NOT_DECLARATION = re.compile(
    r"(?:always\w*|assign|initial|final|assert|assume|cover|restrict|expect|if|else|for|"
    r"foreach|case[xz]?|generate|begin|end\w*|property|sequence|function|task|import|export|"
    r"defparam|bind)(?![\w$])|`"
)
#: A name followed by what ends a plain declarator: ``,``, ``;``, ``=`` (no ``==``) or ``)``.
_DECLARATOR = re.compile(r"(?<![\w$.`'\\])([A-Za-z_][\w$]*) ?(?=[,;)]|=(?!=))")


def comparable_names(items: Sequence[str], nested: Sequence[object]) -> set[str]:
    """The names a module-level item of ``items`` declares without an unpacked dimension
    (``nested[i]``, true where item ``i`` stands in a generate block: no name counts)."""
    out: set[str] = set()
    for item, inner in zip(items, nested, strict=True):
        if inner or _NOT_DECLARATION.match(item) or "(" in item.split(" ", 1)[0]:
            continue
        out.update(m.group(1) for m in _DECLARATOR.finditer(item))
    return out


def defines(item: str, name: str) -> bool:
    """Whether module item ``item`` (normalised) may write ``name``: a continuous assignment
    only where ``name`` stands left of its ``=``; any other item that mentions it may."""
    if not item.startswith("assign "):
        return True
    left = item[len("assign ") :].split(" = ", 1)[0]
    return re.search(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", left) is not None
