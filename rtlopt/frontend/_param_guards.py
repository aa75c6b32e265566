"""Parameter guards a candidate writes that its reference does not: a constant expression
over the module's parameters with a comparison, a logical or bitwise operator, a shift, a
division, a modulo, a choice or a function call.

A module nothing in the repository instantiates has its parameters as its interface, and a
change is checked there under probes, a few values per parameter. A guard can single out a
value no probe tries, however they are chosen: ``(W >> 11) ? a - b : a + b`` differs for
``W >= 2048`` only, ``((W * 7 % 64) == 27)`` at ``W = 13, 77, ...``, ``(A == B)`` when two
parameters meet, ``(R * 4 == 9.0)`` at a fraction of a real parameter (red-team round 97). A
guard the reference writes itself is the module's own (its probes were chosen around it);
one the candidate adds cannot be checked for every value, so the change is not accepted
(:meth:`rtlopt.evaluate._params.ParameterCheck._unchecked`). Sums, differences, products and
``$clog2``/``$bits`` of parameters (widths, ``W - 1``, ``2 * W``) are no guards, nor is a
bitwise negation ``~K`` (one-to-one: it singles out no value; ``~&``/``~|`` reduce and are).

Expressions are read from the syntax tree (pyslang) and compared by their tokens: an
expression is constant when every name in it is a parameter or localparam of the module, and
a guard when it also names a parameter (a header or ``parameter`` declaration, or a
localparam computed from one) and holds one of the operators above.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._param_deps import _module, _tokens
from rtlopt.frontend._slang import node_kind

__all__ = ["new_guards"]

_OPS = frozenset(
    "== != === !== ==? !=? < > <= >= && || ! & | ^ ~& ~| ~^ ^~".split()
    + "<< >> <<< >>> % / ? ** -> <->".split()
)
#: Calls of these are no guards (widths and conversions).
_BENIGN = frozenset({"$clog2", "$bits", "$size", "$signed", "$unsigned"})


def _nodes(node: Any) -> Any:
    """Every syntax node under ``node`` (tokens left out), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        try:
            children = list(n)
        except TypeError:
            continue
        stack.extend(
            c for c in children if c is not None and node_kind(c) and hasattr(c, "sourceRange")
        )


def _parameters(mod: Any) -> tuple[set[str], set[str]]:
    """The module's constant names, and those of them that vary with its parameters."""
    names: set[str] = set()
    varying: set[str] = set()
    local: dict[str, set[str]] = {}
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind not in ("ParameterDeclaration", "TypeParameterDeclaration"):
            continue
        keyword = str(getattr(n.keyword, "valueText", "") or "")
        for d in n.declarators:
            if node_kind(d) == "Comma":
                continue
            name = str(d.name.valueText)
            names.add(name)
            if keyword == "localparam":
                local[name] = {t.text for t in _tokens(str(d)) if t.kind == "ident"}
            else:
                varying.add(name)
    grew = True
    while grew:
        grew = False
        for name, used in local.items():
            if name not in varying and used & varying:
                varying.add(name)
                grew = True
    return names, varying


def _guards(text: str, module: str) -> list[str] | None:
    """The guards of ``module`` in ``text`` (module docstring) by their tokens, first seen
    first; None when the text does not parse or holds no such module."""
    from pyslang import syntax

    try:
        tree = syntax.SyntaxTree.fromText(text)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return None
    mod = _module(tree.root, module)
    if mod is None:
        return None
    names, varying = _parameters(mod)
    out: list[str] = []
    for n in _nodes(mod):
        if not node_kind(n).endswith("Expression"):
            continue
        toks = _tokens(str(n))
        idents = [(i, t.text) for i, t in enumerate(toks) if t.kind in ("ident", "escaped")]
        calls = {i for i, _ in idents if i + 1 < len(toks) and toks[i + 1].text == "("}
        if any(name not in names for i, name in idents if i not in calls):
            continue  # a signal, genvar or function argument: not constant
        if not any(name in varying for _, name in idents):
            continue
        ops = {t.text for t in toks if t.kind == "op"} & _OPS
        user_calls = [toks[i].text for i in calls if toks[i].text not in _BENIGN]
        if ops or user_calls:
            out.append(" ".join(t.text for t in toks))
    del tree  # the tree owns its nodes: released only after the last one is read
    return list(dict.fromkeys(out))


def new_guards(ref: str, cand: str, module: str) -> list[str]:
    """The parameter guards of ``module`` that ``cand`` writes and ``ref`` does not, first
    seen first; a text that does not parse has none here (its other checks refuse it)."""
    mine = _guards(cand, module)
    if not mine:
        return []
    theirs = set(_guards(ref, module) or ())
    return [g for g in mine if g not in theirs]
