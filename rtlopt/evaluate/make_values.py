"""Make's variables and text functions of literal words, evaluated: a name a build computes
(``F := $(addsuffix .vh,stim)``) read as the name it gives (round 91 case 05, round 92 cases
01-04, 08). What stays computed (``$(shell ..)``, a variable no text sets) is left as written.
"""

from __future__ import annotations

import functools
import itertools
import re
import types
from collections.abc import Mapping

__all__ = ["assignments", "evaluated"]

_ASSIGNMENT = re.compile(
    r"^[ \t]*(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)[ \t]*([:?!+]?=|::=)[ \t]*(.*)$",
    re.M,
)
_VARIABLE = re.compile(r"\$+\(([A-Za-z_][\w.-]*)\)|\$+\{([A-Za-z_][\w.-]*)\}")
#: a Make text function of literal words
_FUNCTION = re.compile(
    r"\$\((addsuffix|addprefix|subst|patsubst|notdir|basename|strip|firstword|lastword|join)"
    r"\s+([^$()]*)\)"
)


@functools.lru_cache(maxsize=32)
def assignments(text: str) -> Mapping[str, str]:
    """The value ``text`` assigns each variable (Make's or a shell's) where it assigns one
    only: a variable given two values (``C := cat`` then ``C := uniq``, Make using the
    last: round 92 case 12) or added to after a value (``F += b.vh``) stays computed
    (absent). Cached per text (the build's commands read it once per variable use)."""
    out: dict[str, str] = {}
    twice: set[str] = set()
    for m in _ASSIGNMENT.finditer(text):
        name, value, added = m.group(1), m.group(3).strip(), m.group(2) == "+="
        if (added and name in out) or out.setdefault(name, value) != value:
            twice.add(name)
    return types.MappingProxyType({k: v for k, v in out.items() if k not in twice})


def evaluated(text: str, values: Mapping[str, str]) -> str:
    """``text`` with the variables ``values`` gives and Make's text functions of literal
    words replaced by their values (a few levels)."""
    if "$" not in text:
        return text
    for _ in range(4):
        done = _FUNCTION.sub(_apply, _VARIABLE.sub(lambda m: _given(m, values), text))
        if done == text:
            break
        text = done
    return text


def _given(m: re.Match[str], values: Mapping[str, str]) -> str:
    value = values.get(m.group(1) or m.group(2) or "")
    return m.group(0) if value is None or "$" + "(" + (m.group(1) or "") in value else value


def _apply(m: re.Match[str]) -> str:
    """The value of the Make function call ``m`` (:data:`_FUNCTION`)."""
    name, args = m.group(1), m.group(2).split(",")
    words = args[-1].split()
    if name in ("addsuffix", "addprefix") and len(args) == 2:
        return " ".join(w + args[0] if name == "addsuffix" else args[0] + w for w in words)
    if name == "join" and len(args) == 2:
        a, b = args[0].split(), args[1].split()
        return " ".join(x + y for x, y in itertools.zip_longest(a, b, fillvalue=""))
    if name == "subst" and len(args) == 3:
        return args[2].replace(args[0], args[1])
    if name == "patsubst" and len(args) == 3 and args[0].count("%") == 1:
        a, b = args[0].split("%")
        out = [
            args[1].replace("%", w[len(a) : len(w) - len(b)])
            if w.startswith(a) and w.endswith(b) and len(w) >= len(a) + len(b)
            else w
            for w in words
        ]
        return " ".join(out)
    if len(args) == 1 and words:
        pick = {
            "notdir": lambda w: w.rsplit("/", 1)[-1],
            "basename": lambda w: w.rsplit(".", 1)[0],
        }.get(name)
        if pick:
            return " ".join(pick(w) for w in words)
        return {"strip": " ".join(words), "firstword": words[0], "lastword": words[-1]}[name]
    return m.group(0)
