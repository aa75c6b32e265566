"""The modules that use a changed SystemVerilog package, re-judged against the base's package.

A design holds one package of a name, so the base's package and the change's cannot both be
``pkg``. The judging tree keeps the change's package (the candidates read it as they are) and
gets the base's beside it in the same file, renamed ``pkg__rtlopt_base``; every file of the
tree that holds the reference of a module using the package (its base text, or what the
gate already put there: a changed file's base version, a header's expansion) reads the
renamed one (``pkg__rtlopt_base::``, ``import pkg__rtlopt_base::*``). Each module of those
files is then judged like any changed module: the base's module with the base's package
against the change's with the change's.

Where that cannot be set up the change fails closed, naming the package and what stands in
the way: a package removed while still used, a package whose file also holds modules or is
included by another file, and a package read outside a module (another package, a header,
a compilation-unit import) or in a ```define`` (which files that never name it can use).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.frontend._depgraph import DesignGraph
from rtlopt.verilog import IDENTIFIER, blank_comments, module_spans

#: The base's package beside the change's: ``<name>`` + this suffix.
BASE_SUFFIX = "__rtlopt_base"

_END = re.compile(r"\bendpackage\b(\s*:\s*" + IDENTIFIER + r")?")


@dataclass
class PackagePlan:
    """What the judging tree needs for the changed packages whose users can be re-judged."""

    renames: dict[str, str] = field(default_factory=dict)  # package -> its base's new name
    base_texts: dict[str, list[str]] = field(default_factory=dict)  # file -> renamed packages
    users: dict[str, str] = field(default_factory=dict)  # user file -> why it is judged
    blocked: dict[str, str] = field(default_factory=dict)  # package -> why it cannot be


def rename_packages(text: str, renames: Mapping[str, str]) -> str:
    """``text`` with every use of a package of ``renames`` (``name::``, ``import name``) and
    its declaration (``package name``, ``endpackage : name``) given the new name; comments
    and strings are left as they are."""
    if not renames:
        return text
    names = "|".join(re.escape(n) for n in sorted(renames, key=len, reverse=True))
    site = re.compile(
        rf"(?<![\w$])({names})(?=\s*::)"
        rf"|(?<=\bpackage)(\s+(?:automatic\s+|static\s+)?)({names})(?![\w$])"
        rf"|(?<=\bendpackage)(\s*:\s*)({names})(?![\w$])"
    )
    code = blank_comments(text)
    out, at = [], 0
    for m in site.finditer(code):
        group = next(g for g in (1, 3, 5) if m.group(g))
        out += [text[at : m.start(group)], renames[m.group(group)]]
        at = m.end(group)
    return "".join(out) + text[at:]


def package_text(text: str, name: str) -> str | None:
    """The declaration of package ``name`` in ``text`` (``package`` to ``endpackage``)."""
    code = blank_comments(text)
    start = re.search(rf"\bpackage\s+(?:automatic\s+|static\s+)?{re.escape(name)}(?![\w$])", code)
    if start is None:
        return None
    end = _END.search(code, start.end())
    return text[start.start() : end.end() if end else len(text)]


def plan_packages(
    graph: DesignGraph,
    users: Mapping[str, list[str]],
    packages: Mapping[str, str],
    read_base: Callable[[str], str | None],
    new_tree: Path,
) -> PackagePlan:
    """Which changed packages' users can be judged against the base's package, and how.

    Args:
        graph: The design after the change.
        users: Changed package -> files that use it (:func:`rtlopt.check._deps.reached_files`).
        packages: Changed package -> the file that defines it.
        read_base: ``rel -> text | None`` at the base revision.
        new_tree: The repository after the change.
    """
    plan = PackagePlan()

    def new_text(rel: str) -> str | None:
        p = new_tree / rel
        return p.read_text(errors="replace") if p.is_file() else None

    for name, files in sorted(users.items()):
        rel = packages[name]
        base, new = read_base(rel) or "", new_text(rel)
        others = [f for f in files if f != rel]
        not_modules = [f for f in others if not module_spans(new_text(f) or "")]
        why = ""
        if new is None or package_text(new, name) is None:
            why = "it was removed or renamed while they still use it"
        elif module_spans(base) or module_spans(new):
            why = f"{rel} also holds modules; move the package to a file of its own"
        elif graph.includers(rel):
            why = f"{rel} is read through `include, not as a source"
        elif not_modules:
            why = f"{', '.join(not_modules[:3])} read it outside a module"
        else:
            spread = [f for f in others if _reaches_other_files(new_text(f) or "", name)]
            if spread:
                why = (
                    f"{', '.join(spread[:3])} read it in a `define or outside a module, "
                    "where other files can take it up"
                )
        if why:
            plan.blocked[name] = why
            continue
        plan.renames[name] = name + BASE_SUFFIX
        for f in others:
            plan.users.setdefault(f, f"it uses package {name} ({rel}), which changed")
    for name in plan.renames:
        rel = packages[name]
        old = package_text(read_base(rel) or "", name)
        if old is not None:
            plan.base_texts.setdefault(rel, []).append(rename_packages(old, plan.renames))
    return plan


def _reaches_other_files(text: str, name: str) -> bool:
    """Whether ``text`` uses package ``name`` where a file that never names it can take it
    up: a `define (its macro may be used anywhere) or outside every module (a
    compilation-unit import)."""
    code = blank_comments(text)
    use = re.compile(rf"(?<![\w$]){re.escape(name)}\s*::")
    spans = [(m.start, m.end) for m in module_spans(text)]
    for m in use.finditer(code):
        if not any(a <= m.start() < b for a, b in spans):
            return True
        line_start = code.rfind("\n", 0, m.start()) + 1
        if re.match(r"\s*`define\b", code[line_start : m.start()]):
            return True
    return False


def blocked_finding(name: str, why: str, users: list[str]) -> str:
    """The finding for a changed package whose users cannot be re-judged."""
    listed = ", ".join(users[:4]) + (" ..." if len(users) > 4 else "")
    return (
        f"package {name} changed and the modules that use it ({listed}) cannot be judged "
        f"against the base's package: {why}; change the package in a commit of its own and "
        "review it"
    )


def rejudge_package_users(
    graph: Any,
    users: dict[str, list[str]],
    packages: dict[str, str],
    tree: Path,
    modules: list[Any],
    read_base: Callable[[str], str | None],
    new_tree: Path,
) -> None:
    """Re-judge the modules that use a changed package against the base's package: each
    user module of ``users`` becomes a job in ``modules``, the base's texts renamed into the
    gate's reference ``tree``; where that cannot be set up, a finding."""
    from rtlopt.check._check import ModuleCheck, _Job

    plan = plan_packages(graph, users, packages, read_base, new_tree)
    for name, why in plan.blocked.items():
        modules.append(
            ModuleCheck(
                packages[name],
                f"{name} (package)",
                "modified",
                findings=[blocked_finding(name, why, users[name])],
            )
        )
    for rel, texts in plan.base_texts.items():
        with (tree / rel).open("a") as fh:
            fh.write("\n// rtlopt check: the base's version, renamed\n" + "\n".join(texts))
    jobs = {(m.rel, m.name): m for m in modules if isinstance(m, _Job)}
    for rel, why in sorted(plan.users.items()):
        here = [j for (r, _), j in jobs.items() if r == rel]
        if here:  # the tree holds its reference already (its base text, an expansion)
            ref, new = (tree / rel).read_text(errors="replace"), here[0].new_text
        else:
            ref = read_base(rel) or ""
            new = (new_tree / rel).read_text(errors="replace")
        old_names = {s.name for s in module_spans(ref)}
        for span in module_spans(new):
            if span.name in old_names and (rel, span.name) not in jobs:
                modules.append(_Job(rel, span.name, new, span.line, why=why))
        (tree / rel).unlink(missing_ok=True)
        (tree / rel).write_text(rename_packages(ref, plan.renames))
