"""The instances of the target a macro writes from its arguments (```INST(m, u)``).

A macro use whose arguments name the target's module (an argument that is the module's name,
with or without a parameter list) may write an instance of it whose name is another argument:
:func:`argument_words` lists the plain words beside the module's name (each may be an
instance's name). Where another argument is no plain identifier (```INST(m, `NAME)``, a
pasted or indexed name), the instance's name is what that argument expands to:
:func:`unknown_argument_instances` fails closed unless a reading taken here surely expands
the line (its preprocessed text is whole and surely compiles it: the instance names read
from the expanded text and slang's elaboration hold it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from rtlopt.evaluate._reach_names import Preprocessed, read_lines, readings
from rtlopt.evaluate._reach_paths import macro_argument_words, macro_arguments
from rtlopt.frontend.model import Design

__all__ = ["argument_words", "sure_lines", "unknown_argument_instances"]

#: The name a ```define`` defines.
_DEFINED = re.compile(r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)", re.M)
_PLAIN = re.compile(r"[A-Za-z_][\w$]*")


def argument_words(
    texts: list[tuple[Path, str]], name: str, code: Callable[[Path, str], str]
) -> set[str]:
    """The other words of every macro use whose arguments name module ``name`` (```INST(m,
    u)``: ``u`` may be the name of an instance the macro writes)."""
    out: set[str] = set()
    for path, text in texts:
        if "`" in text:
            for _, _, words in macro_argument_words(code(path, text)):
                if name in words:
                    out |= {w for w in words if not w.startswith("`")}
    return out - {name}


def sure_lines(
    design: Design, every: list[tuple[Path, str]], path: Path, text: str
) -> tuple[set[int], set[int]]:
    """``(seen, bodies)`` of :func:`read_lines` for ``text`` (the file ``path``) in the
    readings taken here, a conditional on a macro another text of ``every`` defines
    counting as unsure."""
    elsewhere = {n for q, t in every if q != path and "`define" in t for n in _DEFINED.findall(t)}
    return read_lines(text, [set(r) for r in readings(design, text)], elsewhere)


def unknown_argument_instances(
    design: Design,
    texts: list[tuple[Path, str]],
    every: list[tuple[Path, str]],
    code: Callable[[Path, str], str],
    expanded: dict[Path, Preprocessed],
) -> str:
    """Why a macro use in ``texts`` whose arguments name the target's module, beside an
    argument that is no plain identifier (another macro, a pasted or indexed name), may
    write an instance whose name is not read here: the line is neither in a ```define``
    body (judged where that macro is used) nor surely expanded by a reading taken here
    (``every``: the texts whose macros count as defined elsewhere); or ""."""
    name = design.target.name
    module = re.compile(rf"{re.escape(name)}(?![\w$])\s*(?:#[\s\S]*)?")
    word = re.compile(rf"(?<![\w$`]){re.escape(name)}(?![\w$])")
    for path, text in texts:
        if "`" not in text or not word.search(text):
            continue
        body = code(path, text)
        uses = [
            (at, macro)
            for at, macro, args in macro_arguments(body)
            if any(module.fullmatch(a.strip()) for a in args)
            and any(
                not _PLAIN.fullmatch(a.strip())
                for a in args
                if a.strip() and not module.fullmatch(a.strip())
            )
        ]
        if not uses:
            continue
        pp = expanded.get(path)
        seen, bodies = sure_lines(design, every, path, text)
        for at, macro in uses:
            line = text.count("\n", 0, at) + 1
            if line in bodies or (pp is not None and pp.whole and line in seen):
                continue
            return (
                f"{path.name}:{line}: a macro writes an instance of {name} (`{macro}) whose "
                "name is another macro or no plain identifier, on a line no reading taken "
                "here surely expands: the instance's name and the names it is reached by "
                "cannot be read here; define the macro in the repository or write the "
                "instance's name plainly"
            )
    return ""
