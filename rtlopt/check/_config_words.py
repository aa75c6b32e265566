"""The design's configuration words in a changed text the gate does not judge.

A build outside ``rtlopt.toml`` (a cocotb runner's ``build(defines={"FAST_INV": 1})``, a
Makefile, a Tcl or YAML flow, a ``.f`` of another build) can set a macro the design tests, a
parameter of a module that must stay equivalent or an include folder without a byte of
Verilog changing. The gate judges only the configured build, so it fails closed: a changed
stretch of a non-Verilog, non-documentation text whose old or new lines name one of the
design's configuration words (every macro name the texts the build reads use or test, and the
parameter names of the required modules), as a whole word outside a comment, is a finding
naming the file and line. Setting forms in any syntax (``defines=``, ``-D``) are the build
options' rule (:mod:`rtlopt.check._build_options`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rtlopt.check._code_view import code_view
from rtlopt.verilog import blank_comments, module_spans

__all__ = [
    "DOCUMENTATION",
    "changed_stretches",
    "code_stretches",
    "design_nodes",
    "design_words",
    "parameter_names",
    "word_problems",
]

#: Documentation: prose a build does not hand a tool (a ``.txt`` may be a do-file or a
#: filelist, so it is no documentation by its suffix).
DOCUMENTATION = re.compile(
    r"(?:^|/)(?:README|LICENSE|LICENCE|COPYING|CHANGELOG|CHANGES|AUTHORS|NOTICE|CONTRIBUTING)"
    r"(?:\.(?:md|rst|txt|adoc))?$|\.(?:md|markdown|rst|adoc|asciidoc|org|html?|tex|pdf|svg|png"
    r"|jpe?g|gif)$",
    re.I,
)
#: A ``parameter`` declaration (not ``localparam``: nothing outside sets one), up to its end.
_PARAMETER = re.compile(r"\bparameter\b([^;]*)")
#: A declared name: the word before ``=`` (not ``==``) at the start or after a comma.
_DECLARED = re.compile(
    r"(?:^|,)\s*(?:[\w$:\[\]\s\-+*]*?\s)?([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*=(?!=)"
)
#: Compiler directives: the graph's macro names hold them, no build sets one.
_DIRECTIVES = frozenset(
    "define undef undefineall ifdef ifndef elsif else endif include timescale resetall "
    "default_nettype celldefine endcelldefine line pragma begin_keywords end_keywords "
    "unconnected_drive nounconnected_drive protect endprotect protected endprotected "
    "default_decay_time default_trireg_strength delay_mode_distributed delay_mode_path "
    "delay_mode_unit delay_mode_zero __FILE__ __LINE__".split()
)


def parameter_names(text: str) -> set[str]:
    """The names of the ``parameter`` declarations of a Verilog text (header and body)."""
    code = blank_comments(text)
    out: set[str] = set()
    for m in _PARAMETER.finditer(code):
        body = _balanced(m.group(1))
        out |= {d.group(1) for d in _DECLARED.finditer(body)}
    return out


def _balanced(text: str) -> str:
    """``text`` up to where a parenthesis it did not open closes (the header's end)."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return text[:i]
    return text


def design_words(
    graph: object,
    read: Iterable[str],
    required: Callable[[str, str], str | None] | None = None,
) -> dict[str, str]:
    """word -> what it is: the macros every file the build reads (and what it includes) uses
    or tests, and the parameter names of its required modules (``required`` None: the macros
    only). ``read`` empty (nothing known about the build): every Verilog file of the
    repository."""
    root: Path = getattr(graph, "root", Path("."))
    nodes = design_nodes(graph, read)
    out: dict[str, str] = {}
    for rel, node in sorted(nodes.items()):
        for name in sorted(node.macros - _DIRECTIVES):
            out.setdefault(name, f"the macro {name}, which {rel} reads")
        mods = [m for m in node.modules if required is not None and required(rel, m)]
        if not mods:
            continue
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        for span in module_spans(text):
            if span.name in mods:
                for name in sorted(parameter_names(text[span.start : span.end])):
                    out.setdefault(name, f"parameter {name} of module {span.name} ({rel})")
    return out


def design_nodes(graph: object, read: Iterable[str]) -> dict[str, Any]:
    """The graph's nodes of the files the build reads and of what they include (every file
    where ``read`` names none of the graph's)."""
    files: Mapping[str, object] = getattr(graph, "files", {})
    wanted = [r for r in read if r in files] or list(files)
    return {n.rel: n for r in wanted for n in graph.closure(r)}  # type: ignore[attr-defined]


def _words_in(lines: Iterable[str], words: Mapping[str, str]) -> list[str]:
    found: list[str] = []
    for line in lines:
        for tok in re.findall(r"[A-Za-z_][\w$]*", line):  # a code line (code_stretches)
            if tok in words and tok not in found:
                found.append(tok)
    return found


def changed_stretches(old: str | None, new: str) -> Iterator[tuple[int, list[str], list[str]]]:
    """``(line, new lines, old lines)`` for each changed stretch of ``new`` against ``old``
    (None: an added file); ``line`` is the stretch's first line in ``new`` (1-based)."""
    before = [] if old is None else old.split("\n")
    after = new.split("\n")
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op != "equal":
            yield (b0 + 1 if b0 < b1 else max(1, b0)), after[b0:b1], before[a0:a1]


def code_stretches(
    rel: str, old: str | None, new: str
) -> Iterator[tuple[int, list[str], list[str]]]:
    """:func:`changed_stretches` of the texts' code (:func:`rtlopt.check._code_view.code_view`:
    comments blanked as the file's language reads them, a ``#`` in a string kept)."""
    return changed_stretches(None if old is None else code_view(rel, old), code_view(rel, new))


def word_problems(
    rel: str, old: str | None, new: str, words: Mapping[str, str]
) -> list[tuple[int, str]]:
    """``(line, finding)`` for each changed stretch of ``new`` (``old`` None: an added file)
    whose old or new lines name one of ``words``."""
    if not words or DOCUMENTATION.search(rel):
        return []
    out: list[tuple[int, str]] = []
    for line, added, removed in code_stretches(rel, old, new):
        named = _words_in(added, words) or _words_in(removed, words)
        if not named:
            continue
        what = "; ".join(words[w] for w in named[:3])
        out.append(
            (
                line,
                f"a changed line names {what}: a build other than the configured one may "
                f"set it here, which the gate does not judge in {rel}; set defines and "
                "parameters in rtlopt.toml ([project] defines) or a filelist it names, where "
                "the gate judges them, or review this change in a commit of its own",
            )
        )
    return out
