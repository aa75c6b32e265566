"""Unit-scope declarations of another file of the build that take the place of a name the
target reads.

A build that compiles several files in one compilation unit (a Makefile's ``iverilog
p.sv consts.inc m.v``, a filelist) reads every declaration outside a design unit in the
unit's scope ``$unit`` (:mod:`rtlopt.frontend._unit_decls`), before or after the target's
file: a ``localparam int W = 4;`` in ``consts.inc`` wins over the ``W`` that ``m.v`` imports
from a package by ``import p::*;`` at unit scope (IEEE 1800 26.3). rtlopt elaborates the
target with the files it reads whole (the target's file, its module closure, the packages
they use) and only the macros of the others, so the proof reads another ``W`` than every
build.

:func:`unit_scope_capture` says why the target's changes are unchecked (fail closed; the
same rule judges ``rtlopt check``, which evaluates each changed module):

- a unit-scope declaration in any other Verilog file of the repository (or one a filelist
  lists, or one a build script names beside the target's file) of a name the reference's
  hierarchy (the target's file, its submodules, the packages and headers it reads) or the
  candidate reads (by word: a local declaration of the same name counts too);
- where the target resolves names at unit scope (a file rtlopt reads whole holds unit-scope
  text, or a text reads ``$unit``): a unit-scope wildcard import in another file, or
  unit-scope text slang cannot read (a macro defined elsewhere, a header it cannot find),
  which may declare any name.

A header another file includes is read where it is included, not as a file of its own.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend._unit_decls import UnitScope, read_unit_scopes, unit_declarations
from rtlopt.frontend.model import Design

__all__ = ["unit_scope_capture"]

log = logging.getLogger(__name__)

#: Suffixes of the files a build compiles as Verilog (a file of another suffix counts where a
#: filelist lists it or a build script names it beside the target's file).
_VERILOG = frozenset({".v", ".sv", ".vh", ".svh", ".inc", ".vinc", ".svi", ".vi", ".vo", ".sva"})
_WORD = re.compile(r"(?<![\w$`\\])[A-Za-z_][\w$]*")
_INCLUDE = re.compile(r'`include\s*[<"]([^">\n]+)[>"]')

_MACRO_USE = re.compile(r"`([A-Za-z_][\w$]*)")
_DEFINE = re.compile(r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)((?:[^\n]*\\\n)*[^\n]*)", re.M)


@dataclass(frozen=True)
class _Facts:
    """What the rule reads of a design, once: the unit-scope declarations of the files rtlopt
    does not read whole, whether the target resolves names at unit scope, the words the
    reference's texts read, and the words of each macro body of the repository."""

    found: list[tuple[Path, UnitScope]]
    at_unit: bool
    read: set[str]
    macros: dict[str, set[str]]


_FILES: dict[int, tuple[Design, _Facts]] = {}


def unit_scope_capture(design: Design, candidate: str, own: Path | None = None) -> str:
    """Why a unit-scope declaration of another file of the build may take the place of a name
    the reference or ``candidate`` reads (see the module's docstring), or ""."""
    from rtlopt.verilog import blank_comments

    facts = _design_facts(design, own)
    if not facts.found:
        return ""
    code = blank_comments(candidate)
    words = _with_macros(facts.read | set(_WORD.findall(code)), code, facts.macros)
    at_unit = facts.at_unit or "$unit" in candidate
    target = design.target
    for path, scope in facts.found:
        rel = _rel(path, design)
        for d in scope.declarations:
            if d.kind == "WildcardImport":
                if not at_unit:
                    continue
                what = f"import {d.name}::* (any name of package {d.name})"
            elif d.name in words:
                what = f"{_KIND.get(d.kind, d.kind.lower())} {d.name}"
            else:
                continue
            return (
                f"{rel}:{d.line}: a declaration outside every module, package and interface "
                f"({what}) is in the compilation unit ($unit) of a build that compiles {rel} "
                f"with {target.file.name}: it takes the place of a name {target.name} reads (a "
                "package's through a wildcard import), which rtlopt's reading of "
                f"{target.name} does not see; move it into a package the module imports "
                "explicitly, or compile each file as its own compilation unit"
            )
        if scope.unreadable and at_unit:
            return (
                f"{rel}: its text outside every module, package and interface cannot be read "
                f"({scope.unreadable}) and may declare any name in the compilation unit "
                f"($unit) of a build that compiles {rel} with {target.file.name}, where "
                f"{target.name} reads names at unit scope; move it into a package the module "
                "imports explicitly, or compile each file as its own compilation unit"
            )
    return ""


_KIND = {
    "Parameter": "parameter",
    "TypeAlias": "typedef",
    "TransparentMember": "enum member",
    "Subroutine": "function or task",
    "Net": "net",
    "Variable": "variable",
    "LetDecl": "let",
    "ClassType": "class",
    "GenericClassDef": "class",
    "ExplicitImport": "import",
}


def _with_macros(words: set[str], code: str, macros: dict[str, set[str]]) -> set[str]:
    """``words`` and the words of every macro body ``code`` or such a body uses, in turn."""
    todo = set(_MACRO_USE.findall(code)) & macros.keys()
    seen: set[str] = set()
    out = set(words)
    while todo:
        name = todo.pop()
        seen.add(name)
        out |= macros[name]
        todo |= (macros[name] & macros.keys()) - seen
    return out


def _design_facts(design: Design, own: Path | None) -> _Facts:
    """The rule's reading of ``design`` (:class:`_Facts`), once per design."""
    hit = _FILES.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts
    from rtlopt.frontend._packages import package_files
    from rtlopt.harness._hierarchy import hierarchy_texts, macro_texts
    from rtlopt.verilog import blank_comments

    dirs = list(design.include_dirs)
    whole = {p.resolve() for p in [design.target.file, *design.closure, *package_files(design)]}
    prelude = {Path(p).resolve() for p in design.prelude}
    texts = [*repository_texts(design), *other_texts(design, own)[0]]
    listed = _listed(design)
    named = _named_with_target(design, texts)
    included = {
        Path(m.group(1)).name for _, t in texts if "`include" in t for m in _INCLUDE.finditer(t)
    }
    hierarchy = hierarchy_texts(design).texts
    # a header the reference's hierarchy includes is read there (its names are the
    # includer's own, which win over $unit's); a prelude file is read for its macros only
    read_there = {t.path.resolve() for t in hierarchy} - prelude
    at_unit = False
    found: list[tuple[Path, UnitScope]] = []
    seen: set[Path] = set()
    todo: list[tuple[Path, str, bool]] = []  # each file read: whether rtlopt reads it whole
    for path, text in texts:
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        compiled = path.suffix in _VERILOG or real in listed or real in named
        if real in whole or (compiled and real not in read_there):
            todo.append((path, text, real in whole))
    read_unit_scopes([(p, t, dirs) for p, t, _ in todo])  # one child process for all
    for path, text, is_whole in todo:
        if is_whole:
            at_unit = at_unit or bool(unit_declarations(path, text, dirs).declarations)
            continue
        scope = unit_declarations(path, text, dirs)
        if path.name in included and real not in listed:
            # a header included elsewhere may be compiled on its own too: its declarations
            # count; what it cannot read is its includer's (a macro a package defines)
            scope = UnitScope(scope.declarations)
        if scope.declarations or scope.unreadable:
            found.append((path, scope))
    read: set[str] = set()
    for t in hierarchy:
        if t.path.resolve() not in prelude:
            read |= set(_WORD.findall(blank_comments(t.text)))
    try:
        read |= set(_WORD.findall(blank_comments(design.target.file.read_text(errors="replace"))))
    except OSError:
        pass
    macros: dict[str, set[str]] = {}
    for text in macro_texts(design):
        if "`define" in text:
            for m in _DEFINE.finditer(blank_comments(text)):
                body = m.group(2)
                macros.setdefault(m.group(1), set()).update(
                    _WORD.findall(body), _MACRO_USE.findall(body)
                )
    codes = " ".join(blank_comments(t.text) for t in hierarchy)
    read = _with_macros(read, codes, macros)
    at_unit = at_unit or "$unit" in codes
    facts = _Facts(found, at_unit, read, macros)
    if len(_FILES) > 8:
        _FILES.clear()
    _FILES[id(design)] = (design, facts)
    return facts


def _listed(design: Design) -> set[Path]:
    """Every file a filelist of the repository lists (the design's prelude too)."""
    from rtlopt.evaluate._builds import repository_filelists

    out = {Path(p).resolve() for p in design.sources.prelude}
    try:
        for lst in repository_filelists(Path(design.root)):
            out |= {Path(p).resolve() for p in lst.units}
    except OSError:
        pass
    return out


#: A command file's option and the file it names (``iverilog -c cmds.txt``, ``-f files``).
_COMMAND_FILE = re.compile(r"(?<![\w-])-[cfF][ \t]+([\w.$/+-]+)")


def _named_with_target(design: Design, texts: list[tuple[Path, str]]) -> set[Path]:
    """The repository files (with a suffix, no filelist) a line that names the target's file
    names too (a Makefile's ``iverilog p.sv consts.txt m.v``: whatever its suffix, a build
    compiles it); a command file there (``-c cmds.txt``) is read as one: the files it lists
    (:func:`_command_file`), never the file itself (not Verilog: slang crashed on one)."""
    name = design.target.file.name
    by_name: dict[str, list[Path]] = {}
    for p, _ in texts:
        if p.suffix and p.suffix not in (".f", ".vc", ".flist"):
            by_name.setdefault(p.name, []).append(p.resolve())
    out: set[Path] = set()
    for _p, t in texts:
        if name not in t and not _GLOB.search(t):
            continue
        # a command continued over lines (`\` at a line's end) is one line (round 126, 06L)
        for line in re.sub(r"\\\r?\n", " ", t).splitlines():
            if name in line or _globbed(line, name):
                commands = {m.group(1) for m in _COMMAND_FILE.finditer(line)}
                for w in set(re.findall(r"[\w.$/+-]+", line)):
                    found = by_name.get(w.rsplit("/", 1)[-1], [])
                    if w in commands:
                        out.update(f for c in found for f in _command_file(design, c))
                    else:
                        out.update(found)
    return out


#: A word with a wildcard (``*.v``, ``$(wildcard rtl/*.sv)``): a build compiles what it matches.
_GLOB = re.compile(r"[\w./$()-]*[*?][\w./*?-]*")


def _globbed(line: str, name: str) -> bool:
    """Whether a wildcard word of ``line`` matches the file name ``name`` (round 126, 06t:
    ``iverilog consts.txt $(wildcard *.v)``)."""
    import fnmatch

    return any(fnmatch.fnmatch(name, w.rsplit("/", 1)[-1].strip("()")) for w in _GLOB.findall(line))


def _command_file(design: Design, path: Path) -> set[Path]:
    """The files the command file ``path`` lists (its ``-v`` files too), resolved; none
    where it does not read (a file it lists is missing)."""
    from rtlopt.errors import RtloptError
    from rtlopt.frontend import read_filelist

    try:
        lst = read_filelist(path, Path(design.root), variables=design.sources.filelist_vars)
    except (RtloptError, OSError) as exc:
        log.info("command file %s not read: %s", path, exc)
        return set()
    return {Path(f).resolve() for f in [*lst.units, *lst.library_files]}


def _rel(path: Path, design: Design) -> str:
    try:
        return path.resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        return str(path)
