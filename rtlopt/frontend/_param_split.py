"""A parameter's value uses made an input: where to probe a parameter that cannot be freed.

A parameter that sizes a port cannot be an input of the proof (:mod:`._param_free`), and its
probes are a few values. A change may use its value through the design's signals so that no
constant expression singles out the value where it differs: ``wire [31:0] n = a - a + W; y =
(n == 3 * 4 + 1) ? a - b : a + b`` differs only at ``W = 13`` (red-team round 100). Here every
use of the parameter as a value (in a continuous assignment, an ``always`` block or a
variable's initializer; not in a width, a select, a replication count, a cast or a loop's
header) reads a net ``W__s`` instead, driven by a new input ``W__v``: a proof of the two texts
so rewritten finds a value of ``W__v`` where they differ, and that value is probed (a real
probe decides; a value the widths contradict is only a wasted probe). A value already found
is excluded the next time (``W__s`` is then ``W`` there), so the search goes on to the next.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rtlopt.frontend._param_deps import _module
from rtlopt.frontend._param_free import apply_edits, declarations, input_ports, port_type
from rtlopt.frontend._slang import node_kind

__all__ = ["INPUT_SUFFIX", "split_values"]

#: The input holding a split parameter's value is named with this suffix.
INPUT_SUFFIX = "__v"
_NET_SUFFIX = "__s"
#: A use under one of these reads the value at run time (a function or task: where it is
#: called at run time; one a constant needs does not build once split).
_VALUE = frozenset(
    {
        "ContinuousAssign",
        "AlwaysBlock",
        "AlwaysCombBlock",
        "AlwaysFFBlock",
        "AlwaysLatchBlock",
        "EqualsValueClause",
        "FunctionDeclaration",
        "TaskDeclaration",
        # an instance's port: the value reaches the instance's logic (red-team round 119:
        # ``cmpz u(.v(W - 4000), .z(hit))``); gate primitives' terminals alike
        "NamedPortConnection",
        "OrderedPortConnection",
    }
)
#: A use under one of these needs a constant.
_CONSTANT = frozenset(
    {
        "SimpleRangeSelect",
        "AscendingRangeSelect",
        "DescendingRangeSelect",
        "MultipleConcatenationExpression",
        "VariableDimension",
        "ParameterDeclaration",
        "ParameterDeclarationStatement",
        "ForVariableDeclaration",
        "GenvarDeclaration",
    }
)
#: Their own expressions (a header, a condition, a cast's size, a generate case's labels)
#: need a constant; what they hold (a loop's body, a generate branch with or without
#: ``begin``, an ``else`` branch, a case item's body, the cast's operand) may read values.
_BODIES: dict[str, tuple[str, ...]] = {
    "IfGenerate": ("block", "elseClause"),
    "LoopGenerate": ("block",),
    "ForLoopStatement": ("statement",),
    "CastExpression": ("right",),
}


def _uses(node: Any, names: set[str], path: tuple[str, ...], out: list[Any]) -> None:
    kind = node_kind(node)
    if kind in _CONSTANT:
        return
    if kind == "IdentifierName" and str(node.identifier.valueText) in names:
        if any(k in _VALUE for k in path):
            out.append(node)
        return
    children: list[Any]
    if kind in _BODIES:
        children = [getattr(node, a, None) for a in _BODIES[kind]]
    elif kind == "CaseGenerate":  # each item's body, not its labels
        children = [getattr(i, "clause", None) for i in node.items]
    else:
        try:
            children = list(node)
        except TypeError:
            return
    for c in children:
        if c is not None and node_kind(c) and hasattr(c, "sourceRange"):
            _uses(c, names, (*path, kind), out)


def _all_declarations(mod: Any) -> list[Any]:
    """Every parameter declaration of the module, in generate blocks too, in text order."""
    out: list[Any] = []
    stack = [mod]
    while stack:
        node = stack.pop()
        if node_kind(node) == "ParameterDeclaration":
            out.append(node)
            continue
        try:
            children = list(node)
        except TypeError:
            continue
        stack.extend(
            c
            for c in reversed(children)
            if c is not None and node_kind(c) and hasattr(c, "sourceRange")
        )
    return out


def _aliases(mod: Any, names: set[str]) -> list[tuple[str, Any]] | None:
    """The localparams (header and body) computed from ``names`` or from one another, in
    order: (name, initializer expression)."""
    out: list[tuple[str, Any]] = []
    seen = set(names)
    for decl in _all_declarations(mod):
        for d in decl.declarators:
            init = getattr(d, "initializer", None)
            if node_kind(d) == "Comma" or init is None:
                continue
            found: list[Any] = []
            _uses(init.expr, seen, ("EqualsValueClause",), found)
            name = str(d.name.valueText)
            if found and name not in names:
                if name in seen:
                    return None  # two of that name (generate blocks): no one net for it
                out.append((name, init.expr))
                seen.add(name)
    return out


def split_values(
    text: str, module: str, names: Sequence[str], avoid: Mapping[str, Sequence[int]] = {}
) -> tuple[str, int] | None:
    """``text`` with the value uses of the parameters ``names`` of ``module`` read from new
    inputs (module docstring; ``avoid``: values of each where the parameter itself is read),
    and how many uses were rewritten; None when one of them is not declared there with a
    type an input can have, or the module has no port list."""
    from pyslang import syntax

    raw = text.encode("utf-8", "surrogateescape")
    tree = syntax.SyntaxTree.fromText(raw.decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None or mod.header.ports is None:
        return None
    types: dict[str, str] = {}
    for decl in declarations(mod):
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            if node_kind(d) != "Comma" and name in names:
                port = port_type(decl)
                if port is None:
                    return None
                types[name] = port
    if set(types) != set(names):
        return None
    aliases = _aliases(mod, set(names))
    if aliases is None:
        return None
    every = set(names) | {a for a, _ in aliases}
    found: list[Any] = []
    for item in mod.members:
        if node_kind(item) != "ParameterDeclarationStatement":
            _uses(item, every, (), found)
    edits = [_renamed(node.identifier) for node in found]
    for var, bound, block in bounded_loops(mod, every):  # its value: the window below P__v
        loop: list[Any] = []
        _uses(block, {var}, ("LoopGenerate", "AlwaysBlock"), loop)
        loop = [n for n in loop if not _selects(n)]  # a bit's position: the loop's own
        for node in loop:
            at = int(node.identifier.location.offset)
            shift = f"({var} + ({bound}{_NET_SUFFIX} - {bound}))"
            edits.append((at, at + len(str(node.identifier.rawText)), shift))
        found += loop
    inputs = [(n + INPUT_SUFFIX, types[n]) for n in names]
    edits += input_ports(mod, inputs)
    nets = ""
    for n in names:
        value = n + INPUT_SUFFIX
        cond = " || ".join(f"{value} == {v}" for v in avoid.get(n, ()))
        nets += f" wire {types[n]} {n}{_NET_SUFFIX} = " + (
            f"({cond}) ? {n} : {value};" if cond else f"{value};"
        )
    alias_types = _alias_types(raw, mod, module, [a for a, _ in aliases]) if aliases else {}
    for a, expr in aliases:  # a localparam computed from them: a net computed from theirs
        if alias_types.get(a) is None:
            return None
        inner: list[Any] = []
        _uses(expr, every, ("EqualsValueClause",), inner)
        start = int(expr.sourceRange.start.offset)
        body = apply_edits(
            raw[start : int(expr.sourceRange.end.offset)],
            [(b - start, e - start, t) for b, e, t in (_renamed(u.identifier) for u in inner)],
        ).decode("utf-8", "surrogateescape")
        nets += f" wire {alias_types[a]} {a}{_NET_SUFFIX} = {body};"
    semi = int(mod.header.semi.location.offset) + 1
    edits.append((semi, semi, nets))
    del tree  # the tree owns its nodes: released only after the last one is read
    return apply_edits(raw, edits).decode("utf-8", "surrogateescape"), len(found)


#: The variable a procedural loop's first initializer sets (``i = 0``, ``int i = 0``).
_LOOP_VARIABLE = re.compile(r"\s*(?:[A-Za-z_]\w*\s+)*([A-Za-z_]\w*)\s*=")


def bounded_loops(mod: Any, names: set[str]) -> list[tuple[str, str, Any]]:
    """``(variable, name, body)`` of each generate or procedural loop of ``mod`` whose header
    names one of ``names`` (the first in sorted order): a loop to ``W`` hands its variable
    every value below ``W``, so a use of the variable as a value is a use of ``W``'s (red-team
    round 104: ``n = g; n * n == 9801`` holds only where W > 99). The split reads it shifted by
    the split value's distance from the parameter's: the loop's last values at that width."""
    from rtlopt.frontend._param_deps import identifiers

    out: list[tuple[str, str, Any]] = []
    stack = [mod]
    while stack:
        node = stack.pop()
        kind = node_kind(node)
        found: tuple[str, str, Any] | None = None
        if kind == "LoopGenerate":
            head = f"{node.initialExpr} {node.stopExpr} {node.iterationExpr}"
            found = (str(node.identifier.valueText), head, node.block)
        elif kind == "ForLoopStatement":  # a procedural loop's variable alike (round 105)
            init = " ".join(str(x) for x in node.initializers)
            first = _LOOP_VARIABLE.match(init)
            head = f"{init} {node.stopExpr} {' '.join(str(x) for x in node.steps)}"
            found = (first.group(1), head, node.statement) if first else None
        hit = sorted(identifiers(found[1]) & names) if found else []
        if found and hit:
            out.append((found[0], hit[0], found[2]))
        try:
            stack.extend(c for c in node if c is not None and node_kind(c))
        except TypeError:
            continue
    return out


def _selects(node: Any) -> bool:
    """Whether the name ``node`` is (in) the index of a bit select (``h[g]``)."""
    p = node.parent
    while p is not None and node_kind(p) not in _VALUE:
        if node_kind(p) == "ElementSelect":
            return True
        p = p.parent
    return False


def _renamed(tok: Any) -> tuple[int, int, str]:
    """An edit reading the split net of the identifier token ``tok``."""
    at = int(tok.location.offset)
    return (at, at + len(str(tok.rawText)), str(tok.valueText) + _NET_SUFFIX)


def _alias_types(raw: bytes, mod: Any, module: str, names: list[str]) -> dict[str, str | None]:
    """The net types of the localparams ``names`` as elaborated at the defaults."""
    from rtlopt.frontend._param_free import elaborated_types

    types = elaborated_types(raw, mod, module, [], None)
    return {n: types.get(n) for n in names}
