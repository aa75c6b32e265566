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
"""

from __future__ import annotations

import re
import tempfile
import weakref
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rtlopt.frontend.model import Design
from rtlopt.harness._semantics import PowerUp, power_up_values_in

__all__ = ["unit_power_up", "text_power_up"]

#: slang's warnings read past: layout alone (the text reads the same), and a macro defined
#: again (every tool, as slang, takes the last definition; a candidate's file repeats the
#: target's context). Every other diagnostic fails the reading closed.
_READ_PAST = frozenset(
    {"NewlineEOF", "MisleadingIndentation", "EmptyMember", "EmptyStatement", "RedefiningMacro"}
)

#: :func:`unit_power_up` per design object (at most 8; a design's files do not change while
#: it is evaluated).
_UNITS: dict[int, tuple[weakref.ref[Design], PowerUp | str]] = {}


def unit_power_up(design: Design) -> PowerUp:
    """The power-up values of the compilation unit the tools read for ``design`` (prelude,
    packages, closure), every unit (see the module's docstring), both ``SYNTHESIS`` states.

    Raises:
        RuntimeError: the unit cannot be read so (see the module's docstring).
    """
    from rtlopt.frontend._packages import package_files

    hit = _UNITS.get(id(design))
    if hit is None or hit[0]() is not design:
        pre = list(design.prelude)
        files = [*pre, *(f for f in [*package_files(design), *design.closure] if f not in pre)]
        try:
            found: PowerUp | str = _read(design, [*dict.fromkeys(files)], None)
        except RuntimeError as exc:
            found = str(exc)
        if len(_UNITS) > 8:
            _UNITS.clear()
        hit = _UNITS[id(design)] = (weakref.ref(design), found)
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


def _read(design: Design, files: Sequence[Path], text: str | None) -> PowerUp:
    """The values of ``files`` (then ``text``, as if in the target's folder) read as one
    unit, without and with ``SYNTHESIS``; a value of either reading counts.

    Raises:
        RuntimeError: besides what :func:`_read_once` raises, a conditional branch that no
            reading takes may state a power-up value (:func:`_dormant`): a tool defining
            another macro (``__ICARUS__``, ``YOSYS``, a build's ``+define+``) reads it.
    """
    out: PowerUp = {}
    base = dict(design.defines)
    dormant: set[tuple[str, int]] | None = None
    for defines in (base, {"SYNTHESIS": "", **base}):
        values, off = _read_once(design, files, text, defines)
        for unit, got in values.items():
            out[unit] = {**got, **out.get(unit, {})}
        dormant = off if dormant is None else dormant & off
        if "SYNTHESIS" in base:
            break  # one reading: the design's own defines set it
    if dormant:
        name, line = min(dormant)
        raise RuntimeError(
            f"{Path(name).name}:{line}: a conditional branch these readings do not take may "
            "state a power-up value (another tool's or build's macros select it)"
        )
    return out


#: Text of a branch that states a power-up value: an ``initial`` procedure, or a statement
#: declaring a variable (a port's too) with an initializer; also in a ```define``'s body.
_POWER_UP_TEXT = re.compile(
    r"\binitial\b|(?:^|;|`define\s+\w+(?:\([^)]*\))?)\s*"
    r"(?:(?:input|output|inout|ref|static|automatic|const|var)\s+)*"
    r"(?:reg|logic|bit|byte|shortint|int|longint|integer|time|var)\b[^;=]*=(?!=)"
)


def _dormant(tree: Any, sm: Any) -> set[tuple[str, int]]:
    """``(file, line)`` of each conditional branch the reading skipped whose text may state a
    power-up value (comments aside)."""
    from pyslang import parsing

    from rtlopt.verilog import blank_comments

    out: set[tuple[str, int]] = set()
    stack: list[Any] = [tree.root]
    while stack:
        node = stack.pop()
        if isinstance(node, parsing.Token):
            for tr in node.trivia:
                if tr.kind != parsing.TriviaKind.Directive:
                    continue
                directive = tr.syntax()
                skipped = getattr(directive, "disabledTokens", None)
                if not skipped:
                    continue
                text = blank_comments("".join(str(t) for t in skipped), strings=False)
                if _POWER_UP_TEXT.search(text):
                    at = directive.sourceRange.start
                    out.add((str(sm.getFullPath(at.buffer)), int(sm.getLineNumber(at))))
            continue
        stack.extend(c for c in node if c is not None)
    return out


def _read_once(
    design: Design, files: Sequence[Path], text: str | None, defines: Mapping[str, str]
) -> tuple[PowerUp, set[tuple[str, int]]]:
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor([*design.include_dirs, design.target.file.parent], defines)
    bag = pyslang.Bag([popts])
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
        raise RuntimeError(f"{name}:{sm.getLineNumber(at)}: slang's preprocessor or parser: {code}")
    _headers_read_alike(tree, sm, design)
    return power_up_values_in(tree.root), _dormant(tree, sm)


def _headers_read_alike(tree: Any, sm: Any, design: Design) -> None:
    """Raise where a header the tree includes has a namesake of other bytes in a folder a tool
    may search for it (beside the including file, beside any file of the design, an include
    folder): the tools need not read the one slang read."""
    folders = list(_folders(design))
    for inc in tree.getIncludeDirectives():
        if inc.buffer is None:
            continue
        read = Path(str(sm.getFullPath(inc.buffer.id)))
        name = str(inc.path)
        where = Path(str(sm.getFullPath(inc.syntax.directive.location.buffer))).parent
        try:
            mine = read.read_bytes()
            others = {d / name for d in [where, *folders] if (d / name).is_file()}
            if any(o.read_bytes() != mine for o in others):
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
