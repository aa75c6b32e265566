"""``foreach`` loops over a descending dimension, which iverilog runs in the other order.

IEEE 1800 (12.7.3) runs a ``foreach`` loop from a dimension's left bound to its right one, so
over ``logic [7:0] a`` it visits 7, 6, ... 0, as slang and synthesis (both proofs read slang's
view on the SystemVerilog path) do. iverilog 11 runs it from the lower bound upward (measured:
an encoder whose last set bit wins gives the lowest bit in slang, the highest in iverilog).
Simulating the texts with iverilog catches this only on the inputs the vectors draw: a loop
reached on a rare input (``if (k == 32'h1234_5678) foreach ...``) passed (round 70).

A loop iterating a dimension whose left bound is not its lower one is judged, wherever it
stands: in a candidate it is refused, and a reference holding one leaves every change unchecked
(the proof reads the reference's loop in one order, simulation in the other; a candidate
keeping the loop verbatim but reading what it computes where the reference did not was accepted
in round 71). The fix: a ``for`` loop stating the order (``for (int i = 7; i >= 0; i--)``).
"""

from __future__ import annotations

import functools
from typing import Any

from rtlopt.harness._elaborated import Elaborated, elaborate

__all__ = ["foreach_problems", "descending_loops"]

_WHY = (
    "iverilog runs it from the lower bound upward, slang and synthesis (the proofs) from the "
    "left bound down; state the order with a for loop"
)


def _kind(e: Any) -> str:
    return str(e.kind).rsplit(".", 1)[-1]


def _descending(loop: Any) -> str:
    """The first dimension ``loop`` iterates from a left bound above its lower one, as
    ``[7:0]`` ("" when none does)."""
    for dim in loop.loopDims:
        r = dim.range
        if dim.loopVar is not None and r is not None and int(r.left) != int(r.lower):
            return f"[{int(r.left)}:{int(r.right)}]"
    return ""


def _text(loop: Any) -> str:
    return " ".join(str(loop.syntax).split()) if loop.syntax is not None else ""


def _loops(design: Elaborated) -> list[tuple[int, str, str]]:
    """``(offset, statement text, dimension)`` of each descending ``foreach`` loop."""
    out: list[tuple[int, str, str]] = []

    def check(node: Any) -> None:
        if _kind(node) == "ForeachLoop":
            dim = _descending(node)
            if dim:
                out.append((int(node.sourceRange.start.offset), _text(node), dim))

    design.visit(check)
    return sorted(set(out))


@functools.lru_cache(maxsize=16)
def descending_loops(reference: str) -> tuple[str, ...]:
    """The statement texts of the descending ``foreach`` loops of the ``reference`` text
    (comments blanked)."""
    if "foreach" not in reference:
        return ()
    from rtlopt.harness._syntax import parse

    design = elaborate(parse(reference)[0])
    return () if design is None else tuple(text for _, text, _ in _loops(design))


def foreach_problems(design: Elaborated, shift: int, reference: str) -> list[tuple[int, str]]:
    """``(offset, message)`` of each descending ``foreach`` loop of the candidate ``design``,
    and one for the ``reference`` text holding any (module docstring); offsets less
    ``shift``."""
    out = [
        (at - shift, f"the loop {_short(text)} iterates {dim}: {_WHY}")
        for at, text, _dim in _loops(design)
        for dim in (_dim,)
    ]
    theirs = descending_loops(reference)
    if theirs:
        out.append(
            (
                0,
                f"unchecked: the reference's loop {_short(theirs[0])} iterates a descending "
                f"dimension ({_WHY.split(';')[0]}): simulation and the proof read the "
                "reference differently, so no change to it is checked",
            )
        )
    return out


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."
