"""Finding a repository's sources: the elaboration context every tool is given.

Sources come from (in order of precedence for defines: later wins) a scan of the repository
for ``*.v``/``*.sv``, filelists (``.f``) named in the project configuration, the project's own
``include_dirs``/``defines``, and the command line's ``-I``/``-D``. Folders holding ``*.vh`` /
``*.svh`` headers are include directories too.

A filelist is one compilation unit, read in order: a header listed as a source (C910's
``cpu_cfig.h`` first in its ``-f`` list) defines macros that later files use without
```include``. Such files (listed sources that are not ``.v``/``.sv``) form the *prelude*: they
are read first, in list order, by the frontend and by every tool, for the reference and for
candidates alike. ``SYNTHESIS`` is defined (Yosys defines it on its own; iverilog would not),
and the prelude starts with rtlopt's ``synthesis_semantics.vh``, which undefines the
simulator-only ``__ICARUS__`` so the reference is never read as its simulation model.
"""

from __future__ import annotations

import fnmatch
import logging
import os
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.errors import ConfigError
from rtlopt.frontend._files import DEFAULT_LIMIT, read_source, source_problem
from rtlopt.frontend._reroot import register_checkouts as register_checkouts
from rtlopt.frontend._reroot import rerooted as rerooted
from rtlopt.frontend._reroot import unregister_checkouts as unregister_checkouts
from rtlopt.frontend._unit import skeleton_file
from rtlopt.frontend.model import SourceSet
from rtlopt.inputs import SKIP_DIRS as _SKIP_DIRS

__all__ = [
    "Filelist",
    "collect_sources",
    "design_files",
    "design_paths",
    "filelist_inputs",
    "find_repo_root",
    "include_roots",
    "parse_defines",
    "read_filelist",
    "scanned_sources",
    "unit_prelude",
]

log = logging.getLogger(__name__)

SOURCE_SUFFIXES = (".v", ".sv")
HEADER_SUFFIXES = (".vh", ".svh", ".vinc", ".inc")
#: SystemVerilog sources: a design holding one is read through slang where Yosys cannot read it.
SV_SUFFIXES = (".sv", ".svh")
_ENV_RE = re.compile(r"\$\{(\w+)\}|\$\((\w+)\)|\$(\w+)")
_EXCLUDE_TIP = "project.exclude silences this"
#: Read first by every tool: undoes simulator-only predefined macros (see the module doc).
SYNTHESIS_PRELUDE = Path(__file__).resolve().parents[1] / "data" / "synthesis_semantics.vh"
#: Defined for every tool: the design is evaluated as synthesis reads it.
CONTEXT_DEFINES: Mapping[str, str] = {"SYNTHESIS": ""}


def find_repo_root(path: Path) -> Path:
    """The git top level above ``path``; else ``path``'s folder (or ``path`` if a folder)."""
    p = Path(path).resolve()
    start = p if p.is_dir() else p.parent
    for d in [start, *start.parents]:
        if (d / ".git").exists():
            return d
    return start


def parse_defines(items: Iterable[str]) -> dict[str, str]:
    """``["A", "B=2"]`` -> ``{"A": "", "B": "2"}``."""
    out: dict[str, str] = {}
    for item in items:
        name, _, value = item.partition("=")
        name = name.strip()
        if name:
            out[name] = value.strip()
    return out


@dataclass
class Filelist:
    """What a filelist (``.f``) contributes."""

    files: list[Path] = field(default_factory=list)
    prelude: list[Path] = field(default_factory=list)  # headers listed as sources, in order
    include_dirs: list[Path] = field(default_factory=list)
    defines: dict[str, str] = field(default_factory=dict)
    library_files: list[Path] = field(default_factory=list)  # -v
    library_dirs: list[Path] = field(default_factory=list)  # -y
    library_ext: list[str] = field(default_factory=list)  # +libext+
    units: list[Path] = field(
        default_factory=list
    )  # every listed file, sources and headers, in order
    lists: list[Path] = field(default_factory=list)  # this filelist and every nested one
    # every path the filelists name, as spelled (absolute, rerooted, symlinks not followed)
    spelled: list[Path] = field(default_factory=list)

    def extend(self, nested: Filelist) -> None:
        """Add what a nested filelist (``-f``) contributes, after what this one has so far."""
        self.files += nested.files
        self.prelude += nested.prelude
        self.include_dirs += nested.include_dirs
        self.defines.update(nested.defines)
        self.library_files += nested.library_files
        self.library_dirs += nested.library_dirs
        self.library_ext += nested.library_ext
        self.units += nested.units
        self.lists += nested.lists
        self.spelled += nested.spelled


def filelist_variables(project: ProjectConfig, root: Path) -> dict[str, str]:
    """``project.filelist_vars`` (``NAME=VALUE``) as a mapping; a value naming a folder of the
    repository (``.``, ``rtl``) becomes that folder's absolute path.

    Raises:
        ConfigError: an entry without ``=`` or with a name that is not a word.
    """
    out: dict[str, str] = {}
    for item in project.filelist_vars:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not re.fullmatch(r"\w+", name):
            raise ConfigError(
                f"project.filelist_vars entry {item!r} is not NAME=VALUE",
                hint='write it as "NAME=VALUE", e.g. "DESIGN_RTL_DIR=rtl"',
            )
        folder = root / value
        out[name] = str(folder.resolve()) if value and folder.is_dir() else value
    return out


def _expand(
    token: str,
    where: Path | None = None,
    line: int | None = None,
    variables: Mapping[str, str] | None = None,
) -> str:
    """``${VAR}``, ``$(VAR)`` and ``$VAR``: from ``variables`` (``project.filelist_vars``),
    else from the environment.

    Raises:
        ConfigError: an unset variable, naming the filelist and line (when given).
    """

    def env(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2) or m.group(3)
        value = (variables or {}).get(name, os.environ.get(name))
        if value is None:
            raise ConfigError(
                f"variable {name} is not set, neither in project.filelist_vars nor in the "
                f"environment (used as {m.group(0)})",
                path=where,
                line=line,
                hint=f'add "{name}=<folder>" to project.filelist_vars in rtlopt.toml '
                "(rtlopt init proposes one), or write the path without it",
            )
        return value

    return _ENV_RE.sub(env, token)


def _resolve(
    token: str,
    base: Path,
    root: Path,
    where: Path | None = None,
    line: int | None = None,
    variables: Mapping[str, str] | None = None,
) -> tuple[Path, Path]:
    """A listed path: (as read, as spelled). An absolute one is read as spelled (rerooted);
    a relative one from ``base``, else from ``root``, symlinks followed."""
    p = Path(_expand(token, where, line, variables))
    if p.is_absolute():
        here = rerooted(p, root)
        return here, here
    # a relative path can leave the checkout too (`../../home/me/repo/inc`)
    here = rerooted(base / p, root)
    if here.exists() or not (root / p).exists():
        return here.resolve(), here
    here = rerooted(root / p, root)
    return here.resolve(), here


def _include_dirs(dirs: list[Path], filelist: Path, lineno: int) -> list[Path]:
    """The folders of an ``+incdir+``/``-I`` entry that exist; a missing one is skipped with a
    warning, as simulators and synthesis tools do (an include that needs it fails later with
    its own file and line)."""
    for d in dirs:
        if not d.is_dir():
            log.warning("%s:%d: include directory %s not found; ignored", filelist, lineno, d)
    return [d for d in dirs if d.is_dir()]


@dataclass(frozen=True)
class _At:
    """A line of a filelist being read (for paths relative to it and for errors)."""

    path: Path  # the filelist, resolved
    root: Path  # the repository root
    lineno: int
    seen: frozenset[Path]  # the filelists that include this one, for cycles
    variables: Mapping[str, str]  # project.filelist_vars
    spelled: list[Path]  # the filelist's paths as spelled (Filelist.spelled)

    def resolve(self, token: str) -> Path:
        """A listed path: from the filelist's folder, else from the repository root."""
        found, spelled = _resolve(
            token, self.path.parent, self.root, self.path, self.lineno, self.variables
        )
        self.spelled.append(spelled)
        return found

    def include_dirs(self, tokens: Iterable[str]) -> list[Path]:
        """The listed include folders that exist (see :func:`_include_dirs`)."""
        return _include_dirs([self.resolve(d) for d in tokens], self.path, self.lineno)


def _checked_filelist(path: Path, seen: frozenset[Path]) -> None:
    """Raise ConfigError for a filelist that includes itself, is missing or is not a regular
    file."""
    if path in seen:
        raise ConfigError("filelist includes itself", path=path, hint="remove the -f cycle")
    if not path.exists():
        raise ConfigError(
            "filelist not found", path=path, hint="fix project.filelists in rtlopt.toml"
        )
    why = source_problem(path, None)
    if why is not None:
        raise ConfigError(f"filelist not read: it {why}", path=path, hint="make it a regular file")


def _line_tokens(raw: str) -> list[str]:
    """A filelist line's words, comments (``//``, ``#``) removed, shell quoting honoured."""
    line = re.sub(r"(^|\s)(//|#).*$", "", raw).strip()
    if not line:
        return []
    try:
        return shlex.split(line, posix=True)
    except ValueError:
        return line.split()


def _listed_file(tok: str, at: _At, out: Filelist) -> None:
    """A listed file: a source, or a header whose macros reach every later file (prelude)."""
    f = at.resolve(tok)
    if not os.path.lexists(f):
        raise ConfigError(
            f"file '{tok}' listed but not found",
            path=at.path,
            line=at.lineno,
            hint="fix the path or remove the line",
        )
    why = source_problem(f, None)
    if why is not None:
        raise ConfigError(
            f"file '{tok}' listed but not read: it {why}",
            path=at.path,
            line=at.lineno,
            hint="list a regular file or remove the line",
        )
    out.units.append(f)
    if f.suffix in SOURCE_SUFFIXES:
        out.files.append(f)
    else:
        # a header listed as a source: its macros reach every later file
        out.prelude.append(f)


def _read_token(tok: str, nxt: str | None, at: _At, out: Filelist) -> int:
    """Add what one option or file of a filelist line says to ``out``.

    Returns:
        How many tokens it used: 2 for an option with its argument (``-f x``), else 1.
    """
    if tok.startswith("+incdir+"):
        out.include_dirs += at.include_dirs(d for d in tok[8:].split("+") if d)
    elif tok.startswith("+define+"):
        out.defines.update(parse_defines(d for d in tok[8:].split("+") if d))
    elif tok.startswith("+libext+"):
        out.library_ext += [e for e in tok[8:].split("+") if e]
    elif tok.startswith(("+libdir+", "+libdir-nocase+")):
        # an Icarus command file's library folders: ``-y`` each
        out.library_dirs += [at.resolve(d) for d in tok.split("+")[2:] if d]
    elif tok in ("-f", "-F", "-v", "-y", "-I", "-D") and nxt is None:
        raise ConfigError(
            f"option {tok} needs an argument",
            path=at.path,
            line=at.lineno,
            hint="add the missing path",
        )
    elif tok in ("-f", "-F") and nxt is not None:
        out.extend(read_filelist(at.resolve(nxt), at.root, at.seen | {at.path}, at.variables))
        return 2
    elif tok == "-v" and nxt is not None:
        out.library_files.append(at.resolve(nxt))
        return 2
    elif tok == "-y" and nxt is not None:
        out.library_dirs.append(at.resolve(nxt))
        return 2
    elif tok == "-I" and nxt is not None:
        out.include_dirs += at.include_dirs([nxt])
        return 2
    elif tok.startswith("-I"):
        out.include_dirs += at.include_dirs([tok[2:]])
    elif tok == "-D" and nxt is not None:
        out.defines.update(parse_defines([nxt]))
        return 2
    elif tok.startswith("-D"):
        out.defines.update(parse_defines([tok[2:]]))
    elif tok.startswith(("-", "+")):
        log.warning("%s:%d: ignoring filelist option %s", at.path, at.lineno, tok)
    else:
        _listed_file(tok, at, out)
    return 1


def read_project_filelist(root: Path, filelist: str, project: ProjectConfig) -> Filelist:
    """One of ``project.filelists`` (relative to ``root``), with ``project.filelist_vars``."""
    path = rerooted(root / filelist, root)
    return read_filelist(path, root, variables=filelist_variables(project, root))


def read_filelist(
    path: Path,
    root: Path,
    _seen: frozenset[Path] = frozenset(),
    variables: Mapping[str, str] | None = None,
) -> Filelist:
    """Parse a filelist: sources, ``+incdir+``, ``+define+``, ``-I``, ``-D``, ``-f``/``-F``
    (nested), ``-v``, ``-y`` (an Icarus command file's ``+libdir+``), ``+libext+``; ``//`` and
    ``#`` comments; ``${VAR}``/``$VAR`` expansion. Listed files that are not ``.v``/``.sv``
    (headers) go to ``prelude``.

    Relative paths are taken from the filelist's folder, else from the repository root.

    Raises:
        ConfigError: a missing filelist or listed file, an unset environment variable, or a
            nesting cycle (file and line).
    """
    path = path.resolve()
    _checked_filelist(path, _seen)
    out = Filelist(lists=[path])
    for lineno, raw in enumerate(read_source(path).splitlines(), 1):
        at = _At(path, root, lineno, _seen, variables or {}, out.spelled)
        tokens = _line_tokens(raw)
        i = 0
        while i < len(tokens):
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            i += _read_token(tokens[i], nxt, at, out)
    return out


def filelist_inputs(root: Path, project: ProjectConfig) -> tuple[list[Path], list[Path]]:
    """The filelists :func:`collect_sources` reads (nested ones too) and the library folders
    (``-y``) whose listings it reads."""
    lists: list[Path] = []
    folders: list[Path] = []
    for fl in project.filelists:
        lst = read_project_filelist(root, fl, project)
        lists += lst.lists
        folders += lst.library_dirs
    return lists, folders


def design_files(root: Path, project: ProjectConfig) -> tuple[list[Path], list[str]]:
    """Every file :func:`collect_sources` reads for some target, whatever its name: the
    filelists' sources and listed headers, ``-v`` files, the files of ``-y`` folders with a
    ``+libext+`` suffix, and the scanned sources; and the suffixes a library folder reads
    (``rtlopt check`` maps a changed path to the modules that read it by this list, not by
    the path's suffix). Files reached through ```include`` are not listed (the dependency
    graph has them). A filelist that does not read raises :class:`ConfigError`."""
    files: list[Path] = []
    suffixes: list[str] = []
    for fl in project.filelists:
        lst = read_project_filelist(root, fl, project)
        files += lst.units + lst.library_files
        exts = lst.library_ext or list(SOURCE_SUFFIXES)
        suffixes += exts
        for d in lst.library_dirs:
            if d.is_dir():
                files += sorted(p for p in d.iterdir() if p.suffix in exts and p.is_file())
    files += _scan(root, project.exclude, project.max_file_bytes)[0]
    return files, sorted(set(suffixes))


def design_paths(root: Path, project: ProjectConfig) -> list[Path]:
    """Every path the rules name, as spelled (absolute, rerooted, symlinks not followed):
    ``project.include_dirs``, the filelists and every path they list (nested ones too; the
    files of their ``-y`` folders), and the folders ``project.filelist_vars`` names. ``rtlopt
    check`` asks which symlinks they pass through. A filelist that does not read adds its
    own path only."""
    paths = [rerooted(root / d, root) for d in project.include_dirs]
    for item in project.filelist_vars:
        value = item.partition("=")[2].strip()
        if value and (root / value).is_dir():
            paths.append(rerooted(root / value, root))
    for fl in project.filelists:
        paths.append(rerooted(root / fl, root))
        try:
            lst = read_project_filelist(root, fl, project)
        except ConfigError:
            continue
        paths += lst.spelled
        exts = tuple(lst.library_ext) or SOURCE_SUFFIXES
        for d in lst.library_dirs:
            if d.is_dir():
                paths += [d / p.name for p in d.iterdir() if p.name.endswith(exts)]
    return paths


def scanned_sources(root: Path, project: ProjectConfig) -> list[Path]:
    """The sources the scan reads under ``root`` (every target reads them, filelists or not),
    in the scan's order."""
    return _scan(root, project.exclude, project.max_file_bytes)[0]


def _excluded(rel: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch("/" + rel, pat) for pat in patterns)


def _scan(
    root: Path, exclude: Sequence[str], limit: int = DEFAULT_LIMIT
) -> tuple[list[Path], list[Path]]:
    """Source files and header folders under root (hidden and tool folders skipped).

    Only regular files (or symlinks to regular files inside the repository) within the size
    limit count; anything else named like a source (a FIFO, a device, a link out of the
    repository) is skipped with a warning and never opened.
    """
    sources: list[Path] = []
    headers: list[Path] = []
    header_dirs: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        here = Path(dirpath)
        has_header = False
        for name in sorted(filenames):
            p = here / name
            rel = p.relative_to(root).as_posix()
            if _excluded(rel, exclude):
                continue
            if not name.endswith(SOURCE_SUFFIXES + HEADER_SUFFIXES):
                continue
            why = source_problem(p, root, limit)
            if why is not None:
                log.warning("%s: skipped: the file %s (%s)", rel, why, _EXCLUDE_TIP)
            elif name.endswith(SOURCE_SUFFIXES):
                sources.append(p)
            else:
                has_header = True
                headers.append(p)
        if has_header:
            header_dirs.append(here)
    return sources, header_dirs + include_roots(sources, headers)


#: An ```include`` of a file named by a string.
_INCLUDE_NAME = re.compile(r'`include\s+"([^"\n]+)"')


def include_roots(sources: Iterable[Path], headers: Sequence[Path]) -> list[Path]:
    """The folders that ```include "dir/name.svh"`` lines of ``sources`` read from: for a
    name with a folder part, each folder holding a header at that relative path
    (pulp-platform's ``include/`` for ```include "common_cells/registers.svh"``), which the
    folders holding headers (``include/common_cells/``) do not resolve."""
    if not headers:
        return []
    names: set[str] = set()
    for src in sources:
        try:
            text = src.read_text(errors="replace")
        except OSError:
            continue
        for name in _INCLUDE_NAME.findall(text):
            parts = name.split("/")
            if len(parts) > 1 and parts[0] and ".." not in parts:
                names.add(name)
    roots: list[Path] = []
    for h in headers:
        posix = h.as_posix()
        for name in sorted(names):
            if posix.endswith("/" + name):
                folder = Path(posix[: -len(name) - 1])
                if folder not in roots:
                    roots.append(folder)
    return roots


def unit_prelude(units: Sequence[Path], target: Path, include_dirs: Sequence[Path]) -> list[Path]:
    """The filelists' compilation unit as seen by the target's file, in list order: listed
    headers whole; the macro skeletons of sources listed before the target's file (see
    :mod:`rtlopt.frontend._unit`). Headers listed after it stay (as before: a submodule listed
    later may need them); sources listed after it do not."""
    out: list[Path] = []
    before = True
    for f in units:
        if f.suffix not in SOURCE_SUFFIXES:
            out.append(f)
        elif f.resolve() == target:
            before = False
        elif before:
            skel = skeleton_file(f, include_dirs)
            if skel is not None:
                out.append(skel)
    return out


def _dedupe(paths: Iterable[Path]) -> tuple[Path, ...]:
    return tuple(dict.fromkeys(Path(p).resolve() for p in paths))


def collect_sources(
    target: Path,
    root: Path,
    project: ProjectConfig,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
) -> SourceSet:
    """Every source file, include folder and define of the repository.

    Args:
        target: The file holding the target module (always included).
        root: Repository root; project paths are relative to it.
        project: The ``[project]`` configuration.
        include_dirs: Extra include folders (command line ``-I``).
        defines: Extra defines (command line ``-D``); these win over every other source.
    """
    files: list[Path] = []
    units: list[Path] = []
    incdirs: list[Path] = []
    defs: dict[str, str] = dict(CONTEXT_DEFINES)
    libraries: list[tuple[Path, tuple[str, ...]]] = []
    in_library: list[Path] = []
    for fl in project.filelists:
        lst = read_project_filelist(root, fl, project)
        files += lst.files + lst.library_files
        units += lst.units
        incdirs += lst.include_dirs
        defs.update(lst.defines)
        exts = lst.library_ext or list(SOURCE_SUFFIXES)
        for d in lst.library_dirs:
            if not d.is_dir():
                log.warning("%s: library directory %s not found; ignored", fl, d)
                continue
            libraries.append((d.resolve(), tuple(exts)))
            in_library += sorted(p for p in d.iterdir() if p.suffix in exts and p.is_file())
    listed = set(_dedupe(files))
    files += in_library
    scanned, header_dirs = _scan(root, project.exclude, project.max_file_bytes)
    files += scanned
    for rel in project.include_dirs:
        p = rerooted(root / rel, root).resolve()
        if not p.is_dir():
            raise ConfigError(
                f"include directory '{rel}' not found", path=root, hint="fix project.include_dirs"
            )
        incdirs.append(p)
    defs.update(parse_defines(project.defines))
    incdirs += [Path(p) for p in include_dirs]
    defs.update(defines or {})
    incdirs += header_dirs
    target = target.resolve()
    # the target's own folder: a candidate copy of its file finds the same relative includes
    incdirs.append(target.parent)
    prelude = [SYNTHESIS_PRELUDE, *unit_prelude(units, target, incdirs)]
    pre = _dedupe(prelude)
    all_files = tuple(f for f in _dedupe([*files, target]) if f not in pre)
    return SourceSet(
        root=root,
        files=all_files,
        include_dirs=_dedupe(incdirs),
        defines=defs,
        prelude=pre,
        filelist_vars=filelist_variables(project, root),
        libraries=tuple(libraries),
        library_files=frozenset(_dedupe(in_library)) - listed - {target},
    )
