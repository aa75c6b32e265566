"""The gate's rule for a build that fixes no order of its files: renames, moves and deletions.

A build that compiles a glob (``iverilog *.v``) reads the files in the order of their names,
all in one compilation unit, and a macro keeps the last definition read before a file uses
it. Where one file defines a macro that another reads without including the definer, which
definition wins depends on that order: renaming or moving a file (or deleting one) changes
what an unchanged module reads, without a byte of it changing. Each module is judged on its
own text with its own headers (:mod:`rtlopt.check._deps`), which holds no trace of the order,
so in a design whose filelists fix no order (``ordered`` false) each of these is a finding
naming the file, the macro and the module that reads it:

- a renamed (moved) or deleted file that defines or undefines such a macro (in its own text
  or a header it includes): the readers see another definition;
- a renamed file, or a file the change adds that holds a module a deleted file held (a move
  git does not pair), that reads a macro another file defines without its including it.

The fix: a filelist that fixes the order (``[project] filelists``), or the macro defined in
a header its readers include (or given another name). A new file's macros are the new-file
rule's (:func:`rtlopt.check._file_screen.macro_problems`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from rtlopt.check._closure import verilog_view
from rtlopt.check._file_screen import _all_definitions, _definitions
from rtlopt.frontend._depgraph import VERILOG_SUFFIXES, DesignGraph, file_node, includes_file
from rtlopt.verilog import blank_comments, line_of

__all__ = ["order_problems"]

_FIX = (
    "list the files in a filelist that fixes their order ([project] filelists in "
    "rtlopt.toml), or define the macro in a header that {reader} includes"
)
_ORDER = "in a build without a fixed file order (a glob such as *.v)"


def _shown(graph: DesignGraph, rel: str) -> str:
    """A file with the modules it holds (a header: the modules of the files including it)."""
    node = graph.files.get(rel)
    mods = list(node.modules) if node is not None else []
    if not mods:
        mods = sorted({m for r in graph.includers(rel) for m in graph.files[r].modules})
    if not mods:
        return rel
    more = " ..." if len(mods) > 3 else ""
    return f"{rel} (module {', '.join(mods[:3])}{more})"


def _headers(rel: str, text: str, graph: DesignGraph) -> list[str]:
    """The files of the design ``text`` (the file ``rel``) includes, transitively."""
    node = graph.files.get(rel) or file_node(rel, text)
    seen: set[str] = set()
    todo = [f for inc in node.includes for f in graph.files if includes_file(inc, f)]
    while todo:
        cur = todo.pop()
        if cur in seen or cur == rel:
            continue
        seen.add(cur)
        todo += [
            f for inc in graph.files[cur].includes for f in graph.files if includes_file(inc, f)
        ]
    return sorted(seen)


def _defined_here(rel: str, text: str, graph: DesignGraph) -> list[tuple[str, str, str]]:
    """``(macro, defining file, its text)`` for each macro ``rel`` or a header it includes
    defines or undefines."""
    out: list[tuple[str, str, str]] = [(n, rel, text) for n in _definitions(text)]
    for header in _headers(rel, text, graph):
        try:
            htext = (graph.root / header).read_text(errors="replace")
        except OSError:
            continue
        out += [(n, header, htext) for n in _definitions(htext)]
    return out


def definer_problems(rel: str, text: str, graph: DesignGraph, what: str) -> list[tuple[int, str]]:
    """Macros ``rel`` (renamed or deleted: ``what`` says which) or its headers define that
    another file reads without including the definer (see the module's docstring)."""
    out: list[tuple[int, str]] = []
    cached: dict[str, set[str]] = {}
    for name, where, wtext in _defined_here(rel, text, graph):
        if where not in cached:
            cached[where] = graph.includers(where) | {rel, where}
        includers = cached[where]
        readers = sorted(
            (r for r, n in graph.files.items() if r not in includers and name in n.macros),
            key=lambda r: (not graph.files[r].modules, r),  # modules' own files first
        )
        if not readers:
            continue
        at = re.search(rf"`\s*(?:define|undef)\s+{re.escape(name)}\b", blank_comments(wtext))
        line = line_of(wtext, at.start()) if at and where == rel else 1
        via = "" if where == rel else f" (in {where}, which it includes)"
        one = len(readers) == 1
        verb, who = ("reads", "it reads") if one else ("read", "they read")
        shown = ", ".join(_shown(graph, r) for r in readers[:3]) + (
            " ..." if len(readers) > 3 else ""
        )
        out.append(
            (
                line,
                f"it defines the macro {name}{via}, which {shown} {verb} without including "
                f"it: {_ORDER} {what} changes which definition of {name} {who}; "
                + _FIX.format(reader=readers[0]),
            )
        )
    return out


def reader_problems(rel: str, graph: DesignGraph) -> list[tuple[int, str]]:
    """Macros the renamed (moved) file ``rel`` or its headers read that another file defines
    which ``rel`` does not include (see the module's docstring)."""
    if rel not in graph.files:
        return []
    closure = {n.rel for n in graph.closure(rel)}
    read = set().union(*(graph.files[r].macros for r in closure))
    bodies = _all_definitions(graph)
    out: list[tuple[int, str]] = []
    for name in sorted(read & set(bodies)):
        definers = sorted({w for w, _ in bodies[name] if w not in closure})
        if not definers:
            continue
        shown = ", ".join(definers[:3]) + (" ..." if len(definers) > 3 else "")
        out.append(
            (
                _first_use(rel, graph, name),
                f"{_shown(graph, rel)} reads the macro {name}, which {shown} defines, a file "
                f"it does not include: {_ORDER} its new place in the order changes which "
                f"definition of {name} it reads; " + _FIX.format(reader=rel),
            )
        )
    return out


def _first_use(rel: str, graph: DesignGraph, name: str) -> int:
    try:
        text = (graph.root / rel).read_text(errors="replace")
    except OSError:
        return 1
    at = re.search(rf"`\s*(?:(?:ifn?def|elsif|undef)\s+)?{re.escape(name)}\b", blank_comments(text))
    return line_of(text, at.start()) if at else 1


def order_problems(
    changes: dict[str, str],
    renames: dict[str, str],
    read: frozenset[str],
    graph: DesignGraph,
    read_base: Callable[[str], str | None],
    new_text: Callable[[str], str | None],
) -> dict[str, list[tuple[int, str]]]:
    """Per path of the change (a renamed file's new path, a deleted file's old one, an added
    file that holds a moved module): its findings under the rule of the module's docstring.
    Call it only for a design whose filelists fix no order."""

    def compiled(rel: str) -> bool:
        return rel.endswith(VERILOG_SUFFIXES) or rel in read

    gone = set(renames.values())
    deleted = [p for p, s in changes.items() if s == "D" and p not in gone and compiled(p)]
    moved_away: set[str] = set()
    for p in [p for p, s in changes.items() if s == "D"]:
        base = read_base(p)
        if base is not None and compiled(p):
            moved_away |= set(file_node(p, base).modules)
    out: dict[str, list[tuple[int, str]]] = {}
    for new, old in sorted(renames.items()):
        if not (compiled(new) or compiled(old)):
            continue
        text = new_text(new)
        if text is None:
            continue
        view = text if new.endswith(VERILOG_SUFFIXES) or new in read else verilog_view(text)
        what = "its new name"
        out[new] = definer_problems(new, view, graph, what) + reader_problems(new, graph)
    for rel in sorted(deleted):
        base = read_base(rel)
        if base:
            out[rel] = definer_problems(rel, base, graph, "its deletion")
    added = _added_moves(changes, graph, moved_away)
    for rel in added:
        out.setdefault(rel, [])
        out[rel] += reader_problems(rel, graph)
    return {rel: sorted(set(found)) for rel, found in out.items() if found}


def _added_moves(
    changes: dict[str, str], graph: DesignGraph, moved_away: Iterable[str]
) -> list[str]:
    """Added files that hold a module a deleted file held (a move git does not pair)."""
    names = set(moved_away)
    return sorted(
        p
        for p, s in changes.items()
        if s == "A" and p in graph.files and names & set(graph.files[p].modules)
    )
