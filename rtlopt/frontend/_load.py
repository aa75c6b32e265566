"""load_design and parse_text: the frontend layer's entry points."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.config import ProjectConfig
from rtlopt.errors import DesignError
from rtlopt.frontend._base import Frontend, FrontendResult, SyntaxProblem
from rtlopt.frontend._build_order import BuildRank, header_conflict
from rtlopt.frontend._clocks import resolve_hierarchy
from rtlopt.frontend._files import read_source, source_problem, unsafe_include
from rtlopt.frontend._index import MACRO_NAMED, ModuleIndex, build_index, scope_names
from rtlopt.frontend._lazy import LazyModules
from rtlopt.frontend._sources import collect_sources, find_repo_root
from rtlopt.frontend.model import Design, Module, SourceSet
from rtlopt.plugins import FRONTENDS
from rtlopt.verilog import module_spans

__all__ = ["FRONTENDS", "get_frontend", "load_design", "parse_text"]

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # the built-ins named in rtlopt.plugins.FRONTENDS are FrontendFactory values
    from rtlopt.frontend._base import FrontendFactory
    from rtlopt.frontend._pyslang import PyslangFrontend
    from rtlopt.frontend._pyverilog import PyverilogFrontend

    _BUILTINS: tuple[FrontendFactory, ...] = (PyslangFrontend, PyverilogFrontend)

_EXCLUDE_HINT = "fix the file or exclude it with project.exclude"
# the names rtlopt passes to its tools and generated Verilog (see _check_names)
_SIMPLE_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def get_frontend(name: str) -> Frontend:
    """An instance of the frontend plugin ``name`` (PluginError lists the known ones)."""
    factory: FrontendFactory = FRONTENDS.get(name)  # the table is untyped: bind its type
    return factory()


def _syntax_error(problem: SyntaxProblem, hint: str) -> DesignError:
    return DesignError(
        f"syntax error: {problem.message}", path=problem.path, line=problem.line or None, hint=hint
    )


def _with_roles(
    result: FrontendResult,
    prefer: Path | None = None,
    texts: Mapping[Path, str] | None = None,
    sources: SourceSet | None = None,
    parsed: Mapping[Path, str] | None = None,
) -> dict[str, Module]:
    """One definition per module name, with clocks/resets inferred.

    When several files define a name, the build's definition wins
    (:class:`~rtlopt.frontend._build_order.BuildRank`): the target's file, then its folder,
    then the first file in ``sources``' order (the filelists' files first: a stale copy
    elsewhere never wins over the file the build lists, whatever the names sort like); a
    header's definition counts as its includer's, a ``-y`` folder's file's only for the
    module it is named after (``parsed``: the texts read, for headers' includers).
    """
    if sources is None:

        def rank(m: Module) -> tuple[int, int]:
            return 0, 0
    else:
        build = BuildRank(sources, prefer, parsed)

        def rank(m: Module) -> tuple[int, int]:
            return build(m.file, m.name)

    by_name: dict[str, Module] = {}
    for m in sorted(result.modules, key=rank):
        kept = by_name.setdefault(m.name, m)
        if kept is not m:
            log.info(
                "module %s is defined in %s and %s; using the first", m.name, kept.file, m.file
            )
    return resolve_hierarchy(by_name, result.blocks, result.connections, texts)


def parse_text(
    text: str,
    name: str = "candidate.v",
    frontend: str = "pyslang",
    *,
    sources: SourceSet | None = None,
) -> list[Module]:
    """Parse a source string (an untrusted candidate) into its modules, in text order.

    ``Module.file`` is ``Path(name)`` (a placeholder) and ``start``/``end`` index into ``text``.

    Args:
        text: The source.
        name: Placeholder file name.
        frontend: Parser plugin.
        sources: The design's elaboration context (prelude, include folders, defines), so a
            candidate may use the project's macros as the original does.

    Raises:
        DesignError: a syntax error (the first one, with its line).
    """
    path = Path(name)
    if sources is None:
        result = get_frontend(frontend).parse([path], texts={path: text})
    else:
        result = get_frontend(frontend).parse(
            [path],
            texts={path: text},
            include_dirs=sources.include_dirs,
            defines=sources.defines,
            prelude=sources.prelude,
        )
    problems = result.errors.get(path)
    if problems:
        raise _syntax_error(problems[0], "fix the candidate")
    mods = _with_roles(result, texts={path: text})
    return sorted(mods.values(), key=lambda m: m.start)


def parse_files(
    files: Sequence[Path], sources: SourceSet, frontend: str = "pyslang"
) -> dict[str, Module]:
    """The modules of ``files`` (each in ``sources.files``), parsed together in the design's
    elaboration context, by name, with clocks and resets inferred across the instances among
    them (another build of a design: ``evaluate/_alternatives.py``).

    Raises:
        DesignError: a file does not parse (its first syntax error).
    """
    texts = _read_all(sources, files, Path(), ProjectConfig().max_file_bytes, prelude=False)
    parsed = [f for f in files if f in texts]
    result = _parse(get_frontend(frontend), sources, parsed, texts)
    for path, problems in result.errors.items():
        if problems:
            raise _syntax_error(problems[0], f"fix {path.name}")
    return _with_roles(result, texts=texts)


def _pick_target(
    target_file: Path, module: str | None, here: list[Module], everywhere: Mapping[str, Module]
) -> Module:
    names = ", ".join(m.name for m in here) or "none"
    if module is not None:
        for m in here:
            if m.name == module:
                return m
        elsewhere = everywhere.get(module)
        hint = (
            f"it is defined in {elsewhere.file}"
            if elsewhere is not None
            else _switched_off(target_file, module) or f"name one of: {names}"
        )
        raise DesignError(
            f"module '{module}' not found in {target_file.name}; modules here: {names}",
            path=target_file,
            hint=hint,
        )
    if not here:
        raise DesignError(
            "no module in this file",
            path=target_file,
            hint="pass the file that defines the module to optimize",
        )
    if len(here) == 1:
        return here[0]
    instantiated = {i for m in here for i in m.instances}
    tops = [m for m in here if m.name not in instantiated]
    if len(tops) == 1:
        return tops[0]
    # Several tops: the one named like the file is the conventional target.
    named = [m for m in (tops or here) if m.name == target_file.stem]
    if len(named) == 1:
        log.info(
            "%s holds several top modules; using %s (named like the file)",
            target_file.name,
            named[0].name,
        )
        return named[0]
    listed = ", ".join(m.name for m in (tops or here))
    raise DesignError(
        f"{target_file.name} holds several top modules: {listed}",
        path=target_file,
        hint="pass --module NAME",
    )


def _check_names(top: Module, closure: Sequence[Module]) -> None:
    """Refuse module and port names the tools cannot be given safely.

    The target's ports and every module name of its closure go into generated Verilog
    (testbench, renamed reference) and into Yosys and OpenSTA scripts. An escaped identifier
    whose text is a plain identifier (``\\abc``) is the same name and is fine; others (with
    ``[``, ``;``, quotes, ``$`` first, ...) are refused here, once, rather than quoted
    differently by every generator.

    Raises:
        DesignError: naming the file, the line and the name.
    """
    hint = "rename it to a simple identifier (letters, digits, _ and $, not starting with $)"
    for m in closure:
        if not _SIMPLE_IDENTIFIER.fullmatch(m.name):
            raise DesignError(
                f"module name '{m.name}' is an escaped identifier rtlopt does not support",
                path=m.file,
                line=m.line,
                hint=hint,
            )
    for p in top.ports:
        if not _SIMPLE_IDENTIFIER.fullmatch(p.name):
            raise DesignError(
                f"port name '{p.name}' of module '{top.name}' is an escaped "
                "identifier rtlopt does not support",
                path=top.file,
                line=top.line,
                hint=hint,
            )


def _read_all(
    sources: SourceSet, files: Iterable[Path], target: Path, limit: int, *, prelude: bool
) -> dict[Path, str]:
    """The texts of ``files`` (and a check of the prelude), read by rtlopt (regular files
    only, bounded, never blocking) with their includes checked, before an in-process parser
    opens anything: a parser blocked on a FIFO inside a C extension no longer reacts to
    SIGTERM or Ctrl-C. A file other than the target whose include would open a FIFO or device
    is left out with a warning."""
    texts: dict[Path, str] = {}
    for f in (*(sources.prelude if prelude else ()), *files):
        text = read_source(f, None, limit)
        bad = unsafe_include(text, f, sources.include_dirs, limit)
        if bad is not None:
            if f == target or f in sources.prelude:
                raise bad
            log.warning(
                "%s:%s: %s; file skipped (project.exclude silences this)",
                bad.path,
                bad.line,
                bad.message,
            )
            continue
        if f in sources.files:
            texts[f] = text
    return texts


def _parse(
    frontend: Frontend, sources: SourceSet, files: Sequence[Path], texts: Mapping[Path, str]
) -> FrontendResult:
    return frontend.parse(
        list(files),
        include_dirs=sources.include_dirs,
        defines=sources.defines,
        prelude=sources.prelude,
        texts={f: texts[f] for f in files},
    )


def _parse_needed(
    sources: SourceSet, target: Path, project: ProjectConfig
) -> tuple[FrontendResult, dict[Path, str], ModuleIndex | None]:
    """Parse the files the target needs: its own, then the files the index names for every
    module or package still undefined, until none is left (``project.lazy_parse``; off:
    every file)."""
    limit = project.max_file_bytes
    frontend = get_frontend(project.frontend)
    if not project.lazy_parse:
        texts = _read_all(sources, sources.files, target, limit, prelude=True)
        files = [f for f in sources.files if f in texts]
        return _parse(frontend, sources, files, texts), texts, None
    index = build_index(sources.root, sources.files, limit, sources.include_dirs)
    order = {f: i for i, f in enumerate(sources.files)}
    texts = _read_all(sources, [target], target, limit, prelude=True)
    tried: set[Path] = {target}
    while True:
        files = sorted(texts, key=lambda f: order.get(f, len(order)))
        result = _parse(frontend, sources, files, texts)
        defined = {m.name for m in result.modules}
        wanted = {i for m in result.modules for i in m.instances}
        for f in files:
            wanted |= scope_names(texts[f])
        missing = sorted(wanted - defined)
        new = [f for n in missing for f in index.files(n) if f not in tried]
        if missing and not new:  # declared under a macro name, perhaps
            new = [f for f in index.files(MACRO_NAMED) if f not in tried]
        if not new:
            log.debug("parsed %d of %d files", len(files), len(sources.files))
            return result, texts, index
        tried.update(new)
        texts.update(_read_all(sources, dict.fromkeys(new), target, limit, prelude=False))


@dataclass(frozen=True)
class _ContextParser:
    """Parses more files of the repository in the design's context (picklable)."""

    sources: SourceSet
    frontend: str
    limit: int

    def __call__(self, files: list[Path]) -> dict[str, Module]:
        texts = _read_all(self.sources, files, Path(), self.limit, prelude=False)
        parsed = [f for f in files if f in texts]
        result = _parse(get_frontend(self.frontend), self.sources, parsed, texts)
        return _with_roles(result, sources=self.sources, parsed=texts)


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _warn_unneeded(problems: Sequence[tuple[Path, SyntaxProblem]], root: Path, top: str) -> None:
    """One warning for files the target does not need that do not parse (a board folder of
    other FPGA tops): paths relative to the repository, the first few errors, and the
    ``project.exclude`` patterns that silence it."""
    if not problems:
        return
    shown = [f"{_shown(p.path, root)}:{p.line}: {p.message}" for _, p in problems[:3]]
    more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
    globs = [
        f"{_shown(f.parent, root)}/**" if _shown(f.parent, root) != "." else _shown(f, root)
        for f, _ in problems
    ]
    # a folder's pattern covers its subfolders'
    kept = [
        g
        for g in dict.fromkeys(globs)
        if not any(h != g and h.endswith("/**") and g.startswith(h[:-2]) for h in globs)
    ]
    pats = ", ".join(f'"{g}"' for g in kept[:4])
    log.warning(
        "%d file(s) that %s does not need do not parse; ignored: %s%s. "
        "To silence this, set project.exclude = [%s] in rtlopt.toml",
        len(problems),
        top,
        "; ".join(shown),
        more,
        pats,
    )


def _checked_target(target: Path, limit: int) -> Path:
    """The target's resolved path; a missing file, or one that is not a regular file within
    the size limit (a FIFO, a device), is an input error."""
    if not os.path.lexists(target):
        raise DesignError("file not found", path=target, hint="check the path of the target file")
    why = source_problem(target, None, limit)
    if why is not None:
        raise DesignError(f"not read: the file {why}", path=target, hint="pass a regular file")
    return target.resolve()


def _names_in_broken_files(result: FrontendResult, texts: Mapping[Path, str]) -> dict[str, Path]:
    """Module names defined in files that failed to parse, to blame the right file."""
    broken: dict[str, Path] = {}
    for path in result.errors:
        text = texts.get(path)
        if text is None:
            continue
        for span in module_spans(text):
            broken.setdefault(span.name, path)
    return broken


def _check_recursion(
    ring: Sequence[str], name: str, parent: Module, modules: Mapping[str, Module]
) -> None:
    """A module that instantiates itself (``ring``: the path from ``name`` back to it).

    A recursion can only end through a parameter (a generate-if base case); without one it
    never does, and Yosys 0.23 crashes on it.

    Raises:
        DesignError: a module of the ring has no parameter that could end the recursion.
    """
    if not all(any(not p.local for p in modules[n].parameters) for n in ring):
        cycle = " -> ".join([*ring, name])
        raise DesignError(
            f"module '{parent.name}' instantiates itself ({cycle}) and "
            "has no parameter that could end the recursion",
            path=parent.file,
            line=parent.line,
            hint="remove the recursive instance",
        )


def _check_undefined(
    name: str, parent: Module, top: Module, result: FrontendResult, broken: Mapping[str, Path]
) -> None:
    """An instantiated module defined nowhere: the syntax error of the file that defines it,
    if that file did not parse; nothing (a black box, logged) when the elaborated design of the
    target does not contain it; else an error.

    Raises:
        DesignError: naming the file that does not parse, or the instantiating module.
    """
    if name in broken:
        raise _syntax_error(result.errors[broken[name]][0], _EXCLUDE_HINT)
    unknown = result.elaborated_unknown
    if unknown is not None and name not in unknown.get(top.name, ()):
        # only in a generate branch the parameters turn off (a vendor cell): a black
        # box that no tool elaborates
        log.info(
            "module '%s' instantiated in %s is not defined; not in the elaborated "
            "design of %s, so it is left undefined",
            name,
            parent.name,
            top.name,
        )
        return
    raise DesignError(
        f"module '{name}' instantiated in {parent.name} is not defined in the repository",
        path=parent.file,
        line=parent.line,
        hint=_switched_off(parent.file, name)
        or "add its file to project.filelists or the repository",
    )


def _switched_off(path: Path, name: str) -> str:
    """A hint when ``path`` holds ``module name`` in text the configuration's defines switch
    off (held-out trial 49: biriscv's ``RAM16X1D`` under `` `ifdef verilator``), else ""."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    at = re.search(rf"^\s*(?:macro)?module\s+{re.escape(name)}\b", text, re.M)
    if at is None:
        return ""
    line = text.count("\n", 0, at.start()) + 1
    return (
        f"{path.name} defines it at line {line} in code a `ifdef/`ifndef switches off in this "
        "configuration: add the define to project.defines (or -D NAME), or exclude the file"
    )


def _check_build(
    order: Sequence[str], modules: Mapping[str, Module], rank: BuildRank, parsed: Sequence[Module]
) -> None:
    """Fail closed where the build's definition of a module of the target's closure cannot
    be told (:meth:`BuildRank.conflict`: two library files the ``-y`` search may load;
    :func:`header_conflict`: a header's definition beside another file's, of those parsed).

    Raises:
        DesignError: naming both files.
    """
    place = {f: i for i, f in enumerate(rank.sources.files)}
    for name in order:
        definers = {
            m.file: (m.file not in place, place.get(rank.where(m.file), len(place)))
            for m in parsed
            if m.name == name
        }
        chosen = modules[name].file
        problem = rank.conflict(name, chosen) or header_conflict(name, definers, chosen)
        if problem is not None:
            raise problem


def _closure_order(
    top: Module, modules: Mapping[str, Module], result: FrontendResult, texts: Mapping[Path, str]
) -> list[str]:
    """The names of the modules the target instantiates, directly or not, submodules first
    and the target last (undefined black boxes left out).

    Raises:
        DesignError: a recursion that cannot end, a module defined nowhere.
    """
    broken = _names_in_broken_files(result, texts)
    order: list[str] = []
    seen: set[str] = set()
    stack: list[str] = []  # the instantiation path being visited

    def visit(name: str, parent: Module) -> None:
        if name in stack:
            _check_recursion(stack[stack.index(name) :], name, parent, modules)
            return
        if name in seen:
            return
        seen.add(name)
        mod = modules.get(name)
        if mod is None:
            _check_undefined(name, parent, top, result, broken)
            return
        stack.append(name)
        for sub in mod.instances:
            visit(sub, mod)
        stack.pop()
        order.append(name)

    visit(top.name, top)
    return order


def load_design(
    target: Path,
    module: str | None,
    project: ProjectConfig,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    root: Path | None = None,
) -> Design:
    """Parse the repository around ``target`` and locate the module to optimize.

    Args:
        target: The file that defines the target module.
        module: The module's name; optional when the file has one top module.
        project: Sources configuration (include dirs, defines, filelists, exclude, frontend).
        include_dirs: Extra include directories (``-I``).
        defines: Extra defines (``-D``), winning over the project's.
        root: The repository root; default: the git top level above ``target`` (a copy of a
            repository without ``.git``, as ``rtlopt check`` makes, names its root here).

    Returns:
        The design: target module with ports, parameters, clocks and resets; every module;
        the files the target needs (dependencies first, the target's file last).

    Raises:
        DesignError: missing file, unknown module, ambiguous file, a syntax error in a file the
            target needs, a module the target instantiates that is defined nowhere.
        ConfigError: a bad filelist or include directory in the project configuration.
    """
    target = _checked_target(Path(target), project.max_file_bytes)
    root = find_repo_root(target) if root is None else Path(root).resolve()
    sources = collect_sources(target, root, project, include_dirs=include_dirs, defines=defines)
    result, texts, index = _parse_needed(sources, target, project)
    for w in result.warnings:
        log.warning("%s", w)
    if target in result.errors:
        raise _syntax_error(result.errors[target][0], "fix the file")
    modules = _with_roles(result, target, sources=sources, parsed=texts)
    here = [
        modules[m.name]
        for m in result.modules
        if m.file == target and modules[m.name].file == target
    ]
    top = _pick_target(target, module, here, modules)
    order = _closure_order(top, modules, result, texts)
    _check_names(top, [modules[n] for n in order])
    _check_build(order, modules, BuildRank(sources, target, texts), result.modules)
    submodules = tuple(n for n in order if n != top.name)
    closure_files = [modules[n].file for n in order]
    closure = tuple(dict.fromkeys([f for f in closure_files if f != target] + [target]))
    _warn_unneeded(
        [(p, probs[0]) for p, probs in result.errors.items() if p not in closure], root, top.name
    )
    target_mod = modules[top.name]
    log.info(
        "target %s in %s: %d ports, %d submodules, clocks %s, resets %s",
        top.name,
        target,
        len(target_mod.ports),
        len(submodules),
        list(target_mod.clocks),
        list(target_mod.resets),
    )
    if index is not None:  # the rest of the repository, parsed when a candidate names it
        parser = _ContextParser(sources, project.frontend, project.max_file_bytes)
        lazy: Mapping[str, Module] = LazyModules(modules, index.by_name, parser)
    else:
        lazy = modules
    return Design(
        root=root,
        target=target_mod,
        sources=sources,
        modules=lazy,
        closure=closure,
        submodules=submodules,
    )
