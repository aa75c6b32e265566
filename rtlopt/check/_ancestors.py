"""A changed module that a module which must stay equivalent instantiates must stay
equivalent too (held-out red-team round 124: ``optimization_only = ["top_a"]`` and a commit
changing only ``child``, which ``top_a`` instantiates, changed ``top_a``'s outputs and passed as
"not required"). The gate judges each module in its own file, under the repository's
configurations (its instance in ``top_a`` one of them); a required module's function is its
hierarchy's, so every module below it is held to the rule, at any depth."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rtlopt.frontend._depgraph import DesignGraph
from rtlopt.verilog import module_spans

__all__ = ["required_above"]

#: Modules walked upward at most (a hierarchy deeper or wider is read to this many).
_MAX_MODULES = 512


def required_above(
    graph: DesignGraph, name: str, required: Callable[[str, str], str | None]
) -> str | None:
    """Why module ``name`` must stay equivalent because a module that must (``required(file,
    module)``: why, or None) instantiates it, directly or through others; None where none
    does. Instances are found by name in the texts (an instance in a comment or a
    switched-off branch counts: more is judged, never less)."""
    seen = {name}
    todo = [name]
    texts: dict[str, str] = {}
    while todo and len(seen) < _MAX_MODULES:
        cur = todo.pop(0)
        for rel, line in graph.instances_of(cur):
            parent = _enclosing(graph.root / rel, line, texts)
            if parent is None or parent in seen:
                continue
            seen.add(parent)
            why = required(rel, parent)
            if why is not None:
                return f"{why}: {parent} ({rel}) instantiates {cur}" + (
                    "" if cur == name else f", which instantiates {name} below it"
                )
            todo.append(parent)
    return None


def _enclosing(path: Path, line: int, texts: dict[str, str]) -> str | None:
    """The module of ``path`` whose text holds line ``line``."""
    key = path.as_posix()
    if key not in texts:
        try:
            texts[key] = path.read_text(errors="replace")
        except OSError:
            texts[key] = ""
    text = texts[key]
    for span in module_spans(text):
        first = text.count("\n", 0, span.start) + 1
        last = text.count("\n", 0, span.end) + 1
        if first <= line <= last:
            return span.name
    return None
