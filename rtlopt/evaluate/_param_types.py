"""Declared parameter types are part of a module's interface.

The repository's configurations reach the target as the values its parents write
(``m #(.K(9'h1c8)) u``), which each module converts to its own declared type: the reference's
``parameter [7:0] K`` keeps 8'hc8, a candidate's untyped ``parameter K`` or ``parameter [8:0]
K`` keeps 9'h1c8. rtlopt proves each configuration with the reference's converted value written
into the candidate (``evaluate._params.specialize``), so a candidate that converts otherwise
would be proven under a value no build gives it. A candidate must therefore declare every
parameter an instance can set with the reference's type, range and signedness, as written
(the keyword aside); "" for an untyped one.
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._nodes import _children, _kind, _tokens

__all__ = ["parameter_type_problem"]


def _declared(code: str, module: str) -> dict[str, str] | None:
    """Parameter name -> declared type as written (white space collapsed) in module
    ``module`` of ``code`` (comments blanked); None when the module is not found."""
    from rtlopt.harness._readings import parse

    tree, _ = parse(code)
    found: dict[str, str] | None = None
    stack: list[Any] = [tree.root]
    while stack:
        node = stack.pop()
        kind = _kind(node)
        if kind == "ModuleDeclaration":
            name = str(node.header.name.valueText)
            if name != module:
                continue
            found = {}
        if kind == "ParameterDeclaration" and found is not None:
            ty = _normal([t for t in _tokens(node.type) if t])
            for d in node.declarators:
                if _kind(d) == "Declarator":
                    found[str(d.name.valueText)] = ty
        elif kind == "TypeParameterDeclaration" and found is not None:
            for d in node.declarators:
                if _kind(d) == "TypeAssignment":
                    found[str(d.name.valueText)] = "type"
        stack.extend(_children(node))
    return found


def _normal(tokens: list[str]) -> str:
    """A declared type's tokens, an implicit ``logic``/``reg`` in front of a range or a
    signedness dropped (``parameter logic [7:0] K`` declares what ``parameter [7:0] K`` does)."""
    if len(tokens) > 1 and tokens[0] in ("logic", "reg"):
        tokens = tokens[1:]
    return " ".join(tokens)


def parameter_type_problem(reference: str, candidate: str, module: str, names: list[str]) -> str:
    """Why the candidate declares one of ``names`` (the parameters an instance can set) with
    another type, range or signedness than the reference, or ""."""
    from rtlopt.verilog import blank_comments

    ref = _declared(blank_comments(reference), module)
    cand = _declared(blank_comments(candidate), module)
    if ref is None or cand is None:
        return ""  # the interface check names a missing module
    for name in names:
        if name in ref and name in cand and ref[name] != cand[name]:
            return (
                f"parameter {name} is declared {cand[name] or 'untyped'!r}, the reference "
                f"{ref[name] or 'untyped'!r}: a value an instance sets would convert otherwise "
                "(keep the parameter's declared type, range and signedness)"
            )
    return ""
