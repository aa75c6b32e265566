"""Syntax-tree primitives of the power-up and event rules (pyslang nodes): a node's kind, its
children, a walk, a text's tree, and the declarations whose initializers are no power-up
value. :mod:`rtlopt.harness._semantics` and :mod:`rtlopt.harness._two_state` read trees
through these."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = [
    "once_per_design",
    "_NOT_POWER_UP",
    "_children",
    "_is_constant",
    "_kind",
    "_span",
    "_tokens",
    "_tree",
    "_walk",
]


def _kind(node: Any) -> str:
    k = getattr(node, "kind", None)
    return getattr(k, "name", "") if k is not None else ""


def _children(node: Any) -> Iterator[Any]:
    if hasattr(node, "valueText"):
        return
    try:
        for c in node:
            if c is not None:
                yield c
    except TypeError:
        return


def _walk(node: Any, stop: frozenset[str] = frozenset()) -> Iterator[Any]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        if cur is not node and _kind(cur) in stop:
            continue
        stack.extend(reversed(list(_children(cur))))


def _tree(text: str) -> Any:
    from pyslang import syntax

    return syntax.SyntaxTree.fromText(text)


def _span(node: Any) -> tuple[int, int]:
    r = node.sourceRange
    return int(r.start.offset), int(r.end.offset)


def _tokens(node: Any) -> list[str]:
    return [n.valueText for n in _walk(node) if hasattr(n, "valueText")]


def _is_constant(expr: Any) -> bool:
    return not any(_kind(n) in ("IdentifierName", "ScopedName") for n in _walk(expr))


#: Where a declarator's initializer is no power-up value: parameters, nets (a continuous
#: assignment), functions and tasks (run per call, their static variables are screened by
#: the carried-state rules), nested design units (read on their own), an enumeration's
#: members (constants).
_NOT_POWER_UP = frozenset(
    {
        "ParameterDeclaration",
        "TypeParameterDeclaration",
        "ParameterDeclarationStatement",
        "NetDeclaration",
        "NetPortHeader",
        "FunctionDeclaration",
        "TaskDeclaration",
        "ClassDeclaration",
        "ModuleDeclaration",
        "InterfaceDeclaration",
        "ProgramDeclaration",
        "PackageDeclaration",
        "CheckerDeclaration",
        "ForVariableDeclaration",
        "EnumType",
        "UdpDeclaration",
    }
)


def once_per_design(
    store: dict[int, tuple[object, list[tuple[int, str]]]],
    design: object,
    compute: Callable[[], list[tuple[int, str]]],
) -> list[tuple[int, str]]:
    """``compute()`` once per ``design`` object, kept in ``store`` (at most 9 designs)."""
    hit = store.get(id(design))
    if hit is None or hit[0] is not design:
        if len(store) > 8:
            store.clear()
        hit = store[id(design)] = (design, compute())
    return hit[1]
