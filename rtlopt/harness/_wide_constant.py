"""Unsized constant expressions whose value needs more than 32 bits.

An unsized literal (``1``, ``'h10``) is 32 bits wide (IEEE 1364 3.5.1), and so is an expression
of them evaluated self-determined, such as the initializer of a parameter declared without a
type or range: ``localparam U = 1 << 40;`` is 0 to slang and Yosys (both proofs). iverilog 11
by default evaluates unsized constant expressions losslessly (measured: ``U`` is ``2**40``;
only ``-gstrict-expr-width`` gives 0), so both proofs agree on a candidate that simulation
reads otherwise, and a parameter ``B = A * A`` of such parameters keeps the bits too.

The initializer of each parameter declared without a type or range is judged where it is built
only of unsized literals, such parameters, parentheses and ``+ - * / % << <<< **`` (unary
``+ -`` too), and so is each such part of it (``(1 << 40) | 1``): its exact value (Python
integers) must be the value slang computes, read signed or unsigned. A part is judged
fail-closed: iverilog does not keep the bits everywhere (``(1 << 40) > 5`` is 0 in it too).
Elsewhere an unsized expression takes the width of its context, as in every tool. The fix:
size the literals (``64'd1 << 40``) or give the parameter a range (``localparam [63:0] U``).
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._elaborated import Elaborated, expressions

__all__ = ["wide_constant_problems"]

_B = "BinaryOperator."
#: Largest shift or exponent evaluated exactly (a larger one is judged as overflowing).
_LIMIT = 4096


def _kind(e: Any) -> str:
    return str(e.kind).rsplit(".", 1)[-1]


def _unsized_parameter(symbol: Any) -> bool:
    """A parameter declared without a type or range (``localparam U = ...``)."""
    if _kind(symbol) != "Parameter":
        return False
    syntax = symbol.declaredType.typeSyntax
    if syntax is None:
        return True
    text = " ".join(str(syntax).split())
    return text in ("", "signed", "unsigned")


def _int(value: Any) -> int | None:
    """The integer of a slang constant or SVInt (None for x/z bits, a real, a string)."""
    v = getattr(value, "value", value)  # a ConstantValue holds an SVInt
    if getattr(v, "hasUnknown", True) is not False:
        return None
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _exact(e: Any) -> int | None:
    """The exact value of ``e`` when it is built only of unsized constants and the operators
    above (None otherwise)."""
    k = _kind(e)
    if k == "IntegerLiteral":
        return _int(e.value) if e.isDeclaredUnsized else None
    if k == "NamedValue":
        sym = e.symbol
        return _int(sym.value) if _unsized_parameter(sym) else None
    if k == "Conversion":  # slang's implicit widening and sign conversions
        return _exact(e.operand)
    if k == "UnaryOp":
        op = str(e.op).rsplit(".", 1)[-1]
        v = _exact(e.operand) if op in ("Plus", "Minus") else None
        return None if v is None else (-v if op == "Minus" else v)
    if k != "BinaryOp":
        return None
    a, b = _exact(e.left), _exact(e.right)
    if a is None or b is None:
        return None
    return _apply(str(e.op), a, b)


def _apply(op: str, a: int, b: int) -> int | None:
    if op == _B + "Add":
        return a + b
    if op == _B + "Subtract":
        return a - b
    if op == _B + "Multiply":
        return a * b
    if op in (_B + "Divide", _B + "Mod") and b != 0:
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return q if op == _B + "Divide" else a - q * b
    if op in (_B + "LogicalShiftLeft", _B + "ArithmeticShiftLeft", _B + "Power"):
        if b < 0:
            return None
        if b > _LIMIT:
            return 1 << (_LIMIT + 1)  # beyond any width judged here
        return a << b if op != _B + "Power" else a**b
    return None


def _span(e: Any) -> tuple[int, int]:
    r = e.sourceRange
    return int(r.start.offset), int(r.end.offset)


def _fits(exact: int, constant: Any, width: int) -> bool:
    got = _int(constant)
    if got is None:
        return True
    unsigned = got % (1 << width)
    signed = unsigned - (1 << width) if unsigned >> (width - 1) else unsigned
    return exact in (unsigned, signed)


def wide_constant_problems(design: Elaborated, shift: int) -> list[tuple[int, str]]:
    """``(offset, message)`` of each parameter without a type or range whose initializer's
    exact value is not the value slang gives it (module docstring); offsets less ``shift``."""
    out: list[tuple[int, str]] = []

    def check(node: Any) -> None:
        if not _unsized_parameter(node) or node.declaredType.initializer is None:
            return
        root = node.declaredType.initializer
        for e in expressions(root):
            if _kind(e) not in ("BinaryOp", "UnaryOp", "NamedValue", "IntegerLiteral"):
                continue
            exact = _exact(e)
            # a part slang did not fold (a branch of `?:` not taken) has no value of its own:
            # the parameter's value is its initializer's, not that part's (held-out trial 43:
            # `(AW >= 12) ? 12 : AW` read AW as 12)
            whole = _span(e) == _span(root)
            value = e.constant if e.constant is not None else (node.value if whole else None)
            if value is None:
                continue
            width = int(e.type.bitWidth) if e.type.isIntegral else 0
            if exact is None or width <= 0 or _fits(exact, value, width):
                continue
            text = " ".join(str(e.syntax).split()) if e.syntax is not None else "its value"
            out.append(
                (
                    int(e.sourceRange.start.offset) - shift,
                    f"the parameter {node.name} has no type or range and its {text} is {exact} "
                    f"exactly, {value} at {width} bits: iverilog evaluates unsized constant "
                    "expressions losslessly, synthesis and the proof at 32 bits (IEEE 1364); "
                    "give the parameter a range (localparam [63:0] U = 1 << 40) or size the "
                    "literals",
                )
            )
            return  # the outermost: what it holds overflows with it

    design.visit(check)
    return sorted(set(out))
