"""Power-up values of the text the tools read: macros and included headers expanded in the
design's context, every design unit (modules, interfaces, packages, ``$unit``, ...).

A power-up value may be written anywhere the tools read: in a header included inside a module
(whole, or finishing a declaration around the ```include``), in a macro a file defines, in an
interface, a package or the compilation unit. :func:`unit_power_up` reads the reference's
compilation unit as the slang view does (the prelude, the packages, the closure; the design's
include folders and defines; once without and once with ``SYNTHESIS`` defined, as simulators
and synthesis read it) with slang's preprocessor, includes and macros expanded, and takes the
values from that tree (:func:`~rtlopt.harness._semantics.power_up_values_in`);
:func:`text_power_up` reads a candidate's text the same way in front of the target's context.
What cannot be read so raises :class:`RuntimeError` (the comparison is then unchecked): any
diagnostic of slang's preprocessor or parser (an undefined macro, a header not found, a
fragment that does not parse; only the warnings of :data:`_READ_PAST` are read past) and
any header name that names files of other bytes in another folder a tool may search (which
one a tool reads first is not known here).

The same readings give the rules that judge text (:mod:`rtlopt.harness._dropped`, the
screen's word and structure rules) the text the tools read: :func:`unit_texts` prints each
unit of the reference's compilation unit, :func:`text_read` a candidate's text, headers and
macros expanded, directives dropped.
"""

from __future__ import annotations

import re
import tempfile
import weakref
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from rtlopt.frontend.model import Design
from rtlopt.harness._dormant import (
    ASSERTION_TEXT,
    POWER_UP_TEXT,
    Skipped,
    never_taken,
    only_assertions,
    only_reporting_assertions,
    raise_dormant,
    skipped,
)
from rtlopt.harness._semantics import PowerUp, power_up_values_in
from rtlopt.harness._verification_only import verification_only
from rtlopt.harness._vocabulary import SYNTHESIS_MACROS

__all__ = ["module_texts", "text_power_up", "text_read", "unit_power_up", "unit_texts"]

#: slang's warnings read past: layout alone (the text reads the same), and a macro defined
#: again (every tool, as slang, takes the last definition; a candidate's file repeats the
#: target's context), and an `ifndef` whose next line defines another macro than it tests
#: (HeaderGuardMismatch: a note on style). Every other diagnostic fails the reading closed.
_READ_PAST = frozenset(
    {
        "NewlineEOF",
        "MisleadingIndentation",
        "EmptyMember",
        "EmptyStatement",
        "RedefiningMacro",
        "HeaderGuardMismatch",
    }
)

#: :func:`unit_power_up` per design object (at most 8; a design's files do not change while
#: it is evaluated).
_UNITS: dict[int, tuple[weakref.ref[Design], PowerUp | str]] = {}
_T = TypeVar("_T")


def unit_power_up(design: Design) -> PowerUp:
    """The power-up values of the compilation unit the tools read for ``design`` (prelude,
    packages, closure), every unit (see the module's docstring), both ``SYNTHESIS`` states.

    Raises:
        RuntimeError: the unit cannot be read so (see the module's docstring).
    """
    return _once(_UNITS, design, lambda: _read(design, _unit_files(design), None))


#: :func:`unit_texts` per design object (at most 8).
_TEXTS: dict[int, tuple[weakref.ref[Design], list[str] | str]] = {}


def unit_texts(design: Design) -> list[str]:
    """The text the tools read for ``design`` (its compilation unit as :func:`unit_power_up`
    reads it), one text per unit and ``SYNTHESIS`` state, headers and macros expanded,
    directives and comments dropped: every unit that is no module (interfaces, packages,
    programs, checkers, classes, ``$unit`` items) and the modules of the hierarchy (the
    target and its submodules; every module where the unit holds a ``bind``).

    Raises:
        RuntimeError: the unit cannot be read so (see the module's docstring).
    """
    hierarchy = {_name(n) for n in (design.target.name, *design.submodules)}

    def read() -> list[str]:
        out: list[str] = []
        readings: list[Skipped] = []
        for defines in _states(design):
            tree, sm = _tree(design, _unit_files(design), None, defines)
            out += [_printed(u) for u in _units(tree.root, hierarchy)]
            readings.append(skipped(tree, sm))
        hardware = verification_only(design)
        dormant = never_taken(
            readings, ASSERTION_TEXT, only_reporting_assertions, hardware=hardware
        )
        raise_dormant(dormant, "hold an assertion that does more than report")
        return out

    return _once(_TEXTS, design, read)


def module_texts(design: Design, names: Collection[str]) -> list[str]:
    """The repository's modules ``names`` as the tools read them: their files read after the
    design's compilation unit, headers and macros expanded, once per ``SYNTHESIS`` state.

    Raises:
        RuntimeError: the files cannot be read so, or a module is found in no reading.
    """
    from rtlopt.harness._semantics import _kind

    wanted = {_name(n) for n in names}
    files = [*_unit_files(design), *(design.modules[n].file for n in names if n in design.modules)]
    out: list[str] = []
    seen: set[str] = set()
    for defines in _states(design):
        tree, _ = _tree(design, [*dict.fromkeys(files)], None, defines)
        for m in tree.root.members:
            name = _name(str(m.header.name.valueText)) if _kind(m) == "ModuleDeclaration" else ""
            if name in wanted:
                seen.add(name)
                out.append(_printed(m))
    if wanted - seen:
        raise RuntimeError(f"module {sorted(wanted - seen)[0]} is found in no reading")
    return out


#: Marks where a candidate's own text begins in its printed reading (:func:`text_read`).
_MARK = "/*rtlopt-candidate-text-begins*/"


def text_read(text: str, design: Design) -> list[str]:
    """``text`` (a candidate) as :func:`text_power_up` reads it, printed with its headers and
    macros expanded (directives dropped, comments kept, the target's context left out), once
    per ``SYNTHESIS`` state.

    Raises:
        RuntimeError: the text cannot be read so (see the module's docstring).
    """
    from rtlopt.harness._reference import target_context_text

    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rtlopt-read-") as tmp:
        context = Path(tmp) / "target_context.vh"
        context.write_text(target_context_text(design))
        for defines in _states(design):
            tree, _ = _tree(design, [*design.prelude, context], _MARK + text, defines)
            printed = _printed(tree.root, comments=True)
            at = printed.find(_MARK)  # the first: the context is the repository's
            if at < 0:
                raise RuntimeError("the candidate's text is not found in its reading")
            out.append(printed[at + len(_MARK) :])
    return out


def _name(name: str) -> str:
    return name.strip().lstrip("\\")


def _units(root: Any, hierarchy: set[str]) -> list[Any]:
    """The members of a compilation unit the tools elaborate for a design whose modules are
    ``hierarchy``: all but the modules outside it (every module where one binds)."""
    from rtlopt.harness._semantics import _kind, _walk

    binds = any(_kind(n) == "BindDirective" for n in _walk(root))
    return [
        m
        for m in root.members
        if binds
        or _kind(m) != "ModuleDeclaration"
        or _name(str(m.header.name.valueText)) in hierarchy
    ]


def _printed(node: Any, comments: bool = False) -> str:
    from pyslang import syntax

    printer = syntax.SyntaxPrinter()
    printer.setExpandMacros(True)
    printer.setExpandIncludes(True)
    printer.setIncludeDirectives(False)
    printer.setIncludeComments(comments)
    printer.print(node)
    return str(printer.str())


def _unit_files(design: Design) -> list[Path]:
    from rtlopt.frontend._packages import package_files

    pre = list(design.prelude)
    files = [*pre, *(f for f in [*package_files(design), *design.closure] if f not in pre)]
    return [*dict.fromkeys(files)]


def _once(
    cache: dict[int, tuple[weakref.ref[Design], _T | str]], design: Design, read: Callable[[], _T]
) -> _T:
    """``read()`` once per design object (a design's files do not change while it is
    evaluated); a :class:`RuntimeError` is kept and raised again."""
    hit = cache.get(id(design))
    if hit is None or hit[0]() is not design:
        try:
            found: _T | str = read()
        except RuntimeError as exc:
            found = str(exc)
        if len(cache) > 8:
            cache.clear()
        hit = cache[id(design)] = (weakref.ref(design), found)
    if isinstance(hit[1], str):
        raise RuntimeError(hit[1])
    return hit[1]


def text_power_up(text: str, design: Design) -> PowerUp:
    """The power-up values of ``text`` (a candidate) read in front of the target's context (the
    prelude, the target file's directives), its relative includes from the target's folder,
    both ``SYNTHESIS`` states.

    Raises:
        RuntimeError: the text cannot be read so (see the module's docstring).
    """
    from rtlopt.harness._reference import target_context_text

    with tempfile.TemporaryDirectory(prefix="rtlopt-powerup-") as tmp:
        context = Path(tmp) / "target_context.vh"
        context.write_text(target_context_text(design))
        return _read(design, [*design.prelude, context], text)


#: Macros a tool defines of itself, with the others it defines beside (Yosys: ``SYNTHESIS``):
#: the written text is read under each by some tool, so each is a reading of its own where the
#: design's texts test it.
_TOOL_READINGS: dict[str, tuple[str, ...]] = {
    "__ICARUS__": (),
    "YOSYS": ("SYNTHESIS",),
    "VERILATOR": (),
    "XILINX_SIMULATOR": (),
    "MODEL_TECH": (),
    "QUESTA": (),
    "VCS": (),
    "INCA": (),
    "XCELIUM": (),
    "RIVIERA": (),
    "COCOTB_SIM": (),
}
_TESTED = re.compile(r"`(?:ifdef|ifndef|elsif)\s+(\w+)")
#: Larger files are no design text (a waveform, an image) and are not scanned for macros.
_SCANNED_BYTES = 4_000_000
#: The tool macros each design's texts test (per design object).
_TOOLS_TESTED: dict[int, tuple[weakref.ref[Design], dict[str, frozenset[str]] | str]] = {}


def _states(design: Design) -> list[dict[str, str]]:
    """The defines of each reading: the design's (synthesis: ``SYNTHESIS`` defined, as every
    design's defines have it), the same without ``SYNTHESIS`` (what a simulator reads), then
    each tool's own macros the design's texts test (:data:`_TOOL_READINGS`) on the simulator
    reading (a simulator defines its own macro, never ``SYNTHESIS``; Yosys defines both). A
    simulator defines neither ``SYNTHESIS`` nor ``YOSYS``, whatever the repository's synthesis
    flow defines beside them (ibex's ``YOSYS`` picks assertion macros only Yosys parses)."""
    synthesis = {"SYNTHESIS": "", **design.defines}
    simulator = {k: v for k, v in synthesis.items() if k not in SYNTHESIS_MACROS}
    out = [synthesis, simulator]
    for tool in sorted(_tools_tested(design) | _tools_opened(design)):
        state = {**dict.fromkeys((tool, *_TOOL_READINGS[tool]), ""), **simulator}
        if tool not in simulator and state not in out:
            out.append(state)
    return out


#: The tool macros a conditional tests in a file the base reading opens (per design object).
_TOOLS_OPENED: dict[int, tuple[weakref.ref[Design], frozenset[str] | str]] = {}


def _tools_opened(design: Design) -> frozenset[str]:
    """The tool macros a conditional tests in any file the reference's synthesis or simulator
    reading opens (every header either includes, whatever its name or folder)."""

    def read() -> frozenset[str]:
        synthesis = {"SYNTHESIS": "", **design.defines}
        simulator = {k: v for k, v in synthesis.items() if k not in SYNTHESIS_MACROS}
        found: set[str] = set()
        for defines in (synthesis, simulator):
            _, sm = _tree(design, _unit_files(design), None, defines)
            for buf in sm.getAllBuffers():
                found.update(_TESTED.findall(str(sm.getSourceText(buf))))
        return frozenset(found) & _TOOL_READINGS.keys()

    got: frozenset[str] = _once(_TOOLS_OPENED, design, read)
    return got


def tests_macros(design: Design) -> bool:
    """Whether a file the design may read holds a conditional (some build or tool may read
    another text than this one): the Verilog path's preprocessed unit is one reading only."""
    return bool(_once(_TOOLS_TESTED, design, lambda: _tested(design)).get("any"))


def _tools_tested(design: Design) -> frozenset[str]:
    """The tool macros a conditional tests in a file the design may read (its sources, the
    headers in its folders)."""
    return _once(_TOOLS_TESTED, design, lambda: _tested(design))["tools"]


def _tested(design: Design) -> dict[str, frozenset[str]]:
    """``{"any": every macro a conditional tests, "tools": those of them tools define}`` over
    the files the design may read (its sources, the headers in its folders)."""
    files = [*_unit_files(design), *design.sources.files]
    for folder in _folders(design):
        try:  # a header of any suffix (``.vinc``, ``.v``) may be included
            files += [f for f in folder.iterdir() if f.is_file()]
        except OSError:
            continue
    found: set[str] = set()
    for f in dict.fromkeys(files):
        try:
            if Path(f).stat().st_size <= _SCANNED_BYTES:
                found.update(_TESTED.findall(Path(f).read_text(errors="replace")))
        except OSError:
            continue
    return {"any": frozenset(found), "tools": frozenset(found) & _TOOL_READINGS.keys()}


def _read(design: Design, files: Sequence[Path], text: str | None) -> PowerUp:
    """The values of ``files`` (then ``text``, as if in the target's folder) read as one
    unit in every reading (:func:`_states`); each must state the same values.

    Raises:
        RuntimeError: besides what :func:`_tree` raises, a conditional branch that no
            reading takes may state a power-up value (:mod:`rtlopt.harness._dormant`): a
            tool defining another macro (``__ICARUS__``, ``YOSYS``, a build's ``+define+``)
            reads it; the readings state other values (the proof reads the synthesis one).
    """
    out: PowerUp | None = None
    readings: list[Skipped] = []
    for defines in _states(design):
        tree, sm = _tree(design, files, text, defines)
        found = power_up_values_in(tree.root)
        if out is not None and out != found:
            raise RuntimeError(_read_otherwise(out, found, defines))
        out = found
        if text is None:  # the repository's unit (a candidate holds no conditional)
            readings.append(skipped(tree, sm))
    hardware = verification_only(design)
    # a run of assertions that only report states nothing (a parameter check in `initial`)
    dormant = never_taken(readings, POWER_UP_TEXT, only_assertions, hardware=hardware)
    raise_dormant(_in_hierarchy(design, dormant, readings), "state a power-up value")
    return out or {}


def _in_hierarchy(
    design: Design, found: set[tuple[str, int]], readings: Sequence[Skipped]
) -> set[tuple[str, int]]:
    """``found`` without the lines inside a module that is not the target's or a
    submodule's (another module of a shared file: picorv32.v's core beside its adapters);
    lines outside every module (a header, file-level directives) stay, and so do those of a
    module that defines a macro (the unit's from there on) and every line where a text holds a
    ``bind`` (it may put a module's code into the hierarchy)."""
    from rtlopt.verilog import module_spans

    hierarchy = {_name(n) for n in (design.target.name, *design.submodules)}
    texts = {name: text for r in readings for name, text in r.files.items()}
    if any(re.search(r"\bbind\b", text) for text in texts.values()):
        return found  # a bind may put any module's code into the hierarchy
    out: set[tuple[str, int]] = set()
    for name, line in found:
        text = texts.get(name, "")
        at = sum(len(x) + 1 for x in text.split("\n")[: line - 1])
        inside = [s for s in module_spans(text) if s.start <= at < s.end]
        # a macro a branch defines is the whole unit's from there on, whatever module it is in
        defines = any("`define" in text[s.start : s.end] for s in inside)
        if not inside or defines or any(_name(s.name) in hierarchy for s in inside):
            out.add((name, line))
    return out


def _read_otherwise(first: PowerUp, other: PowerUp, defines: Mapping[str, str]) -> str:
    """Why two readings' power-up values differ (the proof reads one: the synthesis reading)."""
    unit = next(u for u in sorted({*first, *other}) if first.get(u) != other.get(u))
    mine, theirs = first.get(unit, {}), other.get(unit, {})
    reg = next(r for r in sorted({*mine, *theirs}) if mine.get(r) != theirs.get(r))
    other_reading = (
        f"the reading with {' '.join(sorted(defines))} defined"
        if "SYNTHESIS" in defines
        else "a simulator's reading (SYNTHESIS undefined"
        + (f"; {' '.join(sorted(defines))} defined)" if defines else ")")
    )
    return (
        f"the power-up value of {reg} in {unit} differs between the synthesis reading and "
        f"{other_reading}; the proof reads one of them"
    )


def _tree(
    design: Design, files: Sequence[Path], text: str | None, defines: Mapping[str, str]
) -> tuple[Any, Any]:
    """The syntax tree of ``files`` (then ``text``) read as one unit, and its source
    manager; raise on any diagnostic but those of :data:`_READ_PAST`."""
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor([*design.include_dirs, design.target.file.parent], defines)
    bag = pyslang.Bag([popts])
    tools = [t for t in _TOOL_READINGS if t in defines]
    with tempfile.TemporaryDirectory(prefix="rtlopt-reading-") as tmp:
        # a tool's own reading: the prelude (which undefines __ICARUS__ for the tools rtlopt
        # runs) keeps that tool's macro, as the tool reading the written text does
        files = [_kept(Path(f), tools, Path(tmp), design) for f in files]
        try:
            if text is None:
                tree = syntax.SyntaxTree.fromFiles([str(f) for f in files], sm, bag)
            else:
                head = "".join(f'`include "{Path(f).as_posix()}" ' for f in files)
                # named as a file of the target's folder: its relative includes are found there
                where = design.target.file.parent / "rtlopt_candidate.sv"
                tree = syntax.SyntaxTree.fromText(head + text, sm, "candidate", str(where), bag)
        except Exception as exc:  # noqa: BLE001 - pyslang's bindings raise plain errors
            raise RuntimeError(f"slang cannot read it: {exc}") from exc
        for diag in tree.diagnostics:
            code = str(diag.code).removeprefix("DiagCode(").rstrip(")")
            if code in _READ_PAST and not diag.isError():
                continue
            at = diag.location
            name = Path(str(sm.getFullPath(at.buffer))).name or "the text"
            raise RuntimeError(
                f"{name}:{sm.getLineNumber(at)}: slang's preprocessor or parser: {code}"
            )
        _headers_read_alike(tree, sm, design)
    return tree, sm


def _kept(f: Path, tools: Sequence[str], tmp: Path, design: Design) -> Path:
    """``f``, or for a prelude file that undefines one of ``tools``, a copy without that."""
    if not tools or f not in design.prelude:
        return f
    text = f.read_text(errors="replace")
    kept = re.sub(rf"^[ \t]*`undef[ \t]+(?:{'|'.join(tools)})\b.*$", "", text, flags=re.M)
    if kept == text:
        return f
    out = tmp / f"{len(list(tmp.iterdir()))}_{f.name}"
    out.write_text(kept)
    return out


def _headers_read_alike(tree: Any, sm: Any, design: Design) -> None:
    """Raise where a header the tree includes has a namesake of other bytes in a folder a tool
    may search for it (beside the including file, beside any file of the design, an include
    folder): the tools need not read the one slang read."""
    folders = list(_folders(design))
    for inc in tree.getIncludeDirectives():
        if inc.buffer is None:
            continue
        name = str(inc.path)
        where = Path(str(sm.getFullPath(inc.syntax.directive.location.buffer))).parent
        # an empty buffer: slang read that header before and skips it behind its include
        # guard; its namesakes must still be alike
        read = [Path(str(sm.getFullPath(inc.buffer.id)))] if inc.buffer else []
        try:
            others = [d / name for d in [where, *folders] if (d / name).is_file()]
            if len({f.read_bytes() for f in [*read, *others]}) > 1:
                raise RuntimeError(
                    f'the header "{name}" names files of other contents in folders the tools '
                    "search: which one each tool reads is not known here"
                )
        except OSError as exc:
            raise RuntimeError(f'the header "{name}" cannot be read: {exc}') from exc


def _folders(design: Design) -> Iterable[Path]:
    files = [
        design.target.file,
        *(m.file for m in design.modules.values()),
        *design.prelude,
        *design.closure,
        *design.sources.files,
    ]
    return dict.fromkeys([*(Path(f).parent for f in files), *design.include_dirs])
