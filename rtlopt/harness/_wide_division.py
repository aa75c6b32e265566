"""Divisions wider than 64 bits that iverilog's continuous assignments compute otherwise.

iverilog 11 evaluates a ``/`` of a continuous assignment (``assign``, a net's initializer, an
expression in an instance's port connection) in a run-time functor; wider than 64 bits it gives
0 for a divisor of 1 (measured: ``assign y = a / 65'd1`` is 0 for every ``a``, the same
division in an ``always`` block or a function is ``a``). Yosys and slang (both proofs) read
``a``, so a candidate whose quotient by 1 matters on one input no random vector draws was
proven while every simulation of the repository reads 0 there (round 96). Random fuzzing of
``/ % * + - << >> < >= ==`` at widths 8-200, signed and unsigned, in nets and in ``always``
blocks found no other difference (a run-time ``**`` is judged by :mod:`._power`).

Judged, fail closed: each ``/`` and ``%`` evaluated wider than 64 bits (slang's
context-determined width, under the text's parameter values) outside procedural code and
functions. The fix: compute it in an ``always @*`` block (or a function), or narrow it.
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._elaborated import Elaborated

__all__ = ["wide_division_problems"]

#: Where iverilog runs thread code (its division there is exact): the subtree is not judged.
_PROCEDURAL = frozenset({"ProceduralBlock", "Subroutine"})
_OPS = frozenset({"BinaryOperator.Divide", "BinaryOperator.Mod"})
#: The widest division iverilog's functors compute in one machine word.
WORD = 64


def _kind(e: Any) -> str:
    return str(e.kind).rsplit(".", 1)[-1]


def wide_division_problems(design: Elaborated, shift: int) -> list[tuple[int, str]]:
    """``(offset, message)`` of each ``/`` or ``%`` wider than :data:`WORD` bits in a
    continuous assignment, a net initializer or a port connection (module docstring); offsets
    into the parsed text, less ``shift``."""
    from pyslang import ast

    out: list[tuple[int, str]] = []

    def each(node: Any) -> Any:
        k = _kind(node)
        if k in _PROCEDURAL:
            return ast.VisitAction.Skip
        if k == "BinaryOp" and str(node.op) in _OPS and node.constant is None:
            width = int(node.type.bitWidth) if node.type.isIntegral else 0
            if width > WORD:
                text = " ".join(str(node.syntax).split()) if node.syntax is not None else "it"
                out.append(
                    (
                        int(node.sourceRange.start.offset) - shift,
                        f"{text} is a {width}-bit division in a continuous assignment: "
                        "iverilog's run time computes it otherwise than synthesis and the "
                        "proof (a divisor of 1 gives 0 wider than 64 bits); compute it in an "
                        "always @* block or a function, or narrow it",
                    )
                )
        return ast.VisitAction.Advance

    design.compilation.getRoot().visit(each)
    return sorted(set(out))
