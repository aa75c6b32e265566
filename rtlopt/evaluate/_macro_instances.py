"""Instances whose module a macro names, where rtlopt reads no definition of the macro.

The repository's configurations of the target are slang's elaboration (:mod:`._params`),
with the defines rtlopt knows (``[project] defines``, a filelist's ``+define+``, the
prelude) and each file's own ```define``s and headers. An instance written ```CORE #(...)
u(...)`` whose macro only a build script defines (``iverilog -DCORE=m``) is no instance
there: slang drops it, and the target may be taken for a module nothing instantiates while
the build gives it parameter values rtlopt never checks. :func:`macro_cells` finds a macro
standing where an instance names its module (the one reading of it for evaluate and
``rtlopt check``'s captured-name rule, :mod:`rtlopt.check._macro_cells`);
:func:`hidden_instances` names each such instance in a text of the repository whose macro no
definition rtlopt reads with that file gives, and whose parameters and ports connected by
name are the target's (``.*`` and positional connections fit any): a change of the target
that depends on a parameter is then unchecked (fail closed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rtlopt.evaluate._reach_paths import split_arguments
from rtlopt.evaluate._repo_texts import other_texts, repository_texts
from rtlopt.frontend.model import Design
from rtlopt.verilog import (
    PREPROCESSOR_DIRECTIVES,
    alternation,
    blank_comments,
    line_of,
)
from rtlopt.verilog_instances import instance_follows, procedural_spans

__all__ = ["hidden_instances", "macro_cells"]

_USE = re.compile(rf"(?<!`)`(?!(?:{alternation(PREPROCESSOR_DIRECTIVES)})\b)([A-Za-z_][\w$]*)")
_DEFINITION = re.compile(r"`define[ \t]+([A-Za-z_][\w$]*)(?:\([^)\n]*\))?((?:[^\n]*\\\n)*[^\n]*)")
_INCLUDE = re.compile(r'`include\s*[<"]([^">\n]+)[">]')
_CONNECTED = re.compile(r"\s*([A-Za-z_][\w$]*|\*)")


def macro_cells(code: str) -> Iterator[tuple[int, int, str, list[str]]]:
    """``(offset, offset past it, macro, its arguments)`` of each macro of ``code``
    (comments blanked) that stands where an instance names its module: ```CELL u(...)``,
    ```CELL #(...) u(...)``, ```CELL(x) u(...)``; none inside procedural code, where no
    instance stands (```CHECK(x) check_task(a, b);`` in an ``initial`` block is a statement
    and a task call: :func:`rtlopt.verilog_instances.procedural_spans`)."""
    spans = procedural_spans(code) if "`" in code else []
    for u in _USE.finditer(code):
        if any(a <= u.start() < b for a, b in spans):
            continue
        args: list[str] = []
        end = u.end()
        if code.startswith("(", end):
            texts, end = split_arguments(code, end)
            args = [t.strip() for t in texts]
        if code[end:].strip() and instance_follows(code, end):
            yield u.start(), end, u.group(1), args


def _named(code: str, open_at: int) -> tuple[set[str], int]:
    """The names connected by name (``.NAME``, ``.*`` as ``*``) in the parenthesis that opens
    at ``open_at``, and the offset past its ``)`` (-1: it does not close)."""
    depth, names = 0, set[str]()
    for i in range(open_at, len(code)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return names, i + 1
        elif c == "." and depth == 1:
            m = _CONNECTED.match(code, i + 1)
            if m:
                names.add(m.group(1))
    return names, -1


def _may_be(code: str, end: int, params: set[str], ports: set[str]) -> bool:
    """Whether the instance after ``end`` (past the macro naming its module) may be one of a
    module with ``params`` and ``ports``: each parameter and port it connects by name is one
    of them (``.*`` fits any; positional connections are not judged)."""
    at = len(code) - len(code[end:].lstrip())
    if code.startswith("#", at):
        rest = code[at + 1 :].lstrip()
        if rest.startswith("("):
            given, at = _named(code, code.index("(", at))
            if at < 0 or not given <= params:
                return False
    opened = code.find("(", at)
    if opened < 0:
        return True
    connected, _ = _named(code, opened)
    return "*" in connected or connected <= ports


_CACHE: dict[Any, tuple[object, list[str]]] = {}


def hidden_instances(design: Design, own: Path | None = None) -> list[str]:
    """``file:line: why`` for each instance in a text of the repository whose module a macro
    names that no definition rtlopt reads with that file gives (see the module's docstring);
    the target's own text aside. ``own``: rtlopt's scratch folder, not the repository's."""
    from rtlopt.evaluate._memo import per_design

    return per_design(_CACHE, design, lambda: _hidden(design, own))


def _hidden(design: Design, own: Path | None) -> list[str]:
    texts = list(repository_texts(design))
    texts += other_texts(design, own)[0]
    by_name: dict[str, list[str]] = {}
    for path, text in texts:
        by_name.setdefault(path.name, []).append(text)
    known: dict[str, list[str]] = {k: [str(v)] for k, v in design.defines.items()}
    prelude = {Path(p).resolve() for p in design.prelude}
    for path, text in texts:
        if path.resolve() in prelude:
            _merge(known, _definitions(blank_comments(text)))
    target = design.target
    params = {p.name for p in target.parameters}
    ports = {p.name for p in target.ports}
    root = Path(design.root)
    out: list[str] = []
    for path, text in texts:
        if "`" not in text:
            continue
        code = blank_comments(text)
        if path.resolve() == target.file.resolve():  # its own instances are not of itself
            code = code[: target.start] + " " * (target.end - target.start) + code[target.end :]
        uses = list(macro_cells(code))
        if not uses:
            continue
        visible = _merge(dict(known), _defined_with(code, by_name))
        for at, end, name, _args in uses:
            if _given(name, visible) or not _may_be(code, end, params, ports):
                continue
            try:
                rel = path.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                rel = str(path)
            out.append(
                f"{rel}:{line_of(text, at)}: the macro `{name} stands where an instance names "
                f"its module, and no definition rtlopt reads gives it (a build's -D{name}=... may "
                f"make it an instance of {target.name} with parameter values rtlopt does not "
                f"elaborate); define {name} in rtlopt.toml ([project] defines), or name the "
                "module there"
            )
    return sorted(dict.fromkeys(out))


def _given(name: str, visible: dict[str, list[str]]) -> bool:
    """Whether ``name`` and every macro its visible definitions use (transitively) have a
    definition rtlopt reads (```define CORE `IMPL`` with ``IMPL`` only a build's is not)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        cur = todo.pop()
        if cur in seen:
            continue
        seen.add(cur)
        if cur not in visible:
            return False
        for body in visible[cur]:
            todo += [m.group(1) for m in _USE.finditer(body)]
    return True


def _definitions(code: str) -> dict[str, list[str]]:
    """Each macro ``code`` defines: its bodies (continued lines joined)."""
    out: dict[str, list[str]] = {}
    for m in _DEFINITION.finditer(code):
        out.setdefault(m.group(1), []).append(m.group(2).replace("\\\n", " "))
    return out


def _merge(into: dict[str, list[str]], more: dict[str, list[str]]) -> dict[str, list[str]]:
    for name, bodies in more.items():
        into.setdefault(name, []).extend(bodies)
    return into


def _defined_with(code: str, by_name: dict[str, list[str]]) -> dict[str, list[str]]:
    """The macros ``code`` and the headers it includes (by file name, every text of that
    name, transitively) define, with their bodies."""
    out = _definitions(code)
    seen: set[str] = set()
    todo = [Path(m).name for m in _INCLUDE.findall(code)]
    while todo and len(seen) < 256:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for text in by_name.get(name, []):
            header = blank_comments(text)
            _merge(out, _definitions(header))
            todo += [Path(m).name for m in _INCLUDE.findall(header)]
    return out
