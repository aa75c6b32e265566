"""What the tools read of a text: its inactive preprocessor branches, found with pyslang.

The screen judges what a candidate adds. Code in an ```ifdef`` branch that is off in the
design's elaboration context (the same prelude, defines and include folders every tool gets)
reaches no tool, so a copy of a repository file with, say, an ```ifdef FORMAL`` block of
assertions is not a candidate asking for assertions.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend.model import SourceSet

__all__ = ["inactive_spans"]


def _tokens(node: Any) -> Any:
    for child in node:
        if child is None:
            continue
        if hasattr(child, "valueText"):
            yield child
        else:
            yield from _tokens(child)


def inactive_spans(text: str, sources: SourceSet | None = None) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of ``text`` inside preprocessor branches that are off.

    Args:
        text: Verilog source.
        sources: The elaboration context (prelude, defines, include folders); None: none.

    Returns:
        Character ranges of the disabled tokens, in order; empty when pyslang is missing.
    """
    try:
        import pyslang
        from pyslang import parsing, syntax
    except ImportError:  # pragma: no cover - pyslang is a dependency
        return []
    sm = pyslang.SourceManager()
    popts = parsing.PreprocessorOptions()
    if sources is not None:
        for d in sources.include_dirs:
            sm.addUserDirectories(str(d))
        popts.predefines = [f"{k}={v}" if v != "" else k for k, v in sources.defines.items()]
    bag = pyslang.Bag([popts])
    bufs = []
    for p in sources.prelude if sources is not None else ():
        try:
            bufs.append(sm.readSource(str(p)))
        except Exception:  # an unreadable prelude file: the compile stage reports it
            continue
    own = sm.assignText("rtlopt_screened_candidate.v", text)
    tree = syntax.SyntaxTree.fromBuffers([*bufs, own], sm, bag)
    out: list[tuple[int, int]] = []
    for tok in _tokens(tree.root):
        for trivia in tok.trivia:
            if trivia.kind.name != "Directive":
                continue
            directive = trivia.syntax()
            for d in getattr(directive, "disabledTokens", None) or ():
                loc = d.location
                if loc.buffer != own.id:
                    continue
                start = int(loc.offset)
                raw = str(d.rawText)
                out.append((start, start + len(raw)))
    return out
