"""A read of a variable a combinational block makes before the block writes it, for
:mod:`rtlopt.frontend._partial`.

A combinational block (``always @*``, ``always @(a or b)``, ``always_comb``) that reads a
variable it writes itself, where some path reads bits of it the block has not surely written
yet, holds the variable's previous value on that path: ``else bw = bw;``, ``bw = en ? 1'b1 :
bw;``, ``bw = bw | en;``, an ``if (bw)`` before ``bw``'s write. A simulation starts the
variable x and such a block passes the x on (a latch, or a loop through the variable itself)
however every path writes it. An unconditional write of the bits first defines them (``bw =
1'b0; if (c) bw = bw | 1'b1;`` reads the 0).

Paths are followed as :func:`rtlopt.frontend._assigned.surely` follows them. What a
statement reads is judged before what it writes: an assignment's right side (its left side
too for ``+=`` and the like), a call's arguments, an ``if``'s conditions, a ``case``'s
selector and items, a loop's initializers, condition and steps, a local's initializer where
it is declared. An outermost ``for`` loop whose bounds are known is followed iteration by
iteration (``v[i] = v[i - 1]`` reads the previous iteration's write, ``v[i] = v[i + 1]`` a
bit not written yet); any other loop's body is judged against what was written before it. A
function or task the block calls reads every module-level name its body, its locals'
initializers (and the subroutines it calls) names, at the call.

A read of a name the variable reaches within its scope before the block writes it (a net
assigned from it, through a gate, an instance, another combinational block: the block's
own output fed back) is a read of the whole variable.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._assigned import Bits, SelectorX, _key, _Paths
from rtlopt.frontend._loops import Loops, enter, variable
from rtlopt.frontend._net_bits import named, pieces, width

__all__ = ["read_first"]


#: Loops whose body's reads are judged against what was written before the loop (the body
#: may run zero times, so what it writes does not count after it).
_LOOPS = frozenset({"RepeatLoop", "WhileLoop", "ForeverLoop", "ForeachLoop"})


class _Reads(_Paths):
    """:class:`rtlopt.frontend._assigned._Paths` that stops at the first read of bits not
    surely written yet."""

    def __init__(
        self, var: Any, root: Any, block: Any, selector_x: SelectorX, assigned: _Assigned
    ) -> None:
        super().__init__(var, root, selector_x=selector_x)
        self.var_sym = var
        self._assigned = assigned
        self.found: Any = None
        self.size = width(var)
        self.aliases = _aliases(var, block)
        # what flows into the variable within the block: a read of what it reaches counts
        # only where it feeds the variable again (a loop through itself)
        own: list[_Edge] = []
        if self.aliases and block is not None:
            _assigned_from(block.body, frozenset(), own)
        self.feeds = {self.var}
        grown = True
        while grown:
            grown = False
            for reads, writes in own:
                if writes & self.feeds and not reads <= self.feeds:
                    self.feeds |= reads
                    grown = True
        self.stmt: Any = None

    def after(self, stmt: Any, have: Bits) -> Bits:
        if self.found is None and stmt is not None and have is not None:
            self.stmt = stmt
            for expr in _read_by(stmt):
                if self._early(expr, have):
                    self.found = expr
                    break
        if stmt is not None and stmt.kind.name == "ForLoop" and self.found is None:
            return self._loop_reads(stmt, have)
        if stmt is not None and stmt.kind.name in _LOOPS and self.found is None:
            self.after(stmt.body, have)  # its reads (round 53): its writes may not run
        return super().after(stmt, have)

    def _loop_reads(self, stmt: Any, have: Bits) -> Bits:
        """A ``for`` loop: iteration by iteration when outermost with known bounds, else its
        body's reads against what was written before it."""
        if have is None:
            return have
        for init in stmt.initializers:
            have = have | self._written(init)
        later = [*stmt.steps, *([stmt.stopExpr] if stmt.stopExpr is not None else [])]
        for expr in later:
            if self.found is None and self._early(expr, have):
                self.found = expr
        rows = None if self.loops is not None else _rows(stmt, self.root)
        if rows is None:
            self.after(stmt.body, have)  # its reads: nothing of the body counts as written
            return super().after(stmt, have)
        outer = self.loops
        try:
            for row in rows.rows:
                self.loops = Loops(rows.names, (row,))
                have = self.after(stmt.body, have)
                if self.found is not None or have is None:
                    break
        finally:
            self.loops = outer
        return have

    def _early(self, expr: Any, have: frozenset[int]) -> bool:
        whole = not set(range(self.size)) <= have
        feeds = bool(self.aliases) and bool(self._assigns() & self.feeds)
        names = {self.var, *self.aliases} if feeds else {self.var}
        if whole and _calls_read(expr, names):
            return True
        for sym, lo, hi in pieces(expr, self.root, reading=True, loops=self.loops):
            if _key(sym) in self.aliases:
                if not feeds:
                    continue  # what it reaches, read where it does not feed it again
                sym, lo, hi = self.var_sym, None, None
            elif _key(sym) != self.var:
                continue
            bits = range(0, self.size) if lo is None or hi is None else range(lo, hi)
            if not set(bits) <= have:
                return True
        return False

    def _assigns(self) -> frozenset[str]:
        """:func:`_assigns` of the statement being judged, once per statement."""
        stmt = self.stmt
        hit = self._assigned.get(id(stmt))
        if hit is None or hit[0] is not stmt:
            hit = self._assigned[id(stmt)] = (stmt, _assigns(stmt))
        return hit[1]


#: What statements assign, by the statement's ``id`` (each kept alive: :meth:`_Reads._assigns`).
_Assigned = dict[int, tuple[Any, frozenset[str]]]


def _assigns(stmt: Any) -> frozenset[str]:
    """The names ``stmt`` (and the statements inside it) assigns."""
    if stmt is None:
        return frozenset()
    lefts: list[Any] = []
    stmt.visit(lookup_table={_assignment(): lambda n: lefts.append(n.left)})
    return frozenset().union(*(_left(left)[0] for left in lefts)) if lefts else frozenset()


def _aliases(var: Any, block: Any = None) -> frozenset[str]:
    """The names of ``var``'s scope its value reaches at once (``wire c = v;``, ``assign n =
    en ? 1'b1 : v;``, a gate, an instance's outputs its inputs reach inside it, what another
    combinational block assigns from it or under a condition reading it; not through
    ``block``, the block judged, nor registers): a read of one is a read of ``var``."""
    scope = getattr(var, "parentScope", None)
    if scope is None:
        return frozenset()
    edges = _edges(scope, _key(var).rpartition(".")[0], _place(getattr(block, "body", None)))
    reach = _closure({_key(var)}, edges)
    back = _through_parent(var, scope, reach)
    if back - reach:
        reach = _closure(reach | back, edges)
    return frozenset(reach - {_key(var)})


def _closure(start: set[str], edges: list[_Edge]) -> set[str]:
    """``start`` and the names it reaches through ``edges``."""
    reach = set(start)
    grown = True
    while grown:
        grown = False
        for reads, writes in edges:
            if reads & reach and not writes <= reach:
                reach |= writes
                grown = True
    return reach


def _through_parent(var: Any, scope: Any, reach: set[str], depth: int = 0) -> set[str]:
    """The inner names of the input ports of the instance holding ``scope`` that what its
    output ports in ``reach`` drive in the parent reaches again (a loop through the parent,
    or through its own parents in turn, :data:`_INSTANCE_DEPTH` levels)."""
    body = getattr(scope, "containingInstance", None)
    inst = getattr(body, "parentInstance", None)
    path = str(getattr(inst, "hierarchicalPath", ""))
    if inst is None or "." not in path or depth >= _INSTANCE_DEPTH:
        return set()  # a top: its environment is not followed
    conns = []
    for c in getattr(inst, "portConnections", []):
        inner = getattr(getattr(c, "port", None), "internalSymbol", None)
        if inner is not None and getattr(c, "expression", None) is not None:
            conns.append((_key(inner), c.expression))
    start = {
        n
        for inner, e in conns
        if inner in reach and e.kind.name == "Assignment"
        for n in _names(e.left)
    }
    if not start:
        return set()
    edges = _edges(inst.parentScope, path.rpartition(".")[0], None)
    around = _closure(start, edges)
    back = _through_parent(var, inst.parentScope, around, depth + 1)
    if back - around:
        around = _closure(around | back, edges)
    return {inner for inner, e in conns if e.kind.name != "Assignment" and _names(e) & around}


#: Past this many levels of the hierarchy, every output of an instance counts as reached
#: from every input.
_INSTANCE_DEPTH = 64

_Edge = tuple[frozenset[str], frozenset[str]]
_Range = tuple[int, int, int]
#: Per compilation (kept alive with it, the last few), per scope's path: its edges, each
#: with the text range of the block it comes from.
_CACHE: dict[int, tuple[Any, dict[str, list[tuple[_Range | None, _Edge]]]]] = {}


def _edges(scope: Any, path: str, own: tuple[int, int] | None) -> list[_Edge]:
    """``(names read, names written)`` of each way a value flows at once in ``scope`` (its
    hierarchical ``path``), but through the block whose text holds ``own``."""
    comp = getattr(scope, "compilation", None)
    entry = _CACHE.get(id(comp))
    if entry is None or entry[0] is not comp:
        while len(_CACHE) >= 4:
            _CACHE.pop(next(iter(_CACHE)))
        entry = (comp, {})
        _CACHE[id(comp)] = entry
    tagged = entry[1].get(path)
    if tagged is None:
        tagged = _tagged(scope, path)
        entry[1][path] = tagged
    return [
        edge
        for rng, edge in tagged
        if own is None or rng is None or not (rng[0] == own[0] and rng[1] <= own[1] < rng[2])
    ]


def _tagged(scope: Any, path: str) -> list[tuple[_Range | None, _Edge]]:
    from rtlopt.frontend._slang import instance_members, node_kind

    try:
        members = list(instance_members(scope))
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: nothing known
        return []
    out: list[tuple[_Range | None, _Edge]] = []
    while members:
        m = members.pop()
        kind = node_kind(m)
        if kind == "InstanceArray":
            members += list(m)
        elif kind == "Net" and getattr(m, "initializer", None) is not None:
            out.append((None, (_names(m.initializer), frozenset({_key(m)}))))
        elif kind == "ContinuousAssign":
            a = m.assignment
            if a.kind.name == "Assignment":
                written, index = _left(a.left)
                out.append((None, (_names(a.right) | index, written)))
            else:  # not elaborated (an error slang reports): what it names to itself
                out.append((None, (_names(a), _names(a))))
        elif kind == "PrimitiveInstance":
            out.append((None, _gate(m)))
        elif kind == "Instance":
            out += [(None, e) for e in _instance(m)]
        elif kind == "ProceduralBlock":
            proc = m.procedureKind.name
            if proc in ("AlwaysComb", "AlwaysLatch") or (proc == "Always" and _unclocked(m.body)):
                block: list[_Edge] = []
                _assigned_from(m.body, frozenset(), block)
                rng = _range(m.body)
                out += [(rng, e) for e in block]
    return out


def _range(stmt: Any) -> _Range | None:
    rng = getattr(stmt, "sourceRange", None)
    if rng is None:
        return None
    return int(rng.start.buffer.id), int(rng.start.offset), int(rng.end.offset)


def _names(expr: Any) -> frozenset[str]:
    return frozenset(_key(s) for s in named(expr)) if expr is not None else frozenset()


def _left(expr: Any) -> tuple[frozenset[str], frozenset[str]]:
    """``(names written, names read)`` of an assignment's left side ``expr``: a select's
    index is read, what it selects from written."""
    kind = expr.kind.name
    if kind in ("ElementSelect", "RangeSelect", "MemberAccess"):
        written, read = _left(expr.value)
        if kind == "ElementSelect":
            read |= _names(expr.selector)
        elif kind == "RangeSelect":
            read |= _names(expr.left) | _names(expr.right)
        return written, read
    if kind in ("Concatenation", "SimpleAssignmentPattern", "StructuredAssignmentPattern"):
        parts = [_left(e) for e in getattr(expr, "operands", None) or expr.elements]
        return (
            frozenset().union(*(w for w, _ in parts)),
            frozenset().union(*(r for _, r in parts)),
        )
    return _names(expr), frozenset()


def _gate(gate: Any) -> _Edge:
    reads: set[str] = set()
    writes: set[str] = set()
    for expr in gate.portConnections:  # a gate's connections are expressions
        if expr.kind.name == "Assignment":
            writes |= _names(expr.left)
        else:
            reads |= _names(expr)
    return frozenset(reads), frozenset(writes)


def _instance(inst: Any) -> list[_Edge]:
    """Per input connection, the output connections the inner name of its port reaches
    inside the instance (every output past :data:`_INSTANCE_DEPTH`)."""
    ins: list[tuple[frozenset[str], str]] = []
    outs: list[tuple[frozenset[str], str]] = []
    for c in getattr(inst, "portConnections", []):
        expr = getattr(c, "expression", None)
        inner = getattr(getattr(c, "port", None), "internalSymbol", None)
        if expr is None:
            continue
        name = _key(inner) if inner is not None else ""
        if expr.kind.name == "Assignment":
            outs.append((_names(expr.left), name))
            if expr.right.kind.name != "EmptyArgument":  # an inout: read too
                ins.append((_names(expr.left), name))
        else:
            ins.append((_names(expr), name))
    written = frozenset().union(*(w for w, _ in outs)) if outs else frozenset()
    path = str(inst.hierarchicalPath)
    if path.count(".") >= _INSTANCE_DEPTH or any(not n for _, n in ins + outs):
        return [(frozenset().union(*(r for r, _ in ins)) if ins else frozenset(), written)]
    inner_edges = _edges(inst.body, path, None)
    found: list[_Edge] = []
    for reads, port in ins:
        reach = _closure({port}, inner_edges)
        # what it reaches inside too (a hierarchical name may read it: ``c.o``)
        hit = [w for w, n in outs if n in reach]
        found.append((reads, frozenset(reach).union(*hit)))
    return found


def _assigned_from(stmt: Any, conds: frozenset[str], out: list[_Edge]) -> None:
    """The edges of a combinational block's statement ``stmt``: each assignment's left side
    from its right side and the conditions around it (``conds``)."""
    if stmt is None:
        return
    kind = stmt.kind.name
    if kind == "List":
        for inner in stmt.list:
            _assigned_from(inner, conds, out)
    elif kind in ("Block", "Timed"):
        _assigned_from(stmt.body if kind == "Block" else stmt.stmt, conds, out)
    elif kind == "Conditional":
        inner = conds.union(*(_names(c.expr) for c in stmt.conditions))
        _assigned_from(stmt.ifTrue, inner, out)
        _assigned_from(stmt.ifFalse, inner, out)
    elif kind == "Case":
        inner = conds | _names(stmt.expr)
        inner = inner.union(*(_names(e) for item in stmt.items for e in item.expressions))
        for item in stmt.items:
            _assigned_from(item.stmt, inner, out)
        _assigned_from(stmt.defaultCase, inner, out)
    elif kind == "ExpressionStatement" and stmt.expr.kind.name == "Assignment":
        expr = stmt.expr
        written, index = _left(expr.left)
        reads = conds | index | _names(expr.right) | (written if expr.isCompound else frozenset())
        out.append((reads, written))
    else:  # a loop, a call, any other form: all it reads to all it assigns
        lefts: list[Any] = []
        stmt.visit(lookup_table={_assignment(): lambda n: lefts.append(n.left)})
        writes = frozenset().union(*(_left(left)[0] for left in lefts)) if lefts else frozenset()
        out.append((conds | _names(stmt), writes))


def _assignment() -> Any:
    from pyslang import ast

    return ast.ExpressionKind.Assignment


def _unclocked(body: Any) -> bool:
    """Whether an ``always`` body waits for no edge (``@*``, ``@(a or b)``)."""
    if body.kind.name != "Timed":
        return False
    timing = body.timing
    kind = timing.kind.name
    if kind == "ImplicitEvent":
        return True
    events = list(timing.events) if kind == "EventList" else [timing]
    return all(e.kind.name == "SignalEvent" and e.edge.name == "None_" for e in events)


def _place(stmt: Any) -> tuple[int, int] | None:
    """Where ``stmt`` starts (a statement's identity across pyslang's wrappers)."""
    rng = getattr(stmt, "sourceRange", None)
    return None if rng is None else (int(rng.start.buffer.id), int(rng.start.offset))


def _calls_read(expr: Any, names: set[str], depth: int = 0) -> bool:
    """Whether a function or task ``expr`` calls names one of ``names`` in its body (or in
    the subroutines that calls, :data:`_CALL_DEPTH` deep; deeper counts as a read)."""
    from pyslang import ast

    calls: list[Any] = []
    expr.visit(lookup_table={ast.ExpressionKind.Call: calls.append})
    for call in calls:
        system = call.isSystemCall
        if system() if callable(system) else system:
            continue
        if depth > _CALL_DEPTH:
            return True
        sub = call.subroutine
        if getattr(sub, "body", None) is None:
            return True  # not known: a read
        # the whole subroutine: its body and its locals' initializers
        if _names(sub) & names or _calls_read(sub, names, depth + 1):
            return True
    return False


#: The calls within calls :func:`_calls_read` follows.
_CALL_DEPTH = 8


def _rows(stmt: Any, root: Any) -> Loops | None:
    """The iterations of an outermost ``for`` loop ``stmt`` in order (at most
    :data:`_UNROLL`), or None when not known or when its body may leave early."""
    sym = variable(stmt)
    try:
        inner = enter(stmt, root, None)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
        return None
    if sym is None or inner is None or not inner.rows or len(inner.rows) > _UNROLL:
        return None
    if not any(n is sym for n in inner.names) or _leaves(stmt.body):
        return None
    return inner


#: The iterations a loop is followed one by one at most.
_UNROLL = 1024


def _leaves(body: Any) -> bool:
    """Whether ``body`` holds a ``break``, ``continue``, ``return`` or ``disable``."""
    from pyslang import ast

    found: list[bool] = []
    table = {
        k: (lambda _n: found.append(True))
        for k in (
            ast.StatementKind.Break,
            ast.StatementKind.Continue,
            ast.StatementKind.Return,
            ast.StatementKind.Disable,
        )
    }
    body.visit(lookup_table=table)
    return bool(found)


class _Block:
    """A stand-in for the block whose body is ``body`` (:func:`_aliases` skips it)."""

    def __init__(self, body: Any) -> None:
        self.body = body


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
    if kind == "ForLoop":  # its condition and steps: read once its initializers ran
        inits = [v.initializer for v in stmt.loopVars if v.initializer is not None]
        return [*inits, *(i.right if i.kind.name == "Assignment" else i for i in stmt.initializers)]
    if kind == "VariableDeclaration":  # a local's initializer: read where it is declared
        init = getattr(stmt.symbol, "initializer", None)
        return [init] if init is not None else []
    if kind in ("WhileLoop", "DoWhileLoop"):
        return [stmt.cond]
    if kind == "Return":  # what it returns is read (round 53: ``return t;``)
        return [stmt.expr] if getattr(stmt, "expr", None) is not None else []
    if kind == "RepeatLoop":
        return [stmt.count]
    if kind == "ForeachLoop":
        return [stmt.arrayRef]
    return []


def read_first(
    stmt: Any, var: Any, root: Any, *, selector_x: SelectorX, assigned: _Assigned | None = None
) -> Any:
    """The first expression of ``stmt`` (a combinational block's body) found reading bits of
    ``var`` some path has not written before, or None; ``assigned``: what the block's
    statements assign, kept by a caller asking about several variables of one block."""
    paths = _Reads(var, root, _Block(stmt), selector_x, {} if assigned is None else assigned)
    paths.after(stmt, frozenset())
    return paths.found
