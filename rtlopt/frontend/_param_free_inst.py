"""The freed proof (:func:`rtlopt.frontend._param_free.free_parameters`) through the modules a
freed parameter is handed to.

Freed, a parameter is an input port, and an instance that gets it as a parameter
(``addk #(.K(W)) u (...)``) no longer elaborates: "Unable to bind W" (red-team round 122: a
value moved into a helper, equivalent, was unchecked). As the split proof does
(:func:`rtlopt.frontend._param_split.split_values`), each such instance reads a copy of its
module with those parameters freed too (``addk__free_K``, appended to the text), the
parameter assignment replaced by one of the copy's renamed, unused declaration, and the
expression connected to the copy's new input. Recursively, to :data:`_DEPTH` levels; a
positional parameter assignment, a module rtlopt has no text of, or one whose parameter
cannot be freed leaves the text as :func:`free_parameters` makes it (which then does not
build: unchecked, as before).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rtlopt.frontend._param_deps import _module
from rtlopt.frontend._param_free import FREED_SUFFIX, apply_edits, free_parameters
from rtlopt.frontend._param_split import Sources, _renamed_module, assignments, nodes_of
from rtlopt.frontend._slang import node_kind
from rtlopt.frontend.model import Design

__all__ = ["COPY_SUFFIX", "free_through_instances"]

#: A copy of a module with parameters freed is named ``<module>__free_<names>``.
COPY_SUFFIX = "__free_"
_DEPTH = 4
_WORD = r"[A-Za-z_][\w$]*"


def free_through_instances(
    text: str,
    module: str,
    names: Sequence[str],
    kind: str | Mapping[str, str] = "integer",
    width: int = 64,
    design: Design | None = None,
    sources: Sources | None = None,
) -> str | None:
    """``text`` freed as :func:`free_parameters` frees it, each instance handed a freed
    parameter reading a copy of its module with that parameter freed (module docstring)."""
    copies: dict[str, str] = {}
    out = _freed(text, module, names, kind, width, design, sources, copies, 0)
    if out is None or not copies:
        return out
    return out + "\n" + "\n".join(copies.values())


def _freed(
    text: str,
    module: str,
    names: Sequence[str],
    kind: str | Mapping[str, str],
    width: int,
    design: Design | None,
    sources: Sources | None,
    copies: dict[str, str],
    depth: int,
) -> str | None:
    freed = free_parameters(text, module, names, kind, width, design)
    if freed is None or sources is None or depth >= _DEPTH:
        return freed
    from pyslang import syntax

    raw = freed.encode("utf-8", "surrogateescape")
    tree = syntax.SyntaxTree.fromText(raw.decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None:
        return freed
    edits: list[tuple[int, int, str]] = []
    for node in nodes_of(mod, "HierarchyInstantiation"):
        handed = _handed(node, set(names))
        if not handed:
            continue
        if None in handed:
            return freed  # a positional assignment: its parameter's name is not read here
        sub = str(node.type.valueText)
        child = sources(sub)
        params = sorted(p for p in handed if p is not None)
        copy = f"{sub}{COPY_SUFFIX}{'_'.join(params)}"
        if child is None or (len(params) > 1 and _ordered(node)):
            return freed  # no text; or the copy's new inputs by position, in another order
        if copy not in copies:
            copies[copy] = ""  # a recursive module: no second copy
            kinds = {p: _kind_of(handed[p], names, kind) for p in params}
            inner = _freed(child, sub, params, kinds, width, design, sources, copies, depth + 1)
            if inner is None:
                return freed
            copies[copy] = _renamed_module(inner, sub, copy)
        edits += _rewired(node, handed, copy)
    del tree
    return apply_edits(raw, edits).decode("utf-8", "surrogateescape") if edits else freed


def _handed(node: Any, names: set[str]) -> dict[str | None, Any]:
    """The parameter assignments of the instantiation ``node`` whose expression reads one of
    ``names``, by parameter (None: a positional one)."""
    out: dict[str | None, Any] = {}
    for _sub, _inst, param, expr in assignments(node):
        if set(re.findall(_WORD, str(expr))) & names:
            out[param] = expr
    return out


def _kind_of(expr: Any, names: Sequence[str], kind: str | Mapping[str, str]) -> str:
    """The kind a copy's freed parameter takes: the freed parameter's where the expression is
    that name alone (an untyped parameter takes its value's type), else an integer's."""
    word = str(expr).strip()
    if word in names:
        return kind if isinstance(kind, str) else kind.get(word, "integer")
    return "integer"


def _rewired(node: Any, handed: Mapping[str | None, Any], copy: str) -> list[tuple[int, int, str]]:
    """Edits making the instantiation ``node`` read ``copy``: its type renamed, each handed
    assignment given to the copy's unused renamed declaration (``.K__freed(0)``), and each
    instance connected to the copy's new inputs (``.K(W)``)."""
    at = int(node.type.location.offset)
    edits = [(at, at + len(str(node.type.rawText)), copy)]
    values: dict[str, str] = {}
    for a in node.parameters.parameters:
        if node_kind(a) != "NamedParamAssignment":
            continue
        name = str(a.name.valueText)
        if name in handed:
            start = int(a.sourceRange.start.offset)
            end = int(a.sourceRange.end.offset)
            edits.append((start, end, f".{name}{FREED_SUFFIX}(0)"))
            values[name] = str(a.expr).strip()
    for inst in node.instances:
        close = int(inst.closeParen.location.offset)
        conns = [c for c in inst.connections if node_kind(c) != "Comma"]
        if any(node_kind(c) == "OrderedPortConnection" for c in conns):
            added = ", ".join(values.values())
        else:
            added = ", ".join(f".{p}({v})" for p, v in values.items())
        edits.append((close, close, (", " if conns else "") + added))
    return edits


def _ordered(node: Any) -> bool:
    """Whether an instance of ``node`` connects its ports by position."""
    return any(
        node_kind(c) == "OrderedPortConnection" for inst in node.instances for c in inst.connections
    )
