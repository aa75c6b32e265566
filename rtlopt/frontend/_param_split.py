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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rtlopt.frontend._param_deps import _module, identifiers
from rtlopt.frontend._param_free import apply_edits, declarations, input_ports, port_type
from rtlopt.frontend._slang import node_kind

__all__ = ["INPUT_SUFFIX", "Sources", "assignments", "nodes_of", "split_values"]

#: A module's text by its name (the candidate's helpers, the repository's modules); None for
#: a module rtlopt has no text of.
Sources = Callable[[str], str | None]
#: The suffix of a module's copy that reads a split parameter from an input.
COPY_SUFFIX = "__split"
#: How many levels of instances a split is followed through.
_DEPTH = 4

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
    return nodes_of(mod, "ParameterDeclaration")


def nodes_of(mod: Any, kind: str) -> list[Any]:
    """Every node of ``kind`` in ``mod`` (generate blocks too; none inside another), in text
    order."""
    out: list[Any] = []
    stack = [mod]
    while stack:
        node = stack.pop()
        if node_kind(node) == kind:
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
    text: str,
    module: str,
    names: Sequence[str],
    avoid: Mapping[str, Sequence[int]] = {},
    sources: Sources | None = None,
    tag: str = "",
    copies: dict[str, str] | None = None,
    depth: int = 0,
) -> tuple[str, int] | None:
    """``text`` with the value uses of the parameters ``names`` of ``module`` read from new
    inputs (module docstring; ``avoid``: values of each where the parameter itself is read),
    and how many uses were rewritten; None when one of them is not declared there with a
    type an input can have, or the module has no port list. With ``sources`` (a module's
    text by its name), an instance's parameter given one of them whose module uses it as a
    value is split there too (:func:`_split_instances`): the instance then reads a copy of
    its module, named with ``tag``, appended to the text, that takes the value from an input
    the instance connects to the split net (held-out trial 51: a wrapper handing
    ``DATA_WIDTH`` to its receiver); ``copies`` gathers them instead (by name), ``depth``
    counts the levels above."""
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
    alias_nets = _alias_nets(raw, mod, module, aliases, every)
    if alias_nets is None:
        return None
    nets += alias_nets
    semi = int(mod.header.semi.location.offset) + 1
    edits.append((semi, semi, nets))
    made: dict[str, str] = {} if copies is None else copies
    count = len(found)
    if sources is not None:
        below = _split_instances(mod, every, sources, tag, made, depth)
        if below is None:
            return None
        edits += below[0]
        count += below[1]
    del tree  # the tree owns its nodes: released only after the last one is read
    out = apply_edits(raw, edits).decode("utf-8", "surrogateescape")
    if copies is None:
        out += "".join(f"\n{c}\n" for c in made.values())
    return out, count


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


def _alias_nets(
    raw: bytes, mod: Any, module: str, aliases: list[tuple[str, Any]], every: set[str]
) -> str | None:
    """A net per localparam computed from the split parameters, computed from their nets;
    None when one has no type a net can have."""
    alias_types = _alias_types(raw, mod, module, [a for a, _ in aliases]) if aliases else {}
    nets = ""
    for a, expr in aliases:
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
    return nets


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


def _split_instances(
    mod: Any, every: set[str], sources: Sources, tag: str, copies: dict[str, str], depth: int = 0
) -> tuple[list[tuple[int, int, str]], int] | None:
    """Edits making each instance of ``mod`` whose named parameter assignments name one of
    ``every`` (the split parameters and their aliases) read a copy of its module with those
    parameters' value uses split (:func:`split_values`, recursively), connected to the split
    nets, and how many uses the copies split; ``copies`` gathers the copies' texts by name.
    An instance whose module uses none as a value is left as it is; None when one cannot be
    split (a positional assignment, a module with no text, too deep, or its split fails)."""
    edits: list[tuple[int, int, str]] = []
    count = 0
    for node, sub, params in _instantiations(mod, every):
        if None in params or depth >= _DEPTH:
            return None
        child = sources(sub)
        if child is None:
            return None
        names = sorted(p for p in params if p is not None)
        copy = f"{sub}{COPY_SUFFIX}{tag}_{'_'.join(names)}"
        if copy not in copies:
            below = {**copies, copy: ""}  # a recursive module: no second copy
            inner = split_values(
                child, sub, names, sources=sources, tag=tag, copies=below, depth=depth + 1
            )
            if inner is None:
                return None
            if inner[1] == 0:
                continue  # widths only, below too: the probes', as the target's own
            copies.update(below)
            copies[copy] = _renamed_module(inner[0], sub, copy)
            count += inner[1]
        at = int(node.type.location.offset)
        edits.append((at, at + len(str(node.type.rawText)), copy))
        for inst in node.instances:
            edits += _connected(inst, {p: params[p] for p in names})
    return edits, count


def _instantiations(mod: Any, every: set[str]) -> list[tuple[Any, str, dict[str | None, str]]]:
    """Each instantiation of ``mod`` whose parameter assignments name one of ``every``: its
    node, its module, and each such parameter's expression with ``every`` read from the split
    nets (None for a positional one)."""
    out: list[tuple[Any, str, dict[str | None, str]]] = []
    stack = [mod]
    while stack:
        node = stack.pop()
        if node_kind(node) == "HierarchyInstantiation":
            params: dict[str | None, str] = {}
            for _sub, _inst, param, expr in assignments(node):
                if identifiers(str(expr)) & every:
                    params[param] = _with_nets(expr, every)
            if params:
                out.append((node, str(node.type.valueText), params))
            continue
        try:
            stack.extend(c for c in node if c is not None and node_kind(c))
        except TypeError:
            continue
    return out


def _with_nets(expr: Any, every: set[str]) -> str:
    """The expression's text with each name of ``every`` read from its split net."""
    start = int(expr.sourceRange.start.offset)
    found: list[Any] = []
    _uses(expr, every, ("EqualsValueClause",), found)
    text = str(expr).strip()
    lead = len(str(expr)) - len(str(expr).lstrip())
    for node in sorted(found, key=lambda n: -int(n.identifier.location.offset)):
        at = int(node.identifier.location.offset) - start - lead
        raw = str(node.identifier.rawText)
        text = text[:at] + str(node.identifier.valueText) + _NET_SUFFIX + text[at + len(raw) :]
    return text


def _connected(inst: Any, values: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """Edits connecting the copy's new inputs (``P__v``) of one instance to ``values``."""
    close = int(inst.closeParen.location.offset)
    conns = [c for c in inst.connections if node_kind(c) != "Comma"]
    ordered = any(node_kind(c) == "OrderedPortConnection" for c in conns)
    if ordered:
        text = ", ".join(f"{v}" for v in values.values())
    else:
        text = ", ".join(f".{p}{INPUT_SUFFIX}({v})" for p, v in values.items())
    return [(close, close, (", " if conns else "") + text)]


def _renamed_module(text: str, module: str, name: str) -> str:
    """The module ``module`` of ``text`` (and the copies appended after it) with the module
    renamed ``name``."""
    from pyslang import syntax

    raw = text.encode("utf-8", "surrogateescape")
    tree = syntax.SyntaxTree.fromText(raw.decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None:
        return text
    tok = mod.header.name
    at = int(tok.location.offset)
    edit = [(at, at + len(str(tok.rawText)), name)]
    del tree
    return apply_edits(raw, edit).decode("utf-8", "surrogateescape")


def assignments(mod: Any) -> list[tuple[str, str, str | None, Any]]:
    """``(module, instance, parameter, expression)`` of each parameter assignment of each
    instance in ``mod`` (generate blocks too); the parameter is None for a positional one
    (its name needs the module's header: read as passed on, unread)."""
    out: list[tuple[str, str, str | None, Any]] = []
    stack = [mod]
    while stack:
        node = stack.pop()
        if node_kind(node) == "HierarchyInstantiation":
            pva = node.parameters
            named = [i.decl.name.valueText for i in node.instances if getattr(i, "decl", None)]
            inst = str(named[0]) if named else "?"
            for a in pva.parameters if pva is not None else []:
                k = node_kind(a)
                expr = getattr(a, "expr", None)
                if k == "NamedParamAssignment" and expr is not None:
                    out.append((str(node.type.valueText), inst, str(a.name.valueText), expr))
                elif k == "OrderedParamAssignment" and expr is not None:
                    out.append((str(node.type.valueText), inst, None, expr))
            continue
        try:
            children = list(node)
        except TypeError:
            continue
        stack.extend(c for c in children if c is not None and node_kind(c))
    return out
