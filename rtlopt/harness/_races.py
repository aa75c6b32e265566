"""Races between clocked blocks: a variable written with a blocking ``=`` in one edge-triggered
block and read, before it is written there, by another block triggered by the same edge.

Synthesis, Yosys's ``read_verilog`` and the slang frontend read such a variable as a flip-flop
(the value from before the edge); IEEE 1364 (5.3) leaves the order of the two processes open,
and iverilog runs the block declared last first, so the reader sees the new value. Reads through
continuous assignments and combinational blocks are followed (they settle in the same time
step); a read through an instance's port is not analysed and counts as a race (fail closed).
A variable a block writes before it reads it (the ``integer i`` of a ``for`` loop), a block's
own local variables, reads on another edge or another clock, and nonblocking assignments are no
race. Found on the syntax tree (pyslang); a tree with syntax errors is not trusted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rtlopt.harness._nodes import _children, _kind, _span, _walk

__all__ = ["exposed_outputs", "nodes", "race_problems"]

_PROCESSES = frozenset({"AlwaysBlock", "AlwaysFFBlock", "AlwaysCombBlock", "AlwaysLatchBlock"})
_NONBLOCKING = "NonblockingAssignmentExpression"


_NODES: dict[int, tuple[Any, list[Any], dict[str, list[Any]]]] = {}


def _index(root: Any) -> tuple[Any, list[Any], dict[str, list[Any]]]:
    hit = _NODES.get(id(root))
    if hit is not None and hit[0] is root:
        return hit
    if len(_NODES) > 16:
        _NODES.clear()
    found = list(_walk(root))
    by_kind: dict[str, list[Any]] = {}
    for n in found:
        by_kind.setdefault(_kind(n), []).append(n)
    _NODES[id(root)] = (root, found, by_kind)
    return _NODES[id(root)]


def nodes(root: Any, *kinds: str) -> list[Any]:
    """The nodes under ``root`` (of ``kinds``, when given), from one walk per tree (the
    checks each scan it)."""
    _, found, by_kind = _index(root)
    if not kinds:
        return found
    return [n for k in kinds for n in by_kind.get(k, [])]


def _name(node: Any) -> str | None:
    k = _kind(node)
    if k in ("IdentifierName", "IdentifierSelectName"):
        return str(node.identifier.valueText)
    return None


def _assignment(node: Any) -> bool:
    return "AssignmentExpression" in _kind(node) and hasattr(node, "left")


@dataclass
class _Flow:
    """What a procedural body reads before it writes, and what it writes with ``=``."""

    functions: dict[str, set[str]]
    early: dict[str, int] = field(default_factory=dict)
    blocking: set[str] = field(default_factory=set)
    local: set[str] = field(default_factory=set)

    def read(self, node: Any, done: frozenset[str]) -> None:
        for n in _walk(node):
            name = _name(n)
            if name is None:
                continue
            at = _span(n)[0]
            for v in {name} | self.functions.get(name, set()):
                if v not in done:
                    self.early.setdefault(v, at)

    def expr(self, e: Any, done: frozenset[str]) -> frozenset[str]:
        if not _assignment(e):
            self.read(e, done)
            for n in _walk(e):  # i++ and the like: a write that is also a read
                if "crement" in _kind(n):
                    for x in _walk(n):
                        if _name(x):
                            self.blocking.add(str(_name(x)))
            return done
        self.read(e.right, done)
        left = e.left
        whole = _kind(left) == "IdentifierName"
        targets = [left] if _name(left) else [n for n in _walk(left) if _name(n)]
        for t in targets:
            if _kind(t) == "IdentifierSelectName":
                for sel in _children(t):
                    if not hasattr(sel, "valueText"):
                        self.read(sel, done)
        if _kind(e) != "AssignmentExpression":  # compound (+=) and nonblocking read or wait
            if _kind(e) != _NONBLOCKING:
                self.read(left, done)
                self.blocking.update(str(_name(t)) for t in targets)
            return done
        self.blocking.update(str(_name(t)) for t in targets)
        return done | {str(_name(left))} if whole else done

    def stmt(self, s: Any, done: frozenset[str]) -> frozenset[str]:
        k = _kind(s)
        if s is None or k == "EmptyStatement":
            return done
        if k == "SequentialBlockStatement":
            for item in _children(s.items):
                if _kind(item) == "DataDeclaration":
                    self.local.update(str(d.name.valueText) for d in _declarators(item))
                else:
                    done = self.stmt(item, done)
            return done
        if k == "ExpressionStatement":
            return self.expr(s.expr, done)
        if k == "ConditionalStatement":
            self.read(s.predicate, done)
            yes = self.stmt(s.statement, done)
            no = self.stmt(s.elseClause.clause, done) if s.elseClause is not None else done
            return yes & no
        if k == "CaseStatement":
            return self._case(s, done)
        if k == "ForLoopStatement":
            return self._for(s, done)
        if k == "TimingControlStatement":
            return self.stmt(s.statement, done)
        # loops and anything else: every name read first, nothing defined after
        for n in _walk(s):
            if _assignment(n) and _kind(n) != _NONBLOCKING:
                self.blocking.update(str(_name(x)) for x in _walk(n.left) if _name(x))
        self.read(s, done)
        return done

    def _case(self, s: Any, done: frozenset[str]) -> frozenset[str]:
        self.read(s.expr, done)
        after: frozenset[str] | None = None
        default = False
        for item in _children(s.items):
            if _kind(item) == "StandardCaseItem":
                for e in _children(item.expressions):
                    if not hasattr(e, "valueText"):
                        self.read(e, done)
            elif _kind(item) == "DefaultCaseItem":
                default = True
            else:
                continue
            got = self.stmt(item.clause, done)
            after = got if after is None else after & got
        if after is None or not default:
            return done
        return after

    def _for(self, s: Any, done: frozenset[str]) -> frozenset[str]:
        for init in _children(s.initializers):
            if _kind(init) == "ForVariableDeclaration":
                self.local.add(str(init.declarator.name.valueText))
                if init.declarator.initializer is not None:
                    self.read(init.declarator.initializer, done)
            elif not hasattr(init, "valueText"):
                done = self.expr(init, done)
        if s.stopExpr is not None:
            self.read(s.stopExpr, done)
        inner = self.stmt(s.statement, done)
        for step in _children(s.steps):
            if not hasattr(step, "valueText"):
                self.expr(step, inner)
        return done


def _declarators(node: Any) -> list[Any]:
    return [d for d in _children(node.declarators) if _kind(d) == "Declarator"]


def _events(proc: Any, clocks: dict[str, tuple[str, bool] | None]) -> frozenset[str] | None:
    """The edge events of a process (``"posedge clk"``, an alias of an input read as that
    input, ``"*"`` for a clock made by other logic: any instant), or None when it is not
    edge-triggered (combinational, level-sensitive or mixed)."""
    st = proc.statement
    if _kind(st) != "TimingControlStatement" or _kind(st.timingControl) != (
        "EventControlWithExpression"
    ):
        return None
    out = set()
    for e in _walk(st.timingControl.expr):
        if _kind(e) == "SignalEventExpression":
            edge = str(e.edge.valueText)
            if not edge:
                return None
            names = [n for n in _walk(e.expr) if _name(n)]
            root = clocks.get(str(_name(names[0]))) if len(names) == 1 else None
            if root is None:
                out.add("*")
                continue
            flip = {"posedge": "negedge", "negedge": "posedge"}.get(edge, edge)
            out.add(f"{flip if root[1] else edge} {root[0]}")
    return frozenset(out) or None


def _ports(module: Any) -> dict[str, str]:
    """Port name -> direction (``input``, ``output``, ``inout``, ...)."""
    out: dict[str, str] = {}
    for node in nodes(module, "ImplicitAnsiPort", "PortDeclaration"):
        k = _kind(node)
        header = getattr(node, "header", None)
        direction = getattr(header, "direction", None) if header is not None else None
        if k in ("ImplicitAnsiPort", "PortDeclaration") and direction is not None:
            decls = [node.declarator] if k == "ImplicitAnsiPort" else _declarators(node)
            out.update((str(d.name.valueText), str(direction.valueText)) for d in decls)
    return out


def _clocks(module: Any) -> dict[str, tuple[str, bool] | None]:
    """Each name an event may name: the input it is (an alias, possibly inverted, of an input
    through continuous assignments) and whether inverted, or None (made by other logic)."""
    inputs = {n for n, d in _ports(module).items() if d == "input"}
    alias: dict[str, tuple[str, bool]] = {}
    for node in nodes(module, "ContinuousAssign", "NetDeclaration"):
        k = _kind(node)
        pairs = []
        if k == "ContinuousAssign":
            pairs = [(a.left, a.right) for a in _children(node.assignments) if _assignment(a)]
        elif k == "NetDeclaration":
            pairs = [(d, d.initializer.expr) for d in _declarators(node) if d.initializer]
        for left, right in pairs:
            decl = _kind(left) == "Declarator"
            target = str(left.name.valueText) if decl else _name(left)
            src, inv = right, False
            while _kind(src) in (
                "ParenthesizedExpression",
                "UnaryBitwiseNotExpression",
                "UnaryLogicalNotExpression",
            ):
                inv ^= _kind(src) != "ParenthesizedExpression"
                src = src.expression if _kind(src) == "ParenthesizedExpression" else src.operand
            if target and _kind(src) == "IdentifierName":
                alias[target] = (str(_name(src)), inv)
    out: dict[str, tuple[str, bool] | None] = {n: (n, False) for n in inputs}
    for name in alias:
        cur, inv, seen = name, False, set()
        while cur in alias and cur not in seen and cur not in inputs:
            seen.add(cur)
            cur, more = alias[cur]
            inv ^= more
        out[name] = (cur, inv) if cur in inputs else None
    return out


def _functions(root: Any) -> dict[str, set[str]]:
    """Names each function or task reads from its module (its own ports and locals aside)."""
    out: dict[str, set[str]] = {}
    for node in nodes(root, "FunctionDeclaration", "TaskDeclaration"):
        if _kind(node) not in ("FunctionDeclaration", "TaskDeclaration"):
            continue
        proto = node.prototype
        own = {str(d.name.valueText) for d in _walk(node) if _kind(d) == "Declarator"}
        fname = _name(proto.name) or ""
        own.add(fname)
        out[fname] = {str(_name(n)) for n in _walk(node) if _name(n)} - own
    return out


@dataclass
class _Process:
    events: frozenset[str]
    line_at: int
    flow: _Flow


def _sinks(root: Any) -> tuple[list[tuple[set[str], set[str]]], list[tuple[set[str], int]]]:
    """Combinational dependencies ``(targets, reads)`` and instance port reads ``(reads, at)``."""
    comb: list[tuple[set[str], set[str]]] = []
    ports: list[tuple[set[str], int]] = []
    for node in nodes(
        root,
        "ContinuousAssign",
        "NetDeclaration",
        "DataDeclaration",
        *_PROCESSES,
        "HierarchicalInstance",
    ):
        k = _kind(node)
        if k == "ContinuousAssign":
            for a in _children(node.assignments):
                if _assignment(a):
                    comb.append((names(a.left), names(a.right)))
        elif k in ("NetDeclaration", "DataDeclaration") and _kind(node.parent) not in (
            "SequentialBlockStatement",
            "FunctionDeclaration",
            "TaskDeclaration",
        ):
            for d in _declarators(node):
                if d.initializer is not None:
                    comb.append(({str(d.name.valueText)}, names(d.initializer)))
        elif k in _PROCESSES and _events(node, {}) is None:
            targets = {
                str(_name(x))
                for a in _walk(node)
                if _assignment(a)
                for x in _walk(a.left)
                if _name(x)
            }
            comb.append((targets, names(node)))
        elif k == "HierarchicalInstance":
            ports.append((names(node), _span(node)[0]))
    return comb, ports


def names(node: Any) -> set[str]:
    """The names ``node`` mentions."""
    return {str(_name(x)) for x in _walk(node) if _name(x)}


def _racy(
    procs: list[_Process], comb: list[tuple[set[str], set[str]]]
) -> dict[str, set[tuple[str, int]]]:
    """Variable -> ``(event, writer)`` for each variable whose new value a reader on ``event``
    may see: blocking writes of clocked blocks, and what combinational logic derives from them."""
    racy: dict[str, set[tuple[str, int]]] = {}
    for i, p in enumerate(procs):
        for v in p.flow.blocking - p.flow.local:
            racy.setdefault(v, set()).update((e, i) for e in p.events)
    changed = True
    while changed:
        changed = False
        for targets, reads in comb:
            got = set().union(*(racy.get(r, set()) for r in reads)) if reads else set()
            for t in targets:
                if not got <= racy.get(t, set()):
                    racy.setdefault(t, set()).update(got)
                    changed = True
    return racy


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, max(at, 0)) + 1


def race_problems(
    code: str, tree: Any, shift: int = 0, outputs: frozenset[str] | None = frozenset()
) -> list[tuple[int, str]]:
    """Races between clocked blocks in ``code`` (comments and strings blanked; ``tree`` its
    syntax tree, whose text starts at ``shift``), as ``(offset, message)``; unless ``outputs``
    is None (a reference), also a value reaching an output port not in ``outputs``, which the
    parent's clocked blocks may read on the same edge. A text the parser rejects (macros
    aside: the preprocessed text is judged too) that has two or more edge event controls is
    one problem: its blocks cannot be told apart."""
    edges = code.count("posedge") + code.count("negedge")
    if not edges:
        return []
    if edges > 1 and any(d.isError() for d in tree.diagnostics) and "`" not in code:
        return [
            (
                0,
                "the screen's parser cannot read this text, so its clocked blocks cannot be "
                "checked for races; fix the syntax",
            )
        ]
    out: list[tuple[int, str]] = []
    for module in nodes(tree.root, "ModuleDeclaration"):
        if _kind(module) == "ModuleDeclaration":
            out += _module_races(code, module, shift, outputs)
    return out


def _analysis(
    module: Any, shift: int
) -> tuple[list[_Process], dict[str, set[tuple[str, int]]], list[tuple[set[str], int]]]:
    """The module's clocked processes, its racy variables (:func:`_racy`) and port reads."""
    functions = _functions(module)
    clocks = _clocks(module)
    procs: list[_Process] = []
    for node in nodes(module, *_PROCESSES):
        if _kind(node) in _PROCESSES:
            events = _events(node, clocks)
            if events is None:
                continue
            flow = _Flow(functions)
            flow.stmt(node.statement.statement, frozenset())
            procs.append(_Process(events, _span(node)[0] - shift, flow))
    if not procs:
        return [], {}, []
    comb, ports = _sinks(module)
    return procs, _racy(procs, comb), ports


def exposed_outputs(tree: Any) -> frozenset[str]:
    """Output ports that carry a value written with ``=`` in a clocked block (a reference's
    own, allowed again in a candidate: the parent's reading of them does not change)."""
    out: set[str] = set()
    for module in nodes(tree.root, "ModuleDeclaration"):
        if _kind(module) == "ModuleDeclaration":
            _, racy, _ = _analysis(module, 0)
            out |= {n for n, d in _ports(module).items() if d != "input"} & set(racy)
    return frozenset(out)


def _module_races(
    code: str, module: Any, shift: int, outputs: frozenset[str] | None
) -> list[tuple[int, str]]:
    procs, racy, ports = _analysis(module, shift)
    out: list[tuple[int, str]] = []
    for j, p in enumerate(procs):
        for v, at in p.flow.early.items():
            if v in p.flow.local:
                continue
            for event, w in sorted(racy.get(v, set())):
                if w != j and (event in p.events or "*" in p.events or event == "*"):
                    out.append((at - shift, _message(v, code, procs[w].line_at, event)))
                    break
    where = "through an instance's port"
    for reads, at in ports:
        for v in sorted(reads & set(racy)):
            event, w = min(racy[v])
            out.append((at - shift, _message(v, code, procs[w].line_at, event, where)))
    outs = set() if outputs is None else {n for n, d in _ports(module).items() if d != "input"}
    for v in sorted((outs - (outputs or frozenset())) & set(racy)):
        event, w = min(racy[v])
        where = "by the parent through an output port"
        out.append((procs[w].line_at, _message(v, code, procs[w].line_at, event, where)))
    return out


def _message(
    v: str, code: str, writer_at: int, event: str, where: str = "by another block on the same edge"
) -> str:
    return (
        f"'{v}' carries a value written with a blocking assignment (=) in the clocked block "
        f"at line {_line(code, writer_at)} and read {where} ({event}): simulators run such "
        "blocks in either order (a race) while synthesis and the proofs read the value from "
        "before the edge; use a nonblocking assignment (<=)"
    )
