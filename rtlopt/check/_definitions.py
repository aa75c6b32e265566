"""Which file defines each module the design instantiates, at the base and after the change.

A change can swap the definition a build reads without a byte of the design changing: a file
moved unchanged into an earlier ``-y`` folder, or to another ``+libext+`` suffix of the same
folder; the definition the scan prefers deleted while another file defines the module
otherwise. The gate judges texts, so the lookups are compared here: for every module name a
changed path starts or stops defining and a file after the change instantiates, each build
resolves the definitions it reads under each side's own rules (:class:`Lookup`), and a name
whose definitions moved to another file AND another text is a finding naming a user (fail
closed: the gate proves a module against its own text, never against a lookup's result).

A build resolves a name in tiers, the first that finds it wins:

- a filelist's listed files; else its ``-v`` files and the first ``-y`` folder holding
  ``name + ext`` for an ``ext`` of its ``+libext+`` (every such suffix there: which one a
  tool takes differs between tools, so all count);
- the scan (no filelist, or a name no listed file nor library defines: the frontend reads
  every source): the user's own file, else its folder, else every file that defines it.

What passes: a file renamed without a byte changed (the same texts), an edit in place (the
same files: the module itself is judged as changed), a name undefined at the base (a new
module) or after the change (a removed one: :func:`still_instantiated`), a module nothing
instantiates.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rtlopt.check._check import ModuleCheck, _Job
from rtlopt.config import ProjectConfig
from rtlopt.errors import RtloptError
from rtlopt.verilog import module_spans

#: What one build reads for a name: (file, the module's text) pairs.
Definitions = frozenset[tuple[str, str]]

#: The build of a repository without filelists.
SCAN = "the scan"

_VERILOG = (".v", ".sv", ".vh", ".svh")


class Lookup:
    """The builds of one tree under its rules, and how each resolves a module name."""

    def __init__(self, tree: Path, project: ProjectConfig, top: Path | None = None) -> None:
        from rtlopt.frontend._sources import (
            SOURCE_SUFFIXES,
            Filelist,
            read_project_filelist,
        )

        self.tree = tree
        self._roots = [tree.resolve()] + ([top.resolve()] if top is not None else [])
        self.builds: dict[str, Filelist | None] = {}
        for fl in project.filelists:
            try:
                self.builds[fl] = read_project_filelist(tree, fl, project)
            except (OSError, RtloptError):
                continue  # reported where the design's reads are mapped (_reads.map_reads)
        if not project.filelists:
            self.builds[SCAN] = None
        self._default_ext = tuple(SOURCE_SUFFIXES)
        self._project = project
        self._texts: dict[Path, dict[str, str] | str] = {}

    @functools.cached_property
    def _scanned(self) -> list[Path]:  # walked only when a name reaches the scan's tier
        from rtlopt.frontend._sources import scanned_sources

        return scanned_sources(self.tree, self._project)

    def text(self, path: Path, name: str) -> str | None:
        """Module ``name``'s text in ``path``; None when the file does not define it."""
        key = path.resolve()
        held = self._texts.get(key)
        if held is None:
            try:
                held = key.read_text(errors="replace") if key.is_file() else ""
            except OSError:
                held = ""
            self._texts[key] = held
        if isinstance(held, str):
            if name not in held:
                return None
            held = {s.name: held[s.start : s.end] for s in module_spans(held)}
            self._texts[key] = held
        return held.get(name)

    def resolve(self, build: str, name: str, user: str) -> Definitions:
        """What ``build`` reads for module ``name`` instantiated in the file ``user``."""
        lst = self.builds.get(build)
        found: list[Path] = []
        if lst is not None:
            found = [f for f in lst.units if self.text(f, name) is not None]
            if not found:
                found = [f for f in lst.library_files if self.text(f, name) is not None]
                exts = dict.fromkeys(lst.library_ext or self._default_ext)
                for d in lst.library_dirs:
                    hits = [
                        d / (name + e) for e in exts if self.text(d / (name + e), name) is not None
                    ]
                    if hits:
                        found += hits
                        break
        if not found:
            defs = [f for f in self._scanned if self.text(f, name) is not None]
            own = (self.tree / user).resolve()
            found = (
                [f for f in defs if f.resolve() == own]
                or [f for f in defs if f.resolve().parent == own.parent]
                or defs
            )
        return frozenset((self._rel(f), self.text(f, name) or "") for f in found)

    def _rel(self, path: Path) -> str:
        resolved = path.resolve()
        for root in self._roots:
            if resolved.is_relative_to(root):
                return resolved.relative_to(root).as_posix()
        return str(path)


def swapped(before: Definitions, after: Definitions) -> bool:
    """Whether a build reads another definition: both sides define the name, the texts
    differ and so do the files (an edit in place is judged as the module's change)."""
    if not before or not after:
        return False
    texts = {t for _, t in before} != {t for _, t in after}
    return texts and {f for f, _ in before} != {f for f, _ in after}


def changed_names(
    base: Path, new: Path, changes: Iterable[str], read: Iterable[str] = ()
) -> set[str]:
    """The module names a changed Verilog file (or a file the design reads) starts or stops
    defining: the only names whose set of defining files, and so whose lookup, the change
    moves (a change of the rules is a finding of its own, ``_rules``)."""
    wanted = set(read)
    names: set[str] = set()
    for rel in changes:
        if not (rel.endswith(_VERILOG) or rel in wanted):
            continue
        sides = []
        for tree in (base, new):
            p = tree / rel
            text = p.read_text(errors="replace") if p.is_file() else ""
            sides.append({s.name for s in module_spans(text)})
        names |= sides[0] ^ sides[1]
    return names


def _files(defs: Definitions) -> str:
    return " and ".join(sorted({f for f, _ in defs}))


def definition_findings(
    lookups: tuple[Lookup, Lookup],
    graph: Any,
    changes: Mapping[str, str],
    read: Iterable[str] = (),
    flagged: Iterable[str] = (),
) -> list[ModuleCheck]:
    """A finding for each instantiated module whose definition a build reads moved to another
    file and text (``lookups``: the base's and the change's; ``graph``: the change's
    :class:`rtlopt.frontend._depgraph.DesignGraph`). A swap between files that have a finding
    already (``flagged``: a library folder's shadow, a duplicate or moved module) is not
    reported twice."""
    reported = set(flagged)
    old, now = lookups
    out: list[ModuleCheck] = []
    for name in sorted(changed_names(old.tree, now.tree, changes, read)):
        sites = dict(reversed(graph.instances_of(name)))  # file -> its first instance's line
        builds = [b for b in now.builds if b in old.builds]
        found = next(
            (
                (b, user, line, before, after)
                for user, line in sorted(sites.items())
                for b in builds
                for before, after in [(old.resolve(b, name, user), now.resolve(b, name, user))]
                if swapped(before, after) and not {f for f, _ in before | after} & reported
            ),
            None,
        )
        if found is None:
            continue
        build, user, line, before, after = found
        where = "the scan (no filelist)" if build == SCAN else f"the build of {build}"
        more = f" (and {len(sites) - 1} more file(s))" if len(sites) > 1 else ""
        out.append(
            ModuleCheck(
                user,
                name,
                "definition",
                findings=[
                    f"module {name} (instantiated at {user}:{line}{more}): {where} reads it "
                    f"from {_files(after)} after the change, from {_files(before)} before, "
                    "another text; the gate proves texts, not which file a build reads a module "
                    f"from: review it in a commit of its own, or keep one definition of {name}"
                ],
            )
        )
    return out


def still_instantiated(graph: Any, modules: list[ModuleCheck | _Job]) -> None:
    """A removed module that another file still instantiates fails; a new one is noted."""
    for m in modules:
        if not isinstance(m, ModuleCheck) or m.change != "removed":
            continue
        if graph.defines_module(m.module):
            continue
        users = graph.instances_of(m.module)
        if users:
            where = ", ".join(f"{f}:{line}" for f, line in users[:3])
            m.findings.append(f"module {m.module} was removed but is still instantiated ({where})")
