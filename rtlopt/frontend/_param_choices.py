"""Parameters that only choose: a string parameter read nowhere but in comparisons with string
literals (``RESET_STRATEGY == "NONE"``), whose every value the probes can cover.

A parameter whose every use in both texts is ``P == "LIT"``, ``P != "LIT"`` (``===``,
``!==``, either side) takes part in the design only through those comparisons' results. With
a string default and string literals all of them are unsigned, so ``P == "LIT"`` holds
exactly where P's value is the literal's: the values of P fall into one class per literal and
one class of every other value. A probe per literal and one value equal to none of them (the
default where it is none, which the repository's configurations check already) are every
behaviour the module can have under P; a guard the candidate writes on such a parameter alone
is checked by them (:mod:`rtlopt.frontend._param_guards`, round 105's `initial if` guard on
serv's ``RESET_STRATEGY`` rewritten ``!=``).

Parameter values are taken to be 0/1 here as in every probe: a value with x bits (``#(.MODE(
32'bx))``), under which ``if (MODE == "F")`` and ``if (MODE != "F") ... else`` take the same
branch, is no class (red-team round 108 case 04; no repository passes one).

Read from the syntax tree (pyslang) and checked against the raw tokens: any other occurrence
of the name (a value use, a select, an instance's parameter, a macro body, a branch slang
does not read) leaves the parameter out, and so does any macro use or ```include`` in either
text (a macro may hide a use); so does a literal with an escape (``"\\n"``) or a character
beyond ASCII (the tools read its bytes: red-team round 107) or a typed declaration (a
``string`` compares otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rtlopt.frontend._param_deps import _tokens, parsed_module
from rtlopt.frontend._param_guards import _nodes
from rtlopt.frontend._slang import node_kind

__all__ = ["MAX_CHOICES", "string_choices"]

_COMPARISONS = frozenset(
    {
        "EqualityExpression",
        "InequalityExpression",
        "CaseEqualityExpression",
        "CaseInequalityExpression",
    }
)
#: Directives that neither define nor expand a macro nor read another file.
_PLAIN = frozenset(
    "default_nettype timescale resetall celldefine endcelldefine".split()
    + "ifdef ifndef else elsif endif".split()
)


def _literal(node: Any) -> str | None:
    """The text of a string literal without escapes, else None."""
    if node_kind(node) != "StringLiteralExpression":
        return None
    raw = str(node.literal.rawText) if hasattr(node.literal, "rawText") else str(node).strip()
    value = str(node.literal.valueText)
    if "\\" in raw or not value.isascii():
        return None  # the tools read a file's bytes: a character beyond ASCII is several
    return value


def _read(text: str, module: str, p: str) -> tuple[str | None, list[str]] | None:
    """The string default of ``p`` in ``module`` of ``text`` (None where ``text`` does not
    declare it) and the literals it is compared with; None when ``p`` is used otherwise."""
    toks = _tokens(text)
    for i, t in enumerate(toks):
        if t.text == "`" and i + 1 < len(toks) and toks[i + 1].text not in _PLAIN:
            return None  # a macro may hide a use, an include another declaration
    raw = sum(1 for t in toks if t.kind in ("ident", "escaped") and t.text == p)
    parsed = parsed_module(text, module)
    if parsed is None:
        return None
    tree = parsed[0]
    default: str | None = None
    declared = compared = names = 0
    literals: list[str] = []
    for n in _nodes(tree.root):
        kind = node_kind(n)
        if kind == "IdentifierName" and str(n.identifier.valueText) == p:
            names += 1
        elif kind == "ParameterDeclaration":
            for d in n.declarators:
                if node_kind(d) == "Comma" or str(d.name.valueText) != p:
                    continue
                declared += 1
                init = getattr(d, "initializer", None)
                value = _literal(init.expr) if init is not None else None
                if value is None or str(getattr(n, "type", "")).strip():
                    return None  # no string default, or a type written
                default = value
        elif kind in _COMPARISONS:
            sides = [(n.left, n.right), (n.right, n.left)]
            for name, other in sides:
                if node_kind(name) == "IdentifierName" and str(name.identifier.valueText) == p:
                    lit = _literal(other)
                    if lit is None:
                        return None
                    literals.append(lit)
                    compared += 1
    del tree
    if names != compared or raw != names + declared or declared > 1:
        return None
    return default, literals


def _value(s: str) -> str:
    """A string's value as the sized integer literal rtlopt's configurations write."""
    data = s.encode("latin-1", "replace")
    return f"{8 * max(len(data), 1)}'d{int.from_bytes(data, 'big')}"


def string_choices(texts: Sequence[str], module: str, p: str) -> list[str] | None:
    """The probe values that cover every behaviour of ``module`` under string parameter
    ``p`` in all of ``texts`` (reference first): one per literal ``p`` is compared with,
    then one equal to none (the default where it is none); None when ``p`` is no such
    parameter in one of them (module docstring)."""
    literals: list[str] = []
    default: str | None = None
    for text in texts:
        got = _read(text, module, p)
        if got is None:
            return None
        if got[0] is not None:
            default = default if default is not None else got[0]
        literals += got[1]
    if default is None:
        return None
    values = {int.from_bytes(s.encode("latin-1", "replace"), "big") for s in literals}
    other = default
    n = 0
    while int.from_bytes(other.encode("latin-1", "replace"), "big") in values:
        n += 1
        other = f"OTHER{n}"
    out = [_value(s) for s in dict.fromkeys([*literals, other])]
    return out if len(out) <= MAX_CHOICES else None


#: More classes than this are not probed one by one (the parameter keeps its other rules).
MAX_CHOICES = 16
