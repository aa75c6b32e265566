"""An ``initial`` block that fills a read-only memory (a ROM): constants written to elements
of unpacked arrays that nothing else in the module writes.

Yosys writes a ``case`` of constants as such a memory (``proc_rom``: ``reg [7:0] rom [15:0];
initial begin rom[0] = 8'h80; ... end assign y = rom[a];``), so a design read through the
SystemVerilog view holds one wherever its text has a constant table (ibex's compressed
decoder). Its contents are the memory's value at every time, not the power-up state of a
register: both proofs keep them (a candidate with other contents is refuted), so the block
states no power-up value. The rule is narrow by design and read on the syntax tree (an
escaped name is the same name): the array is declared once in the module with an unpacked
dimension, and every other reference to it is on the right of a continuous assignment;
anything else (a packed register's bits, a procedural read or write, a port, a hierarchical
name, a second filling block) keeps the block a power-up statement.
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._nodes import _children, _is_constant, _kind, _span, _walk

__all__ = ["fills_rom"]

#: Syntax kinds a reference may stand in on its way up to a continuous assignment's right
#: side (expressions only).
_NAMES = frozenset({"IdentifierName", "IdentifierSelectName"})


def fills_rom(block: Any, module: Any) -> bool:
    """Whether the ``initial`` block ``block`` of ``module`` (syntax nodes) only writes
    constants to constant elements of unpacked arrays that ``module`` otherwise only
    declares and reads in continuous assignments."""
    names = _filled(block)
    if not names:
        return False
    inside = _span(block)
    declared: dict[str, int] = {}
    for node in _walk(module):
        for tok in _children(node):
            if getattr(tok, "valueText", None) not in names:
                continue
            name, kind = str(tok.valueText), _kind(node)
            if kind == "Declarator":
                unpacked = len(getattr(node, "dimensions", None) or ()) > 0
                port = _kind(getattr(node.parent, "parent", None)) != "ModuleDeclaration"
                if not unpacked or port or _kind(node.parent) != "DataDeclaration":
                    return False
                declared[name] = declared.get(name, 0) + 1
            elif kind in _NAMES:
                a, b = _span(node)
                if not (inside[0] <= a and b <= inside[1]) and not _read_continuously(node):
                    return False
            else:
                return False  # a hierarchical name, a port connection, a member: not followed
    return all(declared.get(n) == 1 for n in names)


def _read_continuously(node: Any) -> bool:
    """Whether ``node`` stands on the right of a continuous assignment, through expressions
    (operators, selects, call arguments) only."""
    cur: Any = node
    while True:
        par: Any = getattr(cur, "parent", None)
        kind = _kind(par)
        if par is None:
            return False
        if kind.endswith("AssignmentExpression"):
            right = _span(par.left) != _span(cur)
            return right and _kind(par.parent) == "ContinuousAssign"
        if not (kind.endswith(("Expression", "Select", "Argument", "List")) or kind in _WAY):
            return False
        cur = par


#: Other node kinds between a reference and the expression it is part of.
_WAY = frozenset({"ElementSelect", "BitSelect", "RangeSelect", "SimpleRangeSelect"})


def _filled(block: Any) -> set[str]:
    """The names of the arrays ``block`` fills (``name[constant] = constant;`` only), or
    an empty set when it does anything else."""
    items = [block.statement]
    names: set[str] = set()
    while items:
        st = items.pop(0)
        k = _kind(st)
        if k == "SequentialBlockStatement":
            kids = [i for i in _children(st) if not hasattr(i, "valueText")]
            items = [
                x for i in kids for x in (_children(i) if _kind(i) == "SyntaxList" else [i])
            ] + items
            continue
        expr: Any = getattr(st, "expr", None)
        if k != "ExpressionStatement" or _kind(expr) != "AssignmentExpression":
            return set()
        name = _element(expr.left)
        if not name or not _is_constant(expr.right):
            return set()
        names.add(name)
    return names


def _element(left: Any) -> str:
    """The name of ``left`` when it is one constant element of an array (``rom[3]``), else
    ""."""
    if _kind(left) != "IdentifierSelectName" or len(left.selectors) != 1:
        return ""
    select = getattr(left.selectors[0], "selector", None)
    index = getattr(select, "expr", None)
    if _kind(select) != "BitSelect" or index is None or not _is_constant(index):
        return ""
    return str(left.identifier.valueText)
