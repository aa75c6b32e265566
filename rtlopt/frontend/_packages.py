"""SystemVerilog packages a set of sources needs (``import pkg::*``, ``pkg::name``).

The module closure of a design lists the files that define modules; the packages those modules
(and a candidate) use live in other files, which every tool reading the sources as
SystemVerilog must see first. Found by their text (comments and strings blanked), so a
package is found even in a file that does not parse on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._files import read_source
from rtlopt.frontend.model import Design
from rtlopt.verilog import blank_comments

__all__ = ["package_files", "packages_defined", "packages_used"]

_PACKAGE_DECL = re.compile(r"\bpackage\s+(?:automatic\s+|static\s+)?([A-Za-z_][\w$]*)\s*;")
_SCOPE_USE = re.compile(r"(?<![\w$:])([A-Za-z_][\w$]*)\s*::")


def _code(path: Path, texts: dict[Path, str]) -> str:
    if path not in texts:
        try:
            raw = read_source(path)
        except (OSError, DesignError):
            raw = ""
        # most files of a large tree neither declare nor use a package: no lexing for them
        texts[path] = blank_comments(raw) if "package" in raw or "::" in raw else ""
    return texts[path]


def packages_defined(text: str) -> list[str]:
    """Names of the packages ``text`` declares."""
    return _PACKAGE_DECL.findall(blank_comments(text))


def packages_used(text: str) -> set[str]:
    """Names used as a scope (``name::``) in ``text``: packages, and also classes or ``$unit``,
    which match no package declaration."""
    return set(_SCOPE_USE.findall(blank_comments(text)))


def package_files(
    design: Design, extra_texts: Iterable[str] = (), files: Sequence[Path] | None = None
) -> tuple[Path, ...]:
    """Files declaring the packages that ``files`` (default: the design's closure) and
    ``extra_texts`` use, transitively, in the repository's source order.

    Files of ``files`` themselves are not repeated. A package declared in several files is
    taken from the first in source order.
    """
    own = list(design.closure if files is None else files)
    texts: dict[Path, str] = {}
    where: dict[str, Path] = {}
    for f in [*design.sources.files, *own]:
        for name in _PACKAGE_DECL.findall(_code(f, texts)):
            where.setdefault(name, f)
    wanted: set[str] = set()
    for t in extra_texts:
        wanted |= packages_used(t)
    for f in own:
        wanted |= set(_SCOPE_USE.findall(_code(f, texts)))
    found: set[Path] = set()
    todo = [n for n in wanted if n in where]
    seen = set(todo)
    while todo:
        f = where[todo.pop()]
        if f in found:
            continue
        found.add(f)
        for n in _SCOPE_USE.findall(_code(f, texts)):
            if n in where and n not in seen:
                seen.add(n)
                todo.append(n)
    order = {f: i for i, f in enumerate(design.sources.files)}
    return tuple(
        sorted((f for f in found if f not in own), key=lambda f: (order.get(f, len(order)), str(f)))
    )
