"""Functions under 80 lines in every package of rtlopt (the body, from its first statement: a
command's long signature of options does not count, its docstring does).

No function is exempt: the last long ones (the formal engines, the frontend's parsers, the
memory plan) were split into named steps.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
LIMIT = 80


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int, int]]:
    """``(qualified name, line, body lines)`` of every function, nested ones included."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = prefix + node.name
            yield name, node.lineno, (node.end_lineno or node.lineno) - node.body[0].lineno + 1
            yield from _functions(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + ".")
        else:
            yield from _functions(node, prefix)


def _long() -> list[tuple[str, str, int]]:
    out = []
    for path in sorted((REPO / "rtlopt").rglob("*.py")):
        for name, line, n in _functions(ast.parse(path.read_text())):
            if n > LIMIT:
                out.append((name, f"{path.relative_to(REPO)}:{line}", n))
    return out


def test_no_function_over_80_lines() -> None:
    bad = [f"{where} {name}: {n} lines" for name, where, n in _long()]
    assert not bad, "functions over 80 lines (split them by meaning):\n" + "\n".join(bad)


def test_the_measure_counts_body_lines() -> None:
    """The rule can fail: a function of 81 body lines is long, one of 80 is not."""

    def source(n: int) -> str:
        return "def f():\n" + "".join(f"    x{i} = {i}\n" for i in range(n))

    assert [n for _, _, n in _functions(ast.parse(source(81)))] == [81]
    assert [n for _, _, n in _functions(ast.parse(source(80)))] == [80]
