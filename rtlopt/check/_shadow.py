"""A new file named like a header the repository includes.

An ```include "cfg.vh"`` reads the first ``cfg.vh`` the build's include search finds: the
including file's folder, then its ``-I`` folders in their order, which a Makefile may set
otherwise than rtlopt's configuration. A change that adds ``local/cfg.vh`` beside an existing
``inc/cfg.vh`` changes what a build with ``-Ilocal -Iinc`` reads, while the gate, judging the
includers in its own order, sees the same header on both sides. So a new (or renamed) file
that an existing ```include`` can name (by its path suffix, as :mod:`rtlopt.frontend._depgraph`
matches) is a finding when another file of the repository has that name too, or when no file
of the repository had it before the change (the include read a file from outside it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from rtlopt.check._check import ModuleCheck
from rtlopt.frontend._depgraph import ANY_FILE, DesignGraph, file_node
from rtlopt.inputs import repository_files
from rtlopt.verilog import blank_comments, line_of, module_spans

_MACRO_INCLUDE = re.compile(r"`include\s*`\s*([A-Za-z_][\w$]*)")
_STRING_DEFINE = r"`define\s+{}\s+\"([^\"\n]+)\""


def _suffix(include: str) -> str:
    return include.strip().lstrip("./")


def _names(include: str, rel: str) -> bool:
    inc = _suffix(include)
    return bool(inc) and (rel == inc or rel.endswith("/" + inc))


def _includes(graph: DesignGraph, rel: str) -> list[tuple[str, str]]:
    """``(includer, name as written)`` for each ```include`` of the graph's files (but
    ``rel``'s) that can read ``rel``; an include whose name a macro gives is resolved through
    the string the repository's files define it as, or counts for any header."""
    out: list[tuple[str, str]] = []
    for other, node in sorted(graph.files.items()):
        if other == rel:
            continue
        out += [(other, inc) for inc in node.includes if inc != ANY_FILE and _names(inc, rel)]
        if ANY_FILE in node.includes:
            out += [(other, inc) for inc in _macro_names(graph, other) if _names(inc, rel)]
    return out


def _macro_names(graph: DesignGraph, rel: str) -> list[str]:
    """The file names ``rel``'s macro-named includes can take: every string a file of the
    graph defines one of those macros as; ``"*"`` where a macro has none (any file)."""
    code = blank_comments((graph.root / rel).read_text(errors="replace"), strings=False)
    out: list[str] = []
    for macro in sorted(set(_MACRO_INCLUDE.findall(code))):
        found: list[str] = []
        for other in graph.files:
            text = blank_comments((graph.root / other).read_text(errors="replace"), strings=False)
            found += re.findall(_STRING_DEFINE.format(re.escape(macro)), text)
        out += found or ["*"]
    return out


def shadowed_headers(
    graph: DesignGraph,
    trees: tuple[Path, Path],
    added: Iterable[str],
    read_base: Callable[[str], str | None],
) -> list[ModuleCheck]:
    """A finding for each path of ``added`` (new or renamed files) that an ```include`` of
    the repository can read while another file of the tree after the change can too, or that
    an ```include`` the base already had could read while no file of the base could (the
    build read a file outside the repository). ``trees``: the base's and the change's."""
    new_tree = trees[1]
    listed: dict[Path, list[Path]] = {}
    out: list[ModuleCheck] = []
    paths: list[str] = []
    for rel in sorted(added):
        under = _under(new_tree, rel)
        if under is None:
            out.append(_finding(rel, f"{rel}: a new link to a folder of more than {_CAP} entries"))
        paths += under or [rel]
    for rel in paths:
        p = new_tree / rel
        header = p.is_file() and not module_spans(p.read_text(errors="replace"))
        for includer, inc in [*_includes(graph, rel), *_wild(graph, rel, header)]:
            why = _why(trees, rel, (includer, inc), read_base, listed)
            if why:
                out.append(_finding(rel, f"{includer}:{_line(graph, includer, inc)}: {why}"))
                break
    return out


#: the most entries the files under a new link to a folder are listed to
_CAP = 2000


def _under(tree: Path, rel: str) -> list[str] | None:
    """The files under ``rel`` when it is a folder (a link to one: a build that searches it
    reads them), as paths below ``rel``; [] for a file; None past :data:`_CAP` entries."""
    if not (tree / rel).is_dir():
        return []
    out: list[str] = []
    seen = 0
    for here, dirs, files in os.walk(tree / rel, followlinks=True):
        seen += len(dirs) + len(files)
        if seen > _CAP:
            return None
        base = Path(here).relative_to(tree).as_posix()
        out += [f"{base}/{f}" for f in files]
    return out


def _finding(rel: str, said: str) -> ModuleCheck:
    return ModuleCheck(
        rel, "(header)", "added", findings=[f"{said}; give the new file a name no include reads"]
    )


def _why(
    trees: tuple[Path, Path],
    rel: str,
    site: tuple[str, str],
    read_base: Callable[[str], str | None],
    listed: dict[Path, list[Path]],
) -> str:
    """Why the new ``rel``, which the ```include`` of ``site`` (includer, name as written)
    can read, is a finding ("" when it is none)."""
    base, new_tree = trees
    includer, inc = site
    own = (new_tree / rel).resolve()
    if inc == "*":
        return (
            f"{rel} is a new header, and {includer} includes a file a macro names, which the "
            "gate cannot resolve: it may be this one"
        )
    shown = f'"{inc}"'
    for f in _paths(new_tree, listed):
        o = f.relative_to(new_tree).as_posix()
        if o != rel and _names(inc, o) and f.resolve() != own:
            return (
                f"{rel} is new, and {includer} includes {shown}, which also names {o}: which "
                "one a build reads depends on its include folder order"
            )
    old = read_base(includer)
    if old is None or inc not in file_node(includer, old).includes:
        return ""  # the include is new too: the change's own
    if any(_names(inc, f.relative_to(base).as_posix()) for f in _paths(base, listed)):
        return ""  # renamed: the only file of that name before the change
    return (
        f"{rel} is new, and {includer} includes {shown}, which no file of the repository "
        "supplied before the change (a folder outside it did)"
    )


def _line(graph: DesignGraph, rel: str, inc: str) -> int:
    """The line of ``rel``'s ```include`` of ``inc`` (its first macro include for "*")."""
    text = (graph.root / rel).read_text(errors="replace")
    code = blank_comments(text, strings=False)
    pattern = r"`include\s*`" if inc == "*" else rf"`include\s*[\"<]{re.escape(inc)}[\">]"
    m = re.search(pattern, code) or re.search(r"`include\s*`", code)
    return line_of(text, m.start()) if m else 1


def _paths(tree: Path, listed: dict[Path, list[Path]]) -> list[Path]:
    """Every file of ``tree`` (listed once per call of :func:`shadowed_headers`)."""
    if tree not in listed:
        listed[tree] = repository_files(tree)
    return listed[tree]


def _wild(graph: DesignGraph, rel: str, header: bool) -> list[tuple[str, str]]:
    """Includers whose macro-named include the gate cannot resolve (a new header may be it)."""
    if not header:
        return []
    return [
        (other, "*")
        for other, node in sorted(graph.files.items())
        if other != rel and ANY_FILE in node.includes and "*" in _macro_names(graph, other)
    ]
