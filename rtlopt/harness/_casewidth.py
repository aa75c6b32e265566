"""Case items that Yosys evaluates at their own width.

IEEE 1364 (9.5) sizes every item of a case statement, and the case expression, to the widest of
them before comparing, so ``case (s) 16'hF123 + 16'h2345:`` with a 32-bit ``s`` matches
``32'h11468``. Yosys 0.23 evaluates an item at its own (self-determined) width and extends the
result (``16'h1468``: the carry is lost), which iverilog and the second proof's slang frontend
do not. Measured alike for ``-K`` (``16'sh8000``), ``~16'h0F0F``, ``16'h8000 << 1`` and in
``casez``; the case expression itself is read alike (``case (a + b)`` keeps its carry).

An item is judged when its context-determined part (through parentheses, the arithmetic and
bitwise operators, unary ``+ - ~``, the left operand of a shift or ``**`` and the branches of
``?:``) holds an operator whose value depends on the width it is evaluated at (``+ - * / % **
<< <<< >>>``, unary ``-`` and ``~``), or any operator where the statement or an operand is
signed (``16'sh8123 >> 1`` in a signed statement: simulation extends the sign first), and the
widest operand there is narrower than the statement. Names, constants, concatenations, unsigned
bitwise operators and ``>>``, and items as wide as the statement are read alike. Widths come
from slang's elaboration (:mod:`._elaborated`) under the text's parameter values; since a
parent may set others, an item with an operand narrower than 32 bits is judged too where a net
or variable of the statement is declared with an overridable parameter (``input [W-1:0] s``
against ``8'hF0 + 8'h20``; ``DEPTH - 1`` is 32 bits whatever ``DEPTH`` is).
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._elaborated import Elaborated, expressions
from rtlopt.harness._nodes import _kind as _syntax_kind
from rtlopt.harness._races import names, nodes

__all__ = ["case_width_problems"]

_B = "BinaryOperator."
_U = "UnaryOperator."
#: Operators whose result keeps bits a narrower evaluation loses (carry, sign, shifted-in).
_SENSITIVE = frozenset(
    [_B + o for o in "Add Subtract Multiply Divide Mod Power".split()]
    + [_B + "LogicalShiftLeft", _B + "ArithmeticShiftLeft", _B + "ArithmeticShiftRight"]
    + [_U + "Minus", _U + "BitwiseNot"]
)
#: Binary operators whose two operands take the context's width.
_BOTH = frozenset(
    _B + o
    for o in "Add Subtract Multiply Divide Mod BinaryAnd BinaryOr BinaryXor BinaryXnor".split()
)
#: Binary operators whose left operand only takes the context's width.
_LEFT = frozenset(
    _B + o
    for o in (
        "Power LogicalShiftLeft LogicalShiftRight ArithmeticShiftLeft ArithmeticShiftRight".split()
    )
)
_UNARY = frozenset({_U + "Plus", _U + "Minus", _U + "BitwiseNot"})


def _kind(e: Any) -> str:
    return str(e.kind).rsplit(".", 1)[-1]


def _op(e: Any) -> str:
    return str(getattr(e, "op", ""))


def _context_part(e: Any, signed: bool = False) -> tuple[int, int, bool]:
    """The widest and the narrowest self-determined operand of ``e``'s context-determined
    part, and whether an operator there depends on the width it is evaluated at: an
    arithmetic one, a left or arithmetic shift, unary ``-``/``~``, or any operator where the
    statement (``signed``) or an operand is signed (the bits it is extended with differ)."""
    k = _kind(e)
    if k == "Conversion" and e.isImplicit:
        return _context_part(e.operand, signed or bool(e.type.isSigned))
    operands: list[Any] = []
    if k == "BinaryOp" and _op(e) in _BOTH:
        operands = [e.left, e.right]
    elif k == "BinaryOp" and _op(e) in _LEFT:
        operands = [e.left]
    elif k == "UnaryOp" and _op(e) in _UNARY:
        operands = [e.operand]
    elif k == "ConditionalOp":
        operands = [e.left, e.right]
    if not operands:
        return int(e.type.bitWidth), int(e.type.bitWidth), False
    parts = [_context_part(o, signed) for o in operands]
    sign = signed or any(bool(o.type.isSigned) for o in operands)
    sensitive = _op(e) in _SENSITIVE or sign or any(s for _, _, s in parts)
    return max(w for w, _, _ in parts), min(n for _, n, _ in parts), sensitive


def _overridable(tree: Any) -> set[str]:
    """Parameters a parent may override (``parameter``, not ``localparam``)."""
    out: set[str] = set()
    for node in nodes(tree.root, "ParameterDeclaration"):
        if _syntax_kind(node) == "ParameterDeclaration" and node.keyword.valueText != "localparam":
            out |= {str(d.name.valueText) for d in node.declarators if hasattr(d, "name")}
    return out


def _sized_by(statement: Any, params: set[str]) -> str:
    """A parameter a width in the case statement depends on: one named in the declaration of
    a net or variable that its expression or items read ("" when none)."""
    for expr in [statement.expr] + [e for g in statement.items for e in g.expressions]:
        for e in expressions(expr):
            if _kind(e) != "NamedValue" or e.symbol.syntax is None:
                continue
            decl = e.symbol.syntax.parent
            found = names(decl) & params if decl is not None else set()
            if found:
                return min(found)
    return ""


def case_width_problems(design: Elaborated, shift: int) -> list[tuple[int, str]]:
    """``(offset, message)`` of each case item Yosys reads at a narrower width than the
    statement (offsets into the text the tree was parsed from, less ``shift``): under the
    text's parameter values, or, for an item with an operand narrower than 32 bits (an
    unsized number or parameter is 32), in a statement whose widths depend on a parameter a
    parent may set."""
    out: list[tuple[int, str]] = []
    params = _overridable(design.tree)

    def check(node: Any) -> None:
        if _kind(node) != "Case":
            return
        for group in node.items:
            for item in group.expressions:
                width = int(item.type.bitWidth)
                own, low, sensitive = _context_part(item)
                why = ""
                if sensitive and own < width:
                    why = f"is {own} bits wide in a {width}-bit case statement"
                elif sensitive and low < 32 and params:
                    param = _sized_by(node, params)
                    why = f"has a {low}-bit operand and the statement's width depends on {param}"
                    why = why if param else ""
                if why:
                    text = " ".join(str(item.syntax).split()) if item.syntax else "an item"
                    out.append((int(item.sourceRange.start.offset) - shift, _message(text, why)))

    design.visit(check)
    return sorted(set(out))


def _message(text: str, why: str) -> str:
    return (
        f"the case item {text} {why}: simulation evaluates an item at the statement's width, "
        "synthesis and the proof at its own (a carry, sign or shifted-out bit is lost); write "
        "it at the statement's width or as a constant"
    )
