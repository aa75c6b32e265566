"""What a candidate's text does where it is written back, which its own preprocessed text
cannot show: the headers its ```include`` lines name (read from the target's folder, as the
repository reads them, not from rtlopt's scratch folder), and the pass-through state
(```default_nettype``, ```unconnected_drive``, ```celldefine``) it leaves the files read
after it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.verilog import blank_comments

__all__ = ["PASS_DIRECTIVE", "last_state", "repository_includes", "state_left"]

#: Directives the preprocessor passes through: the state a module is read in.
PASS_DIRECTIVE = re.compile(
    r"^[ \t]*`(timescale|default_nettype|celldefine|endcelldefine|unconnected_drive"
    r"|nounconnected_drive|resetall)\b[^\n]*",
    re.M,
)

#: The pass-through state every compilation starts in (``resetall``'s), white space removed.
_DEFAULT_STATE = frozenset({"`default_nettypewire", "`endcelldefine", "`nounconnected_drive"})


def last_state(directives: Sequence[str]) -> dict[str, str]:
    """The pass-through directive of each kind in force after ``directives``."""
    last: dict[str, str] = {}
    for d in directives:
        word = d.split()[0].lstrip("`")
        if word == "resetall":
            last.clear()
        kind = {"endcelldefine": "celldefine", "nounconnected_drive": "unconnected_drive"}
        last[kind.get(word, word)] = d.strip()
    return last


#: Kinds whose state after a module is not compared: ``resetall`` is no state, and a
#: ``timescale`` sets only the unit of delays (which a candidate may not write) and of
#: ``$time`` in later files that have none of their own, never what any tool synthesizes; a
#: candidate's ``timescale`` line in front of its module is an everyday habit.
_UNCOMPARED = frozenset({"resetall", "timescale"})


def _end_state(directives: Sequence[str]) -> dict[str, str]:
    """The state ``directives`` leave for what follows, white space aside, defaults dropped."""
    keys = {k: "".join(v.split()) for k, v in last_state(directives).items()}
    return {k: v for k, v in keys.items() if v not in _DEFAULT_STATE and k not in _UNCOMPARED}


def state_left(text: str, reference: str, before: Sequence[str], name: str) -> str:
    """Why ``text`` leaves the files after it another pass-through state than ``reference``
    (the repository's module, or its file for a copy of the file) leaves them, both read
    after the directives ``before``; or "".

    The candidate is read with a footer that restores the defaults, so its own proof cannot
    see what such a directive does to the files after it once written back."""

    def left(t: str) -> dict[str, str]:
        code = blank_comments(t, strings=False)
        return _end_state([*before, *(m.group(0) for m in PASS_DIRECTIVE.finditer(code))])

    mine, theirs = left(text), left(reference)
    if mine == theirs:
        return ""
    kind = sorted(k for k in {*mine, *theirs} if mine.get(k) != theirs.get(k))[0]
    shown = next(
        (
            " ".join(m.group(0).split())
            for m in PASS_DIRECTIVE.finditer(blank_comments(text, strings=False))
            if kind in m.group(0) or m.group(0).strip() == "`resetall"
        ),
        f"no `{kind}",
    )
    return (
        f"the candidate leaves another `{kind} in force after module {name} than the "
        f"repository ({shown[:60]!r}): the files read after it would change, which its own "
        "proof cannot see; keep the module's directives (and those around it) as the "
        "repository has them"
    )


def repository_includes(design: Design, text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` with each ```include "name"`` (outside comments) naming the file the
    repository's module reads: ``name`` beside the target's file, else in the first include
    folder that holds it (``-grelative-include``, as the unit is read). The candidate is
    preprocessed from rtlopt's scratch folder, where a relative name would resolve elsewhere.
    Also why it cannot be (a name found nowhere, a name given by a macro), in the candidate's
    lines: ``line N: message``."""
    code = blank_comments(text, strings=False)
    folders = [design.target.file.parent, *design.include_dirs]
    parts: list[str] = []
    errors: list[str] = []
    at = 0
    for m in re.finditer(r"`include\b[ \t]*(<)?(\"([^\"\n]*)\")?", code):
        line = code.count("\n", 0, m.start()) + 1
        if m.group(1):  # <name>: the include folders only, from any folder
            continue
        if m.group(2) is None:
            errors.append(
                f"line {line}: an `include whose file is not named by a string (a macro) is "
                "read from rtlopt's scratch folder, not where the repository reads it: name "
                "the file"
            )
            continue
        name = m.group(3)
        if Path(name).is_absolute():
            continue
        found = next((f / name for f in folders if (f / name).is_file()), None)
        if found is None:
            errors.append(
                f'line {line}: `include "{name}" is found neither beside '
                f"{design.target.file.name} nor in the include folders"
            )
            continue
        parts += [text[at : m.start(2)], f'"{found.resolve().as_posix()}"']
        at = m.end(2)
    return "".join([*parts, text[at:]]), tuple(errors)
