"""The repository's macros expanded in a text, for the reading rules (:mod:`._readings`).

On the Verilog path the screen judges the preprocessed text every tool reads. On the
SystemVerilog view path it judges the raw text, where a repository macro that expands to an x
case item, a real number or a race is one word: :func:`expanded` gives that text with the
macros expanded by slang's preprocessor in the design's context (its prelude, include folders
and defines), lines kept, so the same rules see what the macros hold.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rtlopt.frontend.model import Design
from rtlopt.harness._readings import reading_problems
from rtlopt.verilog import DIRECTIVES, alternation, blank_comments

__all__ = ["expanded", "expanded_readings", "expanded_texts", "parsed", "uses_macros"]

#: A backtick word that is no compiler directive: a macro use.
_MACRO = re.compile(rf"`(?!(?:{alternation(DIRECTIVES)})\b)[A-Za-z_]\w*")


def uses_macros(code: str) -> bool:
    """``code`` (comments blanked) uses a macro."""
    return _MACRO.search(code) is not None


def parsed(text: str, design: Design) -> tuple[Any, Any, int]:
    """The syntax tree of ``text`` in the design's context (its prelude, include folders and
    defines, the macros its module sees), the source manager that holds its buffers, and the
    offset ``text`` starts at in the tree's main buffer (named ``candidate.sv``).

    Raises:
        RuntimeError: slang cannot read it.
    """
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._slang import preprocessor
    from rtlopt.harness._reference import target_context_text

    src = design.sources
    sm, popts = preprocessor(src.include_dirs, src.defines)
    with tempfile.TemporaryDirectory(prefix="rtlopt-expand-") as tmp:
        # the macros the target's module sees (the prelude, its file's lines around it), all
        # included on the first line so that the text's lines stay where they are
        context = Path(tmp) / "target_context.vh"
        context.write_text(target_context_text(design))
        head = "".join(f'`include "{p.as_posix()}" ' for p in (*src.prelude, context))
        try:
            tree = syntax.SyntaxTree.fromText(
                head + text, sm, "candidate.sv", "", pyslang.Bag([popts])
            )
        except Exception as exc:  # pyslang's bindings raise plain errors
            raise RuntimeError(str(exc)) from exc
    return tree, sm, len(head)


def expanded(text: str, design: Design, *, directives: bool = False) -> str:
    """``text`` with its macros expanded in the design's context (``include`` lines and
    comments dropped, line breaks kept; ``directives``: the compiler directives kept, the
    context's among them, a macro's use printed before what it expands to).

    Raises:
        RuntimeError: slang cannot expand it.
    """
    from pyslang import syntax

    tree, _, _ = parsed(text, design)
    try:
        printer = syntax.SyntaxPrinter()
        printer.setExpandMacros(True)
        printer.setExpandIncludes(False)
        printer.setIncludeDirectives(directives)
        printer.setIncludeComments(False)
        printer.print(tree.root)
        return str(printer.str())
    except Exception as exc:  # pyslang's bindings raise plain errors
        raise RuntimeError(str(exc)) from exc


def expanded_readings(
    text: str,
    code: str,
    design: Design,
    ref: str,
    judge: Callable[[str], list[tuple[int, str]]] | None = None,
) -> list[tuple[int, str]]:
    """The reading rules on ``text`` (``code``: its comments blanked) with the repository's
    macros expanded, and ``judge`` (the rest of the screen, on the view path) on that
    expanded text; a text slang cannot expand is one problem."""
    if not uses_macros(code):
        return []
    try:
        full = expanded(text, design)
    except RuntimeError as exc:
        return [(1, f"the screen cannot expand this text's macros to judge them ({exc})")]
    found = [*reading_problems(blank_comments(full), reference=ref)]
    if judge is not None:
        found += judge(full)
    # a text that does not parse once expanded (a macro it lost) does not compile either:
    # the compile stage names why, the raw text's rules have judged what they can
    found = [f for f in found if not f[1].startswith("the screen's parser cannot read")]
    return [(line, f"{msg} (the repository's macros expanded)") for line, msg in found]


def expanded_texts(texts: list[str], design: Design) -> list[str]:
    """Those of ``texts`` that use macros, expanded and comment-blanked (one slang cannot
    expand is left out: its raw text is judged)."""
    out = []
    for t in texts:
        if uses_macros(blank_comments(t)):
            try:
                out.append(blank_comments(expanded(t, design)))
            except RuntimeError:
                continue
    return out
