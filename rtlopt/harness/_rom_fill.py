"""An ``initial`` block that fills a read-only memory (a ROM): constants written to elements
of arrays that nothing else in the module writes.

Yosys writes a ``case`` of constants as such a memory (``proc_rom``: ``reg [7:0] rom [15:0];
initial begin rom[0] = 8'h80; ... end assign y = rom[a];``), so a design read through the
SystemVerilog view holds one wherever its text has a constant table (ibex's compressed
decoder). Its contents are the memory's value at every time, not the power-up state of a
register: both proofs keep them (a candidate with other contents is refuted), so the block
states no power-up value. The rule is narrow by design: outside the block, every other
occurrence of the array's name must be its declaration or the right-hand side of a
continuous assignment; anything else (a procedural read, a write, a port, a second filling
block) keeps the block a power-up statement.
"""

from __future__ import annotations

import re
from typing import Any

from rtlopt.harness._nodes import _children, _is_constant, _kind

__all__ = ["fills_rom"]


def fills_rom(block: Any, module: Any) -> bool:
    """Whether the ``initial`` block ``block`` of ``module`` (syntax nodes) only writes
    constants to constant elements of arrays that ``module`` otherwise only declares and
    reads in continuous assignments."""
    names = _filled(block)
    if not names:
        return False
    text, own = str(module), str(block)
    at = text.find(own)
    if at < 0:
        return False
    rest = text[:at] + " " * len(own) + text[at + len(own) :]
    return all(_only_read(rest, name) for name in names)


def _filled(block: Any) -> set[str]:
    """The raw names of the arrays ``block`` fills (``name[constant] = constant;`` only), or
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
    """The raw name of ``left`` when it is one constant element of an array (``rom[3]``),
    else ""."""
    if _kind(left) != "IdentifierSelectName" or len(left.selectors) != 1:
        return ""
    select = getattr(left.selectors[0], "selector", None)
    index = getattr(select, "expr", None)
    if _kind(select) != "BitSelect" or index is None or not _is_constant(index):
        return ""
    return str(left.identifier.rawText)


def _only_read(text: str, name: str) -> bool:
    """Whether every occurrence of ``name`` in ``text`` stands in its declaration or on the
    right of a continuous assignment."""
    escaped = name.startswith("\\")
    word = re.compile(
        (r"" if escaped else r"(?<![\w$.\\])")
        + re.escape(name)
        + (r"(?=\s)" if escaped else r"(?![\w$])")
    )
    for m in word.finditer(text):
        head = text[text.rfind(";", 0, m.start()) + 1 : m.start()].split()
        while head and head[0] in _ENDS:
            head = head[1:]
        if head and head[0] == "assign" and re.search(r"(?<![=!<>])=(?!=)", " ".join(head)):
            continue
        if head and head[0] in ("reg", "logic", "wire", "bit"):
            continue
        return False
    return True


#: Words that end a block before the statement an occurrence stands in.
_ENDS = frozenset({"end", "endcase", "endgenerate", "join", "join_any", "join_none"})
