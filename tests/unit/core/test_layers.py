"""The house of imports: no arrow from a lower floor to a higher one, no circles.

The floors are read from docs/ARCHITECTURE.md (its first arrow diagram and its list of
ground-floor modules), so the picture and this test cannot drift apart. Every ``import`` in
rtlopt counts, also inside functions; imports under ``if TYPE_CHECKING:`` do not (they never
run).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PACKAGE = REPO / "rtlopt"
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"

# Known arrows from a lower floor to a higher one, as (importing module prefix, imported module):
# none since the ground-floor step of issue 9. An entry would be deleted with its fix.
KNOWN_UP_ARROWS: set[tuple[str, str]] = set()
# Circles still to remove (type-checking imports count): the formal wing's netlist model, shared
# by two files until it moves into rtlopt/formal/ (issue 21): delete the entry with the move.
KNOWN_CIRCLES: set[frozenset[str]] = set()


def _floors() -> tuple[dict[str, int], set[str]]:
    """Package -> floor number from the arrow diagram, and the ground-floor modules."""
    text = ARCHITECTURE.read_text()
    block = re.search(r"\n\n((?: {4}.*->.*\n)+)", text)
    assert block, "docs/ARCHITECTURE.md lost its layer diagram"
    floors: dict[str, int] = {}
    for i, floor in enumerate(" ".join(block.group(1).split()).split("->")):
        for name in floor.split("/"):
            if name.strip():
                floors[name.strip()] = i
    ground = re.search(r"Ground floor[^\n]*\n((?:- `rtlopt\.[\w.]+`.*\n)+)", text)
    assert ground, "docs/ARCHITECTURE.md lost its list of ground-floor modules"
    modules = set(re.findall(r"^- `(rtlopt\.[\w.]+)`", ground.group(1), flags=re.M))
    return floors, modules


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, known: dict[str, Path], checking: bool = False) -> Iterator[str]:
    """rtlopt modules imported anywhere in ``tree``; under ``if TYPE_CHECKING`` only with
    ``checking``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node) and not checking:
            yield from (m for n in node.orelse for m in _imports(n, known))
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("rtlopt"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rtlopt"):
            for a in node.names:  # `from rtlopt import session` imports a module
                sub = f"{node.module}.{a.name}"
                yield sub if sub in known else str(node.module)
        yield from _imports(node, known, checking)


def _graph(checking: bool = False) -> dict[str, set[str]]:
    """Module -> the rtlopt modules it imports. An import of one's own package (``__init__``)
    is left out: the package is already being imported, so it cannot close a circle."""
    known = _modules()
    graph = {}
    for name, path in known.items():
        targets = set(_imports(ast.parse(path.read_text()), known, checking))
        graph[name] = {t for t in targets if t != name and not name.startswith(t + ".")}
    return graph


def _floor_of(module: str, floors: dict[str, int], ground: set[str]) -> int | None:
    """Floor number; -1 for the ground floor; None for the package itself and ``__main__``."""
    if any(module == g or module.startswith(g + ".") for g in ground):
        return -1
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in floors:
        return floors[parts[1]]
    return None


def _known_arrow(src: str, dst: str) -> bool:
    return any(src.startswith(s) and dst == d for s, d in KNOWN_UP_ARROWS)


def test_the_diagram_names_every_package() -> None:
    floors, ground = _floors()
    for name in _modules():
        assert _floor_of(name, floors, ground) is not None or name in (
            "rtlopt",  # the version string
            "rtlopt.__main__",  # python -m rtlopt: calls the cli
            "rtlopt.data",  # package data (the paper's table 4), no code
        ), f"{name} is on no floor of docs/ARCHITECTURE.md"


def test_no_import_goes_up_a_floor() -> None:
    floors, ground = _floors()
    bad = []
    for src, targets in _graph().items():
        here = _floor_of(src, floors, ground)
        if here is None:
            continue
        for dst in targets:
            there = _floor_of(dst, floors, ground)
            if there is not None and there > here and not _known_arrow(src, dst):
                bad.append(f"{src} -> {dst}")
    assert not bad, "imports from a lower floor to a higher one:\n" + "\n".join(sorted(bad))


def test_known_up_arrows_still_exist() -> None:
    """An allow-list entry whose arrow is gone must be deleted, so the list only shrinks."""
    graph = _graph()
    for src, dst in KNOWN_UP_ARROWS:
        assert any(s.startswith(src) and dst in t for s, t in graph.items()), (src, dst)


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = set()
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        comp.add(m)
                        if m == node:
                            break
                    out.append(comp)
    return out


def test_no_circles_between_modules() -> None:
    """Type-checking imports included: a circle the type checker sees is still a circle."""
    circles = {frozenset(c) for c in _strongly_connected(_graph(checking=True)) if len(c) > 1}
    assert circles <= KNOWN_CIRCLES, [sorted(c) for c in circles - KNOWN_CIRCLES]
    assert KNOWN_CIRCLES <= circles, "a known circle is gone: delete it from KNOWN_CIRCLES"


def test_no_function_body_over_80_lines_in_the_presenters_and_the_loop() -> None:
    """Issue 9: the command, the run loop and the evaluator read as short named steps (the
    signature of a command with many options does not count, its body does)."""
    import ast

    long: list[str] = []
    for pkg in ("cli", "run", "evaluate"):
        for path in sorted((REPO / "rtlopt" / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.body[0].lineno + 1
                    if lines > 80:
                        long.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name} {lines}")
    assert not long, long
