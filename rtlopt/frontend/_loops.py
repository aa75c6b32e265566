"""The values the variables of procedural ``for`` loops take in the loops' bodies, for
:mod:`rtlopt.frontend._net_bits` and :mod:`rtlopt.frontend._run_x`.

``for (int i = 0; i < 16; i++) y[i] = ...;`` writes ``y[15:0]``, and ``v[k]`` in
``for (k = 1; k < 32; k++)`` reads within ``v[31:1]``: an index is judged by the values the
loop's bounds give its variable, not by the variable's type. The loop is run the way slang's
constant evaluation runs it (its initializers, its stop expression and its steps, evaluated
with the variable a local of the evaluation), nested loops once per value of the outer ones
(an inner loop's bounds may read the outer variable). A loop whose bounds are not constant,
whose body writes its variable, or that runs more than :data:`LIMIT` iterations (all loops
open around a statement counted together) gives no values: its indices are judged from
their types, as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["LIMIT", "Loops", "enter", "values"]

#: The joint iterations of the loops open around one statement that are followed at most.
LIMIT = 4096


@dataclass(frozen=True)
class Loops:
    """The loops open around a statement: their variables (slang symbols) and every joint
    value they take (one tuple of slang constants per iteration of the innermost loop)."""

    names: tuple[Any, ...]
    rows: tuple[tuple[Any, ...], ...]

    def keys(self) -> set[int]:
        return {id(s) for s in self.names}


def _context(root: Any, names: tuple[Any, ...], row: tuple[Any, ...]) -> Any:
    from pyslang import ast

    ctx = ast.EvalContext(root)
    ctx.pushEmptyFrame()
    for sym, value in zip(names, row, strict=True):
        ctx.createLocal(sym, value)
    return ctx


def _writes(body: Any, sym: Any) -> bool:
    """Whether ``body`` assigns ``sym`` or steps it (``i++``)."""
    from pyslang import ast

    found: list[bool] = []

    def named(expr: Any) -> bool:
        return expr.kind.name == "NamedValue" and expr.symbol is sym

    def each(node: Any) -> Any:
        kind = node.kind
        if kind == ast.ExpressionKind.Assignment and named(node.left):
            found.append(True)
        elif kind == ast.ExpressionKind.UnaryOp and named(node.operand):
            if "crement" in node.op.name:
                found.append(True)
        return ast.VisitAction.Interrupt if found else ast.VisitAction.Advance

    body.visit(each)
    return bool(found)


def _run(loop: Any, root: Any, names: tuple[Any, ...], row: tuple[Any, ...]) -> list[Any] | None:
    """The values of ``loop``'s variable in its body with the outer loops' variables at
    ``row`` (None when not known)."""
    import pyslang

    ctx = _context(root, names, row)
    if len(loop.loopVars) == 1 and not loop.initializers:
        sym = loop.loopVars[0]
        init = getattr(sym, "initializer", None)
        if init is None:
            return None
        ctx.createLocal(sym, init.eval(ctx))
    elif not loop.loopVars and len(loop.initializers) == 1:
        init = loop.initializers[0]
        if init.kind.name != "Assignment" or init.left.kind.name != "NamedValue":
            return None
        sym = init.left.symbol
        ctx.createLocal(sym, sym.type.defaultValue)
        init.eval(ctx)
    else:
        return None
    out: list[Any] = []
    while True:
        stop = loop.stopExpr.eval(ctx) if loop.stopExpr is not None else None
        if stop is None or stop.hasUnknown() or stop.value is None:
            return None
        if not stop.isTrue():
            return out
        value = ctx.findLocal(sym)
        if value is None or value.hasUnknown() or len(out) >= LIMIT:
            return None
        out.append(pyslang.ConstantValue(value.value))  # a copy: the steps change the local
        for step in loop.steps:
            step.eval(ctx)


def variable(loop: Any) -> Any:
    """The variable ``loop`` steps (None when it has not exactly one)."""
    if len(loop.loopVars) == 1 and not loop.initializers:
        return loop.loopVars[0]
    if not loop.loopVars and len(loop.initializers) == 1:
        left = getattr(loop.initializers[0], "left", None)
        return left.symbol if left is not None and left.kind.name == "NamedValue" else None
    return None


def enter(loop: Any, root: Any, outer: Loops | None) -> Loops | None:
    """The loops open in ``loop``'s body: ``outer`` and ``loop`` itself, every iteration;
    ``outer`` alone (its variables' values stay known) when ``loop``'s are not."""
    outer = outer or Loops((), ((),))
    sym = variable(loop)
    if sym is None or _writes(loop.body, sym):
        return outer if outer.names else None
    rows: list[tuple[Any, ...]] = []
    try:
        for row in outer.rows:
            got = _run(loop, root, outer.names, row)
            if got is None:
                return outer if outer.names else None
            rows += [(*row, v) for v in got]
            if len(rows) > LIMIT:
                return outer if outer.names else None
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
        return outer if outer.names else None
    names = tuple(s for s in outer.names if s is not sym)
    keep = [i for i, s in enumerate(outer.names) if s is not sym]
    return Loops((*names, sym), tuple((*(r[i] for i in keep), r[-1]) for r in rows))


def contexts(expr: Any, root: Any, loops: Loops | None) -> Iterator[Any] | None:
    """One evaluation context per distinct joint value of the loop variables ``expr``
    reads (None when it reads none)."""
    from pyslang import ast

    if loops is None:
        return None
    read: set[int] = set()
    if expr.kind == ast.ExpressionKind.NamedValue:
        read.add(id(expr.symbol))
    expr.visit(lookup_table={ast.ExpressionKind.NamedValue: lambda n: read.add(id(n.symbol))})
    read &= loops.keys()
    if not read:
        return None
    cols = [i for i, s in enumerate(loops.names) if id(s) in read]
    names = tuple(loops.names[i] for i in cols)
    seen: dict[str, tuple[Any, ...]] = {}
    for row in loops.rows:
        sub = tuple(row[i] for i in cols)
        seen.setdefault(repr([str(v) for v in sub]), sub)
    return (_context(root, names, sub) for sub in seen.values())


def values(expr: Any, root: Any, loops: Loops | None) -> list[int] | None:
    """The values ``expr`` takes over the iterations of ``loops`` when it reads loop
    variables and nothing else that is not constant; else None."""
    import pyslang

    ctxs = contexts(expr, root, loops)
    if ctxs is None:
        return None
    out: set[int] = set()
    try:
        for ctx in ctxs:
            value = expr.eval(ctx)
            if value is None or value.hasUnknown() or not isinstance(value.value, pyslang.SVInt):
                return None
            out.add(int(value.value))
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
        return None
    return sorted(out)
