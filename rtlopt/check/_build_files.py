"""The gate's fail-closed rule on every file that is neither Verilog nor documentation.

A build reads more than its tool lines: which rule of a Makefile is first (its default goal),
``.DEFAULT_GOAL``, a new ``GNUmakefile`` read before the ``Makefile``, the goal a script asks
for, a file's existence (``$(wildcard fast.flag)``, ``[ -e fast.flag ]``), its name
(``$(basename $(wildcard defs/*.def))`` as defines), its mode (``[ -x tools/fast ]``). The gate
cannot follow every such form, so every change of a file that is no Verilog source and no
documentation (a changed line of any role, an added, deleted, renamed or emptied file, a mode
change; a documentation file added or deleted, as a marker may have any name) is a finding,
unless the configuration is trusted (``--trust-config``). A build that chooses by the commit's
own metadata (its message, the files it changes) makes every commit a finding
(:mod:`rtlopt.check._metadata_reads`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from rtlopt.check._build_texts import (
    VERILOG_SUFFIXES,
    build_texts,
    is_documentation,
    is_verilog,
)
from rtlopt.check._check import ModuleCheck

__all__ = [
    "VERILOG_SUFFIXES",
    "build_change_findings",
    "build_checks",
    "build_texts",
    "is_documentation",
    "is_verilog",
]

_STATUS = {
    "A": "added",
    "D": "deleted",
    "M": "changed (its text or its mode)",
    "T": "changed in type (file, link, submodule)",
    "R": "renamed",
    "C": "copied",
}


def build_change_findings(
    changes: Mapping[str, str],
    new_tree: Path | None = None,
    modes: Mapping[str, tuple[str, str]] | None = None,
) -> list[tuple[str, str]]:
    """Each changed path that is neither Verilog nor documentation, with its finding; a
    submodule (a folder in ``new_tree``) is judged by the files its bump changes. A Verilog
    or documentation file whose mode changed (``modes``: path -> (mode at the base, after);
    made executable) is one too: a build may test its mode (``[ -x m.v ]``) or run it; and
    so is a Verilog file that became a link or stopped being one (git's ``T``)."""
    out = []
    for rel, status in sorted(changes.items()):
        mode = (modes or {}).get(rel)
        if mode is not None and (is_verilog(rel) or is_documentation(rel)):
            out.append((rel, _mode_finding(*mode)))
            continue
        if status == "T" and is_verilog(rel):  # a documentation file's: the links' rule's
            out.append((rel, _TYPE_FINDING))
            continue
        if is_verilog(rel) or (is_documentation(rel) and status not in "ADR"):
            continue  # a documentation file added or deleted: a marker a build may test
        if new_tree is not None and (new_tree / rel).is_dir() and not (new_tree / rel).is_symlink():
            continue
        what = _STATUS.get(status, f"changed ({status})")
        out.append(
            (
                rel,
                f"{what}, a file that is no Verilog source and no documentation: a build"
                " may read it (a rule, a goal, a file's existence, name or mode), which rtlopt"
                " cannot follow in every form; check the change by hand and pass --trust-config"
                " if the build's results stay the same",
            )
        )
    return out


_TYPE_FINDING = (
    "its type changed (a file to a link, or back; its text is judged as a source's), which a "
    "build may tell apart ([ -L FILE ], a copy keeping links), which rtlopt cannot follow in "
    "every form; make the change in a commit of its own, checked by hand, and pass "
    "--trust-config if the build's results stay the same"
)


def _mode_finding(old: str, new: str) -> str:
    return (
        f"its mode changed ({old} -> {new}; its text is judged as a source's or "
        "documentation's), which a build may test ([ -x FILE ]) or run, which rtlopt cannot "
        "follow in every form; make the change in a commit of its own, checked by hand, and "
        "pass --trust-config if the build's results stay the same"
    )


def build_checks(
    changes: Mapping[str, str],
    new_tree: Path,
    read_base: Callable[[str], str | None],
    trusted: bool,
    modes: Mapping[str, tuple[str, str]] | None = None,
) -> list[ModuleCheck]:
    """The gate's findings of this rule, unless ``trusted``: each changed file that is neither
    Verilog nor documentation, each build line choosing by the commit's metadata, each file
    whose mode changed (``modes``: :func:`rtlopt.check._git.mode_changes`), each added or
    deleted Verilog file and edited documentation file a build text names
    (:mod:`rtlopt.check._named_files`); trusted or not, a changed Verilog file adding or
    removing a directive after other code on its line
    (:mod:`rtlopt.check._midline_directives`)."""
    from rtlopt.check._midline_directives import midline_directive_findings
    from rtlopt.check._named_files import named_file_findings

    found = [
        ModuleCheck(rel, "(file)", "directive", findings=[f])
        for rel, f in midline_directive_findings(changes, read_base, new_tree)
    ]
    if trusted:
        return found
    from rtlopt.check._metadata_reads import metadata_findings

    texts = list(build_texts(new_tree))  # read once for both rules
    found += [
        ModuleCheck(rel, "(file)", "build", findings=[f])
        for rel, f in build_change_findings(changes, new_tree, modes)
        + metadata_findings(new_tree, texts)
        + named_file_findings(changes, texts)
    ]
    return found
