"""Design units other than modules that a change adds under a name the repository already uses.

A design may instantiate a cell that no file of the repository defines (a vendor library
read with ``iverilog -y``), import a package from outside the repository, or bind a program
or checker by name. A definition in a source wins over a library folder, so a user-defined
``primitive CELLX`` that a change adds becomes every ``CELLX`` instance of the design, which
no proof compares. Modules are :func:`rtlopt.check._check._captured_modules`' (and
``_duplicate_modules``'); here every other design unit a new or changed file declares
(``primitive``, ``interface``, ``program``, ``package``, ``checker``, ``config``) is judged:
a finding where any file of the repository named it before the change (an instance, an
import, a mention in a build script: by word, fail closed) or another file after the change
declares a unit of that name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from rtlopt.check._check import ModuleCheck
from rtlopt.check._macro_cells import macro_cell_names
from rtlopt.harness._binary import is_binary
from rtlopt.inputs import repository_files
from rtlopt.verilog import IDENTIFIER, blank_comments, line_of, module_spans

_UNIT = re.compile(
    r"(?<![\w$`.:])(virtual\s+)?\b(module|macromodule|primitive|interface|program|package|"
    r"checker|config)\s+(?:(?:automatic|static)\s+)?"
    rf"({IDENTIFIER}|\\[^ \t\n\r\f]+|`\s*{IDENTIFIER})"
)
#: Larger files are judged by a byte search for the name alone.
_SCANNED_BYTES = 4_000_000


def design_units(text: str) -> dict[str, tuple[str, int, str]]:
    """``name -> (kind, line, code)`` of each design unit ``text`` declares, but the modules
    with a plain name (:func:`rtlopt.check._check._captured_modules`'): an escaped name is
    its plain form (``\\CELLX`` is ``CELLX``), a name a macro gives stays ```NAME``;
    ``code``: the unit's text, comments out and white space collapsed."""
    code = blank_comments(text)
    out: dict[str, tuple[str, int, str]] = {}
    for m in _UNIT.finditer(code):
        kind, name = m.group(2), m.group(3)
        if m.group(1) or name == "class":  # a virtual interface variable, an interface class
            continue
        if "module" in kind and name[0] not in "\\`":
            continue
        end = re.compile(rf"\bend{kind}\b").search(code, m.end())
        body = " ".join(code[m.start(2) : end.end() if end else len(code)].split())
        out.setdefault(name.lstrip("\\").replace(" ", ""), (kind, line_of(text, m.start(3)), body))
    return out


def _names_in(data: bytes, name: str) -> bool:
    return re.search(rb"(?<![\w$`])" + re.escape(name.encode()) + rb"(?![\w$])", data) is not None


def _first_user(root: Path, name: str, skip: Path | None = None) -> str | None:
    """The first file under ``root`` (but ``skip``) whose text, comments out, names
    ``name`` as a word; an unreadable file counts where its bytes name it."""
    try:
        files = repository_files(root)
    except OSError:
        return str(root)
    for f in files:
        if skip is not None and f.resolve() == skip:
            continue
        try:
            if f.stat().st_size > _SCANNED_BYTES:
                if _names_in(f.read_bytes(), name):
                    return f.relative_to(root).as_posix()
                continue
            data = f.read_bytes()
        except OSError:
            continue
        if is_binary(data[:8192]) or not _names_in(data, name):
            continue
        if _names_in(blank_comments(data.decode(errors="replace")).encode(), name):
            return f.relative_to(root).as_posix()
    return None


def _declared_elsewhere(tree: Path, rel: str, name: str) -> str | None:
    """Another file of ``tree`` that declares a design unit (a module too) named ``name``."""
    own = (tree / rel).resolve()
    for f in repository_files(tree):
        if f.resolve() == own:
            continue
        try:
            data = f.read_bytes()
        except OSError:
            continue
        if is_binary(data[:8192]) or not _names_in(data, name):
            continue
        text = data.decode(errors="replace")
        names = {s.name.lstrip("\\") for s in module_spans(text)} | set(design_units(text))
        if name in names:
            return f.relative_to(tree).as_posix()
    return None


def _new_units(old: str, new: str) -> dict[str, tuple[str, int, str]]:
    """The design units ``new`` declares that ``old`` did not, a plain-named module too (its
    kind ``"plain module"``)."""
    had = design_units(old)
    had_modules = {s.name for s in module_spans(old)}
    units = design_units(new)
    code = blank_comments(new)
    for s in module_spans(new):
        if s.name[0] not in "\\`" and s.name not in units:
            units[s.name] = (
                "plain module",
                line_of(new, s.start),
                " ".join(code[s.start : s.end].split()),
            )
    return {
        n: u
        for n, u in units.items()
        if not (n in had and had[n][0] == u[0])
        and not (u[0] == "plain module" and n in had_modules)
    }


def captured_units(
    base: Path, new_tree: Path, changed: Iterable[tuple[str, str, str]]
) -> list[ModuleCheck]:
    """A finding for each non-module design unit a changed file (``changed``: path, text at
    the base, text after the change) declares that its base text did not, where the base
    repository names it or another file after the change declares it. A unit moved
    unchanged from another changed file is judged by the second rule only."""
    changed = list(changed)
    before: dict[str, str] = {}
    for _rel, old, _new in changed:
        before.update({n: body for n, (_k, _ln, body) in design_units(old).items()})
    units = {rel: _new_units(old, new) for rel, old, new in changed}
    built = macro_cell_names(base, {n for u in units.values() for n in u if n[0] != "`"})
    out: list[ModuleCheck] = []
    for rel, _old, _new in changed:
        for name, (spelled, line, body) in sorted(units[rel].items()):
            kind = spelled.removeprefix("plain ")
            other = _declared_elsewhere(new_tree, rel, name) if kind == spelled else None
            if name.startswith("`"):
                why = (
                    f"a macro ({name}) gives its name, so the gate cannot tell which instances "
                    "of the design it takes: write the name plainly"
                )
            elif other is not None:
                why = (
                    f"{other} also declares a design unit named {name}: which one a tool reads "
                    "depends on the file order; give it another name"
                )
            elif name in built and not _declared_elsewhere(base, "", name):
                why = (
                    f"{built[name]}: the new {kind} takes the place of the library cell those "
                    "instances name, which no proof compares; give it another name"
                )
            elif before.get(name) == body or kind != spelled:
                continue  # moved unchanged; a plain module's other rules are _check's
            elif (user := _first_user(base, name)) is not None:
                why = (
                    f"{user} named {name} before the change (an instance, an import, a library "
                    f"cell read from outside the repository): the new {kind} takes its place, "
                    "which no proof compares; give it another name"
                )
            else:
                continue
            out.append(
                ModuleCheck(
                    rel,
                    f"{name} ({kind})",
                    "added",
                    findings=[f"{rel}:{line}: {kind} {name}: {why}"],
                )
            )
    return out
