"""What a call reads besides its arguments, for the x walk's cones
(:meth:`rtlopt.frontend._net_drivers.Drivers.reads`).

A function or task body may read nets and variables of its module directly (``function f(input
d); f = r; endfunction``, ``wire w = f(a);``): ``w`` then carries ``r``'s x although no
argument does (round 49: a register before its first write, a latch read through a
function). :func:`call_reads` gives those names, through the subroutines a body calls in turn
(:data:`DEPTH` deep); a call deeper than that, or one whose body is not known, fails closed
(:class:`Unknown`). A local's initializer (``static logic t = r;``) is read as the body is
(round 51), in the blocks nested in the body too (:func:`variables`).
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._net_bits import key, named
from rtlopt.frontend._slang import node_kind

__all__ = ["DEPTH", "Unknown", "call_reads", "reads_outside", "variables"]

#: Subroutines followed into, one calling the next.
DEPTH = 8
_SIGNALS = frozenset({"Net", "Variable"})


class Unknown(Exception):
    """A call the walk cannot follow (too deep, or no body)."""


def call_reads(expr: Any, depth: int = 0) -> list[Any]:
    """The nets and variables declared outside the subroutines ``expr`` calls that their
    bodies read (each once).

    Raises:
        Unknown: a call deeper than :data:`DEPTH`, or one without a body.
    """
    from pyslang import ast

    calls: list[Any] = []
    expr.visit(lookup_table={ast.ExpressionKind.Call: calls.append})
    found: dict[str, Any] = {}
    for call in calls:
        system = call.isSystemCall
        if system() if callable(system) else system:
            continue
        if depth >= DEPTH:
            raise Unknown("calls nested too deep to follow")
        sub = call.subroutine
        body = getattr(sub, "body", None)
        if body is None:
            raise Unknown(f"the body of {getattr(sub, 'name', 'a subroutine')} is not known")
        inside = key(sub) + "."
        # the whole subroutine: its body and its locals' initializers
        for sym in named(sub):
            if node_kind(sym) in _SIGNALS and not key(sym).startswith(inside):
                found.setdefault(key(sym), sym)
        for sym in call_reads(sub, depth + 1):
            found.setdefault(key(sym), sym)
    return list(found.values())


def variables(sub: Any) -> list[Any]:
    """The variables the function or task ``sub`` declares: its result, its locals, those of
    the blocks nested in its body (``begin : blk reg s; ... end``, ``begin logic s; ... end``,
    a ``for`` loop's)."""
    from pyslang import ast

    found: list[Any] = []
    sub.visit(lookup_table={ast.SymbolKind.Variable: found.append})
    return found


def reads_outside(call: Any) -> bool:
    """Whether the body of the subroutine ``call`` calls reads names declared outside it
    (or cannot be followed): what its output arguments carry then is not followed (a
    function's ``output`` argument written from a module's register, round 50)."""
    try:
        return bool(call_reads(call))
    except Unknown:
        return True
