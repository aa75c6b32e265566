"""Changed symlinks the design reads through, for `rtlopt check`.

The gate maps a change to the files the design reads (:mod:`rtlopt.check._reads`), and those
are read with symlinks followed (``rtl/hdrs/w.vh`` is ``inc_v1/w.vh``). A commit that only
retargets a committed symlink (git mode 120000) that an include folder, a listed file, a
filelist or a library folder passes through changes no file the design reads, yet what every
build reads. So each path the rules name (:func:`rtlopt.frontend._sources.design_paths`) is
walked as the kernel resolves it, on each side (the base's checkout under the base's rules,
the change's under its own): a changed symlink on the way is a finding, and so is one named
like a folder of an ```include "dir/name"`` (read from the includer's folder or any include
folder). The rules are not all the build reads (a Makefile compiles ``rtl/inv.v`` through a
folder link ``rtl -> impl_a`` the filelists never pass, a script reads a linked data file), so
any other changed symlink is a finding too, whether or not a text the gate reads names it.
A symlink that is itself a Verilog file the rules read (``rtl/sub.v ->
impl_a/sub.v``) is judged by its target's text, like any changed source, and is not one,
unless it points outside the repository or at nothing on either side
(:func:`unreadable_links`): the frontend skips such a file, so no text of it is judged.

A file outside the repository the design reads (an include folder's, a listed file) that is
a hard link to a file of the work tree reads the work tree's text in the base's checkout as
well as in the change's: :func:`hard_link_findings` makes each such a finding.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from rtlopt.config import ProjectConfig

_VERILOG = (".v", ".sv", ".vh", ".svh")
#: An ```include`` of a name with a folder part: a symlinked folder of that name may be on
#: its way, besides the include folders themselves.
_INCLUDE_DIR_NAME = re.compile(r'`include\s+"([^"\n]*/[^"\n]*)"')


def changed_links(changes: Iterable[str], base: Path, new: Path) -> list[str]:
    """The changed paths that are a symlink on either side."""
    return sorted(p for p in changes if (base / p).is_symlink() or (new / p).is_symlink())


def passed_links(path: str, hops: int = 40) -> list[tuple[str, bool]]:
    """The symlinks the kernel passes through resolving ``path`` (absolute): each as its
    folder's real path joined with its name, and whether it is the path's last part."""
    parts = [p for p in path.split("/") if p and p != "."]
    cur = "/"
    out: list[tuple[str, bool]] = []
    for i, part in enumerate(parts):
        nxt = os.path.join(cur, part)
        if not os.path.lexists(nxt):
            return out
        if os.path.islink(nxt):
            out.append((os.path.join(os.path.realpath(cur), part), i == len(parts) - 1))
            if hops <= 0:
                return out
            target = os.path.join(cur, os.readlink(nxt), *parts[i + 1 :])
            return out + passed_links(target, hops - 1)
        cur = nxt
    return out


def _include_folders(tree: Path) -> set[str]:
    """The folder parts of every ```include "dir/name"`` of the tree's Verilog files: a
    changed symlink of such a name may be on the way of the include, from whichever folder
    (the includer's, an include folder, a scanned header folder) it is read."""
    from rtlopt.inputs import SKIP_DIRS, STATE_NAMES

    names: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(tree):
        # a dot folder's texts are the repository's (a build may run ``.ci/sim.f``)
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and d not in STATE_NAMES]
        for name in filenames:
            if not name.endswith(_VERILOG):
                continue
            try:
                text = (Path(dirpath) / name).read_text(errors="replace")
            except OSError:
                continue
            for found in _INCLUDE_DIR_NAME.findall(text):
                names |= set(found.split("/")[:-1])
    return names


def link_findings(
    changes: Mapping[str, str],
    sides: Iterable[tuple[Path, ProjectConfig]],
) -> list[tuple[str, str]]:
    """(link, finding) for each changed symlink a path of the design passes through on
    either side (``sides``: the base's checkout with the base's rules, the change's with its
    own), or whose name is a folder an ```include`` names."""
    from rtlopt.frontend._sources import design_paths

    sides = list(sides)
    links = changed_links(changes, sides[0][0], sides[-1][0])
    found: dict[str, str] = dict(unreadable_links(links, [t for t, _ in sides]))
    judged: set[str] = set()  # Verilog file links the rules read: judged by their text
    for tree, project in sides if links else []:
        folders = _include_folders(tree)
        for rel in links:
            if rel not in found and Path(rel).name in folders:
                found[rel] = _finding(rel, f'an `include names a folder "{Path(rel).name}"')
        where = {_canonical(tree / rel): rel for rel in links}
        for path in design_paths(tree, project):
            for link, last in passed_links(str(path)):
                hit = where.get(link)
                if hit is None or hit in found:
                    continue
                if last and hit.endswith(_VERILOG) and (tree / hit).is_file():
                    judged.add(hit)
                    continue  # a Verilog file the design reads: judged by its target's text
                found[hit] = _finding(hit, f"the rules name {_shown(path, tree)}")
        judged |= _read_verilog_links(tree, project, where)
    for rel in links:  # fail closed: a Makefile, a script or a glob may read through it
        if rel not in found and rel not in judged:
            found[rel] = _finding(
                rel,
                "the rules do not read it as a source, but a Makefile, a script or a glob "
                "of the build may read it or through it",
            )
    return sorted(found.items())


def _read_verilog_links(tree: Path, project: ProjectConfig, where: Mapping[str, str]) -> set[str]:
    """The changed links (``where``: canonical path -> link) that are a Verilog file the
    design reads itself (a listed or discovered file): judged by their target's text."""
    from rtlopt.errors import RtloptError
    from rtlopt.frontend._sources import design_files

    try:
        paths, _ = design_files(tree, project)
    except RtloptError:
        return set()
    out: set[str] = set()
    for path in paths:
        for link, last in passed_links(str(path)):
            hit = where.get(link)
            if hit is not None and last and hit.endswith(_VERILOG) and (tree / hit).is_file():
                out.add(hit)
    return out


def unreadable_links(links: Iterable[str], trees: Iterable[Path]) -> list[tuple[str, str]]:
    """(link, finding) for each changed symlink (``links``) that, in one of ``trees`` (the
    base's checkout, the change's), points outside that checkout or at nothing: the gate
    reads (and the frontend scans) only files of the repository, so it cannot judge what the
    link reads in both revisions, while a build follows it (a filelist source retargeted
    from one shared IP file to another). Fail closed, whether or not the rules name it."""
    out: dict[str, str] = {}
    names = list(links)
    for tree in dict.fromkeys(trees):
        own = tree.resolve()
        for rel in names:
            p = tree / rel
            if rel in out or not p.is_symlink():
                continue
            real = Path(os.path.realpath(p))
            if real != own and own not in real.parents:
                where = f"outside the repository ({os.readlink(p)})"
            elif not real.exists():
                where = f"at nothing ({os.readlink(p)})"
            else:
                continue
            out[rel] = (
                f"{rel} is a symlink the change adds, retargets or removes, and on one side "
                f"it points {where}: "
                "the gate reads only the repository's files, so it cannot judge what a build "
                "reads through it in both revisions; commit the file itself (or a symlink "
                "inside the repository), or review it in a commit of its own"
            )
    return sorted(out.items())


def _canonical(path: Path) -> str:
    return os.path.join(os.path.realpath(path.parent), path.name)


def _finding(rel: str, why: str) -> str:
    return (
        f"{rel} is a symlink the change adds, retargets or removes, and the design may read "
        f"through it ({why}): the gate judges the files' texts, not where a link points; "
        "review it in a commit of its own"
    )


def _shown(path: Path, tree: Path) -> str:
    try:
        return path.relative_to(tree).as_posix()
    except ValueError:
        return str(path)


def escaping_links(trees: Iterable[Path], top: Path) -> list[tuple[str, str]]:
    """(link, finding) for each symlink of a checkout (``trees``, siblings in the gate's
    scratch folder) that the kernel resolves into the work tree ``top`` (an absolute target
    inside the repository, or enough ``..``) or into another checkout: each checkout would
    read the work tree's (or the other side's) file there, not its own."""
    out: dict[str, str] = {}
    work = top.resolve()
    for tree in trees:
        own, scratch = tree.resolve(), tree.resolve().parent
        for dirpath, dirnames, filenames in os.walk(tree):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in [*dirnames, *filenames]:
                p = Path(dirpath) / name
                if not p.is_symlink():
                    continue
                real = Path(os.path.realpath(p))
                rel = p.relative_to(tree).as_posix()
                into_work = real == work or work in real.parents
                elsewhere = scratch in real.parents and not (real == own or own in real.parents)
                if (into_work or elsewhere) and rel not in out:
                    out[rel] = (
                        f"{rel} is a symlink to {os.readlink(p)}, which a checkout reads in "
                        f"{'the work tree' if into_work else 'another checkout'}, not in itself: "
                        "the gate cannot read each side's file there; make it relative, "
                        "inside the repository"
                    )
    return sorted(out.items())


def hard_link_findings(outside: Iterable[Path], top: Path) -> list[tuple[str, str]]:
    """(repository path, finding) for each file outside the repository the design reads
    (``outside``: listed files, and the files of include and library folders, on either side)
    that is the same file (st_dev, st_ino) as a file under the work tree ``top``: both the
    base and the change would read the work tree's text there. Only when an outside file has
    another link is the work tree walked; a folder the gate cannot list is a finding."""
    from rtlopt.check._comments import files_outside

    outside = list(outside)
    files = files_outside(outside)
    if files is None:
        shown = ", ".join(str(p) for p in outside[:3])
        return [
            (
                shown,
                f"the gate cannot list the files the design reads outside the repository "
                f"({shown}): it cannot tell whether one is a work tree's file; check in the "
                "environment the build uses",
            )
        ]
    linked: dict[tuple[int, int], Path] = {}
    work = top.resolve()
    for p in files:
        if p.resolve().is_relative_to(work):
            continue  # a folder holding the repository: its own files are not outside
        try:
            st = os.stat(p)
        except OSError:
            continue
        if st.st_nlink > 1:
            linked.setdefault((st.st_dev, st.st_ino), p)
    out: dict[str, str] = {}
    for here, dirnames, filenames in os.walk(top) if linked else []:
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            p = Path(here) / name
            try:
                st = os.lstat(p)
            except OSError:
                continue
            hit = linked.get((st.st_dev, st.st_ino)) if st.st_nlink > 1 else None
            rel = p.relative_to(top).as_posix()
            if hit is not None and rel not in out:
                out[rel] = (
                    f"{hit} is the same file as {rel} (a hard link outside the repository "
                    "the design reads): the base cannot be read; copy it, or name the "
                    "repository's path"
                )
    return sorted(out.items())
