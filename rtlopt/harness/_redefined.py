"""Modules a candidate defines besides the target that the repository already has a module
of that name for, or that a text of the repository instantiates without defining (a library cell
the build takes from outside: the candidate's module would capture those instances).

What is proven is the candidate's target, with the candidate's helper modules in place of any
repository module of their names; what a branch holds is the repository with the target
replaced. A candidate may therefore define the target and *new* helper modules only: a module
the repository defines (in any file, the target's own included, and in any ```ifdef`` branch)
would, written back, replace that module for every other instance and every module using it,
which no proof compares (the write-back refuses to, :mod:`rtlopt.writeback._merge`). An
unchanged copy is refused too: read in the candidate's macro state rather than its file's, it
need not be the module the branch keeps. The one exception is ``rtlopt check``
(``whole_file``): there the candidate is the target's whole new file, whose every changed
module is judged on its own, so the modules of that file are the change's and not helpers.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._files import read_source
from rtlopt.frontend.model import Design
from rtlopt.harness._captured import name_uses
from rtlopt.harness._generated_names import generated_module_names
from rtlopt.verilog import module_spans, plain_name

__all__ = ["redefined_modules"]


def redefined_modules(
    text: str, design: Design, raw: str, *, whole_file: bool = False
) -> list[tuple[int, str]]:
    """Modules of the candidate (the target aside) that the repository defines, or that its
    texts instantiate without defining. ``raw``: the candidate's own text (a file holding it
    is the candidate's, not another). ``whole_file``: the candidate is the target's whole new
    file (``rtlopt check``): the modules of the target's file are its own."""
    # an escaped name of plain characters is the plain one (``\\user2`` is ``user2``)
    spans = [
        dataclasses.replace(m, name=plain_name(m.name))
        for m in module_spans(text)
        if plain_name(m.name) != design.target.name
    ]
    if not spans:
        return []
    own: set[str] = set()
    if whole_file:
        try:
            own = {
                plain_name(m.name)
                for m in module_spans(design.target.file.read_text(errors="replace"))
            }
        except OSError:
            own = set()
        own |= _included_modules(design, raw, {s.name for s in spans})
    names = {s.name for s in spans if s.name not in own}
    used, declared, unread = name_uses(
        design.root, names, lambda path, text: "" if text == raw else text
    )
    problems: list[tuple[int, str]] = []
    built = generated_module_names(design.root)
    for span in spans:
        if span.name in own:
            continue
        gen = next((why for rx, why in built if rx.fullmatch(span.name)), None)
        where = declared.get(span.name) or _defined_in(design, span.name, raw)
        where = where or unread.get(span.name)
        if where is not None:
            problems.append(
                (
                    span.line,
                    f"module {span.name} is already a module of the repository ({where}): a "
                    "candidate may define the target and new helper modules only (written "
                    "back, it would replace that module for its other instances and users, "
                    "which no proof compares); give the helper a new name, or leave the "
                    "module out to use the repository's",
                )
            )
        elif span.name in used:
            problems.append(
                (
                    span.line,
                    f"module {span.name} is instantiated or declared in {used[span.name]} "
                    "(a library cell, a primitive or a black box the repository does not "
                    "define): the candidate's module would become those instances too; give "
                    "the helper another name",
                )
            )
        elif gen is not None:
            problems.append(
                (
                    span.line,
                    f"module {span.name} may be a module a script of the repository "
                    f"writes at run time under a name it builds ({gen}): written back, the "
                    "candidate's module would replace that generated module for its instances, "
                    "which no proof compares; in this repository write the candidate without "
                    "new helper modules (inline them into the target)",
                )
            )
    return problems


def _included_modules(design: Design, raw: str, names: set[str]) -> set[str]:
    """Of ``names``, the modules whose repository file the target's new file (``raw``)
    includes (held-out gate trial 52: ``example.v`` includes ``timer.v``): read there from
    their own file, as the repository reads them, never a helper of the change."""
    from rtlopt.frontend._build_order import included

    dirs = (*design.include_dirs, design.target.file.parent)
    headers = {p.resolve() for p in included(design.target.file, raw, dirs)}
    out: set[str] = set()
    for name in names:
        mod = design.modules.get(name)
        if mod is not None and Path(mod.file).resolve() in headers:
            out.add(name)
    return out


def _defined_in(design: Design, name: str, raw: str) -> str | None:
    """Where the design's modules (also of files outside the repository, or declared under a
    macro name) define ``name``: None when they do not, or when that file is the candidate's."""
    mod = design.modules.get(name)
    if mod is None or _is_file(mod.file, raw):
        return None
    try:
        return mod.file.relative_to(design.root).as_posix()
    except ValueError:
        return mod.file.name


def _is_file(path: Path, text: str) -> bool:
    """``path`` holds ``text`` itself: the candidate's own file, read as a repository source
    (``rtlopt evaluate --candidate`` of a file inside the repository)."""
    try:
        return read_source(path) == text
    except (OSError, DesignError):
        return False
