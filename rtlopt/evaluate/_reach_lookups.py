"""Names a Python testbench looks up at run time, read on Python's own syntax tree.

The text rules of :mod:`rtlopt.evaluate._reach_foreign` read string literals as written; a
name built at run time slipped past them (round 71): ``getattr(dut, "\\x63nt")`` (an escape),
``"cn" "t"`` (adjacent literals), ``"c" + "nt"``, ``f"c{chr(110)}t"``, ``"tnc"[::-1]``, a name
read from a JSON file. Here every lookup by name (``getattr``/``setattr``/``hasattr``/
``delattr`` on a handle, a handle's ``_id``/``__getattr__``/``_get``, ``operator.attrgetter``)
is read on the parsed file: a constant name (escapes and adjacent literals decoded) counts
where it is an inner name of the target, and a name that is no constant counts as any name
(fail closed). A file Python cannot parse counts as looking up any name.
"""

from __future__ import annotations

import ast

__all__ = ["dynamic_lookups"]

_ON_HANDLE = frozenset({"getattr", "setattr", "hasattr", "delattr"})
_METHODS = frozenset({"_id", "__getattr__", "_get", "_sub_handle", "__getitem__"})


def _root(node: ast.expr) -> str:
    """The dotted text of a name or attribute chain (``self.dut``, ``cocotb.top``), or ""."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return ""


def _on_handle(node: ast.expr, handles: set[str]) -> bool:
    text = _root(node)
    return any(text == h or text.startswith(h + ".") for h in handles)


def _name_argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[index] if len(call.args) > index else None


def _looked_up(call: ast.Call, handles: set[str]) -> list[ast.expr]:
    """The name arguments of ``call`` where it looks a name up on a handle."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in _ON_HANDLE and call.args:
        if _on_handle(call.args[0], handles):
            arg = _name_argument(call, 1, "name")
            return [arg] if arg is not None else []
    if isinstance(func, ast.Attribute) and func.attr in _METHODS:
        if _on_handle(func.value, handles):
            arg = _name_argument(call, 0, "name")
            return [arg] if arg is not None else []
    if (isinstance(func, ast.Name) and func.id == "attrgetter") or (
        isinstance(func, ast.Attribute) and func.attr == "attrgetter"
    ):
        return list(call.args)
    return []


def dynamic_lookups(
    text: str, handles: set[str], inner: set[str] | None
) -> list[tuple[int, int, str, str]]:
    """``(line, column, shown, name)`` of each lookup by name in the Python ``text`` that may
    reach an inner name of the target: a constant naming one of ``inner`` (any name that is
    no port where ``inner`` is None: the caller filters), or a name computed at run time
    (``name`` ""). A text that does not parse gives one lookup of any name on line 1."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return [(1, 0, "a file Python cannot parse", "")]
    out: list[tuple[int, int, str, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for arg in _looked_up(node, handles):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                parts = [p for p in arg.value.replace("/", ".").split(".") if p]
                found = [p for p in parts if inner is None or p in inner]
                if found:
                    out.append((arg.lineno, arg.col_offset, repr(arg.value), found[0]))
            else:
                shown = ast.unparse(node)[:60]
                out.append(
                    (arg.lineno, arg.col_offset, f"{shown} (a name computed at run time)", "")
                )
    return out
