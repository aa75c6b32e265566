"""What drives each net and variable of an elaborated design (slang), for
:mod:`rtlopt.frontend._open_inputs`: a net that reaches an input of the target with no driver
at all feeds it z, and one that only x/z values drive feeds it x.

A driver is every assignment whose left side names the net or variable (continuous, in an
``always``/``initial`` block, a task or function, a generate block, ``force`` and procedural
``assign``, a hierarchical name from another module, an interface's signal through a
modport), a declaration's initializer (``wire w = a;``, ``reg r = 0;``), the connection of an
output or inout port of an instance (slang writes those, a task's output arguments,
``$readmemh``'s memory, a gate's output and ``pullup`` as assignments of an empty argument),
and any connection of an instance of a module the repository does not define (a vendor cell,
a ``-y`` library: its ports' directions are unknown, so each counts as a driver); a
``supply0``/``supply1``/``tri0``/``tri1`` net and a two-state variable (``bit``, ``int``)
need none. Only the value of an assignment is judged: a driver is x when that value has an x
or z bit outside an operand of ``===``, ``!==``, ``==?``, ``!=?`` or ``inside`` (which read x
as a value, not as unknown). Not judged: a net some of whose bits nothing drives (one driven
bit counts for all), and what drives a submodule's output inside it.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._slang import node_kind

__all__ = ["Drivers", "x_value"]

# nets that read a value with no driver: no z
_PULLED = {"Supply0", "Supply1", "Tri0", "Tri1"}
# operators that compare x as a value: an x constant among their operands is no x driven
_CASE_OPS = {"CaseEquality", "CaseInequality", "WildcardEquality", "WildcardInequality"}


def x_value(expr: Any, root: Any) -> str:
    """The first part of ``expr`` (itself included) that is a constant with an x or z bit,
    as slang prints it, or ""; operands of ``===``, ``!==``, ``==?``, ``!=?`` and ``inside``
    are not parts (they compare x as a value)."""
    from pyslang import ast

    found: list[str] = []

    def each(node: Any) -> Any:
        if found:
            return ast.VisitAction.Interrupt
        kind = node_kind(node)
        if kind == "Inside" or (
            kind == "BinaryOp" and getattr(getattr(node, "op", None), "name", "") in _CASE_OPS
        ):
            return ast.VisitAction.Skip
        try:
            value = node.eval(ast.EvalContext(root))
            if value is not None and value.hasUnknown():
                found.append(str(value))
                return ast.VisitAction.Interrupt
        except Exception:  # noqa: BLE001, S110 - pyslang raises plain exceptions: not constant
            pass
        return ast.VisitAction.Advance

    expr.visit(each)
    return found[0] if found else ""


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


class Drivers:
    """Every driver below ``scope`` (one walk) of each net and variable named like one of
    ``names`` (all of them when None). ``local``: the walk stops at the instances in
    ``scope`` (their output and inout connections are drivers, what is inside them is not
    walked), so a net of ``scope`` it finds no driver for may still be driven from elsewhere
    (a hierarchical name): ask the design's walk (``scope`` the root) then."""

    def __init__(
        self, scope: Any, root: Any, names: set[str] | None = None, *, local: bool = False
    ) -> None:
        from pyslang import ast

        self.root = root
        self._names = names
        # net -> the values that drive it; None: a port or an unknown module drives it
        self._of: dict[str, list[Any | None]] = {}
        # slang picks the nodes: Python sees only these kinds
        table = {
            ast.ExpressionKind.Assignment: self._assignment,
            ast.SymbolKind.Net: self._declared,
            ast.SymbolKind.Variable: self._declared,
            ast.SymbolKind.UninstantiatedDef: self._unknown_module,
        }
        if local:
            table[ast.SymbolKind.Instance] = self._child
        scope.visit(lookup_table=table)

    def _child(self, node: Any) -> Any:
        from pyslang import ast

        for conn in node.portConnections:
            expr = conn.expression
            if expr is not None and expr.kind == ast.ExpressionKind.Assignment:
                self._assignment(expr)  # an output or inout connection
        return ast.VisitAction.Skip

    def _add(self, syms: list[Any], value: Any | None) -> None:
        for sym in syms:
            if self._names is None or str(sym.name) in self._names:
                self._of.setdefault(key(sym), []).append(value)

    def _assignment(self, node: Any) -> None:
        from pyslang import ast

        right = node.right
        empty = right.kind == ast.ExpressionKind.EmptyArgument  # a port's, an output argument's
        self._add(named(node.left), None if empty else right)

    def _declared(self, node: Any) -> None:
        init = getattr(node, "initializer", None)
        if init is not None:
            self._add([node], init)

    def _unknown_module(self, node: Any) -> None:
        for conn in node.portConnections:
            part = getattr(conn, "expr", conn)
            if part is not None and hasattr(part, "visit"):
                self._add(named(part), None)

    def undriven(self, sym: Any) -> str | None:
        """None when a defined value (or a port) drives ``sym``; "" when nothing drives it;
        else an x/z value that drives it (every driver's value has x/z bits)."""
        net_type = getattr(sym, "netType", None)
        if getattr(getattr(net_type, "netKind", None), "name", "") in _PULLED:
            return None
        if not getattr(getattr(sym, "type", None), "isFourState", True):
            return None  # a two-state variable (bit, int) holds 0 undriven and reads x as 0
        values = self._of.get(key(sym))
        if not values:
            return ""
        xs = []
        for value in values:
            x = "" if value is None else x_value(value, self.root)
            if not x:
                return None
            xs.append(x)
        return xs[0]
