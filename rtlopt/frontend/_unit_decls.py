"""The declarations a file makes in its compilation unit's scope (``$unit``).

Text outside every module, package, interface, program, primitive, config and checker of a
file (a ``localparam``, ``parameter``, ``typedef`` with its enum members, ``function``,
``task``, net or variable, ``let``, ``class``, an ``import``) is declared in the scope of the
compilation unit: every other file compiled in the same unit reads it, and a unit-scope
declaration wins over a name a wildcard ``import pkg::*`` at unit scope would bring
(IEEE 1800 26.3). :func:`unit_declarations` lists them by name, as slang elaborates the
file alone (its includes read from its folder and the given include folders); a file whose
unit-scope text slang cannot read whole (an unknown macro there, a header it cannot find)
is reported as such (``unreadable``): it may declare any name. slang reads each file in a
child process: a crash of slang there (a segmentation fault on a text that is no Verilog) is a
:class:`~rtlopt.errors.DesignError` naming the file, never the end of rtlopt.

Most files hold nothing outside their design units: a text scan finds those without
parsing.
"""

from __future__ import annotations

import logging
import os
import pickle
import re
import select
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.errors import DesignError
from rtlopt.frontend._slang import compilation_options
from rtlopt.verilog import blank_comments, blank_spans, module_spans

__all__ = [
    "UnitDeclaration",
    "UnitScope",
    "read_unit_scopes",
    "unit_declarations",
    "unit_scope_text",
]

log = logging.getLogger(__name__)

_BLOCKS = re.compile(
    r"\b(package|interface|primitive|program|config|checker)\b.*?\bend\1\b(?:\s*:\s*\w+)?", re.S
)
_ATTRIBUTE = re.compile(r"\(\*.*?\*\)", re.S)
_DIRECTIVE_LINE = re.compile(r"^[ \t]*`[A-Za-z_]\w*\b(?:[^\n]*\\\n)*[^\n]*", re.M)
#: Directives that are the whole of what a line of unit-scope text does.
_KNOWN = re.compile(
    r"`(?:define|undef|undefineall|ifdef|ifndef|elsif|else|endif|timescale|"
    r"default_nettype|resetall|celldefine|endcelldefine|unconnected_drive|"
    r"nounconnected_drive|line|pragma|begin_keywords|end_keywords)\b"
)


@dataclass(frozen=True)
class UnitDeclaration:
    """One name a file declares in ``$unit``: ``kind`` as slang names it (``Parameter``,
    ``TypeAlias``, ``Subroutine``, ``WildcardImport`` with ``name`` the package ...)."""

    name: str
    kind: str
    line: int


@dataclass(frozen=True)
class UnitScope:
    """What one file declares in ``$unit``; ``unreadable``: why it may declare more (a line
    and a reason), or ""."""

    declarations: tuple[UnitDeclaration, ...]
    unreadable: str = ""


_EMPTY = UnitScope(())


def unit_scope_text(text: str) -> str:
    """``text`` with comments, strings, attributes, every design unit (module, package,
    interface, program, primitive, config, checker) and the directive lines that declare
    nothing blanked: what it declares in ``$unit`` (classes, every other declaration, an
    ```include`` and a macro call stay)."""
    code = blank_comments(text)
    code = blank_spans(code, [(s.start, s.end) for s in module_spans(code)])
    code = _BLOCKS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    code = _ATTRIBUTE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    return _DIRECTIVE_LINE.sub(
        lambda m: (
            re.sub(r"[^\n]", " ", m.group(0)) if _KNOWN.match(m.group(0).lstrip()) else m.group(0)
        ),
        code,
    )


_CACHE: dict[tuple[str, str, tuple[str, ...]], UnitScope] = {}


def unit_declarations(path: Path, text: str, include_dirs: Sequence[Path] = ()) -> UnitScope:
    """What ``text`` (the file ``path``) declares in ``$unit`` (see the module's docstring)."""
    if not unit_scope_text(text).strip():
        return _EMPTY
    key = (str(path), text, tuple(str(d) for d in include_dirs))
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) > 512:
            _CACHE.clear()
        hit = _CACHE[key] = _parse_apart(path, text, include_dirs)
    return hit


#: Seconds a child reading the unit scopes of files may take.
_CHILD_TIMEOUT = 120.0

_Item = tuple[Path, str, Sequence[Path]]


def read_unit_scopes(items: Sequence[_Item]) -> None:
    """Read the unit scopes of ``items`` (path, text, include folders) not read yet in one
    child process, for :func:`unit_declarations` to find; where that child fails, nothing
    (each file is then read in a child of its own, which names the one slang fails on)."""
    todo: dict[tuple[str, str, tuple[str, ...]], _Item] = {}
    for path, text, dirs in items:
        key = (str(path), text, tuple(str(d) for d in dirs))
        if key not in _CACHE and key not in todo and unit_scope_text(text).strip():
            todo[key] = (path, text, dirs)
    if len(todo) < 2:
        return
    got, what = _in_child(lambda: [_parse(p, t, d) for p, t, d in todo.values()])
    if not isinstance(got, list):
        log.info("slang %s reading %d unit scopes together", what, len(todo))
        return
    if len(_CACHE) + len(todo) > 512:
        _CACHE.clear()
    _CACHE.update(zip(todo, got, strict=True))


def _parse_apart(path: Path, text: str, include_dirs: Sequence[Path]) -> UnitScope:
    """:func:`_parse` in a forked child process: slang crashes (a segmentation fault) on some
    texts, which would end rtlopt with no word.

    Raises:
        DesignError: the child crashed or did not answer (the file, what failed, what to do).
    """
    got, what = _in_child(lambda: _parse(path, text, include_dirs))
    if isinstance(got, UnitScope):
        return got
    log.info("slang %s reading the unit scope of %s", what, path)
    raise DesignError(
        f"slang {what} reading the text outside the design units of {path.name}, which a "
        "build may compile with the target",
        path=path,
        hint="if the file is no Verilog (a command file, a script), name it with -c or -f "
        "in the build or give it a .f suffix; else rewrite the text slang cannot read",
    )


def _in_child(work: Callable[[], object]) -> tuple[object, str]:
    """``work()`` in a forked child process: its result, or None and what failed (a crash
    by a signal, an exit, no answer in time)."""
    import pyslang  # noqa: F401 - imported before the fork: a child takes no import lock

    import rtlopt.frontend._slang  # noqa: F401

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no logging (a lock another thread held stays held)
        code = 1
        try:
            os.close(r)
            log.disabled = True
            data = pickle.dumps(work())
            with os.fdopen(w, "wb") as fh:
                fh.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    data, late = _read_child(r, time.monotonic() + _CHILD_TIMEOUT)
    if late:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if not late and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and data:
        return pickle.loads(data), ""  # noqa: S301 - our own child's answer
    if late:
        return None, f"did not answer within {_CHILD_TIMEOUT:.0f} s"
    if os.WIFSIGNALED(status):
        return None, f"crashed ({signal.Signals(os.WTERMSIG(status)).name})"
    return None, f"failed (exit {os.WEXITSTATUS(status)})"


def _read_child(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Everything a child writes to ``fd`` until it closes it, and whether ``deadline``
    passed first."""
    chunks: list[bytes] = []
    with os.fdopen(fd, "rb", buffering=0) as fh:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fh], [], [], left)[0]:
                return b"".join(chunks), True
            chunk = fh.read(1 << 16)
            if not chunk:
                return b"".join(chunks), False
            chunks.append(chunk)


def _parse(path: Path, text: str, include_dirs: Sequence[Path]) -> UnitScope:
    import pyslang
    from pyslang import ast, syntax

    from rtlopt.frontend._slang import preprocessor

    try:
        sm, popts = preprocessor([path.parent, *include_dirs], {})
        bag = pyslang.Bag([popts])
        tree = syntax.SyntaxTree.fromText(text, sm, path.name, str(path), bag)
        comp = ast.Compilation(pyslang.Bag([compilation_options()]))
        comp.addSyntaxTree(tree)
        units = list(comp.getCompilationUnits())
    except Exception as exc:  # pyslang raises plain exceptions
        log.debug("unit scope of %s not read: %s", path, exc)
        return UnitScope((), f"{path.name}: slang cannot read it ({exc})")
    out: list[UnitDeclaration] = []
    for unit in units:
        for sym in unit:
            kind = sym.kind.name
            if kind in ("Package", "Definition", "Primitive", "Module", "Interface"):
                continue
            name = str(sym.packageName) if kind == "WildcardImport" else sym.name
            if not name:
                continue
            line = tree.sourceManager.getLineNumber(sym.location) if sym.location else 0
            out.append(UnitDeclaration(name, kind, int(line)))
    return UnitScope(tuple(out), _unread(tree, text))


def _unread(tree: Any, text: str) -> str:
    """Why slang's reading of the unit-scope text is not the whole of it: an unknown macro
    or an include it cannot open outside the file's design units, or ""."""
    sm = tree.sourceManager
    for diag in tree.diagnostics:
        code = str(diag.code)
        if not any(k in code for k in ("UnknownDirective", "CouldNotOpenIncludeFile")):
            continue
        try:
            offset = int(diag.location.offset)
            line = int(sm.getLineNumber(diag.location))
        except Exception:
            return "a diagnostic without a place"
        if offset < len(text) and _outside(text, offset):
            what = "an include it cannot open" if "Include" in code else "a macro defined elsewhere"
            return f"line {line}: {what} outside every design unit"
    return ""


def _outside(text: str, offset: int) -> bool:
    """Whether ``offset`` of ``text`` lies outside its modules and other design units."""
    code = blank_comments(text)
    spans = [(s.start, s.end) for s in module_spans(code)]
    spans += [(m.start(), m.end()) for m in _BLOCKS.finditer(code)]
    return not any(a <= offset < b for a, b in spans)
