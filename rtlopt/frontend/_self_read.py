"""A read of a variable a combinational block makes before the block writes it, for
:mod:`rtlopt.frontend._partial`.

A combinational block (``always @*``, ``always @(a or b)``, ``always_comb``) that reads a
variable it writes itself, where some path reads bits of it the block has not surely written
yet, holds the variable's previous value on that path: ``else bw = bw;``, ``bw = en ? 1'b1 :
bw;``, ``bw = bw | en;``, an ``if (bw)`` before ``bw``'s write. A simulation starts the
variable x and such a block passes the x on (a latch, or a loop through the variable itself)
however every path writes it. An unconditional write of the bits first defines them (``bw =
1'b0; if (c) bw = bw | 1'b1;`` reads the 0).

Paths are followed as :func:`rtlopt.frontend._assigned.surely` follows them. What a statement
reads is judged before what it writes: an assignment's right side (its left side too for
``+=`` and the like), a call's arguments, an ``if``'s conditions, a ``case``'s selector and
items, a loop's initializers, condition and steps. Inside a ``for`` loop's body the bits the
body surely writes (over every iteration) count as written (``v[i] = v[i - 1]`` reads the
previous iteration's write; a read of a later iteration's bits is a known gap). Reads inside
a function or task the block calls (a module-level variable named in its body) are not
looked at.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._assigned import Bits, _key, _Paths
from rtlopt.frontend._net_bits import pieces, width

__all__ = ["read_first"]


class _Reads(_Paths):
    """:class:`rtlopt.frontend._assigned._Paths` that stops at the first read of bits not
    surely written yet."""

    def __init__(self, var: Any, root: Any) -> None:
        super().__init__(var, root)
        self.var_sym = var
        self.found: Any = None
        self.size = width(var)
        self.extra: frozenset[int] = frozenset()  # a loop body's own writes
        self.aliases = _aliases(var)

    def after(self, stmt: Any, have: Bits) -> Bits:
        if self.found is None and stmt is not None and have is not None:
            for expr in _read_by(stmt):
                if self._early(expr, have | self.extra):
                    self.found = expr
                    break
        if stmt is not None and stmt.kind.name == "ForLoop" and self.found is None:
            return self._loop_reads(stmt, have)
        return super().after(stmt, have)

    def _loop_reads(self, stmt: Any, have: Bits) -> Bits:
        """A ``for`` loop: its body's reads of bits written by the body count as written."""
        probe = _Paths(self.var_sym, self.root)
        probe.loops = self.loops
        body = probe._loop(stmt, frozenset())
        outer = self.extra
        self.extra = outer | (body or frozenset())
        try:
            return super().after(stmt, have)
        finally:
            self.extra = outer

    def _early(self, expr: Any, have: frozenset[int]) -> bool:
        for sym, lo, hi in pieces(expr, self.root, reading=True, loops=self.loops):
            if _key(sym) in self.aliases:
                sym, lo, hi = self.var_sym, None, None  # a net copying the variable
            elif _key(sym) != self.var:
                continue
            bits = range(0, self.size) if lo is None or hi is None else range(lo, hi)
            if not set(bits) <= have:
                return True
        return False


def _aliases(var: Any) -> frozenset[str]:
    """The nets of ``var``'s scope that copy it whole (``wire c = v;``, ``assign c = v;``):
    a read of one is a read of ``var``."""
    from rtlopt.frontend._slang import instance_members, node_kind

    def copies(expr: Any) -> bool:
        return (
            expr is not None and expr.kind.name == "NamedValue" and _key(expr.symbol) == _key(var)
        )

    scope = getattr(var, "parentScope", None)
    out: set[str] = set()
    try:
        members = instance_members(scope) if scope is not None else []
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: no alias known
        return frozenset()
    for m in members:
        kind = node_kind(m)
        if kind == "Net" and copies(getattr(m, "initializer", None)):
            out.add(_key(m))
        elif kind == "ContinuousAssign":
            a = m.assignment
            if copies(a.right) and a.left.kind.name == "NamedValue":
                out.add(_key(a.left.symbol))
    return frozenset(out)


def _read_by(stmt: Any) -> list[Any]:
    """The expressions statement ``stmt`` itself reads (not its inner statements)."""
    kind = stmt.kind.name
    if kind == "ExpressionStatement":
        expr = stmt.expr
        if expr.kind.name == "Assignment":
            out = [expr.right]
            if getattr(expr, "isCompound", False):
                out.append(expr.left)
            return out
        if expr.kind.name == "Call":
            # an output argument is written (an assignment from an empty argument)
            return [a for a in expr.arguments if a.kind.name != "Assignment"]
        return [expr]
    if kind == "Conditional":
        return [c.expr for c in stmt.conditions]
    if kind == "Case":
        return [stmt.expr, *(e for item in stmt.items for e in item.expressions)]
    if kind == "ForLoop":
        out = [*stmt.initializers, *stmt.steps]
        return out if stmt.stopExpr is None else [*out, stmt.stopExpr]
    if kind in ("WhileLoop", "DoWhileLoop"):
        return [stmt.cond]
    return []


def read_first(stmt: Any, var: Any, root: Any) -> Any:
    """The first expression of ``stmt`` (a combinational block's body) found reading bits of
    ``var`` some path has not written before, or None."""
    paths = _Reads(var, root)
    paths.after(stmt, frozenset())
    return paths.found
