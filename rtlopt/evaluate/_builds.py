"""Other builds a definition's text hides: what each repository file defines once preprocessed
in its own context.

Two definitions of a module (or a package) with the same text may still read otherwise: each
file reads the header beside it (```include "impl.vh"`` in ``rtl/sub.v`` and in
``rtl/other/sub.v``), a file-level ```define`` in front of it, or another filelist's include
folder (``+incdir+inc_b``) holding another header of the same name; and another filelist may
read a definition from a file of any suffix (a ``.vo`` netlist). So a definition is compared
by its text after the one-text preprocessing every tool reads (``iverilog -E``, the
including file's folder first): in this build's context (its include folders, defines and
prelude) and in that of each other filelist of the repository that names the file (its
include folders first, the macro skeletons of the files it lists before it; this build's
defines, whose other values ``evaluate/_configs.py`` enumerates).

:func:`preprocessed_alternatives` gives, per submodule file of this build, the other files
that define one of its modules otherwise once preprocessed (proven as other builds by
``evaluate/_alternatives.py``), or why the difference cannot be built: the same file read
otherwise through another filelist, another file that reads otherwise in its filelist than in
this build, a package defined otherwise, a file the preprocessor refuses. Only a name defined
in more than one place (or a file another filelist reads) with a ````` in one of its texts is
preprocessed, once per file content and context (in-process cache).

rtlopt's reading defines ``SYNTHESIS`` and undefines ``__ICARUS__`` (its prelude); a build's
tool reads with its own predefined macros (``__ICARUS__``, ``VERILATOR``, ``YOSYS``;
``SYNTHESIS`` undefined in a simulator). Where a repository text tests one of them, each
definition is read in each such tool's reading too (:data:`_TOOL_READINGS`): another file that
reads otherwise there than this build's file and than its own synthesis reading (which the
proof of another build reads) is a build rtlopt cannot substitute (round 79 cases 17, 18).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import re
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend.model import Design

__all__ = [
    "Listed",
    "package_definitions",
    "preprocessed_alternatives",
    "repository_filelists",
    "filelist_vars",
    "repository_modules",
    "repository_packages",
    "repository_scanned",
]

log = logging.getLogger(__name__)

_FILELIST_SUFFIXES = (".f", ".vc", ".flist")
#: What the repository scan reads as Verilog (besides the files a filelist names).
SOURCE_SUFFIXES = (".v", ".sv", ".vh", ".svh", ".inc", ".h", ".vinc")
_PACKAGE_SPAN = re.compile(
    r"^[ \t]*package\s+(?:(?:static|automatic)\s+)?([A-Za-z_][\w$]*)\b.*?\bendpackage\b",
    re.M | re.S,
)
_MARKER = "rtlopt_builds_the_file_starts_here"
_THIS = "this build"


@dataclasses.dataclass(frozen=True)
class Listed:
    """One filelist of the repository: what it names and the include folders it gives.

    Attributes:
        name: Its path, relative to the repository root.
        files: The files it lists (any suffix), ``-v`` files and its library folders' files.
        units: Every file it lists, in order (its compilation unit).
        include_dirs: Its ``+incdir+`` folders, in order.
    """

    name: str
    files: frozenset[Path]
    units: tuple[Path, ...]
    include_dirs: tuple[Path, ...]


@functools.lru_cache(maxsize=8)
def repository_filelists(
    root: Path, variables: tuple[tuple[str, str], ...] = ()
) -> tuple[Listed, ...]:
    """Every filelist (``.f``, ``.vc``, ``.flist``) of the repository (outside git's and
    rtlopt's own folders: a dot folder's is a build too) that reads, its ``${NAME}``
    variables from ``variables`` (``project.filelist_vars``) else the environment (one
    needing an unset variable or naming a missing file is no build rtlopt can read, and is
    left out)."""
    from rtlopt.errors import RtloptError
    from rtlopt.frontend import read_filelist

    out: list[Listed] = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        named = p.suffix in _FILELIST_SUFFIXES or p.name.startswith("Flist.")  # CVA6's
        if not named or _own(rel):
            continue
        try:
            if not p.is_file():
                continue
            lst = read_filelist(p, root, variables=dict(variables))
        except (RtloptError, OSError) as exc:
            log.info("filelist %s not read for other builds: %s", rel, exc)
            continue
        files = [*lst.units, *lst.library_files]  # a listed .vo is read like a .v
        exts = lst.library_ext or [".v", ".sv"]
        for d in lst.library_dirs:
            if d.is_dir():
                files += sorted(f for f in d.iterdir() if f.suffix in exts and f.is_file())
        out.append(
            Listed(
                name=rel.as_posix(),
                files=frozenset(f.resolve() for f in files),
                units=tuple(f.resolve() for f in lst.units),
                include_dirs=tuple(dict.fromkeys(d.resolve() for d in lst.include_dirs)),
            )
        )
    return tuple(out)


def package_definitions(text: str) -> list[tuple[str, str]]:
    """``(name, text with white space collapsed)`` of each package of ``text`` (comments
    blanked)."""
    return [(m.group(1), " ".join(m.group(0).split())) for m in _PACKAGE_SPAN.finditer(text)]


@functools.lru_cache(maxsize=8)
def repository_scanned(root: Path) -> frozenset[Path]:
    """The Verilog sources and headers of the repository outside git's and rtlopt's own
    folders (resolved; a dot folder's are the repository's: a build may name ``.lib``)."""
    out: set[Path] = set()
    for f in root.rglob("*"):
        if f.suffix in SOURCE_SUFFIXES and not _own(f.relative_to(root)):
            out.add(f.resolve())
    return frozenset(out)


def _own(rel: Path) -> bool:
    """Whether ``rel`` lies in git's or rtlopt's own folder (:data:`STATE_NAMES`)."""
    from rtlopt.inputs import STATE_NAMES

    return any(s in STATE_NAMES for s in rel.parts)


@functools.lru_cache(maxsize=8)
def _repository_texts(
    root: Path, variables: tuple[tuple[str, str], ...] = ()
) -> tuple[tuple[Path, str], ...]:
    """Each scanned file and each file any filelist of the repository names (whatever its
    suffix: a netlist another filelist reads), comments blanked."""
    from rtlopt.verilog import blank_comments

    listed = {f for lst in repository_filelists(root, variables) for f in lst.files}
    out = []
    for f in sorted(repository_scanned(root) | listed):
        try:
            out.append((f, blank_comments(f.read_text(errors="replace"), strings=False)))
        except OSError:
            continue
    return tuple(out)


@functools.lru_cache(maxsize=8)
def repository_modules(
    root: Path, variables: tuple[tuple[str, str], ...] = ()
) -> dict[Path, tuple[tuple[str, str], ...]]:
    """The modules each Verilog source of the repository (and each file a filelist of it
    names) defines, outside rtlopt's own folders: ``(name, its text with white space
    normalised)``, read once per run."""
    from rtlopt.verilog import module_spans

    out: dict[Path, tuple[tuple[str, str], ...]] = {}
    for f, text in _repository_texts(root, variables):
        if "module" in text:
            spans = module_spans(text)
            out[f] = tuple((m.name, " ".join(text[m.start : m.end].split())) for m in spans)
    return out


@functools.lru_cache(maxsize=8)
def repository_packages(
    root: Path, variables: tuple[tuple[str, str], ...] = ()
) -> dict[Path, tuple[tuple[str, str], ...]]:
    """The packages each file of :func:`repository_modules` defines, likewise."""
    out: dict[Path, tuple[tuple[str, str], ...]] = {}
    for f, text in _repository_texts(root, variables):
        if "endpackage" in text:
            found = tuple(package_definitions(text))
            if found:
                out[f] = found
    return out


def filelist_vars(design: Design) -> tuple[tuple[str, str], ...]:
    """The design's ``project.filelist_vars``, as the cached readers take them."""
    return tuple(sorted(design.sources.filelist_vars.items()))


def _this_build(design: Design, lst: Listed) -> bool:
    """Whether ``lst`` is (a part of) the configured build: every file it names is read here
    and its include folders start this build's."""
    return _is_part(tuple(design.sources.files), tuple(design.prelude), design.include_dirs, lst)


@functools.lru_cache(maxsize=256)
def _is_part(
    files: tuple[Path, ...], prelude: tuple[Path, ...], include_dirs: tuple[Path, ...], lst: Listed
) -> bool:
    dirs = tuple(d.resolve() for d in include_dirs)
    read = {f.resolve() for f in [*files, *prelude]}
    return lst.files <= read and dirs[: len(lst.include_dirs)] == lst.include_dirs


@dataclasses.dataclass(frozen=True)
class _Context:
    """Where a file is preprocessed: ``name`` (this build or a filelist), the files read before
    it, the include folders."""

    name: str
    before: tuple[Path, ...]
    include_dirs: tuple[Path, ...]
    unit: tuple[Path, ...] = ()  # a filelist's: every file it lists, read as one unit


def _contexts(design: Design, g: Path, scanned: bool) -> list[_Context]:
    """This build's context (when ``g`` is a file a build of the scan may read) and that of
    each other filelist that names ``g``."""
    here = tuple(design.include_dirs)
    out = [_Context(_THIS, tuple(design.prelude), here)] if scanned else []
    for lst in repository_filelists(design.root, filelist_vars(design)):
        if g in lst.files and not _this_build(design, lst):
            out.append(_filelist_context(lst, g, here))
    return out


@functools.lru_cache(maxsize=1024)
def _filelist_context(lst: Listed, g: Path, here: tuple[Path, ...]) -> _Context:
    """``g`` as ``lst`` reads it: its include folders first (then this build's), its unit."""
    dirs = tuple(dict.fromkeys([*lst.include_dirs, *here]))
    return _Context(lst.name, (), dirs, lst.units)


@functools.lru_cache(maxsize=1024)
def _unit_before(ctx: _Context, g: Path) -> tuple[Path, ...]:
    """What ``ctx``'s filelist reads before ``g``: the macro skeletons of the files it lists
    before it (``frontend._sources.unit_prelude``)."""
    from rtlopt.frontend._sources import SYNTHESIS_PRELUDE, unit_prelude

    return (SYNTHESIS_PRELUDE, *unit_prelude(ctx.unit, g, ctx.include_dirs))


_cache: dict[str, dict[Path, str]] = {}
_cache_lock = threading.Lock()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _preprocessed(design: Design, g: Path, ctx: _Context) -> dict[tuple[str, bool], str]:
    """The modules and packages ``g`` defines once preprocessed in ``ctx`` (includes read in,
    macros replaced): ``(name, is a package) -> its text, white space collapsed`` (the first
    of a name). A file a filelist lists is read in that filelist's whole unit (one run for
    all its files); else (or when that unit does not preprocess) alone after the files read
    before it. Cached by the contents of the files read and the context.

    Raises:
        DesignError: the preprocessor failed (a header found nowhere, a tool error).
    """
    if g in ctx.unit:
        try:
            found = _run(design, ctx.unit, ctx, ())
        except DesignError as exc:
            log.info("%s does not preprocess as one unit: %s", ctx.name, exc)
        else:
            if g in found:
                return _definitions(found[g])
    before = _unit_before(ctx, g) if ctx.unit else ctx.before
    return _definitions(_run(design, (g,), ctx, before)[g])


def _run(
    design: Design, files: Sequence[Path], ctx: _Context, before: Sequence[Path]
) -> dict[Path, str]:
    """``files`` preprocessed in order after ``before`` (``iverilog -E``): each file's text
    (cached)."""
    from rtlopt.eda.iverilog import preprocess_argv
    from rtlopt.errors import RtloptError
    from rtlopt.frontend._sources import SYNTHESIS_PRELUDE
    from rtlopt.tools import Limits, require_tool, run_tool

    before = list(before) or [SYNTHESIS_PRELUDE]
    if "__ICARUS__" in design.defines:  # Icarus's reading: the prelude would undefine it
        before = [p for p in before if Path(p).resolve() != SYNTHESIS_PRELUDE]
    parts = [*(f"{p}:{_digest(p)}" for p in [*before, *files]), *map(str, ctx.include_dirs)]
    parts += [f"{k}={v}" for k, v in sorted(design.defines.items())]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    with tempfile.TemporaryDirectory(prefix="rtlopt-builds-") as tmp:
        cwd = Path(tmp)
        argv_files = [*before]
        for i, f in enumerate(files):
            marker = cwd / f"marker{i}.v"
            marker.write_text(f"{_MARKER}_{i}\n")
            argv_files += [marker, f]
        what = files[0].name if len(files) == 1 else ctx.name
        try:
            argv = preprocess_argv(
                require_tool("iverilog"),
                argv_files,
                "pre.v",
                include_dirs=ctx.include_dirs,
                defines=design.defines,
            )
            argv[1:1] = ["-grelative-include"]  # the including file's folder first
            run = run_tool(argv, cwd=cwd, log_path=cwd / "pre.log", limits=Limits(60.0))
            text = (cwd / "pre.v").read_text(errors="replace")
        except (OSError, RtloptError) as exc:
            raise DesignError(f"could not preprocess {what}: {exc}") from None
        if run.returncode != 0:
            tail = (cwd / "pre.log").read_text(errors="replace").strip().splitlines()[-1:]
            raise DesignError(f"could not preprocess {what}: {tail[0] if tail else '?'}")
    pieces = re.split(rf"^{_MARKER}_(\d+)\n", text, flags=re.M)
    if len(pieces) != 2 * len(files) + 1:
        raise DesignError(f"could not preprocess {what}: the expansion lost its markers")
    out = {files[int(n)]: t for n, t in zip(pieces[1::2], pieces[2::2], strict=True)}
    with _cache_lock:
        _cache[key] = out
    return out


@functools.lru_cache(maxsize=4096)
def _definitions(text: str) -> dict[tuple[str, bool], str]:
    """The modules and packages of a preprocessed text (``iverilog -E`` keeps comments)."""
    from rtlopt.verilog import blank_comments, module_spans

    code = blank_comments(text, strings=False)
    out: dict[tuple[str, bool], str] = {}
    for m in module_spans(code):
        out.setdefault((m.name, False), " ".join(code[m.start : m.end].split()))
    for n, t in package_definitions(code):
        out.setdefault((n, True), t)
    return out


def _definition(design: Design, g: Path, ctx: _Context, name: str, package: bool) -> str | None:
    """The text (white space collapsed) of module or package ``name`` that ``g`` defines in
    ``ctx``, or None when it defines none there (a conditional leaves it out).

    Raises:
        DesignError: ``g`` does not preprocess in ``ctx``.
    """
    return _preprocessed(design, g, ctx).get((name, package))


#: The tools' readings beside rtlopt's (``SYNTHESIS`` defined): a label, the macros each
#: removes from the configured defines and those it defines (as each tool predefines them,
#: ``evaluate._tb_x_defines.PREDEFINED``).
_TOOL_READINGS: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = (
    ("Icarus's reading (__ICARUS__ defined, SYNTHESIS undefined)",
     frozenset({"SYNTHESIS"}), frozenset({"__ICARUS__"})),
    ("Verilator's reading (VERILATOR defined, SYNTHESIS undefined)",
     frozenset({"SYNTHESIS"}),
     frozenset({"VERILATOR", "verilator", "verilator3", "SYSTEMVERILOG"})),
    ("a simulator's reading (SYNTHESIS undefined)", frozenset({"SYNTHESIS"}), frozenset()),
    ("Yosys's reading (YOSYS defined)", frozenset(), frozenset({"YOSYS"})),
)  # fmt: skip


@functools.lru_cache(maxsize=8)
def _tested(root: Path, variables: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """The macros a conditional of a repository text tests."""
    from rtlopt.evaluate._configs import tested_macros

    return frozenset(n for _, t in _repository_texts(root, variables) for n in tested_macros(t))


def _tool_designs(design: Design) -> list[tuple[str, Design]]:
    """The tools' readings of ``design`` whose macros a repository text tests (each a label
    and the design with those defines)."""
    tested = _tested(design.root, filelist_vars(design))
    out = []
    for label, drop, add in _TOOL_READINGS:
        if (drop | add) & tested:
            defines = {k: v for k, v in design.defines.items() if k not in drop}
            defines.update({m: "1" for m in add})
            sources = dataclasses.replace(design.sources, defines=defines)
            out.append((label, dataclasses.replace(design, sources=sources)))
    return out


def _tool_difference(
    design: Design, f: Path, g: Path, ctx: _Context, name: str, package: bool
) -> str:
    """The first tool's reading (:data:`_TOOL_READINGS`) in which ``g`` (read in ``ctx``)
    defines ``name`` otherwise than ``f`` in this build, and otherwise than ``g``'s own
    synthesis reading (which the proof of another build reads), or "".

    Raises:
        DesignError: a file does not preprocess.
    """
    here = _Context(_THIS, design.prelude, design.include_dirs)
    ours = _definition(design, g, ctx, name, package)
    for label, other in _tool_designs(design):
        text = _definition(other, g, ctx, name, package)
        if text not in (ours, _definition(other, f, here, name, package)):
            return label
    return ""


def _rel(design: Design, f: Path) -> str:
    try:
        return str(f.relative_to(design.root.resolve()))
    except ValueError:
        return str(f)


def _wanted(design: Design, files: Sequence[Path]) -> dict[tuple[str, bool], Path]:
    """``(name, is a package) -> the file of this build defining it``: the modules of
    ``files`` (the target aside) and the packages they define or use."""
    from rtlopt.evaluate._macros import package_files

    mods, pkgs = (
        repository_modules(design.root, filelist_vars(design)),
        repository_packages(design.root, filelist_vars(design)),
    )
    mine = sorted({f.resolve() for f in files})
    out: dict[tuple[str, bool], Path] = {}
    for f in mine:
        for n, _ in mods.get(f, ()):
            if n != design.target.name:
                out.setdefault((n, False), f)
    texts = []
    for f in mine:
        try:
            texts.append(f.read_text(errors="replace"))
        except OSError:
            continue
    for f in [*mine, *(p.resolve() for p in package_files(design, texts))]:
        for n, _ in pkgs.get(f, ()):
            out.setdefault((n, True), f)
    return out


def preprocessed_alternatives(
    design: Design, files: Sequence[Path]
) -> tuple[dict[Path, tuple[Path, ...]], str]:
    """For each of ``files`` (the submodules' files of this build), the other repository files
    whose module of the same name reads otherwise once preprocessed (and reads in this build
    as its own filelist reads it); and why another build cannot be built ("": it can)."""
    v = filelist_vars(design)
    tables = {False: repository_modules(design.root, v), True: repository_packages(design.root, v)}
    scanned = repository_scanned(design.root)
    out: dict[Path, list[Path]] = {}
    for (name, package), f in sorted(_wanted(design, files).items()):
        table = tables[package]
        raws = {g: t for g, defs in table.items() for n, t in defs if n == name}
        pairs = [(g, c) for g in sorted(raws) for c in _contexts(design, g, g in scanned)]
        if len(pairs) <= 1:
            continue
        kind = "package" if package else "module"
        if not any("`" in t for t in raws.values()):
            if package and len(set(raws.values())) > 1:
                g = next(g for g, t in sorted(raws.items()) if t != raws[f])
                return {}, _package_why(design, name, g, _THIS)
            continue  # same text in every context (modules: compared by alternative_files)
        try:
            mine = _definition(
                design, f, _Context(_THIS, design.prelude, design.include_dirs), name, package
            )
            if mine is None:
                return {}, f"{_rel(design, f)} does not define {kind} {name} once preprocessed"
            for g, ctx in pairs:
                if (g, ctx.name) == (f, _THIS):
                    continue
                tool = _tool_difference(design, f, g, ctx, name, package)
                if tool:
                    where = "" if ctx.name == _THIS else f" as {ctx.name} reads it"
                    return {}, (
                        f"{_rel(design, g)} defines {kind} {name} otherwise{where} in {tool} "
                        f"than {_rel(design, f)} and than rtlopt's synthesis reading of it, a "
                        "build rtlopt cannot substitute"
                    )
                text = _definition(design, g, ctx, name, package)
                if text is None or text == mine:
                    continue
                why = _difference(design, name, package, f, g, ctx, text)
                if why:
                    return {}, why
                if g not in out.setdefault(f, []):
                    out[f].append(g)
        except DesignError as exc:
            return {}, f"rtlopt cannot tell how another build reads {kind} {name}: {exc.one_line()}"
    return {f: tuple(gs) for f, gs in out.items()}, ""


def _difference(
    design: Design, name: str, package: bool, f: Path, g: Path, ctx: _Context, text: str
) -> str:
    """Why ``g``'s other definition ``text`` of ``name`` (read in ``ctx``) cannot be proven
    as a build that reads ``g`` in place of ``f``, or "" (it can).

    Raises:
        DesignError: ``g`` does not preprocess in this build's context.
    """
    if package:
        return _package_why(design, name, g, ctx.name)
    where = "" if ctx.name == _THIS else f" as {ctx.name} reads it"
    if g == f:
        return (
            f"{_rel(design, f)} defines module {name} otherwise{where} (another header through "
            "its include folders), a build rtlopt cannot substitute"
        )
    if ctx.name != _THIS:
        here = _Context(_THIS, design.prelude, design.include_dirs)
        if _definition(design, g, here, name, package) != text:
            return (
                f"{_rel(design, g)} defines module {name} otherwise{where} than read in this "
                "build, a build rtlopt cannot substitute"
            )
    return ""


def _package_why(design: Design, name: str, g: Path, ctx: str) -> str:
    where = "" if ctx == _THIS else f" (as {ctx} reads it)"
    return (
        f"{_rel(design, g)} defines package {name} otherwise{where}; rtlopt does not build "
        "another definition of a package"
    )
