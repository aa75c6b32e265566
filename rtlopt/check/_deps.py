"""Modules a change reaches without touching their text: through a header, a package, a define
or an include folder (the design's dependency graph, :mod:`rtlopt.frontend._depgraph`).

Such a module is judged with both sides preprocessed (``iverilog -E``): the reference is its
file at the base, expanded with the base's headers, defines and include folders; the candidate
is its file after the change, expanded with the change's. Both then read no macro and no
header, so the comparison sees exactly what the change did to the module.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.errors import DesignError, RtloptError
from rtlopt.frontend._depgraph import DesignGraph
from rtlopt.verilog import ModuleSpan, module_spans

log = logging.getLogger(__name__)

_MARKER = "// rtlopt check: the file starts here"


@dataclass(frozen=True)
class Reach:
    """Files a change reaches and why, and the files that use each changed package."""

    files: dict[str, str]  # rel -> why it is re-judged
    packages: dict[str, list[str]]  # changed package -> files that use it


def reached_files(
    graph: DesignGraph,
    changed: Iterable[str],
    defines: set[str],
    include_dirs_changed: bool,
    packages: set[str],
) -> Reach:
    """The files whose meaning a change can alter besides their own text.

    Args:
        graph: The design after the change.
        changed: Every path the change touches (deleted ones included).
        defines: Names of defines whose value the change alters (config or filelist).
        include_dirs_changed: Whether the include folders differ.
        packages: Packages defined in a changed file (at the base or after the change).
    """
    out: dict[str, str] = {}
    for path in sorted(changed):
        for rel in sorted(graph.includers(path)):
            out.setdefault(rel, f"it includes {path}, which changed")
    if defines:
        names = ", ".join(sorted(defines))
        # a macro whose body uses a changed one changes too (red-team round 125: `APPLY(a, b)`
        # of ops.v reads `OP`, which a changed header defines)
        every = _through_macros(graph, defines)
        for rel in sorted(graph.files):
            if graph.reads_macros(rel, every):
                out.setdefault(rel, f"it reads the define {names}, which changed")
    if include_dirs_changed:
        for rel in sorted(graph.files):
            if graph.has_includes(rel):
                out.setdefault(rel, "the include folders changed")
    users = {p: sorted(graph.users_of_packages([p])) for p in sorted(packages)}
    return Reach(out, {p: u for p, u in users.items() if u})


#: A macro definition: its name and its body (continuation lines too).
_DEFINE = re.compile(r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)((?:[^\n]*\\\n)*[^\n]*)", re.M)
_NAME = re.compile(r"[A-Za-z_][\w$]*")


def _through_macros(graph: DesignGraph, names: set[str]) -> set[str]:
    """``names`` and every macro a file of ``graph`` defines whose body uses one of them, in
    turn (by word: a body naming one counts)."""
    bodies: dict[str, set[str]] = {}
    paths = [graph.root / rel for rel in sorted(graph.files)]
    for path in [*paths, *included_files(graph)]:  # a header of any suffix (round 127: .vinc)
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if "`define" not in text:
            continue
        for m in _DEFINE.finditer(text):
            bodies.setdefault(m.group(1), set()).update(_NAME.findall(m.group(2)))
    out = set(names)
    grown = True
    while grown:
        grown = False
        for macro, words in bodies.items():
            if macro not in out and words & out:
                out.add(macro)
                grown = True
    return out


#: An ```include`` of a file named by a string.
INCLUDE = re.compile(r'`include\s*"([^"\n]+)"')


def included_files(graph: DesignGraph) -> list[Path]:
    """The files the graph's files include that are no file of the graph (a header of a
    suffix it does not read: ``.vinc``, ``.txt``), found beside the includer or from the
    root, each once."""
    known = {(graph.root / rel).resolve() for rel in graph.files}
    out: dict[Path, None] = {}
    for rel in sorted(graph.files):
        try:
            text = (graph.root / rel).read_text(errors="replace")
        except OSError:
            continue
        for name in INCLUDE.findall(text):
            for base in ((graph.root / rel).parent, graph.root):
                path = (base / name).resolve()
                if path.is_file() and path not in known:
                    out.setdefault(path)
                    break
    return list(out)


def expand(tree: Path, rel: str, project: ProjectConfig, scratch: Path) -> str:
    """``rel`` of ``tree`` preprocessed with the tree's include folders and defines (its
    ```include`` lines read in, its macros replaced).

    Raises:
        DesignError: the preprocessor failed (a missing header, an undefined macro).
    """
    from rtlopt.eda.iverilog import preprocess_argv
    from rtlopt.frontend import collect_sources
    from rtlopt.tools import Limits, require_tool, run_tool

    target = tree / rel
    sources = collect_sources(target, tree, project)
    scratch.mkdir(parents=True, exist_ok=True)
    out = scratch / "expanded.v"
    # the design's prelude first (rtlopt's synthesis semantics, the filelist's headers and
    # macro skeletons), as every tool reads it; its text is cut at the marker
    marker = scratch / "marker.v"
    marker.write_text(_MARKER + "\n")
    argv = preprocess_argv(
        require_tool("iverilog"),
        [*sources.prelude, marker, target],
        out.name,
        include_dirs=sources.include_dirs,
        defines=sources.defines,
    )
    # the repository's include lookup (evaluate._preprocess): the including file's own folder
    # first, then the include folders; without it a header added beside the file is not read
    argv[1:1] = ["-grelative-include"]
    try:
        run = run_tool(argv, cwd=scratch, log_path=scratch / "expand.log", limits=Limits(60.0))
    except RtloptError as exc:
        raise DesignError(f"could not preprocess: {exc}", path=Path(rel)) from None
    if run.returncode != 0 or not out.is_file():
        tail = (scratch / "expand.log").read_text(errors="replace").strip().splitlines()[-1:]
        raise DesignError(
            f"could not preprocess: {tail[0] if tail else 'iverilog -E failed'}",
            path=Path(rel),
        )
    text = out.read_text(errors="replace")
    at = text.find(_MARKER + "\n")
    if at < 0:
        raise DesignError("could not preprocess: the expansion lost its marker", path=Path(rel))
    return text[at + len(_MARKER) + 1 :]


def rejudged(
    old: str,
    new: str,
    raw: str,
    own: Mapping[str, str],
    own_reading: Callable[[str, str], str | None],
    *,
    included: bool = False,
) -> list[ModuleSpan]:
    """The modules of a reached file's expansion (``new``; ``old`` at the base) to judge
    again there: each that reads otherwise there than at the base (its expanded text, or the
    directives between the modules), but one a header brings in (an include-organized
    repository: ``example.v`` includes ``timer.v``; ``raw``: the file as written) that the
    gate judges in its own file (``own``: module -> that file) and that reads there as here
    (``own_reading(file, module)``: its text in that file's expansion). A module whose text
    and context are the base's is the base's module: a change of a module it instantiates is
    judged in that module's file, under the repository's configurations, as in a repository
    that includes nothing. The file's own modules are skipped so only where it is reached
    through what it includes (``included``): a macro a build defines in another file before
    it (compile order) is no part of its expansion."""
    from rtlopt.check._check import outside_modules

    old_spans = {s.name: old[s.start : s.end] for s in module_spans(old)}
    mine = {s.name for s in module_spans(raw)}
    new_spans = module_spans(new)
    same_context = outside_modules(old, module_spans(old)) == outside_modules(new, new_spans)
    out: list[ModuleSpan] = []
    for span in new_spans:
        if span.name not in old_spans:
            continue  # a new module: the file's own change reports it
        text = new[span.start : span.end]
        if (included or span.name not in mine) and same_context and old_spans[span.name] == text:
            continue  # the base's module: a submodule's change is judged in its own file
        if span.name not in mine and span.name in own:
            if own_reading(own[span.name], span.name) == text:
                continue
        out.append(span)
    return out


def own_reading(
    tree: Path, project: ProjectConfig, scratch: Path
) -> Callable[[str, str], str | None]:
    """The text of a module in its own file's expansion in ``tree`` (None: that file does
    not preprocess, or defines no such module)."""

    def reading(rel: str, name: str) -> str | None:
        try:
            text = expand(tree, rel, project, scratch / "own")
        except DesignError:
            return None
        span = next((s for s in module_spans(text) if s.name == name), None)
        return None if span is None else text[span.start : span.end]

    return reading
