"""Which text macros another build of the repository may define differently.

A change of a module nothing instantiates that depends on such a macro cannot be probed
(evaluate/_params.py reports it unchecked); one the repository defines unconditionally (or
inside a file's own include guard) is fixed in every build.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.verilog import (
    CONDITIONAL_DIRECTIVES,
    PREPROCESSOR_DIRECTIVES,
    alternation,
    module_spans,
)

__all__ = [
    "configuration_macros",
    "macro_values",
    "design_text",
    "design_uses",
    "instance_conditions",
    "overridable_macros",
    "package_files",
    "reached_modules",
]

_DIRECTIVE = re.compile(rf"`({alternation([*CONDITIONAL_DIRECTIVES, 'define'])})\b[ \t]*(\w*)")
_NESTING = re.compile(r"`(ifdef|ifndef|elsif|endif)\b[ \t]*(\w*)")


def overridable_macros(design: Design, names: Sequence[str]) -> list[str]:
    """The macros of ``names`` another build of the repository may define differently: one
    the repository's files define inside a conditional (other than a file's include guard),
    so that another define on the command line selects another definition, or one they do not
    define at all outside the configuration's defines (then any build sets it). A macro the
    configuration defines, or a file defines unconditionally, is fixed."""
    from rtlopt.evaluate._configs import include_guard
    from rtlopt.evaluate._sources import files_read
    from rtlopt.frontend._unit import is_skeleton
    from rtlopt.verilog import blank_comments

    wanted = {n.lstrip("`") for n in names}  # the dependence names them as used: `W
    fixed: set[str] = {n for n in wanted if n in design.defines}
    guarded: set[str] = set()
    try:
        files = sorted(files_read(design))
    except Exception:  # noqa: BLE001 - fail closed: every macro stays open
        return list(names)
    read = {f.resolve() for f in files}
    # a file of the repository the design does not read (another configuration's header,
    # cfg/fpga/config.vh beside cfg/asic/config.vh) that defines the macro: another build
    # reads it
    for f, defined in _repository_defines(design.root).items():
        if f not in read:
            guarded |= defined & wanted
    for f in files:
        if is_skeleton(f):
            continue  # the directives of a repository file that is read here itself
        try:
            text = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        guard = include_guard(text)
        depth = 0
        for m in _DIRECTIVE.finditer(text):
            kind, word = m.group(1), m.group(2)
            if kind in ("ifdef", "ifndef"):
                depth += 1
            elif kind == "endif":
                depth = max(0, depth - 1)
            elif kind == "define" and word in wanted and word != guard:
                # inside the file's own include guard is unconditional
                (fixed if depth == (1 if guard else 0) else guarded).add(word)
    return [n for n in names if n.lstrip("`") in guarded or n.lstrip("`") not in fixed]


_SOURCE_SUFFIXES = (".v", ".sv", ".vh", ".svh", ".inc", ".h", ".vinc")


@functools.lru_cache(maxsize=8)
def _repository_defines(root: Path) -> dict[Path, frozenset[str]]:
    """The macros each Verilog source or header of the repository defines (outside rtlopt's
    own folders), read once per run."""
    from rtlopt.verilog import blank_comments

    out: dict[Path, frozenset[str]] = {}
    for f in root.rglob("*"):
        if f.suffix not in _SOURCE_SUFFIXES or {".rtlopt", ".git"} & set(f.parts):
            continue
        try:
            text = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        names = frozenset(m.group(2) for m in _DIRECTIVE.finditer(text) if m.group(1) == "define")
        if names:
            out[f.resolve()] = names
    return out


def configuration_macros(
    design: Design,
    module: str,
    files: Sequence[Path],
    reached: Collection[str] | None = None,
) -> frozenset[str]:
    """What outside the module's own text (``module``: the reference's and the candidate's,
    comments blanked) selects what the design reads, besides the macros the submodules'
    ``files`` test: the macros whose conditionals select a definition of a macro the module
    or those files use (anywhere in the sources, the prelude or a header they include), or a
    macro the body of such a definition uses; and an :data:`OTHER_BUILD` mark for a macro the
    module or those files use that a repository file this build does not read defines
    (another build's configuration header). A module of ``files`` another repository file
    defines otherwise (another filelist's) is another configuration proven in its own right
    (``evaluate/_alternatives.py``).

    ``reached``: the modules the target's design reads (:func:`reached_modules`); the text of
    any other module of ``files`` is left out (its directives kept), as a macro it expands
    does not reach the target. None: every module of ``files`` counts."""
    from rtlopt.evaluate._configs import OTHER_BUILD, read_files, selecting_macros, used_macros
    from rtlopt.harness._verification_only import hardware_reading, verification_only

    known = [*design.prelude, *design.sources.files, *design.closure]
    hardware = verification_only(design)  # a build defining FORMAL alone: none to prove
    sources = read_files(dict.fromkeys(known), design.include_dirs, hardware=hardware)
    # a definition the sources hold as written counts where its macro is used (its body's
    # macros then follow, :func:`_through_bodies`), not where it stands
    written = {" ".join(m[0].split()) for _, code in sources for m in _DEFINE_BODY.finditer(code)}

    def uses(text: str) -> set[str]:
        return used_macros(
            _DEFINE_BODY.sub(lambda m: "" if " ".join(m[0].split()) in written else m[0], text)
        )

    used = uses(module)
    for f in files:
        try:
            code = hardware_reading(design, blank_comments_of(f))
        except OSError:
            continue
        used |= uses(code if reached is None else design_text(code, reached))
    used = _through_bodies(sources, used)
    found, defaults = selecting_macros(sources, used)
    out = set(found) | instance_conditions(design)
    for name, f in defaults.items():
        if name not in design.defines:
            out.add(
                f"{OTHER_BUILD}{_rel(design, f)} gives macro {name} an overridable default "
                f"(`ifndef {name}), so a build that defines {name} reads another value"
            )
    read = {f.resolve() for f, _ in sources}
    for f, defined in _repository_defines(design.root).items():
        for name in sorted(defined & used) if f not in read else ():
            out.add(
                f"{OTHER_BUILD}macro {name} is also defined by {_rel(design, f)}, which this "
                "build does not read"
            )
    return frozenset(out)


_DEFINE_BODY = re.compile(r"`define[ \t]+([A-Za-z_][\w$]*)((?:\\\n|[^\n])*)")


def _through_bodies(sources: Sequence[tuple[Path, str]], used: set[str]) -> set[str]:
    """``used`` and the macros the bodies of their definitions in ``sources`` use, to the
    end (```define W `X`` read where ```W`` is used reads ```X`` too)."""
    from rtlopt.evaluate._configs import used_macros

    bodies: dict[str, set[str]] = {}
    for _, code in sources:
        for m in _DEFINE_BODY.finditer(code):
            bodies.setdefault(m.group(1), set()).update(used_macros(m.group(2)))
    out, todo = set(used), list(used)
    while todo:
        for name in bodies.get(todo.pop(), ()):
            if name not in out:
                out.add(name)
                todo.append(name)
    return out


_WORD = re.compile(r"[A-Za-z_][\w$]*")
_KEPT = re.compile(rf"`(?:{alternation(PREPROCESSOR_DIRECTIVES)})\b(?:\\\n|[^\n])*")


def reached_modules(design: Design, texts: Sequence[str], candidate: str = "") -> frozenset[str]:
    """The modules the target's design may read: the target, its submodules, and every module
    whose name is a word of ``texts`` (the target's own text, the candidate's), of a module
    already reached (the candidate's own definition first) or of a ```define`` body of the
    sources of a macro one of them uses (an instance whose type a macro names), to the end. A
    word, not an instance: a name in a branch this build does not take, or that only looks
    like one, also counts."""
    from rtlopt.evaluate._configs import read_files, used_macros

    known = [*design.prelude, *design.sources.files, *design.closure]
    bodies: dict[str, list[str]] = {}
    for _, code in read_files(dict.fromkeys(known), design.include_dirs):
        for m in _DEFINE_BODY.finditer(code):
            bodies.setdefault(m.group(1), []).append(m.group(2))
    own = {m.name: candidate[m.start : m.end] for m in module_spans(candidate)}
    out: set[str] = set()
    expanded: set[str] = set()
    # a candidate without the target's definition: all its text counts
    todo = [*texts, candidate if design.target.name not in own else ""]
    names = [design.target.name, *design.submodules]
    while todo or names:
        if todo:
            text = todo.pop()
            names += _WORD.findall(text)
            for macro in used_macros(text) - expanded:
                expanded.add(macro)
                todo += bodies.get(macro, [])
            continue
        name = names.pop()
        if name in out or (name not in design.modules and name not in own):
            continue
        out.add(name)
        if name in own:
            todo.append(own[name])
        mod = design.modules.get(name)
        if mod is not None:
            try:
                todo.append(mod.text())
            except OSError:
                return frozenset(design.modules) | frozenset(own)  # fail closed: all
    return frozenset(out)


def blank_comments_of(f: Path) -> str:
    from rtlopt.verilog import blank_comments

    return blank_comments(f.read_text(errors="replace"), strings=False)


def _rel(design: Design, f: Path) -> str:
    try:
        return str(f.relative_to(design.root.resolve()))
    except ValueError:
        return str(f)


_PACKAGE_USE = re.compile(r"\b([A-Za-z_][\w$]*)\s*::")
_PACKAGE = re.compile(r"^[ \t]*package\s+(?:(?:static|automatic)\s+)?([A-Za-z_][\w$]*)", re.M)


def package_files(design: Design, texts: Sequence[str]) -> list[Path]:
    """The source files that define a package ``texts`` (or a package they name) use
    (``cfg_pkg::K``, ``import cfg_pkg::*``): their conditionals select what the module
    reads too."""
    wanted = {n for t in texts for n in _PACKAGE_USE.findall(t)}
    table = _packages(tuple(dict.fromkeys([*design.prelude, *design.sources.files])))
    out: list[Path] = []
    grew = True
    while grew and wanted:
        grew = False
        for f, defined, used in table:
            if f not in out and wanted & defined:
                out.append(f)
                wanted |= used
                grew = True
    return out


@functools.lru_cache(maxsize=8)
def _packages(files: tuple[Path, ...]) -> tuple[tuple[Path, frozenset[str], frozenset[str]], ...]:
    """``(file, the packages it defines, the packages it names)`` of each file defining one."""
    from rtlopt.verilog import blank_comments

    out = []
    for f in files:
        try:
            code = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        defined = frozenset(_PACKAGE.findall(code))
        if defined:
            out.append((f, defined, frozenset(_PACKAGE_USE.findall(code))))
    return tuple(out)


def instance_conditions(design: Design) -> frozenset[str]:
    """The macros of the conditionals around an instance of the target in the design's
    sources (include guards and the flow's macros aside): a parent may give it other
    parameters in another configuration (```ifdef FAST tgt #(.K(5)) u ...``), which that
    configuration's proof elaborates."""
    from rtlopt.evaluate._configs import TOOL_MACROS, include_guard, open_conditionals, read_files
    from rtlopt.harness._verification_only import verification_only
    from rtlopt.verilog_instances import instances_of

    known = dict.fromkeys([*design.prelude, *design.sources.files])
    out: set[str] = set()
    # an instance only a build defining FORMAL reads gives no hardware build parameters
    for _, code in read_files(known, (), hardware=verification_only(design)):
        sites = [i.start for i in instances_of(code, design.target.name)]
        if not sites or "`if" not in code:
            continue
        guard, at = include_guard(code), 0
        for d, stack in open_conditionals(code, _NESTING):
            while at < len(sites) and sites[at] < d.start():
                out |= {m for chain in stack for m in chain if m and m != guard}
                at += 1
    return frozenset(out - TOOL_MACROS)


def design_text(code: str, reached: Collection[str]) -> str:
    """``code`` (comments blanked) with the text of each module not in ``reached`` left out
    but for its directive lines (a ```define`` inside it is read by what follows); a module
    holding a reached one is kept whole."""
    spans = module_spans(code)
    keep = [m for m in spans if m.name in reached]
    parts: list[str] = []
    at = 0
    for m in spans:
        if m.name in reached or m.start < at:
            continue
        if any(m.start <= k.start < m.end or k.start <= m.start < k.end for k in keep):
            continue  # it holds a reached module, or a reached module holds it
        parts.append(code[at : m.start])
        parts += [d.group(0) + "\n" for d in _KEPT.finditer(code, m.start, m.end)]
        at = m.end
    parts.append(code[at:])
    return "".join(parts)


def design_uses(design: Design, module: str, candidate: str) -> tuple[str, str, frozenset[str]]:
    """What the target's design reads of ``candidate`` (comments blanked, the modules nothing
    it reaches instantiates left out: :func:`design_text`), the text whose macros it uses
    (the reference module ``module``, that, and the target's file as the design reads it:
    its directives and the modules reached) and the modules reached."""
    mine = blank_comments_of_text(module)
    code = blank_comments_of_text(candidate)
    reached = reached_modules(design, [mine], code)
    code = design_text(code, reached)
    try:
        whole = blank_comments_of(design.target.file)
    except OSError:
        whole = ""
    return code, mine + "\n" + code + "\n" + design_text(whole, reached), reached


def blank_comments_of_text(text: str) -> str:
    from rtlopt.verilog import blank_comments

    return blank_comments(text, strings=False)


#: A macro's use in code (no compiler directive): its value may differ from build to build.
_MACRO_VALUE = re.compile(
    r"`(?!(?:ifdef|ifndef|elsif|else|endif|define|undef|undefineall|include|timescale|"
    r"default_nettype|resetall|celldefine|endcelldefine|line|pragma|begin_keywords|"
    r"end_keywords|unconnected_drive|nounconnected_drive|__FILE__|__LINE__)\b)[A-Za-z_]\w*"
)


def macro_values(text: str) -> bool:
    """Whether ``text`` (comments blanked) uses a macro's value in its code."""
    from rtlopt.verilog import blank_comments

    return bool(_MACRO_VALUE.search(blank_comments(text)))
