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
``supply0``/``supply1``/``tri0``/``tri1`` net needs none. Only the value of an assignment is
judged: a driver is x when that value has an x or z bit outside an operand of ``===``,
``!==``, ``==?``, ``!=?`` or ``inside`` (which read x as a value, not as unknown).
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
    found: list[Any] = []

    def each(node: Any) -> bool:
        if node_kind(node) in ("NamedValue", "HierarchicalValue"):
            sym = node.symbol
            # a modport's port (``b.sig = ...`` through ``bus_if.mp b``) is the interface's
            if node_kind(sym) == "ModportPort":
                sym = getattr(sym, "internalSymbol", None) or sym
            found.append(sym)
        return True

    expr.visit(each)
    return found


def key(sym: Any) -> str:
    """A net's or variable's identity across pyslang's wrappers: its hierarchical name."""
    return str(getattr(sym, "hierarchicalPath", "")) or str(getattr(sym, "name", ""))


class Drivers:
    """Every driver of every net and variable below ``root`` (one walk of the design)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        # net -> the values that drive it; None: a port or an unknown module drives it
        self._of: dict[str, list[Any | None]] = {}
        from pyslang import ast

        # slang picks the nodes: Python sees only these kinds
        table = {
            ast.ExpressionKind.Assignment: self._each,
            ast.SymbolKind.Net: self._each,
            ast.SymbolKind.Variable: self._each,
            ast.SymbolKind.UninstantiatedDef: self._each,
        }
        root.visit(lookup_table=table)

    def _add(self, syms: list[Any], value: Any | None) -> None:
        for sym in syms:
            self._of.setdefault(key(sym), []).append(value)

    def _each(self, node: Any) -> None:
        kind = node_kind(node)
        if kind == "Assignment":
            right = node.right
            self._add(named(node.left), None if node_kind(right) == "EmptyArgument" else right)
        elif kind in ("Net", "Variable"):
            init = getattr(node, "initializer", None)
            if init is not None:
                self._add([node], init)
        elif kind == "UninstantiatedDef":
            for conn in node.portConnections:
                if conn is not None:
                    part = getattr(conn, "expr", conn)
                    self._add(named(part) if hasattr(part, "visit") else [], None)

    def undriven(self, sym: Any) -> str | None:
        """None when a defined value (or a port) drives ``sym``; "" when nothing drives it;
        else an x/z value that drives it (every driver's value has x/z bits)."""
        net_type = getattr(sym, "netType", None)
        if getattr(getattr(net_type, "netKind", None), "name", "") in _PULLED:
            return None
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
