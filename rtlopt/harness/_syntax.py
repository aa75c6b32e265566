"""A text's syntax tree as the screen's rules read it (pyslang)."""

from __future__ import annotations

from typing import Any

__all__ = ["parse"]


def parse(code: str) -> tuple[Any, int]:
    """The syntax tree of ``code`` and the offset its text starts at in the tree (a text that
    does not parse as SystemVerilog is read again under Verilog-2005 keywords)."""
    from pyslang import syntax

    tree = syntax.SyntaxTree.fromText(code)
    if not any(d.isError() for d in tree.diagnostics):
        return tree, 0
    head = '`begin_keywords "1364-2005"\n'
    again = syntax.SyntaxTree.fromText(head + code)
    if sum(d.isError() for d in again.diagnostics) < sum(d.isError() for d in tree.diagnostics):
        return again, len(head)
    return tree, 0
