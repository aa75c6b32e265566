"""The bits of a variable every path through a statement assigns (slang), for
:mod:`rtlopt.frontend._run_x`: a function whose result some path leaves unassigned (a
``case`` without ``default``, an ``if`` without ``else``) returns x there; so does a task's
or function's output argument (:class:`rtlopt.frontend._net_drivers.Drivers`).

A path is followed through sequences, blocks, ``if``/``else`` (a constant condition takes
one branch) and ``case`` (a plain ``case`` on an unsigned selector of at most 16 bits whose
constant items name every value needs no ``default``, unless the selector may be x at run
time: ``case (en / en)`` matches no item on en = 0; ``casez``/``casex``/``case inside`` do).
``return`` ends its path with every bit assigned (what it returns is judged apart); a
``disable``, ``break`` or ``continue`` ends its path with what it has assigned so far. A
loop body may run zero times: what it assigns does not count (``do ... while`` runs once),
except a procedural ``for`` loop whose bounds give its variable at least one value
(:mod:`rtlopt.frontend._loops`): its body counts with a select indexed by the variable
naming the bits of every iteration; a ``for`` loop's initializers always run. An assignment
counts for the bits its left side names with constant indices
(:mod:`rtlopt.frontend._net_bits`), and so does a call's output argument; any other
statement assigns nothing (fail closed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rtlopt.frontend._loops import Loops, enter, variable
from rtlopt.frontend._net_bits import _const, pieces, width

__all__ = ["SelectorX", "surely", "unassigned"]

# bits surely assigned on a path; None: the path ended with a return (every bit)
Bits = frozenset[int] | None
#: Whether the selector of a ``case`` statement (statement, design root, the ``for`` loops
#: around it) may be x at run time although what it reads is defined: no item matches then.
#: The caller's judge (:func:`rtlopt.frontend._run_x.case_selector_x`), passed in because it
#: reads calls whose functions this module follows in turn.
SelectorX = Callable[[Any, Any, "Loops | None"], bool]


def _meet(a: Bits, b: Bits) -> Bits:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _key(sym: Any) -> str:
    return str(getattr(sym, "hierarchicalPath", "")) or str(getattr(sym, "name", ""))


class _Paths:
    """Bits of ``var`` that statements surely assign, and the bits at each early exit."""

    def __init__(
        self, var: Any, root: Any, *, selector_x: SelectorX, stop_at_timing: bool = False
    ) -> None:
        self.var = _key(var)
        self.root = root
        self.selector_x = selector_x
        self.exits: list[Bits] = []
        self.loops: Loops | None = None  # the ``for`` loops around the statement followed
        # a timing control ends the path (what it writes later is not written at time 0)
        self.stop_at_timing = stop_at_timing

    def after(self, stmt: Any, have: Bits) -> Bits:
        """The bits surely assigned once ``stmt`` ran, ``have`` assigned before it."""
        if have is None or stmt is None:
            return have
        kind = stmt.kind.name
        if kind == "List":
            for inner in stmt.list:
                have = self.after(inner, have)
            return have
        if kind in ("Block", "DoWhileLoop"):
            sequential = kind != "Block" or stmt.blockKind.name == "Sequential"
            return self.after(stmt.body, have) if sequential else have
        if kind in ("Timed", "Wait") and self.stop_at_timing:
            self.exits.append(have)
            return self.after(stmt.stmt, have)
        if kind == "Timed":
            return self.after(stmt.stmt, have)
        if kind == "ExpressionStatement":
            return have | self._written(stmt.expr)
        if kind == "ProceduralAssign":  # ``force w = b;``, ``assign w = b;``
            return have | self._written(stmt.assignment)
        if kind == "Return":
            return None
        if kind in ("Disable", "Break", "Continue"):
            self.exits.append(have)
            return have
        if kind == "ForLoop":
            return self._loop(stmt, have)
        if kind == "Conditional":
            return self._conditional(stmt, have)
        if kind == "Case":
            return self._case(stmt, have)
        return have  # a loop (may run zero times) or a form not followed: nothing more

    def _called(self, expr: Any) -> frozenset[int]:
        """The bits the output arguments of the calls in ``expr`` write."""
        from pyslang import ast

        calls: list[Any] = []
        expr.visit(lookup_table={ast.ExpressionKind.Call: calls.append})
        out: frozenset[int] = frozenset()
        for call in calls:
            out |= self._written(call)
        return out

    def _loop(self, stmt: Any, have: Bits) -> Bits:
        """A ``for`` loop: its initializers run; its body counts when the loop's bounds
        give its variable at least one value."""
        for init in stmt.initializers:
            have = None if have is None else have | self._written(init)
        sym = variable(stmt)
        try:
            inner = enter(stmt, self.root, self.loops)
        except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
            inner = None
        if sym is None or inner is None or not inner.rows or not any(n is sym for n in inner.names):
            return have
        outer, self.loops = self.loops, inner
        try:
            return self.after(stmt.body, have)
        finally:
            self.loops = outer

    def _written(self, expr: Any) -> frozenset[int]:
        """The bits of the variable ``expr`` assigns: an assignment's left side, or a
        call's output arguments (``$value$plusargs("V=%h", v)``: what the task writes is
        judged apart, :mod:`rtlopt.frontend._sys_x`)."""
        from pyslang import ast

        lefts: list[Any] = []
        if expr.kind.name == "Assignment":
            lefts.append(expr.left)
        elif expr.kind.name == "Call":
            expr.visit(lookup_table={ast.ExpressionKind.Assignment: lambda n: lefts.append(n.left)})
        bits: set[int] = set()
        for left in lefts:
            for sym, lo, hi in pieces(left, self.root, loops=self.loops):
                if _key(sym) == self.var and lo is not None and hi is not None:
                    bits.update(range(lo, hi))
        return frozenset(bits)

    def _conditional(self, stmt: Any, have: Bits) -> Bits:
        conds = list(stmt.conditions)
        if have is not None:  # a call in the first condition runs on every path
            have = have | self._called(conds[0].expr)
        value = _const(conds[0].expr, self.root) if len(conds) == 1 else None
        if value is not None and conds[0].pattern is None:
            return self.after(stmt.ifTrue if value else stmt.ifFalse, have)
        return _meet(self.after(stmt.ifTrue, have), self.after(stmt.ifFalse, have))

    def _case(self, stmt: Any, have: Bits) -> Bits:
        out: Bits = None
        for item in stmt.items:
            out = _meet(out, self.after(item.stmt, have))
        if stmt.defaultCase is not None:
            return _meet(out, self.after(stmt.defaultCase, have))
        return out if _full(stmt, self.root, self.loops, self.selector_x) else _meet(out, have)


def _full(stmt: Any, root: Any, loops: Loops | None, selector_x: SelectorX) -> bool:
    """Whether the items of the plain ``case`` ``stmt`` name every value of its selector,
    and the selector is not x at run time (``loops``: the ``for`` loops around it)."""
    if stmt.condition.name != "Normal":
        return False
    sel = stmt.expr
    while sel.kind.name == "Conversion" and getattr(sel, "isImplicit", False):
        sel = sel.operand
    try:
        bits = int(sel.type.bitWidth)
        if sel.type.isSigned or not sel.type.isIntegral:
            return False
    except Exception:  # noqa: BLE001 - a type slang cannot size
        return False
    if not 0 < bits <= 16:
        return False
    seen: set[int] = set()
    for item in stmt.items:
        for expr in item.expressions:
            value = _const(expr, root)
            if value is None:
                return False
            if 0 <= value < 1 << bits:
                seen.add(value)
    return len(seen) == 1 << bits and not selector_x(stmt, root, loops)


def surely(
    stmt: Any, var: Any, root: Any, *, selector_x: SelectorX, stop_at_timing: bool = False
) -> frozenset[int]:
    """The bits of ``var`` every path through ``stmt`` assigns (``stop_at_timing``: before
    its first delay, event or ``wait``; a ``return`` counts as every bit)."""
    paths = _Paths(var, root, selector_x=selector_x, stop_at_timing=stop_at_timing)
    end = paths.after(stmt, frozenset())
    need = frozenset(range(width(var)))
    out = need
    for bits in [end, *paths.exits]:
        if bits is not None:
            out &= bits
    return out


def unassigned(sub: Any, root: Any, var: Any = None, *, selector_x: SelectorX) -> bool:
    """Whether some path through the function or task ``sub`` leaves a bit of its result
    (or of its output argument ``var``) unassigned (four-state: a two-state one reads 0)."""
    var = getattr(sub, "returnValVar", None) if var is None else var
    if var is None or not getattr(var.type, "isFourState", False) or not width(var):
        return False
    paths = _Paths(var, root, selector_x=selector_x)
    end = paths.after(sub.body, frozenset())
    need = frozenset(range(width(var)))
    return any(bits is not None and not need <= bits for bits in [end, *paths.exits])
