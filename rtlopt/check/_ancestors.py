"""A changed module that a module which must stay equivalent instantiates must stay
equivalent too (held-out red-team round 124: ``optimization_only = ["top_a"]`` and a commit
changing only ``child``, which ``top_a`` instantiates, changed ``top_a``'s outputs and passed as
"not required"). The gate judges each module in its own file, under the repository's
configurations (its instance in ``top_a`` one of them); a required module's function is its
hierarchy's, so every module below it is held to the rule, at any depth."""

from __future__ import annotations

import re
from collections.abc import Callable

from rtlopt.check._deps import INCLUDE
from rtlopt.frontend._depgraph import DesignGraph
from rtlopt.verilog import blank_comments, module_spans

__all__ = ["required_above"]

#: Modules walked upward at most (a hierarchy deeper or wider is read to this many).
_MAX_MODULES = 512


def required_above(
    graph: DesignGraph, name: str, required: Callable[[str, str], str | None]
) -> str | None:
    """Why module ``name`` must stay equivalent because a module that must (``required(file,
    module)``: why, or None) instantiates it, directly or through others; None where none
    does. A site is any mention of the name as a word (escaped too) but its declaration and
    an ``endmodule :`` label: an instance in a comment's neighbour, a generate ``case`` item
    or a switched-off branch counts (more is judged, never less); one in a file that holds
    no module is in every module of the files that include it; past :data:`_MAX_MODULES`
    modules the answer is yes (fail closed, red-team round 125)."""
    seen = {name}
    todo = [name]
    texts: dict[str, str] = {}
    while todo:
        if len(seen) > _MAX_MODULES:
            return f"more than {_MAX_MODULES} modules stand above it: each is held to the rule"
        cur = todo.pop(0)
        for rel, at in _sites(graph, cur, texts):
            for where, parent in _enclosing(graph, rel, at, texts):
                if parent in seen:
                    continue
                seen.add(parent)
                why = required(where, parent)
                if why is not None:
                    return f"{why}: {parent} ({where}) instantiates {cur}" + (
                        "" if cur == name else f", which instantiates {name} below it"
                    )
                todo.append(parent)
    return None


def _text(graph: DesignGraph, rel: str, texts: dict[str, str]) -> str:
    if rel not in texts:
        try:
            texts[rel] = blank_comments((graph.root / rel).read_text(errors="replace"))
        except OSError:
            texts[rel] = ""
    return texts[rel]


def _sites(graph: DesignGraph, name: str, texts: dict[str, str]) -> list[tuple[str, int]]:
    """``(file, offset)`` of every mention of module ``name`` (see :func:`required_above`)."""
    word = re.compile(rf"(?<![\w$\\])\\?{re.escape(name)}(?![\w$])")
    out: list[tuple[str, int]] = []
    known = {(graph.root / rel).resolve() for rel in graph.files}
    for rel in sorted(graph.files):
        code = _text(graph, rel, texts)
        for m in word.finditer(code):
            before = code[max(0, m.start() - 60) : m.start()]
            if not _DECLARED.search(before):
                out.append((rel, m.start()))
        # a header of a suffix the graph does not read (`include "inst.txt"` inside a module,
        # round 127) that mentions it: the site is the include line
        raw = (graph.root / rel).read_text(errors="replace") if "`include" in code else ""
        for m in INCLUDE.finditer(raw):
            for base in ((graph.root / rel).parent, graph.root):
                path = base / m.group(1)
                if path.is_file() and path.resolve() not in known:
                    try:
                        if word.search(blank_comments(path.read_text(errors="replace"))):
                            out.append((rel, m.start()))
                    except OSError:
                        pass
                    break
    return out


def _enclosing(
    graph: DesignGraph, rel: str, at: int, texts: dict[str, str]
) -> list[tuple[str, str]]:
    """``(file, module)`` of the module whose text holds offset ``at`` of ``rel``; where none
    does (a header holding part of a module's body), every module of its includers."""
    code = _text(graph, rel, texts)
    for span in module_spans(code):
        if span.start <= at < span.end:
            return [(rel, span.name)]
    return [
        (inc, span.name)
        for inc in sorted(graph.includers(rel))
        for span in module_spans(_text(graph, inc, texts))
    ]


#: A module's declaration or an ``endmodule : name`` label right before a mention.
_DECLARED = re.compile(r"(?:\b(?:macro)?module|\bendmodule[ \t]*:)\s*$")
