"""Divisions wider than 64 bits, which iverilog's run time computes otherwise.

iverilog 11 evaluates a ``/`` of a continuous assignment (``assign``, a net's initializer, an
expression in an instance's port connection) in a run-time functor; wider than 64 bits it gives
0 for a divisor of 1 (measured: ``assign y = a / 65'd1`` is 0 for every ``a``). In procedural
code a 128-bit division by a 65-bit divisor gives a wrong quotient and a 130-bit one never
ends (vvp ignores SIGTERM there). Yosys and slang (both proofs) compute the quotient, so a
candidate whose quotient matters on one input no random vector draws was proven while every
simulation of the repository reads another value there (round 96). Random fuzzing of
``/ % * + - << >> < >= ==`` at widths 8-200, signed and unsigned, in nets and in ``always``
blocks found no other difference (a run-time ``**`` is judged by :mod:`._power`); a division
folded at elaboration is exact.

Judged, fail closed: each ``/`` and ``%`` that is not a constant and is evaluated wider than 64
bits (slang's context-determined width, under the text's parameter values). The fix: narrow it
(a divider of at most 64 bits, or one written out).
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._elaborated import Elaborated, spot

__all__ = ["wide_division_problems"]

_OPS = frozenset({"BinaryOperator.Divide", "BinaryOperator.Mod"})
#: The widest division iverilog computes in one machine word.
WORD = 64


def _kind(e: Any) -> str:
    return str(e.kind).rsplit(".", 1)[-1]


def wide_division_problems(design: Elaborated, shift: int) -> list[tuple[int, str]]:
    """``(offset, message)`` of each ``/`` or ``%`` that is no constant and is wider than
    :data:`WORD` bits (module docstring); offsets into the parsed text, less ``shift``."""
    out: list[tuple[int, str]] = []

    def check(node: Any) -> None:
        if _kind(node) != "BinaryOp" or str(node.op) not in _OPS or node.constant is not None:
            return
        width = int(node.type.bitWidth) if node.type.isIntegral else 0
        if width > WORD:
            at, text = spot(node, shift, "a division")
            out.append(
                (
                    at,
                    f"{text} is a {width}-bit division: iverilog's run time computes divisions "
                    "wider than 64 bits otherwise than synthesis and the proof (a divisor of 1 "
                    "gives 0 in a continuous assignment); narrow it to at most 64 bits",
                )
            )

    design.visit(check)
    return sorted(set(out))
