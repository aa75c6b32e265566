"""Changed headers for `rtlopt check`: the macros a changed Verilog file defines, and the
other configurations of its ```ifdef``s.

A changed file with no module and no package is a header: every file that reads one of the
macros it defines (at the base or after the change) is re-judged, however it reaches the
header. A changed source whose ```define`` / ```undef`` lines (or their place among its
modules) moved is one too, for those macros. A changed header that reads differently in
another configuration of its own ```ifdef``s is a finding: the modules it reaches are
judged preprocessed, in this configuration only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from rtlopt.check._check import ModuleCheck
from rtlopt.check._closure import made_directives
from rtlopt.check._rules import Rules
from rtlopt.verilog import blank_comments, module_spans

_DEFINE = re.compile(r"`(?:define|undef)\s+([A-Za-z_]\w*)")
_VERILOG = (".v", ".sv", ".vh", ".svh")


def changed_headers(
    changed: Iterable[tuple[str, str, str]], *, hardware: bool = False
) -> tuple[dict[str, set[str]], set[str]]:
    """For each changed Verilog file (``changed``: path, base text, new text) that holds no
    module and no package, the macros it defines at the base or after the change; for a
    source whose macro lines moved, those macros. Returns them and the set of such sources.
    ``hardware``: no build but the formal one defines ``FORMAL``; each text is read as the
    others read it (``harness/_verification_only.py``)."""
    from rtlopt.frontend._depgraph import package_spans
    from rtlopt.harness._verification_only import hardware_source

    out: dict[str, set[str]] = {}
    sources: set[str] = set()
    for rel, old, new in changed:
        if hardware:
            old, new = hardware_source(old), hardware_source(new)
        if any(module_spans(t) or package_spans(t) for t in (old, new)):
            # a source: the macros whose definitions (or their place) it changed
            moved = macro_sequence(old) != macro_sequence(new)
            names = {n for t in (old, new) for n, _ in macro_sequence(t) if n} if moved else set()
            if names:
                out[rel] = names
                sources.add(rel)
            continue
        out[rel] = {
            m.group(1)
            for t in (old, new)
            for m in _DEFINE.finditer(made_directives(blank_comments(t, strings=False)))
        }
    return out, sources


_CONDITIONAL = re.compile(r"`(?:ifdef|ifndef|elsif)[ \t]+[A-Za-z_][\w$]*|`(?:else|endif)\b")


def macro_sequence(text: str) -> list[tuple[str, str]]:
    """The ``define`` / ``undef`` lines of ``text`` in order (name, the line normalised), with
        an entry ("", module name) where each module starts and ("", the directive) at each
    conditional directive: where a define stands matters."""
    code = made_directives(blank_comments(text, strings=False))
    marks = [(span.start, "", span.name) for span in module_spans(code)]
    # the conditionals around them too (a define taken out of an ```ifdef`` moved)
    marks += [(c.start(), "", c.group(0)) for c in _CONDITIONAL.finditer(code)]
    for d in _DEFINE.finditer(code):
        eol = code.find("\n", d.start())
        line = code[d.start() : eol if eol >= 0 else len(code)]
        marks.append((d.start(), d.group(1), " ".join(line.split())))
    return [(name, line) for _, name, line in sorted(marks)]


def other_configurations(
    rules: Rules,
    headers: Iterable[str],
    new_tree: Path,
    read_base: Callable[[str], str | None],
) -> list[ModuleCheck]:
    """A finding for each changed header that reads differently in another configuration of
    its own ```ifdef``s. The configuration here is the project's defines, known only when no
    repository file defines a tested macro."""
    from rtlopt.evaluate import text_change_elsewhere

    headers = sorted(headers)
    if not headers:
        return []
    defines = {d.split("=", 1)[0] for d in rules.new.project.defines}
    defined_by_files: set[str] = set()
    for text in _tree_texts(new_tree).values():
        code = blank_comments(text, strings=False)
        defined_by_files |= set(re.findall(r"`define\s+([A-Za-z_]\w*)", code))
    out: list[ModuleCheck] = []
    for rel, old, new in _versions(headers, new_tree, read_base):
        tested = set(re.findall(r"`(?:ifdef|ifndef|elsif)\s+(\w+)", old + new))
        why = text_change_elsewhere(old, new, defines, not (tested & defined_by_files))
        if why:
            out.append(
                _finding(
                    rel,
                    f"{why} (another configuration of its `ifdef); the gate judges the modules "
                    "it reaches in this configuration only (set harness.other_configurations "
                    '= "ignore" if only it is built)',
                )
            )
    return out


def _tree_texts(tree: Path) -> dict[str, str]:
    """Every Verilog file of ``tree`` (``.git`` aside) by its path relative to it."""
    return {
        p.relative_to(tree).as_posix(): p.read_text(errors="replace")
        for p in tree.rglob("*")
        if p.suffix in _VERILOG and p.is_file() and ".git" not in p.parts
    }


def _versions(
    headers: Iterable[str], new_tree: Path, read_base: Callable[[str], str | None]
) -> Iterable[tuple[str, str, str]]:
    """``(path, base text, changed text)`` of each header ("" where a side has none)."""
    for rel in headers:
        p = new_tree / rel
        yield rel, read_base(rel) or "", p.read_text(errors="replace") if p.is_file() else ""


def _finding(rel: str, why: str) -> ModuleCheck:
    return ModuleCheck(
        rel, "(header)", "changed", findings=[f"unchecked: {rel} changed, and {why}"]
    )


def simulator_readings(
    rules: Rules,
    headers: Iterable[str],
    new_tree: Path,
    read_base: Callable[[str], str | None],
) -> list[ModuleCheck]:
    """A finding for each changed header that a simulator reads otherwise than the reading
    the gate proves (``SYNTHESIS`` defined): its change reads differently with ``SYNTHESIS``
    undefined or a simulator's macro defined, or a file includes it only in a branch the
    proven reading does not take (``evaluate/_sim_headers.py``)."""
    from rtlopt.evaluate import header_simulator_change, unread_include_sites

    headers = sorted(headers)
    if not headers:
        return []
    defines = {d.split("=", 1)[0] for d in rules.new.project.defines}
    texts = _tree_texts(new_tree)
    out: list[ModuleCheck] = []
    for rel, old, new in _versions(headers, new_tree, read_base):
        why = header_simulator_change(old, new, defines)
        sites = unread_include_sites(rel, texts, defines)
        if sites:
            why = why or (f"{sites[0]}, so the modules that include it are judged without it")
        if why:
            out.append(
                _finding(
                    rel,
                    f"{why}; the gate proves the reading with SYNTHESIS defined only, so a "
                    "change a simulator reads otherwise is not judged: review it in a commit "
                    "of its own",
                )
            )
    return out
