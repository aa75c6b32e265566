"""Which bits of a variable a procedural body reads before it has written them in the same run.

Simulation keeps a variable's value between runs of a combinational block and between calls of
a static (non-``automatic``) function; synthesis, Yosys's ``read_verilog`` and the slang
frontend read a block as a wire (the value the block assigns) and a function as a fresh frame
(x). So a value read before the run wrote it is state in one tool and not in the other
(:mod:`rtlopt.harness._calls` states the rules). :class:`Flow` follows each path of a body,
bit by bit where the indices are constant (literals, parameters at their defaults, loop
variables of ``for`` loops with constant bounds, unrolled), joining paths at ``if``/``case``:
a bit counts as written after a join only when every path wrote it. What it cannot evaluate
it counts as not written (fail closed: a read it cannot place is early).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rtlopt.harness._constants import arguments, evaluate, loop_values, unwrap
from rtlopt.harness._nodes import _children, _kind, _span, _walk

__all__ = ["ALL", "Flow", "Summary", "merge", "widths"]

#: An index path into a variable: constant indices, or the text of an index that is not
#: constant (the same text read again before any of its names is written selects the same
#: bits).
Key = tuple[int | str, ...]
Keys = frozenset[Key]
#: A variable written as a whole.
ALL: Keys = frozenset({()})
#: Written bits: variable -> index tuples (``ALL``: every bit). ``None``: a path that ended.
State = dict[str, Keys] | None
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_MAX_BITS = 4096
_MAX_STEPS = 4096


def _bits(dim: Any, env: dict[str, int]) -> range | None:
    """The indices a packed ``[hi:lo]`` dimension spans."""
    spec: Any = getattr(dim, "specifier", None)
    sel: Any = getattr(spec, "selector", None)
    if _kind(sel) != "SimpleRangeSelect":
        return None
    a, b = evaluate(sel.left, env), evaluate(sel.right, env)
    if a is None or b is None or abs(a - b) >= _MAX_BITS:
        return None
    return range(min(a, b), max(a, b) + 1)


#: Type words of a plain variable or net: its width is its packed range (one bit without one).
_PLAIN = frozenset(
    "reg logic wire bit var signed unsigned input output inout const static automatic "
    "tri tri0 tri1 triand trior trireg wand wor uwire supply0 supply1".split()
)
#: Integer atom types and their widths.
_ATOMS = {"integer": 32, "int": 32, "byte": 8, "shortint": 16, "longint": 64}


def _rows(dim: Any, env: dict[str, int]) -> range | None:
    """The indices an unpacked ``[hi:lo]`` or ``[n]`` dimension spans."""
    spec: Any = getattr(dim, "specifier", None)
    sel: Any = getattr(spec, "selector", None)
    if _kind(sel) == "BitSelect":
        n = evaluate(sel.expr, env)
        return range(n) if n is not None and 0 < n <= _MAX_BITS else None
    return _bits(dim, env)


def _span_of(typ: Any, env: dict[str, int]) -> range | None:
    """The bits of one element of type ``typ``: its one packed range, or the width of a plain
    scalar or integer atom (None: anything else, a type name, a struct, two ranges)."""
    dims = [d for d in _walk(typ) if _kind(d) == "VariableDimension"]
    words = {
        str(t.valueText)
        for t in _walk(typ, frozenset({"VariableDimension"}))
        if getattr(t, "valueText", "")
    }
    atoms = words & _ATOMS.keys()
    if len(dims) > 1 or not words - atoms <= _PLAIN or len(atoms) > 1:
        return None
    if atoms:
        return None if dims else range(_ATOMS[atoms.pop()])
    return _bits(dims[0], env) if dims else range(1)


def widths(scope: Any, env: dict[str, int], stop: frozenset[str] = frozenset()) -> dict[str, Keys]:
    """Every bit of each variable ``scope`` declares, not looking into ``stop`` kinds: a plain
    vector's bits as ``(bit,)``, an array's as ``(row, ..., bit)`` (an unpacked dimension
    ``[hi:lo]`` or ``[n]`` with constant bounds). A declaration whose width or rows cannot be
    evaluated, or a name two scopes declare with different shapes, is left out (a read of it
    is judged as a read of unknown bits)."""
    out: dict[str, Keys] = {}
    clash: set[str] = set()
    for node in _walk(scope, stop):
        k = _kind(node)
        if k in ("ImplicitAnsiPort", "FunctionPrototype"):
            decls = [node.declarator if k == "ImplicitAnsiPort" else node]
            typ = node.header if k == "ImplicitAnsiPort" else node.returnType
        elif k in ("DataDeclaration", "NetDeclaration", "PortDeclaration"):
            decls = [d for d in _children(node.declarators) if _kind(d) == "Declarator"]
            typ = node.header if k == "PortDeclaration" else node.type
        else:
            continue
        span = _span_of(typ, env)
        for d in decls:
            unpacked = getattr(d, "dimensions", None)
            rows = [_rows(x, env) for x in _children(unpacked)] if unpacked is not None else []
            if span is None or None in rows:
                continue
            keys: list[Key] = [()]
            for r in [*rows, span]:
                if r is None or len(keys) * len(r) > _MAX_BITS:
                    break
                keys = [t + (i,) for t in keys for i in r]
            else:
                key = _ident(d.name) if k == "FunctionPrototype" else str(d.name.valueText)
                if out.get(key, frozenset(keys)) != frozenset(keys):
                    clash.add(key)  # two scopes (generate blocks) declare it: not known
                out[key] = frozenset(keys)
    return {k: v for k, v in out.items() if k not in clash}


def _ident(node: Any) -> str:
    return str(node.identifier.valueText) if _kind(node) == "IdentifierName" else ""


def _written(left: Any) -> set[str]:
    """The variables an assignment's target names (not its indices)."""
    k = _kind(left)
    if k in ("IdentifierName", "IdentifierSelectName"):
        return {str(left.identifier.valueText)}
    if k == "ScopedName":
        return _written(left.left)
    if k == "ConcatenationExpression":
        return {v for x in _children(left.expressions) for v in _written(x)}
    return set()


def _text(node: Any) -> str:
    return " ".join(str(t.valueText) for t in _walk(node) if hasattr(t, "valueText"))


def _selects(node: Any, env: dict[str, int]) -> Keys | None:
    """The index tuples an ``IdentifierSelectName`` selects, or None when not constant."""
    out: list[Key] = [()]
    for sel in _children(node.selectors):
        s: Any = getattr(sel, "selector", None)
        k = _kind(s)
        if k == "BitSelect":
            v = evaluate(s.expr, env)
            span: range | list[str] | None = [_text(s.expr)] if v is None else range(v, v + 1)
        elif k in ("SimpleRangeSelect", "AscendingRangeSelect", "DescendingRangeSelect"):
            a, b = evaluate(s.left, env), evaluate(s.right, env)
            span = None
            if a is not None and b is not None:
                lo, hi = (
                    (min(a, b), max(a, b))
                    if k == "SimpleRangeSelect"
                    else (a, a + b - 1)
                    if k == "AscendingRangeSelect"
                    else (a - b + 1, a)
                )
                span = range(lo, hi + 1) if hi - lo < _MAX_BITS else None
        else:
            span = None
        if span is None or len(out) * len(span) > _MAX_BITS:
            return None
        out = [t + (i,) for t in out for i in span]
    return frozenset(out)


def _covered(have: Keys, want: Keys) -> bool:
    if () in have:
        return True
    return all(any(w[:n] in have for n in range(1, len(w) + 1)) for w in want)


def _whole(have: Keys, want: Key, full: Keys | None) -> bool:
    """``want`` (an array row, say) is written: every declared bit below it in ``full`` is
    (False when ``full`` is not known or holds no bit below it)."""
    below = frozenset(f for f in full or () if len(f) > len(want) and f[: len(want)] == want)
    return bool(below) and _covered(have, below)


def _overlap(a: Keys, b: Keys) -> bool:
    """Some index of ``a`` and some of ``b`` select common bits (one is a prefix of the other)."""
    if len(a) * len(b) > 1 << 16:
        return True
    return any(_meet(x, y) for x in a for y in b)


def _meet(x: Key, y: Key) -> bool:
    """Index paths ``x`` and ``y`` may select common bits (a text index may be any value)."""
    for i, j in zip(x, y, strict=False):
        if i != j and isinstance(i, int) and isinstance(j, int):
            return False
        if i != j:
            return True
    return True


def _forget(keys: Keys, name: str) -> Keys:
    """``keys`` without the text indices that mention ``name`` (just written)."""
    if all(isinstance(i, int) for k in keys for i in k):
        return keys
    return frozenset(
        k for k in keys if not any(isinstance(i, str) and name in _WORD.findall(i) for i in k)
    )


def join(a: State, b: State) -> State:
    """The bits written on both paths."""
    if a is None or b is None:
        return b if a is None else a
    out = {}
    for v in a.keys() & b.keys():
        x, y = a[v], b[v]
        both = y if () in x else x if () in y else x & y
        if both:
            out[v] = both
    return out


def _locals(block: Any) -> frozenset[str]:
    """The names a ``begin``-``end`` block declares (its own variables)."""
    return frozenset(
        str(d.name.valueText)
        for item in _children(block.items)
        if _kind(item) == "DataDeclaration"
        for d in _children(item.declarators)
        if _kind(d) == "Declarator"
    )


def _enter(done: State, local: frozenset[str]) -> tuple[State, State]:
    """``done`` inside a nested scope that redeclares ``local`` (its locals start unwritten: a
    write of a local is not a write of the outer namesake), and what it held of them."""
    if done is None or not local:
        return done, None
    inner = {v: _forget_all(b, local) for v, b in done.items() if v not in local}
    return inner, {v: b for v, b in done.items() if v in local}


def _restore(done: State, outer: State, local: frozenset[str]) -> State:
    """``done`` after a nested scope: its locals' writes dropped, the outer names' back."""
    if done is None or not local:
        return done
    out = {v: _forget_all(b, local) for v, b in done.items() if v not in local}
    out.update(outer or {})
    return out


def _forget_all(keys: Keys, names: frozenset[str]) -> Keys:
    """``keys`` without the text indices that mention one of ``names`` (another variable
    inside or outside the scope that declares them)."""
    for v in names:
        keys = _forget(keys, v)
    return keys


def merge(outer: dict[str, Keys], inner: dict[str, Keys]) -> dict[str, Keys]:
    """Shapes of ``outer`` and of ``inner`` (a nested scope): a name the two declare with
    different shapes is left out (not known)."""
    out = {**outer, **inner}
    return {v: b for v, b in out.items() if outer.get(v, b) == inner.get(v, b)}


@dataclass(frozen=True)
class Summary:
    """What a function or task does to its module: the module signals it reads and writes
    (through the subprograms it calls too), its ports in order and their directions."""

    reads: frozenset[str]
    writes: frozenset[str]
    ports: tuple[tuple[str, str], ...]


@dataclass
class Flow:
    """Reads, before the run wrote them, of the variables in ``watched`` (offset by name)."""

    watched: frozenset[str]
    env: dict[str, int]
    full: dict[str, Keys]
    subprograms: dict[str, Summary]
    reads: list[tuple[str, int, Keys | None]] = field(default_factory=list)
    wrote: dict[str, Keys] = field(default_factory=dict)
    work: int = 0

    @property
    def early(self) -> dict[str, int]:
        """Variable -> offset of its first read, before the run wrote them, of bits the body
        writes somewhere (a bit it never writes is another process's: no state of this one)."""
        out: dict[str, int] = {}
        for name, at, want in self.reads:
            wrote = self.wrote.get(name, frozenset())
            if name not in out and (() in wrote or want is None or _overlap(wrote, want)):
                out[name] = at
        return out

    def _early(self, name: str, at: int, done: State, want: Keys | None) -> None:
        if name not in self.watched or done is None:
            return
        have = done.get(name, frozenset())
        if () in have:
            return
        if want is None:
            want = self.full.get(name)
        if want is None:
            self.reads.append((name, at, None))
            return
        full = self.full.get(name)
        missing = frozenset(
            w for w in want if not _covered(have, frozenset({w})) and not _whole(have, w, full)
        )
        if missing:
            self.reads.append((name, at, missing))

    def read(self, e: Any, done: State, env: dict[str, int]) -> None:
        """Judge every read of ``e`` against ``done``."""
        stack = [e]
        while stack:
            n = stack.pop()
            k = _kind(n)
            if k == "IdentifierName":
                self._early(str(n.identifier.valueText), _span(n)[0], done, None)
                self._call(str(n.identifier.valueText), n, done)
            elif k == "IdentifierSelectName":
                name = str(n.identifier.valueText)
                self._early(name, _span(n)[0], done, _selects(n, env))
                stack.extend(_children(n.selectors))
            elif k == "InvocationExpression" and _kind(n.left) == "IdentifierName":
                self._call(str(n.left.identifier.valueText), n, done)
                stack.extend(arguments(n))
            elif k == "ScopedName":
                stack.append(n.left)
            else:
                stack.extend(c for c in _children(n) if not hasattr(c, "valueText"))

    def _call(self, name: str, node: Any, done: State) -> None:
        sub = self.subprograms.get(name)
        for v in sorted(sub.reads) if sub is not None else ():
            self._early(v, _span(node)[0], done, None)
        for v in sub.writes if sub is not None else ():
            self.wrote[v] = ALL

    def write(self, left: Any, done: State, env: dict[str, int], blocking: bool) -> State:
        """Judge the indices of target ``left`` and record what a blocking write covers."""
        k = _kind(left)
        if k == "ConcatenationExpression":
            for part in _children(left.expressions):
                if not hasattr(part, "valueText"):
                    done = self.write(part, done, env, blocking)
            return done
        if k == "IdentifierSelectName":
            for sel in _children(left.selectors):
                self.read(sel, done, env)
            bits = _selects(left, env)
        elif k == "IdentifierName":
            bits = ALL
        else:  # a member or anything else: covers nothing
            return done
        name = str(left.identifier.valueText)
        before = self.wrote.get(name, frozenset())
        self.wrote[name] = ALL if bits is None or () in bits else before | bits
        if not blocking or done is None:
            return done
        if bits is None:
            return {v: _forget(b, name) for v, b in done.items()}
        have = done.get(name, frozenset())
        out = {v: _forget(b, name) for v, b in done.items()}
        out[name] = ALL if () in have or () in bits else have | bits
        if name in self.full and _covered(out[name], self.full[name]):
            out[name] = ALL
        return out

    def expr(self, e: Any, done: State, env: dict[str, int]) -> State:
        k = _kind(e)
        if k == "AssignmentExpression":
            self.read(e.right, done, env)
            return self.write(e.left, done, env, True)
        if k == "NonblockingAssignmentExpression":
            self.read(e.right, done, env)
            return self.write(e.left, done, env, False)
        if "AssignmentExpression" in k or "crement" in k:  # compound: read, then write
            target = e.left if hasattr(e, "left") else e.operand
            self.read(target, done, env)
            if hasattr(e, "right"):
                self.read(e.right, done, env)
            return self.write(target, done, env, True)
        if k == "InvocationExpression" and _kind(e.left) == "IdentifierName":
            return self._task(e, done, env)
        self.read(e, done, env)
        return done

    def _task(self, e: Any, done: State, env: dict[str, int]) -> State:
        """A call statement: inputs read, then output actuals written."""
        sub = self.subprograms.get(str(e.left.identifier.valueText))
        self._call(str(e.left.identifier.valueText), e, done)
        ports = dict(sub.ports) if sub is not None else {}
        order = [p for p, _ in sub.ports] if sub is not None else []
        outs = []
        args = _children(e.arguments.parameters) if e.arguments else iter(())
        given = [a for a in args if _kind(a) in ("OrderedArgument", "NamedArgument")]
        for i, a in enumerate(given):
            port = str(a.name.valueText) if _kind(a) == "NamedArgument" else None
            if port is None:
                port = order[i] if i < len(order) else None
            actual = unwrap(a.expr)
            if ports.get(port or "") == "output" and actual is not None:
                outs.append(actual)
            else:
                self.read(a.expr, done, env)
        for actual in outs:
            done = self.write(actual, done, env, True)
        for v in sub.writes if sub is not None and done is not None else ():
            done = {n: _forget(b, v) for n, b in (done or {}).items()}
        return done

    def stmt(self, s: Any, done: State, env: dict[str, int]) -> State:
        """``done`` after statement ``s``."""
        k = _kind(s)
        if s is None or done is None or k in ("EmptyStatement", "", "JumpStatement"):
            return None if k == "JumpStatement" else done
        if k == "SequentialBlockStatement":
            local = _locals(s)
            done, outer = _enter(done, local)
            for item in _children(s.items):
                if _kind(item) != "DataDeclaration":
                    done = self.stmt(item, done, env)
            return _restore(done, outer, local)
        if k == "ExpressionStatement":
            return self.expr(s.expr, done, env)
        if k == "ConditionalStatement":
            return self._if(s, done, env)
        if k == "CaseStatement":
            return self._case(s, done, env)
        if k == "ForLoopStatement":
            return self._for(s, done, env)
        if k == "ForeachLoopStatement":
            return self._foreach(s, done, env)
        if k == "TimingControlStatement":
            return self.stmt(s.statement, done, env)
        if k == "ReturnStatement":
            if s.returnValue is not None:
                self.read(s.returnValue, done, env)
            return None
        self._loop(s, done, env)
        return done

    def _if(self, s: Any, done: State, env: dict[str, int]) -> State:
        conds = [c for c in _children(s.predicate.conditions) if not hasattr(c, "valueText")]
        for c in conds:
            self.read(c.expr, done, env)
        value = evaluate(conds[0].expr, env) if len(conds) == 1 else None
        yes = self.stmt(s.statement, done, env) if value != 0 else None
        if value not in (None, 0):
            return yes
        no = done
        if s.elseClause is not None:
            no = self.stmt(s.elseClause.clause, done, env)
        return join(yes, no)

    def _case(self, s: Any, done: State, env: dict[str, int]) -> State:
        self.read(s.expr, done, env)
        after: State = None
        labels: set[int] = set()
        default = False
        for item in _children(s.items):
            if _kind(item) == "StandardCaseItem":
                for e in _children(item.expressions):
                    if not hasattr(e, "valueText"):
                        self.read(e, done, env)
                        v = evaluate(e, env)
                        labels |= set() if v is None else {v}
            elif _kind(item) == "DefaultCaseItem":
                default = True
            else:
                self.read(item, done, env)
                continue
            after = join(after, self.stmt(item.clause, done, env))
        n = self._width(s.expr, env) if str(s.caseKeyword.valueText) == "case" else None
        every = n is not None and n <= 12 and labels >= set(range(2**n))
        return after if default or every else join(after, done)

    def _width(self, e: Any, env: dict[str, int]) -> int | None:
        """The width of a plain vector or a constant part of one (None: not known)."""
        k = _kind(e)
        if k not in ("IdentifierName", "IdentifierSelectName"):
            return None
        full = self.full.get(str(e.identifier.valueText))
        if full is None or any(len(x) != 1 for x in full):
            return None  # not known, or an array
        if k == "IdentifierName":
            return len(full)
        keys = _selects(e, env)
        if keys and all(len(x) == 1 and isinstance(x[0], int) for x in keys):
            return len(keys)
        return None

    def _for(self, s: Any, done: State, env: dict[str, int]) -> State:
        """An unrolled loop when its bounds are constant, else :meth:`_loop`."""
        var, start = None, None
        local = frozenset(
            str(i.declarator.name.valueText)
            for i in _children(s.initializers)
            if _kind(i) == "ForVariableDeclaration"
        )
        done, outer = _enter(done, local)
        return _restore(self._for_body(s, done, env, var, start), outer, local)

    def _for_body(
        self, s: Any, done: State, env: dict[str, int], var: str | None, start: int | None
    ) -> State:
        for init in _children(s.initializers):
            if _kind(init) == "ForVariableDeclaration":
                var, value = str(init.declarator.name.valueText), init.declarator.initializer
                start = evaluate(value.expr, env) if value is not None else None
                if value is not None:
                    self.read(value.expr, done, env)
                    done = None if done is None else {**done, var: ALL}
            elif not hasattr(init, "valueText"):
                done = self.expr(init, done, env)
                if _kind(init) == "AssignmentExpression" and _kind(init.left) == "IdentifierName":
                    var, start = _ident(init.left), evaluate(init.right, env)
        values = self._unroll(s, var, start, env)
        self.work += len(values or ())
        if (
            values is None
            or var is None
            or self.work > _MAX_STEPS * 4
            or any(
                _kind(n) in ("JumpStatement", "ReturnStatement", "DisableStatement")
                or ("AssignmentExpression" in _kind(n) or "crement" in _kind(n))
                and var in _written(getattr(n, "left", None) or n.operand)
                for n in _walk(s.statement)
            )
        ):
            self._loop(s, done, env)
            return done
        for v in values:
            inner = {**env, var: v}
            if s.stopExpr is not None:
                self.read(s.stopExpr, done, inner)
            done = self.stmt(s.statement, done, inner)
            for step in _children(s.steps):
                if not hasattr(step, "valueText"):
                    done = self.expr(step, done, inner)
        return done

    def _foreach(self, s: Any, done: State, env: dict[str, int]) -> State:
        """A ``foreach`` loop: its loop variables are its own, written before each run of its
        body (judged as :meth:`_loop` judges one)."""
        names = (_ident(v) for v in _children(s.loopList.loopVariables))
        local = frozenset(n for n in names if n)
        inner, outer = _enter(done, local)
        inner = None if inner is None else {**inner, **dict.fromkeys(local, ALL)}
        self.stmt(s.statement, inner, env)
        return _restore(_enter(done, local)[0], outer, local)

    def _unroll(
        self, s: Any, var: str | None, start: int | None, env: dict[str, int]
    ) -> list[int] | None:
        """The loop variable's values, or None when the loop is not constant."""
        steps = [x for x in _children(s.steps) if not hasattr(x, "valueText")]
        if var is None or s.stopExpr is None or len(steps) != 1:
            return None
        return loop_values(var, start, s.stopExpr, steps[0], env, _MAX_STEPS)

    def _loop(self, s: Any, done: State, env: dict[str, int]) -> None:
        """A body that may run any number of times (a ``for`` loop after its initializers):
        each read judged against the state at its entry (what an earlier run of the body
        wrote counts for nothing)."""
        k = _kind(s)
        body = getattr(s, "statement", None)
        if k == "ForLoopStatement":
            if s.stopExpr is not None:
                self.read(s.stopExpr, done, env)
            after = self.stmt(body, done, env)
            for step in _children(s.steps):
                if not hasattr(step, "valueText"):
                    self.expr(step, after, env)
        elif body is not None and _kind(body).endswith("Statement"):
            if getattr(s, "expr", None) is not None:
                self.read(s.expr, done, env)
            self.stmt(body, done, env)
        else:
            self.read(s, done, env)
