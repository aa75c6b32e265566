"""The names the reach rule (:mod:`._reach`) reads through slang rather than from raw words.

- :func:`elaborated`: slang elaborates the repository from its tops (the walk of
  :func:`rtlopt.frontend._params.parameterizations`) and lists every instance of the target
  by hierarchical path, whatever macro wrote it (```INST(m, u)``), and every name the
  target's elaborated scope declares (a register a macro pastes, ``c_q``; a generate block,
  ``genblk1``). A target nothing instantiates is a root: its path is its module name.
- :func:`preprocessed`: one file's text with its macros expanded and its includes resolved
  (slang's preprocessor, the simulator's reading and, where the file tests a macro, the
  synthesis reading too), or the reasons it is not whole (an unknown macro, a missing
  header): the rule then reads the raw text conservatively.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.frontend._slang import node_kind, preprocessor
from rtlopt.frontend.model import Design

__all__ = [
    "Elaborated",
    "Preprocessed",
    "definitions",
    "elaborated",
    "preprocessed",
    "read_lines",
    "readings",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Elaborated:
    """``instances``: the names of the target's instances (the last part of each path,
    without its index); ``inner``: the names its elaborated scopes declare, or None when
    slang could not elaborate the target."""

    instances: frozenset[str] = frozenset()
    inner: frozenset[str] | None = None


_ELABORATED: dict[int, tuple[Design, Elaborated]] = {}


def elaborated(design: Design) -> Elaborated:
    """The target's instances and inner names in the repository's elaboration (once per
    design; nothing known where slang cannot read the repository)."""
    hit = _ELABORATED.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_ELABORATED) > 8:
            _ELABORATED.clear()
        try:
            found = _elaborate(design)
        except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
            log.debug("the repository of %s not elaborated", design.target.name, exc_info=True)
            found = Elaborated()
        hit = _ELABORATED[id(design)] = (design, found)
    return hit[1]


def _elaborate(design: Design) -> Elaborated:
    from rtlopt.frontend._params import _compile, _instances

    name = design.target.name
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    bodies: list[Any] = []
    instances: set[str] = set()
    for tops in ((), (name,)):
        root = _compile(files, {}, design, tops=tops).getRoot()
        for top in root.topInstances:
            for _, inst in _instances(top, ""):
                if str(inst.body.definition.name) == name:
                    last = str(inst.hierarchicalPath).rsplit(".", 1)[-1]
                    instances.add(last.split("[", 1)[0].lstrip("\\").strip())
                    bodies.append(inst.body)
        if bodies:
            break
    inner = frozenset(n for body in bodies for n in _declared(body))
    return Elaborated(frozenset(instances - {""}), inner if bodies else None)


def _declared(scope: Any, depth: int = 0) -> Iterator[str]:
    """Every name ``scope`` declares, generate blocks and named blocks followed down."""
    for member in scope:
        text = str(getattr(member, "name", "") or "")
        if text:
            yield text
        kind = node_kind(member)
        if depth < 16 and kind in ("GenerateBlock", "GenerateBlockArray", "StatementBlock"):
            yield from _declared(member, depth + 1)


@dataclass(frozen=True)
class Preprocessed:
    """``texts``: a file's text in each reading, macros expanded and includes resolved;
    ``whole``: no reading met an unknown macro or a header it could not open."""

    texts: tuple[str, ...]
    whole: bool


_CONDITIONAL = re.compile(r"`(?:ifdef|ifndef|elsif)\b")
_DEFINE_LINE = re.compile(r"^[ \t]*`define\b(?:[^\n]*\\\n)*[^\n]*", re.M)
_INCOMPLETE = frozenset({"UnknownDirective", "CouldNotOpenIncludeFile", "UndefineBuiltinDirective"})


def definitions(texts: list[str]) -> str:
    """Every ```define`` line of ``texts`` (a build may define a macro in one file and use it
    in another it compiles after)."""
    return "\n".join(m.group(0) for t in texts if "`define" in t for m in _DEFINE_LINE.finditer(t))


def readings(design: Design, text: str) -> list[dict[str, str]]:
    """The defines of each reading of ``text`` the rule takes: the simulator's (``SYNTHESIS``
    undefined) and, where the text tests a macro, the synthesis reading's."""
    from rtlopt.evaluate._configs import SYNTHESIS_MACROS

    out = [{k: v for k, v in design.defines.items() if k not in SYNTHESIS_MACROS}]
    if _CONDITIONAL.search(text):
        out.append(dict(design.defines))
    return out


def preprocessed(design: Design, path: Path, text: str, defined: str) -> Preprocessed | None:
    """``text`` (the file ``path``) read through slang's preprocessor in the simulator's
    reading (``SYNTHESIS`` undefined) and, where it tests a macro, the synthesis reading;
    where a macro is unknown, read again after ``defined`` (the repository's definitions).
    None where slang cannot read it at all."""
    out: list[str] = []
    whole = True
    try:
        for defines in readings(design, text):
            got, ok = _read(design, path, text, defines, "")
            if not ok and defined:
                got, ok = _read(design, path, text, defines, defined)
            out.append(got)
            whole = whole and ok
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        log.debug("%s not preprocessed", path, exc_info=True)
        return None
    return Preprocessed(tuple(out), whole)


def _read(
    design: Design, path: Path, text: str, defines: dict[str, str], defined: str
) -> tuple[str, bool]:
    import pyslang
    from pyslang import syntax

    sm, popts = preprocessor(design.include_dirs, defines)
    bag = pyslang.Bag([popts])
    bufs = (
        [sm.assignText(str(path.parent / "<repository definitions>"), defined)] if defined else []
    )
    bufs.append(sm.assignText(str(path), text))
    tree = syntax.SyntaxTree.fromBuffers(bufs, sm, bag)
    printer = syntax.SyntaxPrinter()
    printer.setIncludeComments(False)
    printer.setExpandMacros(True)
    printer.setExpandIncludes(True)
    printer.setIncludeDirectives(False)
    printer.setIncludeSkipped(True)
    printer.print(tree.root)
    whole = not any(
        d.code.getSubsystem() == pyslang.DiagSubsystem.Preprocessor
        and str(d.code).removeprefix("DiagCode(").rstrip(")") in _INCOMPLETE
        for d in tree.diagnostics
    )
    return str(printer.str()), whole


_DIRECTIVE = re.compile(r"[ \t]*`(ifdef|ifndef|elsif|else|endif|define|undef)\b[ \t]*([\w$]*)")


def read_lines(
    text: str, readings: list[set[str]], elsewhere: set[str]
) -> tuple[set[int], set[int]]:
    """``(seen, bodies)``: the lines (from 1) of ``text`` that some reading (the macros each
    defines) surely compiles, and the lines of its ```define`` bodies. A conditional on a
    macro another file defines (``elsewhere``: the order a build reads them in decides) is
    not sure, nor is any line under it."""
    seen: set[int] = set()
    bodies: set[int] = set()
    lines = text.split("\n")
    for defines in readings:
        defined = set(defines)
        stack: list[tuple[bool | None, bool | None]] = []  # (this branch, an earlier one taken)
        body = False
        for number, line in enumerate(lines, 1):
            if body:
                bodies.add(number)
                body = line.rstrip().endswith("\\")
                continue
            m = _DIRECTIVE.match(line)
            on = all(s is True for s, _ in stack)
            if m is None:
                if on:
                    seen.add(number)
                continue
            kind, macro = m.groups()
            known = True if macro in defined else (None if macro in elsewhere else False)
            if kind in ("ifdef", "ifndef"):
                state = known if kind == "ifdef" or known is None else not known
                stack.append((state, state))
            elif kind in ("elsif", "else") and stack:
                taken = stack[-1][1]
                state = known if kind == "elsif" else True
                state = False if taken is True else (None if taken is None else state)
                stack[-1] = (state, True if True in (taken, state) else (taken or state))
            elif kind == "endif" and stack:
                stack.pop()
            elif kind == "define":
                bodies.add(number)
                body = line.rstrip().endswith("\\")
                if on and macro:
                    defined.add(macro)
            elif kind == "undef" and on:
                defined.discard(macro)
    return seen, bodies
