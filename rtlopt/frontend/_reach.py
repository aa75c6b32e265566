"""Whether an arm of a ``?:`` chain or the ``default`` of a ``case`` is reached by some 0/1
value of what selects it, for :mod:`rtlopt.frontend._run_x` and
:mod:`rtlopt.frontend._net_drivers`.

``s == 0 ? a : s == 1 ? b : s == 2 ? c : s == 3 ? d : 'x`` with ``s`` two bits never reads
its x arm while ``s`` is 0 or 1 on every bit; nor does ``default: y = 'x;`` of a ``case``
whose items cover every value of its expression. An x there is no x source: an x in the
selector itself is found where it is made (the walk follows the selector's fan-in cone).

The decision enumerates every 0/1 value of the bits the selecting expressions read (each
operand free, which over-approximates what reaches the arm: sound), evaluating them with
slang's constant evaluation, when those bits total at most :data:`BITS`; past that, or when
an operand is no integral net or variable or an evaluation fails or gives x, the arm counts
as reached.

:func:`decided` tells whether a condition holds one truth value for every 0/1 value of its
unknown operands, evaluating it with each unknown x (slang's four-state evaluation; Verilog's
operators propagate x so that a 0/1 result holds for every value of the unknowns, except
``===``, ``!==``, ``==?``, ``!=?`` and ``inside``, which read x as a value: a condition using
one is not decided): an ``if (FPU == 1 && en)`` with ``FPU`` 0 never takes its branch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rtlopt.frontend._net_bits import key, named, width

__all__ = ["BITS", "arm_reached", "chain", "decided", "default_reached", "evaluate", "unknown"]

#: The bits of the selecting operands enumerated at most.
BITS = 16


def chain(node: Any) -> tuple[list[Any], list[Any]]:
    """The conditions and arms of the right-nested ``?:`` chain ``node`` (``c1 ? a1 : c2 ?
    a2 : e``: ``[c1, c2]``, ``[a1, a2, e]``); a condition with a pattern ends the chain."""
    conds: list[Any] = []
    arms: list[Any] = []
    while node.kind.name == "ConditionalOp":
        got = list(node.conditions)
        if len(got) != 1 or got[0].pattern is not None:
            break
        conds.append(got[0].expr)
        arms.append(node.left)
        node = node.right
    return conds, [*arms, node]


def _operands(exprs: list[Any], root: Any) -> list[tuple[Any, list[int]]] | None:
    """Each net or variable ``exprs`` read with the bits read (None: more than
    :data:`BITS` bits, or one that is not an integral value)."""
    from rtlopt.frontend._net_bits import pieces

    read: dict[str, tuple[Any, set[int]]] = {}
    for expr in exprs:
        for sym, lo, hi in pieces(expr, root, reading=True):
            size = width(sym)
            typ = getattr(sym, "type", None)
            if not size or size > 64 or not getattr(typ, "isIntegral", False):
                return None
            a, b = (0, size) if lo is None or hi is None else (lo, hi)
            read.setdefault(key(sym), (sym, set()))[1].update(range(a, b))
    if sum(len(b) for _, b in read.values()) > BITS:
        return None
    return [(sym, sorted(bits)) for sym, bits in read.values()]


def _contexts(exprs: list[Any], root: Any) -> Iterator[Any] | None:
    """An evaluation context for every 0/1 value of the bits ``exprs`` read (None: too
    many bits, or operands not enumerable)."""
    import pyslang
    from pyslang import ast

    ops = _operands(exprs, root)
    if ops is None:
        return None
    total = sum(len(b) for _, b in ops)

    def each() -> Iterator[Any]:
        for n in range(1 << total):
            ctx = ast.EvalContext(root)
            ctx.pushEmptyFrame()
            at = 0
            for sym, bits in ops:
                value = 0
                for bit in bits:
                    value |= ((n >> at) & 1) << bit
                    at += 1
                signed = bool(getattr(sym.type, "isSigned", False))
                size = width(sym)
                if signed and value >> (size - 1):
                    value -= 1 << size
                ctx.createLocal(sym, pyslang.ConstantValue(pyslang.SVInt(size, value, signed)))
            yield ctx

    return each()


def _truth(expr: Any, ctx: Any) -> bool | None:
    value = expr.eval(ctx)
    if value is None or value.hasUnknown() or value.value is None:
        return None
    return bool(value.isTrue())


def arm_reached(conds: list[Any], k: int, root: Any) -> bool:
    """Whether arm ``k`` of a ``?:`` chain with conditions ``conds`` (arm ``len(conds)``:
    the last ``:``) is selected by some 0/1 value of the conditions' operands."""
    before, last = conds[:k], conds[k] if k < len(conds) else None
    ctxs = _contexts([*before, *([last] if last is not None else [])], root)
    if ctxs is None:
        return True
    try:
        for ctx in ctxs:
            got = [_truth(c, ctx) for c in before]
            if None in got:
                return True
            if any(got):
                continue
            if last is None:
                return True
            now = _truth(last, ctx)
            if now is None or now:
                return True
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not decided
        return True
    return False


def default_reached(case: Any, root: Any) -> bool:
    """Whether some 0/1 value of the operands of ``case``'s expression and items matches
    no item (the ``default`` is taken)."""
    import pyslang

    how = case.condition.name
    if how not in ("Normal", "WildcardJustZ", "WildcardXOrZ"):
        return True
    items = [e for item in case.items for e in item.expressions]
    ctxs = _contexts([case.expr, *items], root)
    if ctxs is None:
        return True
    try:
        for ctx in ctxs:
            value = case.expr.eval(ctx)
            if value is None or value.hasUnknown() or not isinstance(value.value, pyslang.SVInt):
                return True
            matched = False
            for item in items:
                got = item.eval(ctx)
                if got is None or not isinstance(got.value, pyslang.SVInt):
                    return True
                if got.hasUnknown():
                    if how != "Normal":
                        return True  # a wildcard: not decided here
                    continue  # an x/z bit never matches a 0/1 value
                if int(got.value) == int(value.value):
                    matched = True
                    break
            if not matched:
                return True
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not decided
        return True
    return False


_CASE_OPS = {"CaseEquality", "CaseInequality", "WildcardEquality", "WildcardInequality"}


def unknown(sym: Any) -> Any:
    import pyslang

    signed = bool(getattr(getattr(sym, "type", None), "isSigned", False))
    return pyslang.ConstantValue(pyslang.SVInt.createFillX(max(width(sym), 1), signed))


def _reads_x_as_value(expr: Any) -> bool:
    """Whether ``expr`` uses an operator that reads x as a value (``===``, ``inside``)."""
    from pyslang import ast

    found: list[bool] = []

    def each(node: Any) -> Any:
        kind = node.kind.name
        op = getattr(getattr(node, "op", None), "name", "")
        if kind == "Inside" or (kind == "BinaryOp" and op in _CASE_OPS):
            found.append(True)
            return ast.VisitAction.Interrupt
        return ast.VisitAction.Advance

    expr.visit(each)
    return bool(found)


def evaluate(expr: Any, root: Any, value: Callable[[Any], Any]) -> Any:
    """``expr``'s value with each net or variable it names at ``value(symbol)`` (None: not
    computed)."""
    from pyslang import ast

    if _reads_x_as_value(expr):
        return None
    ctx = ast.EvalContext(root)
    ctx.pushEmptyFrame()
    done: set[str] = set()
    for sym in named(expr):
        if sym.kind.name in ("Net", "Variable") and key(sym) not in done:
            done.add(key(sym))
            ctx.createLocal(sym, value(sym))
    try:
        got = expr.eval(ctx)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not computed
        return None
    return got if got is not None and got.value is not None else None


def decided(expr: Any, root: Any, value: Callable[[Any], Any] | None = None) -> bool | None:
    """The truth of the condition ``expr`` for every 0/1 value of its unknown operands
    (each net or variable at ``value(symbol)``, x by default), or None."""
    got = evaluate(expr, root, value or unknown)
    if got is None or got.hasUnknown():
        return None
    try:
        return bool(got.isTrue())
    except Exception:  # noqa: BLE001 - not a truth value
        return None
