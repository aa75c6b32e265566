"""Which bits of a net or variable an expression names (slang), for
:mod:`rtlopt.frontend._net_drivers`: ``w[3:0] = c`` drives four bits of ``w`` only, and
``m u(.b(w[5]))`` reads one.

Bits are counted in the variable's selectable layout from its least significant bit (slang's
``selectableWidth``: every bit of packed and fixed unpacked dimensions), the way slang counts
a driver's bounds. A select is followed while its indices are constant (an element or a
range, ``+:``/``-:`` included, of a packed or fixed unpacked dimension, a member of a
struct); one whose index is not constant (``w[i]``) names bits that are not known, unless
it reads only variables of the procedural ``for`` loops around it
(:mod:`rtlopt.frontend._loops`): then it names the bits of every iteration
(``for (i = 0; i < 16; i++) y[i] = ...`` names ``y[15:0]``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from rtlopt.frontend._loops import Loops, contexts

__all__ = ["Piece", "key", "named", "pieces"]

# (net or variable, first bit, one past the last bit); None bounds: the bits are not known
Piece = tuple[Any, int | None, int | None]

_SELECTS = ("ElementSelect", "RangeSelect", "MemberAccess")


def named(expr: Any) -> list[Any]:
    """The nets and variables ``expr`` names (hierarchical names included)."""
    from pyslang import ast

    found: list[Any] = []

    def each(node: Any) -> None:
        sym = node.symbol
        # a modport's port (``b.sig = ...`` through ``bus_if.mp b``) is the interface's
        if sym.kind == ast.SymbolKind.ModportPort:
            sym = getattr(sym, "internalSymbol", None) or sym
        found.append(sym)

    if expr.kind == ast.ExpressionKind.NamedValue:  # the common case, without a walk
        each(expr)
    else:
        expr.visit(
            lookup_table={
                ast.ExpressionKind.NamedValue: each,
                ast.ExpressionKind.HierarchicalValue: each,
            }
        )
    return found


def key(sym: Any) -> str:
    """A net's or variable's identity across pyslang's wrappers: its hierarchical name."""
    return str(getattr(sym, "hierarchicalPath", "")) or str(getattr(sym, "name", ""))


def width(sym: Any) -> int:
    """The selectable bits of ``sym`` (0 when slang gives none: a real, a string, a class)."""
    try:
        return int(sym.type.selectableWidth)
    except Exception:  # noqa: BLE001 - a type slang cannot size
        return 0


def _const(expr: Any, root: Any, ctx: Any = None) -> int | None:
    """``expr``'s value when it is an integer constant without x/z bits (in ``ctx``, an
    evaluation context holding loop variables, when given), else None."""
    import pyslang
    from pyslang import ast

    try:
        value = expr.eval(ctx if ctx is not None else ast.EvalContext(root))
        if value is None or value.hasUnknown() or not isinstance(value.value, pyslang.SVInt):
            return None
        return int(value.value)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not constant
        return None


def _contains(rng: Any, index: int) -> bool:
    return bool(min(rng.left, rng.right) <= index <= max(rng.left, rng.right))


def _symbol(expr: Any) -> Any:
    """The net or variable a name names (a modport's port: the interface's signal)."""
    from pyslang import ast

    sym = expr.symbol
    if sym.kind == ast.SymbolKind.ModportPort:
        sym = getattr(sym, "internalSymbol", None) or sym
    return sym


def _bits(expr: Any, root: Any, ctx: Any = None) -> tuple[Any, int, int] | None | Literal[False]:
    """``(symbol, lo, hi)`` of a select chain rooted at a net or variable; False when the
    chain's root is no net or variable; None when an index is not constant (in ``ctx``)."""

    kind = expr.kind.name
    if kind in ("NamedValue", "HierarchicalValue"):
        sym = _symbol(expr)
        return sym, 0, width(sym)
    if kind == "Conversion":
        return _bits(expr.operand, root, ctx)
    if kind not in _SELECTS:
        return False
    inner = _bits(expr.value, root, ctx)
    if inner is None or inner is False:
        return inner
    sym, lo, _ = inner
    size = int(getattr(expr.type, "selectableWidth", 0) or 0)
    if kind == "MemberAccess":
        offset = getattr(expr.member, "bitOffset", None)
        return None if offset is None or not size else (sym, lo + int(offset), lo + offset + size)
    rng = getattr(expr.value.type.canonicalType, "fixedRange", None)
    if rng is None or not size:
        return None
    if kind == "ElementSelect":
        index = _const(expr.selector, root, ctx)
        if index is None or not _contains(rng, index):
            return None
        step = size
        first = last = rng.translateIndex(index)
    else:
        left, right = _const(expr.left, root, ctx), _const(expr.right, root, ctx)
        if left is None or right is None:
            return None
        how = expr.selectionKind.name
        if how == "IndexedUp":
            left, right = left, left + right - 1
        elif how == "IndexedDown":
            left, right = left, left - right + 1
        if not (_contains(rng, left) and _contains(rng, right)):
            return None
        a, b = rng.translateIndex(left), rng.translateIndex(right)
        first, last = min(a, b), max(a, b)
        step = size // (last - first + 1) if size % (last - first + 1) == 0 else 0
        if not step:
            return None
    return sym, lo + first * step, lo + (last + 1) * step


def _looped(node: Any, root: Any, loops: Loops | None) -> list[Piece] | None:
    """The bits the select chain ``node`` names over the iterations of ``loops`` when its
    indices read loop variables only (None otherwise)."""
    ctxs = contexts(node, root, loops)
    if ctxs is None:
        return None
    out: list[Piece] = []
    for ctx in ctxs:
        got = _bits(node, root, ctx)
        if not got:
            return None
        out.append(got)
    return _joined(out)


def _joined(found: list[Piece]) -> list[Piece]:
    """``found`` (bits of one net or variable) with adjacent and repeated ranges joined."""
    out: list[Piece] = []
    for sym, lo, hi in sorted(found, key=lambda p: (p[1] or 0, p[2] or 0)):
        if out and out[-1][2] is not None and lo is not None and lo <= out[-1][2]:
            last = out[-1]
            out[-1] = (last[0], last[1], max(last[2] or 0, hi or 0))
        else:
            out.append((sym, lo, hi))
    return out


def pieces(
    expr: Any,
    root: Any,
    *,
    reading: bool = False,
    loops: Loops | None = None,
    decide: Callable[[Any], bool | None] | None = None,
) -> list[Piece]:
    """The nets and variables ``expr`` names, each with the bits it names. A select whose
    index is not constant names unknown bits (``reading``: every bit, the index's own nets
    too); so does a select of what is no fixed-size array. An index reading only
    variables of ``loops`` (the procedural loops around ``expr``) names the bits of each
    iteration. ``decide``: the truth of a ``?:``'s condition whatever the unknowns are
    (None not known); only the arm it picks is named (what the condition reads is not)."""
    from pyslang import ast

    found: list[Piece] = []

    def conditional(node: Any) -> Any:
        conds = list(node.conditions)
        if decide is None or len(conds) != 1 or conds[0].pattern is not None:
            return ast.VisitAction.Advance
        truth = decide(conds[0].expr)
        if truth is None:
            return ast.VisitAction.Advance
        found.extend(
            pieces(
                node.left if truth else node.right,
                root,
                reading=reading,
                loops=loops,
                decide=decide,
            )
        )
        return ast.VisitAction.Skip

    def chain(node: Any) -> Any:
        got = _bits(node, root)
        if got:
            found.append(got)
            return ast.VisitAction.Skip  # constant indices name no net
        looped = _looped(node, root, loops) if got is None and loops is not None else None
        if looped:
            found.extend(looped)
            return ast.VisitAction.Skip
        if got is None and not reading:
            base = node
            while base.kind.name in (*_SELECTS, "Conversion"):
                base = base.value if base.kind.name != "Conversion" else base.operand
            if base.kind.name in ("NamedValue", "HierarchicalValue"):
                found.append((_symbol(base), None, None))
            return ast.VisitAction.Skip
        return ast.VisitAction.Advance

    if expr.kind == ast.ExpressionKind.NamedValue:
        chain(expr)
    else:
        table = {getattr(ast.ExpressionKind, k): chain for k in (*_SELECTS, "NamedValue")}
        table[ast.ExpressionKind.HierarchicalValue] = chain
        table[ast.ExpressionKind.ConditionalOp] = conditional
        expr.visit(lookup_table=table)
    return _merge(found)


def _merge(found: list[Piece]) -> list[Piece]:
    """``found`` without repeats."""
    out: list[Piece] = []
    for piece in found:
        if piece not in out:
            out.append(piece)
    return out
