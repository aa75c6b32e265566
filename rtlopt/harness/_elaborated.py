"""One text elaborated by slang (pyslang) for the screen's rules that need types and drivers:
expression widths after IEEE 1364 context sizing (:mod:`._casewidth`) and the drivers of each
net and variable (:mod:`._xcontrol`).

The text is elaborated alone: every module it does not instantiate is a top with its default
parameters, and an instance of a module the text does not define is left out (the names it
connects are reported by :meth:`Elaborated.unknown_connections`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rtlopt.frontend._slang import compilation_options
from rtlopt.harness._nodes import _kind
from rtlopt.harness._races import _ports, names, nodes

__all__ = ["Elaborated", "elaborate", "expressions"]

#: Syntax that may write the names it holds (see :meth:`Elaborated.written`).
_WRITERS = frozenset(
    {
        "AssignmentExpression",
        "NonblockingAssignmentExpression",
        "AddAssignmentExpression",
        "SubtractAssignmentExpression",
        "MultiplyAssignmentExpression",
        "DivideAssignmentExpression",
        "ModAssignmentExpression",
        "AndAssignmentExpression",
        "OrAssignmentExpression",
        "XorAssignmentExpression",
        "LogicalLeftShiftAssignmentExpression",
        "LogicalRightShiftAssignmentExpression",
        "ArithmeticLeftShiftAssignmentExpression",
        "ArithmeticRightShiftAssignmentExpression",
        "HierarchyInstantiation",
        "PrimitiveInstantiation",
        "InvocationExpression",
        "ArrayOrRandomizeMethodExpression",
        "UnaryPreincrementExpression",
        "UnaryPredecrementExpression",
        "PostincrementExpression",
        "PostdecrementExpression",
        "ProceduralForceStatement",
        "ProceduralAssignStatement",
    }
)


@dataclass
class Elaborated:
    """The compilation of one syntax tree; its driver analysis runs when first asked."""

    tree: Any
    compilation: Any
    _manager: Any = field(default=None, repr=False)
    _written: set[str] | None = field(default=None, repr=False)

    def drivers(self, symbol: Any) -> list[Any]:
        """slang's drivers of ``symbol`` (continuous, procedural and port connections)."""
        if self._manager is None:
            from pyslang import analysis

            self._manager = analysis.AnalysisManager()
            self._manager.analyze(self.compilation)
        return list(self._manager.getDrivers(symbol))

    def x_constant(self, expr: Any) -> bool:
        """``expr`` is a constant with an x or z bit."""
        from pyslang import ast

        try:
            value = expr.eval(ast.EvalContext(self.compilation.getRoot()))
            return bool(value.hasUnknown())
        except Exception:  # pyslang raises plain exceptions for what does not evaluate
            return False

    def written(self) -> set[str]:
        """Names the text may write, by its syntax: the left side of every assignment, what
        an instance of a module the text does not define (whose port directions are unknown),
        a gate or a task or function call connects, an operand of ``++``/``--``, and the
        input ports (what slang does not bind, an unknown type or package aside, still counts
        as driven); ``*`` when an instance connects ``.*``."""
        if self._written is None:
            defined = {
                str(m.header.name.valueText)
                for m in nodes(self.tree.root, "ModuleDeclaration")
                if _kind(m) == "ModuleDeclaration"
            }
            out: set[str] = set()
            for node in nodes(self.tree.root, *_WRITERS):
                k = _kind(node)
                if k == "HierarchyInstantiation":
                    out |= _implicit_connections(node)
                    if str(node.type.valueText) in defined:
                        continue
                if k in _WRITERS:
                    part = getattr(node, "left", None) if "Assignment" in k else None
                    part = getattr(node, "operand", part) if "crement" in k else part
                    out |= names(node if part is None else part)
            self._written = out | {n for n, d in _ports(self.tree.root).items() if d != "output"}
        return self._written

    def visit(self, callback: Callable[[Any], None]) -> None:
        """Call ``callback`` on every symbol, statement and expression of the design."""

        def each(node: Any) -> bool:
            callback(node)
            return True

        self.compilation.getRoot().visit(each)


def _implicit_connections(inst: Any) -> set[str]:
    """Names an instance connects by ``.name`` (and ``*`` for ``.*``: every name)."""
    out: set[str] = set()
    for conn in nodes(inst, "NamedPortConnection", "WildcardPortConnection"):
        k = _kind(conn)
        if k == "WildcardPortConnection":
            out.add("*")
        elif k == "NamedPortConnection" and not conn.openParen:
            out.add(str(conn.name.valueText))
    return out


def elaborate(tree: Any) -> Elaborated | None:
    """The elaborated design of ``tree`` (None when the text has syntax errors: what the
    parser could not read is judged by the other rules and by the compile stage)."""
    if any(d.isError() for d in tree.diagnostics):
        return None
    import pyslang
    from pyslang import ast

    comp = ast.Compilation(pyslang.Bag([compilation_options()]))
    comp.addSyntaxTree(tree)
    comp.getAllDiagnostics()
    return Elaborated(tree, comp)


def spot(node: Any, shift: int, unnamed: str) -> tuple[int, str]:
    """Where ``node`` starts in the parsed text, less ``shift``, and its text on one line
    (``unnamed`` when it has no syntax)."""
    text = " ".join(str(node.syntax).split()) if node.syntax is not None else unnamed
    return int(node.sourceRange.start.offset) - shift, text


def expressions(expr: Any) -> Iterator[Any]:
    """``expr`` and every expression under it."""
    found: list[Any] = []

    def each(node: Any) -> bool:
        found.append(node)
        return True

    expr.visit(each)
    yield from found
