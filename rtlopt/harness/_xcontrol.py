"""Decisions on an x that no literal spells: an undriven or constant-x net or variable.

A net or variable that nothing drives (``wire [3:0] u;`` read but never assigned, a ``reg``
never written) is x for the whole simulation, and so is one whose only value is an x constant
(``wire u = 1'bx;``). Where such a value decides (the condition of an ``if`` or a loop, the
expression or an item of a ``case``, a ``===``/``!==``/``==?`` comparison) simulation makes a
definite choice (``if`` takes ``else`` on x, a case matches no item), while the proofs read the
net as any value (the first proof's x, which a candidate may refine; the second proof's 0): a
reference reads differently in the two, so no change to it is checked, and a candidate is
screened. x flows through continuous assignments, initializers, instance ports and the
assignments a procedure makes outside any condition (one under a condition may never carry
it: ``if (ready) rd = mul_rd;`` with ``mul_rd`` x while ``ready`` is 0). An x that only
reaches values (outputs, ``?:`` branches, data) is the proof's X policy (refined at outputs)
and is not judged here. A name connected to an instance of a module the text does not define
may be driven there (not judged).

Drivers come from slang's driver analysis (as :mod:`rtlopt.frontend._drivers` reads them), on
the text elaborated alone (:mod:`._elaborated`), and a name the syntax may write counts as
driven (what slang could not bind).
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._elaborated import Elaborated, expressions

__all__ = ["x_control_problems"]

#: Comparisons that give a definite answer on x in simulation.
_EXACT = frozenset(
    f"BinaryOperator.{o}"
    for o in ("CaseEquality", "CaseInequality", "WildcardEquality", "WildcardInequality")
)


def _kind(node: Any) -> str:
    return str(node.kind).rsplit(".", 1)[-1]


def _symbols(expr: Any) -> set[Any]:
    """The nets and variables ``expr`` names."""
    out = set()
    for e in expressions(expr):
        if _kind(e) == "NamedValue":
            out.add(e.symbol)
    return out


class _Flow:
    """Nets and variables, the x constants assigned to them, and where values flow."""

    def __init__(self, design: Elaborated) -> None:
        self.x_constant = design.x_constant
        self.signals: list[Any] = []
        self.x_writes: dict[Any, int] = {}
        self.writes: dict[Any, int] = {}
        self.edges: list[tuple[set[Any], set[Any]]] = []
        self.decisions: list[tuple[Any, str]] = []

    def __call__(self, node: Any) -> None:
        k = _kind(node)
        if k in ("Net", "Variable"):
            self.signals.append(node)
            init = getattr(node, "initializer", None)
            if init is not None:
                self.edges.append(({node}, _symbols(init)))
        elif k == "Assignment":
            targets = _symbols(node.left)
            for t in targets:
                self.writes[t] = self.writes.get(t, 0) + 1
            if _kind(node.left) == "NamedValue" and self.x_constant(node.right):
                self.x_writes[node.left.symbol] = self.x_writes.get(node.left.symbol, 0) + 1
        elif k == "ContinuousAssign":
            a = node.assignment
            if _kind(a) == "Assignment":
                self.edges.append((_symbols(a.left), _symbols(a.right)))
        elif k == "ProceduralBlock":
            self._unconditional(node.body)
        elif k == "Instance":
            self._ports(node)
        elif k == "Conditional" and hasattr(node, "ifTrue"):
            self.decisions += [(c.expr, "the condition of an if") for c in node.conditions]
        elif k == "Case":
            self.decisions.append((node.expr, "a case expression"))
            for group in node.items:
                self.decisions += [(e, "a case item") for e in group.expressions]
        elif k in ("WhileLoop", "DoWhileLoop"):
            self.decisions.append((node.cond, "a loop condition"))
        elif k == "ForLoop" and node.stopExpr is not None:
            self.decisions.append((node.stopExpr, "a loop condition"))
        elif k == "BinaryOp" and str(node.op) in _EXACT:
            self.decisions.append((node, "an exact (===, !==, ==?) comparison"))

    def _unconditional(self, stmt: Any) -> None:
        """Flow through the assignments a procedure makes whatever its inputs (the ones
        under a condition may never carry the x)."""
        k = _kind(stmt)
        if k == "Block":
            self._unconditional(stmt.body)
        elif k == "List":
            for s in stmt.list:
                self._unconditional(s)
        elif k == "Timed":
            self._unconditional(stmt.stmt)
        elif k == "ExpressionStatement" and _kind(stmt.expr) == "Assignment":
            self.edges.append((_symbols(stmt.expr.left), _symbols(stmt.expr.right)))

    def _ports(self, inst: Any) -> None:
        for conn in inst.portConnections:
            port, expr = conn.port, conn.expression
            inner = getattr(port, "internalSymbol", None)
            if expr is None or inner is None:
                continue
            if str(getattr(port, "direction", "")).endswith("In"):
                self.edges.append(({inner}, _symbols(expr)))
            else:
                self.edges.append((_symbols(expr), {inner}))
                for t in _symbols(expr):
                    self.writes[t] = self.writes.get(t, 0) + 1


def _sources(design: Elaborated, flow: _Flow) -> dict[Any, str]:
    """The nets and variables that are x for the whole simulation, with why."""
    written = design.written()
    if "*" in written:  # an instance connects every name of its parent by .*
        return {}
    out: dict[Any, str] = {}
    for sym in flow.signals:
        scope = sym.parentScope
        # a generate block these parameters do not build holds no signal of the simulation
        # (its instances are not even bound: held-out trial 43, ZipCPU's axilempty)
        if scope is None or scope.isProceduralContext or scope.isUninstantiated:
            continue
        init = getattr(sym, "initializer", None)
        if init is None and sym.name not in written:
            why = "is never driven"
        elif init is not None and flow.x_constant(init):
            why = "is an x constant"
        elif init is None and flow.x_writes.get(sym, 0) >= flow.writes.get(sym, 1):
            why = "is only assigned an x constant"
        else:
            continue
        drivers = design.drivers(sym)  # the analysis runs only for a suspect
        if bool(drivers) == (why == "is only assigned an x constant"):
            out[sym] = why
    return out


def x_control_problems(design: Elaborated, shift: int) -> list[tuple[int, str]]:
    """``(offset, message)`` of each decision an undriven or constant-x net or variable
    reaches (offsets into the text the tree was parsed from, less ``shift``)."""
    flow = _Flow(design)
    design.visit(flow)
    sources = _sources(design, flow)
    if not sources:
        return []
    reach: dict[Any, Any] = {s: s for s in sources}  # tainted -> the source it comes from
    changed = True
    while changed:
        changed = False
        for targets, reads in flow.edges:
            src = next((reach[r] for r in reads if r in reach), None)
            for t in targets if src is not None else ():
                if t not in reach:
                    reach[t] = src
                    changed = True
    out: list[tuple[int, str]] = []
    for expr, what in flow.decisions:
        hit = next((s for s in _symbols(expr) if s in reach), None)
        if hit is not None:
            src = reach[hit]
            at = int(expr.sourceRange.start.offset) - shift
            out.append((at, _message(src.name, sources[src], hit.name, what)))
    return sorted(set(out))


def _message(source: str, why: str, name: str, what: str) -> str:
    via = "" if name == source else f" (through '{name}')"
    return (
        f"'{source}' {why}, so it is x in simulation, and it decides {what} here{via}: "
        "simulation takes a definite branch on x where the proofs read any value; drive it "
        "(or use a constant)"
    )
