"""What the SystemVerilog view drops in the repository modules a candidate instantiates
outside the reference's hierarchy (the reference's own: :func:`rtlopt.harness._dropped.
reference_dropped`), read as the tools read them."""

from __future__ import annotations

import re
from typing import Any

from rtlopt.harness._dropped import dropped_problems

__all__ = ["used_modules_dropped"]

#: A plain identifier, and an escaped one (its name after the backslash).
_WORD_RE = re.compile(r"(?<![\w$`.\\'])([A-Za-z_][A-Za-z0-9_]*)\b")
_ESCAPED_RE = re.compile(r"\\(\S+)")


def used_modules_dropped(raw: str, code: str, design: Any) -> list[tuple[int, str]]:
    """What the view drops in the repository modules the candidate (``code``: its active
    code) instantiates outside the reference's hierarchy, transitively, read as the tools read
    them (:func:`~rtlopt.harness._powered.module_texts`; the reference's own are judged by
    :func:`reference_dropped`), as a problem on line 1; modules that cannot be read so are
    one too (fail closed)."""
    from rtlopt.harness._powered import module_texts, text_read
    from rtlopt.verilog import blank_comments, module_spans

    hierarchy = {design.target.name, *design.submodules}
    codes = [code]
    if "`" in code:  # an instance a macro or a header writes
        try:
            codes += [blank_comments(t) for t in text_read(raw, design)]
        except RuntimeError:
            pass  # screened out by the screen's included-text rule
    own = {s.name for c in codes for s in module_spans(c)}
    words = {w for c in codes for w in [*_WORD_RE.findall(c), *_ESCAPED_RE.findall(c)]}
    todo = [w for w in words if w in design.modules]
    used: set[str] = set()
    while todo:
        name = todo.pop()
        if name in hierarchy or name in own or name in used:
            continue
        used.add(name)
        todo += [n for n in design.modules[name].instances if n in design.modules]
    if not used:
        return []
    try:
        for full in module_texts(design, sorted(used)):
            found = dropped_problems(blank_comments(full))[:1]
            if found:
                why = "a repository module the candidate instantiates, as the tools read it"
                return [(1, f"{why}, line {found[0][0]}: {found[0][2]}")]
    except (RuntimeError, RecursionError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [(1, f"the repository modules the candidate instantiates cannot be judged ({why})")]
    return []
