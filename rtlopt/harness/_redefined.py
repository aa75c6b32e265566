"""Modules a candidate defines that the repository defines in another file: written back,
the repository would define them twice (the screen refuses them, as ``rtlopt check`` does);
or that a text of the repository instantiates without defining (a library cell the build
takes from outside: the candidate's module would capture those instances)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._files import read_source
from rtlopt.frontend.model import Design
from rtlopt.harness._captured import used_names
from rtlopt.verilog import module_spans

__all__ = ["redefined_modules"]


def redefined_modules(text: str, design: Design, raw: str) -> list[tuple[int, str]]:
    """Modules of the candidate (the target aside) that the repository defines in another
    file than the target's: written back, the repository defines them twice, and a tool
    taking the candidate's would change every other instance (its own copy is proven only
    where the target uses it). A module of the target's own file may be copied with it;
    ``raw``: the candidate's own text (a file holding it is the candidate's, not another)."""
    spans = [m for m in module_spans(text) if m.name != design.target.name]
    if not spans:
        return []
    try:
        own = {m.name for m in module_spans(design.target.file.read_text(errors="replace"))}
    except OSError:
        own = set()
    problems: list[tuple[int, str]] = []
    used = used_names(
        design.root,
        {s.name for s in spans if s.name not in own and s.name not in design.modules},
        lambda path, text: "" if text == raw else text,
    )
    for span in spans:
        if span.name in used:
            problems.append(
                (
                    span.line,
                    f"module {span.name} is instantiated or declared in {used[span.name]} "
                    "(a library cell, a primitive or a black box the repository does not "
                    "define): the candidate's module would become those instances too; give "
                    "the helper another name",
                )
            )
        mod = design.modules.get(span.name)
        if mod is None or span.name in own or _is_file(mod.file, raw):
            continue
        try:
            where = mod.file.relative_to(design.root).as_posix()
        except ValueError:
            where = mod.file.name
        problems.append(
            (
                span.line,
                f"module {span.name} is also defined in {where}: the candidate may not "
                "redefine a repository module (its other instances would change); give the "
                "helper another name",
            )
        )
    return problems


def _is_file(path: Path, text: str) -> bool:
    """``path`` holds ``text`` itself: the candidate's own file, read as a repository source
    (``rtlopt evaluate --candidate`` of a file inside the repository)."""
    try:
        return read_source(path) == text
    except (OSError, DesignError):
        return False
