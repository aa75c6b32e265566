"""What an ``always`` block evaluated on an event (or ``always_comb``) surely writes when it
runs, for the time-0 rule (:mod:`rtlopt.evaluate._time_zero_values`).

A block that runs at time 0 gives a name an event only where it writes it on that run: a
path that skips the write (``always @(a) if (a) l = 1;``) leaves it x, with no event.
:func:`sure_writes` reads the block's body (pyslang's syntax tree) for the names every path
writes whole, and the names it reads before writing them itself (what the values written
depend on: conditions and selects included). Only plain forms are read: ``begin``/``end``,
blocking and nonblocking assignments, ``if``/``else`` and ``case`` (a write counts in a
``case`` only with a ``default``); anything else (a loop, a call, a compound assignment, a
nested timing control, a declaration) is not read: nothing is surely written.
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._nodes import _children, _kind

__all__ = ["sure_writes"]

_ASSIGN = frozenset({"AssignmentExpression", "NonblockingAssignmentExpression"})


class _NotRead(Exception):
    """A form :func:`sure_writes` does not read."""


def _names(node: Any) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if _kind(cur) in ("IdentifierName", "IdentifierSelectName"):
            out.add(cur.identifier.valueText)
        elif _kind(cur) in ("ScopedName", "InvocationExpression", "SystemName"):
            raise _NotRead  # a hierarchical name, a call: not read
        stack.extend(_children(cur))
    return out


_State = tuple[frozenset[str], frozenset[str]]  # (written blocking: read back, written)


def _stmt(s: Any, state: _State, reads: set[str]) -> _State:
    kind = _kind(s)
    done, written = state
    if kind == "EmptyStatement":
        return state
    if kind == "SequentialBlockStatement":
        for item in s.items:
            state = _stmt(item, state, reads)
        return state
    if kind == "ExpressionStatement" and _kind(s.expr) in _ASSIGN:
        left, right = s.expr.left, s.expr.right
        reads |= _names(right) - done
        if _kind(left) != "IdentifierName":
            reads |= _names(left) - done  # a select: its base and index read, no whole write
            return state
        name = left.identifier.valueText
        blocking = _kind(s.expr) == "AssignmentExpression"
        return (done | {name} if blocking else done), written | {name}
    if kind == "ConditionalStatement":
        reads |= _names(s.predicate) - done
        then = _stmt(s.statement, state, reads)
        other = _stmt(s.elseClause.clause, state, reads) if s.elseClause is not None else state
        return then[0] & other[0], then[1] & other[1]
    if kind == "CaseStatement":
        reads |= _names(s.expr) - done
        ends: list[_State] = []
        default = False
        for item in s.items:
            k = _kind(item)
            if k == "StandardCaseItem":
                for e in _children(item.expressions):
                    reads |= _names(e) - done
            elif k == "DefaultCaseItem":
                default = True
            else:
                raise _NotRead
            ends.append(_stmt(item.clause, state, reads))
        if not default:
            ends.append(state)
        return (
            frozenset.intersection(*(e[0] for e in ends)),
            frozenset.intersection(*(e[1] for e in ends)),
        )
    raise _NotRead


def sure_writes(node: Any) -> tuple[frozenset[str], frozenset[str]] | None:
    """For an ``always`` block whose statement is an event control, ``always_comb`` or
    ``always_latch``: ``(names every path through its body writes whole, names it reads
    before writing them on its way)``; None for any other item or a body this module does
    not read."""
    kind = _kind(node)
    if kind in ("AlwaysCombBlock", "AlwaysLatchBlock"):
        body = node.statement
    elif kind == "AlwaysBlock" and _kind(node.statement) == "TimingControlStatement":
        body = node.statement.statement
    else:
        return None
    reads: set[str] = set()
    try:
        _, written = _stmt(body, (frozenset(), frozenset()), reads)
    except (_NotRead, AttributeError):
        return None
    return written, frozenset(reads)
