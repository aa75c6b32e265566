"""A new or removed file named like a header the repository includes.

An ```include "cfg.vh"`` reads the first ``cfg.vh`` the build's include search finds: the
including file's folder, then its ``-I`` folders in their order, which a Makefile may set
otherwise than rtlopt's configuration. A change that adds ``local/cfg.vh`` beside an existing
``inc/cfg.vh`` changes what a build with ``-Ilocal -Iinc`` reads, while the gate, judging the
includers in its own order, sees the same header on both sides. So a new (or renamed) file
that an existing ```include`` can name (by its path suffix, as :mod:`rtlopt.frontend._depgraph`
matches) is a finding when another file of the repository has that name too, or when no file
of the repository had it before the change (the include read a file from outside it).

The converse too (:func:`removed_shadows`): deleting or renaming away ``local/cfg.vh`` makes
that build read ``inc/cfg.vh``, while the gate may have read ``inc/cfg.vh`` on both sides; a
removed file an include can still name while another file of that name remains is a finding,
unless the include folders the gate judges by state the removed file's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from rtlopt.check._check import ModuleCheck
from rtlopt.config import ProjectConfig
from rtlopt.frontend._depgraph import ANY_FILE, DesignGraph, file_node
from rtlopt.harness._binary import as_text, is_binary
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


_INCLUDE = re.compile(r"`include\s*[\"<]([^\">\n]+)[\">]")
#: a file larger than this is not scanned for includes (no source is this large)
_SCAN_CAP = 4_000_000


def removed_shadows(
    graph: DesignGraph,
    trees: tuple[Path, Path],
    removed: Iterable[str],
    stated: Iterable[str],
    renames: Mapping[str, str],
) -> list[ModuleCheck]:
    """A finding for each path of ``removed`` (deleted, or renamed or moved away; the files
    under a removed link to a folder) that an ```include`` of the tree after the change can
    name while another file of that tree can be named by it too: a build whose include folders
    found the removed file first now reads the other one, while the gate, resolving in its own
    order, may have read the other one on both sides. ``trees``: the base's and the change's;
    ``stated``: the include folders the rules the gate judges by state (a removed file in one
    of them is read in that order on the base side, and its includers are judged, but for an
    includer whose own folder holds the name, which the gate reads first);
    ``renames``: new path -> old path (a file moved is not another file of its own name)."""
    base, new_tree = trees
    moved = {old: new for new, old in renames.items()}
    folders = {s.strip("/") for s in stated}
    listed: dict[Path, list[Path]] = {}
    scanned: list[tuple[str, str]] | None = None
    out: list[ModuleCheck] = []
    paths: list[str] = []
    for rel in sorted(set(removed)):
        under = _under(base, rel)
        if under is None:
            said = f"{rel}: a removed link to a folder of more than {_CAP} entries"
            out.append(ModuleCheck(rel, "(header)", "removed", findings=[said]))
        paths += under or [rel]
    for rel in paths:
        if os.path.lexists(new_tree / rel):
            continue
        if scanned is None:
            scanned = _written_includes(new_tree, listed)
        sites = [s for s in scanned if _names(s[1], rel)] + _includes(graph, rel)
        sites += _wild(graph, rel, True)
        if Path(rel).parent.as_posix() in folders:
            # judged in that order, unless an includer's own folder holds the name: the
            # gate read that file on both sides, a build searching no includer's folder
            # (iverilog) the removed one (round 73)
            sites = [
                (i, n) for i, n in sites if n != "*" and (new_tree / i).parent.joinpath(n).is_file()
            ]
        mine = moved.get(rel)
        found = _fallen_through(new_tree, (rel, mine), sorted(set(sites)), listed)
        if found:
            out.append(found)
    return out


def _fallen_through(
    new_tree: Path,
    gone: tuple[str, str | None],
    sites: list[tuple[str, str]],
    listed: dict[Path, list[Path]],
) -> ModuleCheck | None:
    """The finding for the removed file ``gone`` (its path, and its new path when it moved)
    when an include of ``sites`` also names another file that remains (None when none does:
    an include that now names no file fails on its own)."""
    rel, mine = gone
    files = [f.relative_to(new_tree).as_posix() for f in _paths(new_tree, listed)]
    for inc in dict.fromkeys(n for _, n in sites):
        others = [o for o in files if o not in (rel, mine) and (inc == "*" or _names(inc, o))]
        if inc == "*":
            others = [o for o in others if Path(o).name == Path(rel).name]
        if not others:
            continue
        shown = "a file a macro names" if inc == "*" else f'"{inc}"'
        users = sorted({i for i, n in sites if n == inc})
        if len(users) > 5:
            users = [*users[:5], f"{len(users) - 5} more"]
        said = (
            f"{rel} is removed, and {', '.join(users)} include{'s' if len(users) == 1 else ''} "
            f"{shown}, which also names {', '.join(others[:5])}: a build whose include folders "
            f"found {rel} first now reads {others[0]} instead, which the gate does not judge; "
            "state the include folders in rtlopt.toml (include_dirs) or a filelist the gate "
            "judges, or give the headers names no other file has"
        )
        return ModuleCheck(rel, "(header)", "removed", findings=[said])
    return None


def _written_includes(tree: Path, listed: dict[Path, list[Path]]) -> list[tuple[str, str]]:
    """``(file, name as written)`` for every ```include "name"`` / ``<name>`` of every text
    file of ``tree``, whatever its suffix (a build may compile or include any of them)."""
    out: list[tuple[str, str]] = []
    for f in _paths(tree, listed):
        try:
            if not f.is_file() or f.stat().st_size > _SCAN_CAP:
                continue
            raw = f.read_bytes()
        except OSError:
            continue
        if b"`include" not in raw or is_binary(raw[:8192]):
            continue
        code = blank_comments(as_text(raw), strings=False)
        rel = f.relative_to(tree).as_posix()
        out += [(rel, inc) for inc in _INCLUDE.findall(code)]
    return out


def displaced_headers(
    graph: DesignGraph, tree: Path, project: ProjectConfig, changed: Iterable[str]
) -> list[ModuleCheck]:
    """A finding for each changed file (``changed``: edited, not added nor removed) that an
    ```include`` can name while the include search of the rules the gate judges by (``tree``:
    the judging tree, ``project``: its rules) finds another file of that name first: the gate
    proves the includer with that other file, unchanged, while a build whose include folders
    name the changed file's folder first (a Makefile's ``-I``) reads the change.

    Where that other file is in the includer's own folder, the tools disagree: Yosys,
    Verilator, slang and VCS search it first, iverilog does not (without
    ``-grelative-include``: the working directory, then its ``+incdir+`` folders). So a
    changed file a tool's order can reach instead (:func:`_reached`: from the repository
    root, a folder the rules include, a folder a filelist or build script of the repository
    names) is a finding too (round 73); a header in a folder nothing names is none."""
    from rtlopt.errors import RtloptError
    from rtlopt.frontend._files import include_target
    from rtlopt.frontend._sources import collect_sources

    search: list[Path] | None = None
    texts: list[tuple[Path | str, str]] | None = None
    out: list[ModuleCheck] = []
    for rel in sorted(changed):
        own = tree / rel
        if not own.is_file():
            continue
        for includer, inc in _includes(graph, rel):
            at = tree / includer
            if not at.is_file():
                continue
            if search is None:
                try:
                    search = list(collect_sources(at, tree, project).include_dirs)
                except (RtloptError, OSError):
                    return out  # the rules do not read here: their own finding says so
            got = include_target(inc, at, search)
            if got is None or got == own.resolve():
                continue
            other = os.path.relpath(got, tree.resolve())
            site = f'{includer}:{_line(graph, includer, inc)} includes "{inc}"'
            if (at.parent / inc).is_file():  # the includer's own folder
                if texts is None:
                    texts = _build_texts(tree, project)
                how = _reached(tree, (rel, inc), texts, at)
                if not how:
                    continue
                said = (
                    f"{rel} changed, and {site}, which names two files: {other}, beside the "
                    "includer, which the gate (like Yosys, Verilator, slang, VCS) reads, "
                    f"unchanged, and {rel}, {how}: the gate does not judge the change that "
                    "build reads; rename one of the headers, or include it by a path no "
                    "other file has"
                )
            else:
                folder = Path(rel).parent.as_posix()
                said = (
                    f"{rel} changed, and {site}, which the include folders the gate judges "
                    f"by read as {other}, unchanged: a build that searches {folder} first "
                    f"(-I {folder}, +incdir+{folder}) reads the change, which the gate does "
                    f"not judge; put {folder} before the other folders in rtlopt.toml "
                    "(include_dirs) or the filelist it names (in a commit of its own, or "
                    "with --trust-config), or give the headers names no other file has"
                )
            out.append(ModuleCheck(rel, "(header)", "changed", findings=[said]))
            break
    return out


#: What a build file may write before a folder it names: a separator, ``-I``, or a variable
#: (``$(ROOT)/inc``) or ``./`` before it.
_BEFORE = r"(?:^|(?<=[\s\"'=,:;(\[{+])|(?<=-I)|(?<=[)}]/)|(?<=\./))"
_AFTER = r"/?(?=[\s\"',;:)\]}]|$)"
#: What names an include folder shortly before it (``-I``, ``+incdir+``, ``include_dirs:``)
_INCLUDE_FLAG = re.compile(r"-I|(?i:incdir|include|inc_?dirs?|search_?path)")


def _build_texts(tree: Path, project: ProjectConfig) -> list[tuple[Path | str, str]]:
    """The include folders ``project`` states (its ``include_dirs``, its filelists'
    ``+incdir+``), and ``(path, text)`` of every text file of ``tree`` but Verilog sources
    and headers (the filelists, build scripts and configuration that may name one)."""
    from rtlopt.errors import RtloptError
    from rtlopt.frontend._sources import read_project_filelist

    out: list[tuple[Path | str, str]] = [((tree / d).resolve(), "") for d in project.include_dirs]
    for fl in project.filelists:
        try:
            stated = read_project_filelist(tree, fl, project).include_dirs
        except (RtloptError, OSError):
            continue
        out += [(d.resolve(), "") for d in stated]
    for f in repository_files(tree):
        if f.name.endswith((".v", ".sv", ".vh", ".svh")):
            continue
        try:
            if not f.is_file() or f.stat().st_size > _SCAN_CAP:
                continue
            raw = f.read_bytes()
        except OSError:
            continue
        if not is_binary(raw[:8192]):
            out.append((f.relative_to(tree).as_posix(), as_text(raw)))
    return out


def _reached(
    tree: Path, header: tuple[str, str], texts: list[tuple[Path | str, str]], at: Path
) -> str:
    """How an include of the name ``header[1]`` in the includer ``at`` can read the file
    ``header[0]`` in a tool's order other than the gate's ("" when nothing makes it): from
    the repository root (the working directory), or from a folder the rules state or a text
    of ``texts`` (:func:`_build_texts`) names after an include flag (iverilog's orders), or
    beside the includer's symlink target (a tool that resolves the includer's path)."""
    rel, inc = header
    name = _suffix(inc)
    iverilog = "which iverilog searches (without -grelative-include, no includer's folder)"
    if rel == name:
        return f"in the repository root, its working directory, {iverilog}"
    if at.is_symlink() and (at.resolve().parent / inc).resolve() == (tree / rel).resolve():
        target = os.path.relpath(at.resolve(), tree.resolve())
        return (
            f"beside {target}, the includer's symlink target, which a tool that resolves it reads"
        )
    folder = rel[: -len(name) - 1]
    real = (tree / folder).resolve()
    if any(d == real for d, _ in texts):
        return f"in the include folder {folder} the rules name, {iverilog}"
    pattern = re.compile(_BEFORE + re.escape(folder) + _AFTER, re.M)
    for path, text in texts:
        for m in pattern.finditer(text):
            if _INCLUDE_FLAG.search(text, max(0, m.start() - 200), m.start()):
                return f"in the include folder {folder}, which {path} names, {iverilog}"
    return ""
