"""Values of a parameter where a text's constant expressions change rarely: the values a guard
computed from the parameter singles out.

A probe of a parameter tries the numbers written beside it, their neighbours and common
widths. A change may single out a value no text writes: ``((W ^ 5) == 8) ? a - b : a + b``
differs only at ``W = 13`` (round 96). Here the text is elaborated (slang) at each value of the
parameter from 0 up, as many as a time budget allows (at least :data:`LEAST`, at most
:data:`rtlopt.frontend._params.PROBE_MAX` + 1), and every constant expression is followed
across them: an expression whose value changes at only a few of them (a comparison, a shift
by a computed amount, a flag) marks those values and the ones before, rarest first. An
expression that changes at most steps (``W / 2``, ``W - 1``) marks nothing. What a guard
singles out through the design's signals (no constant expression holds it) or above the
values tried is not found here.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from typing import Any

from rtlopt.frontend.model import Design

__all__ = ["LEAST", "RARE", "special_values"]

#: At least this many values (0, 1, ...) are elaborated, whatever the time budget.
LEAST = 64
#: An expression whose value changes at more than this many of the values tried marks none.
RARE = 32
_KINDS = frozenset({"BinaryOp", "UnaryOp", "ConditionalOp", "Conversion", "Call", "Concatenation"})
_SIZED = re.compile(r"^(\d+)'s?([bodh])(.*)$", re.IGNORECASE)
_BASES = {"b": 2, "o": 8, "d": 10, "h": 16}


def _kind(node: Any) -> str:
    return str(getattr(node, "kind", "")).rsplit(".", 1)[-1]


def _number(value: Any) -> str:
    """A constant's value without its width (a width that follows the parameter changes at
    every step: ``300'h1`` and ``301'h0`` differ by value, ``300'h1`` and ``301'h1`` do not)."""
    text = str(value)
    m = _SIZED.match(text)
    if m is None or any(c in m.group(3).lower() for c in "xz?"):
        return text
    return str(int(m.group(3).replace("_", ""), _BASES[m.group(2).lower()]))


def _constants(tree: Any, module: str, name: str, value: int, popts: Any) -> dict[int, str]:
    """Each constant expression of ``module`` elaborated with ``name = value``, by its start
    offset, with its value (:func:`_number`)."""
    import pyslang
    from pyslang import ast

    copts = ast.CompilationOptions()
    copts.topModules = {module}
    copts.paramOverrides = [f"{name}={value}"]
    comp = ast.Compilation(pyslang.Bag([popts, copts]))
    comp.addSyntaxTree(tree)
    root = comp.getRoot()
    ctx = ast.EvalContext(root)
    out: dict[int, str] = {}

    def each(node: Any) -> Any:
        if _kind(node) in _KINDS and node.syntax is not None:
            c = node.eval(ctx)
            if c:
                out[int(node.sourceRange.start.offset)] = _number(c)
        return ast.VisitAction.Advance

    root.visit(each)
    return out


def special_values(
    text: str, module: str, name: str, default: str, design: Design, budget_s: float = 1.0
) -> list[str]:
    """The values of parameter ``name`` of ``module`` in ``text`` that a rarely changing
    constant expression singles out (module docstring), rarest first, ``default`` left out;
    [] when the text does not parse."""
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._params import PROBE_MAX
    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor(design.include_dirs, design.defines)
    bag = pyslang.Bag([popts])
    try:
        tree = syntax.SyntaxTree.fromText(text, sm, "candidate.v", "", bag)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return []
    seen: dict[int, list[str | None]] = defaultdict(list)
    start = time.monotonic()
    n = 0
    while n <= PROBE_MAX and (n < LEAST or time.monotonic() - start < budget_s):
        try:
            values = _constants(tree, module, name, n, popts)
        except Exception:  # noqa: BLE001 - a value slang cannot elaborate: no constants
            values = {}
        for at in set(seen) | set(values):
            seen[at] += [None] * (n - len(seen[at])) + [values.get(at)]
        n += 1
    marks: list[tuple[int, int]] = []  # (how often its expression changes, value)
    for row in seen.values():
        changes = [v for v in range(1, len(row)) if row[v] != row[v - 1]]
        if 0 < len(changes) <= RARE:
            marks += [(len(changes), v) for c in changes for v in (c, c - 1)]
    out = [str(v) for _, v in sorted(marks)]
    return [v for v in dict.fromkeys(out) if v != default]
