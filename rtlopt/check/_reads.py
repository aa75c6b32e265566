"""What the design reads, for `rtlopt check`: a changed path is judged by whether the design
reads it, never by its name.

The files the frontend reads for some target (filelist sources and listed headers of any
suffix, ``-v`` files, ``-y`` folders' files with a ``+libext+`` suffix, the scanned sources:
:func:`rtlopt.frontend._sources.design_files`) under the base's rules and the change's. A
changed path among them is judged like a Verilog source. Three kinds of change reach the
design's text without changing a file the design reads, and each is mapped here:

- a submodule bump (a gitlink): the paths that differ between its two commits are changes of
  the repository (``ip/op.v``), judged like any; where either commit is not in the
  submodule's repository here, or the submodule has uncommitted changes, the bump is a finding
  (without its files nothing proves that no include or library folder reaches into it);
- a ``.gitattributes`` change: both trees are checkouts with their own attributes
  (:func:`rtlopt.check._git.checkout_tree`), so a file whose checkout bytes differ is a changed
  file; a file a ``filter`` attribute converts reads as this machine's filter drivers write it,
  which another machine may not, so a changed ``.gitattributes`` with such a file is a finding.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.check._links import escaping_links, hard_link_findings, link_findings
from rtlopt.check._rules import Rules
from rtlopt.config import ProjectConfig
from rtlopt.errors import RtloptError

log = logging.getLogger(__name__)

#: Suffixes the frontend scans or an include can name (a file of another suffix in a
#: submodule is read only when a rule names it or a library folder's suffix matches).
_VERILOG = (".v", ".sv", ".vh", ".svh")
_READ_SUFFIXES = (".v", ".sv", ".vh", ".svh", ".vinc", ".inc", ".vhd_inc", ".h")


@dataclass(frozen=True)
class DesignReads:
    """The files (repository-relative) the design reads and the folders its rules name."""

    files: frozenset[str]
    suffixes: tuple[str, ...]  # what library folders read
    folders: tuple[str, ...]  # include and library folders, and listed files' folders
    error: str = ""  # why the rules' filelists do not read here (then nothing is known)
    #: the files and folders above that lie outside the repository (absolute paths)
    outside: tuple[Path, ...] = ()


def design_reads(tree: Path, project: ProjectConfig, top: Path | None = None) -> DesignReads:
    """What the design of ``tree`` reads under ``project`` (a filelist that does not read
    names nothing: the rules' own finding covers it). A path a filelist names through an
    environment variable (``${CODE_BASE_PATH}/lib``) may point at the work tree ``top``: it
    is taken relative to it."""
    from rtlopt.frontend._sources import design_files, read_project_filelist

    root = tree.resolve()
    try:
        paths, suffixes = design_files(tree, project)
    except RtloptError as exc:
        return DesignReads(frozenset(), (), (), exc.one_line())
    folders: list[Path] = [tree / d for d in project.include_dirs]
    for fl in project.filelists:
        try:
            lst = read_project_filelist(tree, fl, project)
        except RtloptError:
            continue
        folders += lst.include_dirs + lst.library_dirs + [f.parent for f in lst.units]
        folders += [f.parent for f in lst.library_files]
    roots = [root] + ([top.resolve()] if top is not None else [])
    return DesignReads(
        frozenset(r for r in (_rel(p, roots) for p in paths) if r),
        tuple(suffixes),
        tuple(sorted({r for r in (_rel(p, roots) for p in folders) if r is not None})),
        outside=tuple(sorted({p.resolve() for p in [*paths, *folders] if _rel(p, roots) is None})),
    )


def _rel(path: Path, roots: Iterable[Path]) -> str | None:
    resolved = Path(path).resolve()
    for root in roots:
        if resolved.is_relative_to(root):
            return resolved.relative_to(root).as_posix()
    return None


def unchanged_but_converted(
    base: Path, new: Path, candidates: Iterable[str], changes: Mapping[str, str]
) -> list[str]:
    """Files whose blob the change keeps but whose checkout bytes differ between the base
    and the change (another ``.gitattributes``): changed files for the gate."""
    out = []
    for rel in sorted(set(candidates)):
        if rel in changes:
            continue
        a, b = base / rel, new / rel
        if a.is_file() and b.is_file() and a.read_bytes() != b.read_bytes():
            out.append(rel)
    return out


def filter_attributes(repo: Any, tree: Path, files: Iterable[str]) -> dict[str, str]:
    """The ``filter`` attribute of each of ``files`` under ``tree``'s own ``.gitattributes``
    (a checkout): path -> its value (``unspecified`` where none)."""
    names = sorted(set(files))
    # the tree as the work tree and an empty index: its .gitattributes files, and no
    # fallback to the repository's index
    env = {
        "GIT_DIR": repo.git_dir,
        "GIT_WORK_TREE": str(tree),
        "GIT_INDEX_FILE": str(tree.parent / f".{tree.name}.no-index"),
    }
    out: dict[str, str] = {}
    for i in range(0, len(names), 500):
        text = str(repo.git.check_attr("-z", "filter", "--", *names[i : i + 500], env=env))
        fields = text.split("\0")
        for j in range(0, len(fields) - 2, 3):
            out[fields[j]] = fields[j + 2]
    return out


def attribute_findings(repo: Any, base: Path, new: Path, files: Iterable[str]) -> list[str]:
    """Design files whose ``filter`` attribute a changed ``.gitattributes`` sets or changes:
    a filter driver is this machine's git configuration, so the bytes a build elsewhere
    reads are unknown here (fail closed)."""
    names = sorted(set(files))
    if not names:
        return []
    old, now = filter_attributes(repo, base, names), filter_attributes(repo, new, names)
    return [rel for rel in names if old.get(rel) != now.get(rel)]


def read_under(folder: str, reads: Iterable[DesignReads]) -> str:
    """What the design reads under ``folder`` (a submodule whose change the gate cannot
    read), for the finding. Never "nothing": without its files the gate cannot prove that no
    include, filelist or scan reaches into it (``project.exclude`` keeps the scan out, not an
    ```include`` nor a library folder), so such a bump always fails closed."""
    prefix = folder.rstrip("/") + "/"
    why: set[str] = set()
    for r in reads:
        why |= {f"the rules name {d}" for d in r.folders if (d + "/").startswith(prefix)}
        why |= {f"the design reads {f}" for f in r.files if f.startswith(prefix)}
    return "; ".join(sorted(why)[:3]) or "the gate cannot see its files"


@dataclass
class Submodules:
    """The change's submodule bumps, as the gate sees them."""

    changes: dict[str, str]  # paths under bumped submodules -> git's status letter
    unseen: dict[str, str]  # bumped submodule -> why its change cannot be read
    links: list[str]  # every bumped submodule
    modes: dict[str, tuple[str, str]] = field(default_factory=dict)  # under them: mode changes


def submodule_changes(
    repo: Any, top: Path, base: str, staged: bool, new_tree: Path
) -> tuple[Submodules, dict[str, str]]:
    """Fill ``new_tree`` with the change's submodules and map every bumped submodule to the
    paths that differ under it. Returns them and the base's submodules (path -> commit), for
    the base's tree."""
    from rtlopt.check._git import (
        fill_submodules,
        gitlinks,
        gitlinks_at,
        submodule_diff,
        submodule_head,
    )

    at_base = gitlinks_at(repo, base)
    after = gitlinks_at(repo, None)
    unseen: dict[str, str] = {}
    if not staged:  # the work tree: each submodule as checked out
        for rel in list(after):
            head = submodule_head(top, rel)
            if head is not None:
                after[rel] = head[0]
                if head[1]:
                    unseen[rel] = f"it has uncommitted changes (commit them in {rel})"
    missing_new = fill_submodules(top, new_tree, after)
    out = Submodules({}, {}, list(gitlinks(repo, base, staged=staged)))
    for rel in out.links:
        old, new = at_base.get(rel, ""), after.get(rel, "")
        why = unseen.get(rel) or missing_new.get(rel)
        if why is None and old and not _has_commit(top, rel, old):
            why = f"its base commit {old[:10]} is not in its repository (git -C {rel} fetch)"
        if why is not None:
            out.unseen[rel] = why
            continue
        empty = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree
        out.changes.update(submodule_diff(top, rel, old or empty, new or empty, out.modes))
    return out, at_base


def _has_commit(top: Path, rel: str, sha: str) -> bool:
    import git

    from rtlopt.check._git import submodule_repo

    try:
        submodule_repo(top, rel).git.cat_file("-e", f"{sha}^{{commit}}")
    except (git.GitCommandError, git.InvalidGitRepositoryError, git.NoSuchPathError):
        return False
    return True


def submodule_findings(
    unseen: Mapping[str, str],
    reads: Iterable[DesignReads],
    nested: Iterable[str],
) -> list[tuple[str, str]]:
    """(path, finding) for each submodule bump the gate cannot read, and for each submodule
    nested in a bumped one that moved."""
    reads = list(reads)
    out = [
        (
            rel,
            f"submodule {rel} moved and the design may read files under it ("
            f"{read_under(rel, reads)}), but the gate cannot read the change: {why}; make "
            "both commits available and check again, or review the bump in a commit of its own",
        )
        for rel, why in sorted(unseen.items())
    ]
    out += [
        (
            rel,
            f"submodule {rel} (inside a bumped submodule) moved ({read_under(rel, reads)}), and "
            "the gate does not read nested submodules: review it in a commit of its own",
        )
        for rel in sorted(nested)
    ]
    return out


@dataclass
class Mapped:
    """The change mapped to what the design reads."""

    read: frozenset[str]  # every file the design reads, at the base or after the change
    converted: list[str]  # files whose checkout a changed .gitattributes rewrites
    sources: list[str]  # changed files the design reads, judged whatever their name
    findings: list[tuple[str, str]]  # (path, finding): what the gate cannot read
    #: the files and folders outside the repository the design reads on either side (None:
    #: not known, a filelist does not read)
    outside: tuple[Path, ...] | None = None


def map_reads(
    repo: Any,
    top: Path,
    base: Path,
    new: Path,
    rules: Rules,
    changes: Mapping[str, str],
    subs: Submodules,
) -> Mapped:
    """Map every changed path to the files the design reads (see the module's doc)."""
    reads = [design_reads(base, rules.base.project, top), design_reads(new, rules.new.project, top)]
    read = frozenset().union(*(r.files for r in reads))
    nested = [p for p, s in subs.changes.items() if s == "G"]
    found = submodule_findings(subs.unseen, reads, nested)
    converted: list[str] = []
    if any(Path(p).name == ".gitattributes" for p in changes):
        named = set(read) | verilog_files(base) | verilog_files(new)
        converted = unchanged_but_converted(base, new, named, changes)
        found += [
            (
                rel,
                f"a changed .gitattributes sets or changes the filter of {rel}, which the "
                "design reads: what a filter driver writes is this machine's git "
                "configuration, unknown to the build; review it in a commit of its own",
            )
            for rel in attribute_findings(repo, base, new, named)
        ]
    sides = {(base, rules.base.project), (new, rules.base.project), (new, rules.new.project)}
    found += [f for f in link_findings(changes, sorted(sides, key=str)) if f not in found]
    found += [f for f in escaping_links([base, new], top) if f not in found]
    sources = converted + sorted(
        p for p, s in changes.items() if s != "D" and p in read and not p.endswith(_VERILOG)
    )
    for tree, project in ((base, rules.base.project), (new, rules.new.project)):
        found += [f for f in library_shadows(tree, project, changes) if f not in found]
    errors = [r.error for r in reads if r.error]
    if errors:  # fail closed: which other files the design reads is unknown
        found += [
            (
                rel,
                f"{rel} changed and the gate cannot tell whether the design reads it: the "
                f"filelists do not read here ({errors[0]}); check in the environment the "
                "build uses",
            )
            for rel in _other_paths(changes, read, subs.links)
        ]
    outside = None if errors else tuple(sorted({p for r in reads for p in r.outside}))
    found += [f for f in hard_link_findings(outside or (), top) if f not in found]
    return Mapped(read, converted, sources, found, outside)


def library_shadows(
    tree: Path, project: ProjectConfig, changes: Mapping[str, str]
) -> list[tuple[str, str]]:
    """Files added to or removed from a filelist's ``-y`` folder (a move is both) that another
    of its ``-y`` folders also defines by name: which definition the library lookup finds
    depends on the folders' order, so the change can swap a module's definition without a
    byte of it changing. A finding each (the gate judges texts, not lookups)."""
    from rtlopt.frontend._sources import read_project_filelist

    out: list[tuple[str, str]] = []
    for fl in project.filelists:
        try:
            lst = read_project_filelist(tree, fl, project)
        except (OSError, RtloptError):
            continue  # an unreadable filelist is reported where the design's reads are mapped
        exts = tuple(lst.library_ext) or (".v", ".sv")
        folders = [d for d in lst.library_dirs if d.is_dir()]
        for rel, status in changes.items():
            path = tree / rel
            if status not in ("A", "D") or path.suffix not in exts:
                continue
            here = next((d for d in folders if path.parent.resolve() == d.resolve()), None)
            if here is None:
                continue
            others = [
                os.path.relpath(d / (path.stem + e), tree)
                for d in folders
                if d != here
                for e in exts
                if (d / (path.stem + e)).is_file()
            ]
            if others:
                out.append(
                    (
                        rel,
                        f"{rel} is {'added to' if status == 'A' else 'removed from'} a library "
                        f"folder of {fl} that also finds module {path.stem} in {others[0]}: "
                        "which definition the -y lookup reads depends on the folders' order; "
                        "review it in a commit of its own",
                    )
                )
    return out


def _other_paths(
    changes: Mapping[str, str], read: Iterable[str], links: Iterable[str]
) -> list[str]:
    """Changed paths that are no Verilog source, filelist, configuration, submodule nor git
    metadata, and that the design is not known to read."""
    from rtlopt.check._rules import CONFIG_FILES, FILELIST_SUFFIXES

    known = set(read) | set(links)
    meta = (*CONFIG_FILES, ".gitattributes", ".gitmodules")
    return sorted(
        p
        for p in changes
        if not p.endswith((*_VERILOG, *FILELIST_SUFFIXES))
        and Path(p).name not in meta
        and p not in known
    )


def verilog_files(tree: Path) -> set[str]:
    """Every file of ``tree`` named like a Verilog source or header."""
    from rtlopt.frontend._depgraph import VERILOG_SUFFIXES

    return {
        p.relative_to(tree).as_posix()
        for p in tree.rglob("*")
        if p.name.endswith(VERILOG_SUFFIXES) and p.is_file()
    }


def unjudged_files(
    changes: Mapping[str, str], skip: Iterable[str], trees: Iterable[Path]
) -> list[tuple[str, str]]:
    """Changed files of other kinds that a Verilog source or a filelist of either tree names
    (a listed ``.inc``, a nested ``-f defs.txt``): fail closed, each a finding. ``skip``: the
    files judged otherwise."""
    from rtlopt.check._rules import CONFIG_FILES, FILELIST_SUFFIXES
    from rtlopt.verilog import blank_comments

    skipped = set(skip)
    other = [
        rel
        for rel in changes
        if not rel.endswith((*_VERILOG, *FILELIST_SUFFIXES))
        and Path(rel).name not in CONFIG_FILES
        and rel not in skipped
    ]
    if not other:
        return []
    texts: list[str] = []
    for root in trees:
        for p in root.rglob("*"):
            if p.suffix in (*_VERILOG, *FILELIST_SUFFIXES) and p.is_file():
                try:
                    text = p.read_text(errors="replace")
                except OSError:
                    continue
                # a comment names no file (a parameter's default with a note after it)
                texts.append(blank_comments(text, strings=False) if p.suffix in _VERILOG else text)
    # a file the design opens by a name it builds ($readmemh({"rom", ".hex"}, m), a
    # parameter set from outside) may be any of them
    built = any(_BUILT_NAME.search(t) for t in texts) or built_include(texts) or built_name(texts)
    return [
        (
            rel,
            f"{rel} changed and the design may read it ("
            + (_BUILT if built else "a filelist or an include names it")
            + "), but rtlopt judges only Verilog sources (.v .sv .vh .svh), the files the "
            "design reads, filelists (.f .F .vc .flist) and its configuration: review it in "
            "a commit of its own",
        )
        for rel in sorted(rel for rel in other if built or any(Path(rel).name in t for t in texts))
    ]


#: A system task that opens a file whose name is neither one string literal nor one name (a
#: parameter, whose string values the sources hold: the names above): a concatenation, a
#: formatted or a computed name.
_BUILT_NAME = re.compile(
    r"\$(?:readmem[hb]|fopen|fread|sreadmem[hb]|writemem[hb])\s*\(\s*"
    r"(?!(?:\"[^\"\n]*\"|[A-Za-z_][\w$]*(?:\s*::\s*[A-Za-z_][\w$]*)?)\s*[,)])"
)
_BUILT = "a source opens or includes a file by a name it builds, which may be any file"

#: The name a system task opens a file by when it is one name (group 1)
_NAMED_OPEN = re.compile(
    r"\$(?:readmem[hb]|fopen|fread|sreadmem[hb]|writemem[hb])\s*\(\s*([A-Za-z_][\w$]*)\s*[,)]"
)
_LITERAL = re.compile(r'\s*"[^"\n]*"\s*')
#: system tasks that only read a name given them (any other may write it: ``$sformat``)
_READERS = (
    r"(?:readmem[hb]|sreadmem[hb]|writemem[hb]|fopen|f?display[bho]?|f?write[bho]?|f?strobe"
    r"|f?monitor|info|warning|error|fatal|test\$plusargs|value\$plusargs)\b"
)


def built_name(texts: Iterable[str]) -> bool:
    """Whether a file task opens a file by a name (a parameter, a variable) that some text
    gives a value other than one string literal (``localparam INIT = {"rom_ta", "ble.md"}``,
    ``.INIT(`ROM)``, ``$sformat(INIT, ..)``: round 93 case 04): the file may be any. A name
    the simulator's command line gives (``$value$plusargs``) is one a build text names."""
    texts = list(texts)
    for name in {m.group(1) for t in texts for m in _NAMED_OPEN.finditer(t)}:
        word = re.escape(name)
        values = [
            m.group(1) or m.group(2) or ""
            for t in texts
            for m in re.finditer(
                rf"(?<![\w$.]){word}\s*=(?!=)([^;,\n]*)|\.{word}\s*\(([^\n]*?)\)\s*[,)]", t
            )
        ]
        written = any(
            re.search(rf"(?<![\w$])\$(?!{_READERS})[\w$]+\s*\([^;]*(?<![\w$.]){word}\b", t)
            for t in texts
        )
        if written or not all(_LITERAL.fullmatch(v) for v in values):
            return True
    return False


#: An ```include`` whose name a macro gives (group 1), called with arguments (group 2).
_MACRO_INCLUDE = re.compile(r"`include\s*`([A-Za-z_][\w$]*)\s*(\()?")


def built_include(texts: Iterable[str]) -> bool:
    """Whether one of ``texts`` includes a file by a name a macro builds: a macro called with
    arguments (```include `CFG(cfg)`` with ```define CFG(x) `"x.txt`"``), or one whose every
    definition is not one string literal (whose name the texts then hold)."""
    texts = list(texts)
    for t in texts:
        for m in _MACRO_INCLUDE.finditer(t):
            if m.group(2):
                return True
            bodies = [
                d.group(1).strip()
                for u in texts
                for d in re.finditer(
                    rf"^[ \t]*`define[ \t]+{re.escape(m.group(1))}(?![\w$(])([^\n]*)", u, re.M
                )
            ]
            if not bodies or not all(re.fullmatch(r'"[^"\n]*"(?:\s*//.*)?', b) for b in bodies):
                return True
    return False


def untracked_findings(
    top: Path, names: Iterable[str], projects: Iterable[ProjectConfig]
) -> list[tuple[str, str]]:
    """(path, finding) for each untracked file of the work tree ``top`` (git neither tracks
    nor ignores it) that the design reads or may read: a header (beside an includer or in
    an include folder it shadows one), a configuration file, a file the design reads under
    one of ``projects`` (the scan's sources, listed files, ``-y`` folders' files), or one
    whose name a source, a filelist or the configuration holds. A commit (the index) does
    not hold it, so the gate judges without it, while every build of this work tree reads it:
    not staged, a finding each."""
    from rtlopt.check._rules import CONFIG_FILES, FILELIST_SUFFIXES
    from rtlopt.frontend._sources import HEADER_SUFFIXES, SOURCE_SUFFIXES

    why: dict[str, str] = {}
    rest = []
    for rel in sorted(set(names)):
        if rel.endswith((*HEADER_SUFFIXES, ".vh", ".svh")):
            why[rel] = "a header, which an include beside it or in an include folder reads"
        elif Path(rel).name in CONFIG_FILES:
            why[rel] = "a configuration file"
        else:
            rest.append(rel)
    if rest:
        read: set[str] = set()
        unknown = False  # a filelist that does not read here: every source may be read
        for project in projects:
            reads = design_reads(top, project)
            read |= reads.files
            unknown = unknown or bool(reads.error)
        texts = _named_texts(top, (*_VERILOG, *HEADER_SUFFIXES, *FILELIST_SUFFIXES))
        for rel in rest:
            if rel in read or (unknown and rel.endswith(SOURCE_SUFFIXES)):
                why[rel] = "the design reads it"
            elif any(Path(rel).name in t for t in texts):
                why[rel] = "a source, a filelist or the configuration names it"
    return [
        (
            rel,
            f"{rel} is not staged (untracked) and the design may read it ({w}): the commit "
            "does not hold it, so the gate judged the commit without it while a build of "
            f"this work tree reads it; git add {rel}, or remove it (or ignore it)",
        )
        for rel, w in sorted(why.items())
    ]


def _named_texts(top: Path, suffixes: tuple[str, ...]) -> list[str]:
    """The texts of the work tree's files with ``suffixes`` and of its configuration files
    (git's, rtlopt's and tool folders skipped; a dot folder's are read)."""
    from rtlopt.check._rules import CONFIG_FILES
    from rtlopt.inputs import SKIP_DIRS, STATE_NAMES

    texts: list[str] = []
    for dirpath, dirnames, filenames in os.walk(top):
        # a dot folder's texts are the repository's (a build may run ``.ci/sim.f``)
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and d not in STATE_NAMES]
        for name in filenames:
            p = Path(dirpath) / name
            if (name.endswith(suffixes) or name in CONFIG_FILES) and p.is_file():
                try:
                    texts.append(p.read_text(errors="replace"))
                except OSError:
                    continue
    return texts
