"""Forms a simulator-only stretch may hold that :func:`rtlopt.evaluate._sim_reading.inert`
does not read token by token, so it takes them for changes (fail closed): an escaped
identifier, a hierarchical name (a call ``g.put(b)`` into shared code), a task enabled
without parentheses (``put;``), a gate primitive (``or (t, b, b);``) and brackets that do not
pair."""

from __future__ import annotations

import re

__all__ = ["GATES", "unread_form"]

#: Verilog's built-in gate and switch primitives.
GATES = frozenset(
    {
        *"and nand or nor xor xnor not buf bufif0 bufif1 notif0 notif1".split(),
        *"tran tranif0 tranif1 rtran rtranif0 rtranif1 pullup pulldown".split(),
        *"nmos pmos cmos rnmos rpmos rcmos".split(),
    }
)
_TOKEN = re.compile(
    r"\\\S+|[A-Za-z_][\w$]*|\d[\w'.]*|'[sS]?[bBoOdDhH]\s*[\w?]+|\$[\w$]+|`[A-Za-z_][\w$]*|::|\S"
)
_NAME = re.compile(r"[A-Za-z_][\w$]*")
#: Tokens after which a statement or a module item starts.
_STARTS = {
    ";",
    ")",
    "begin",
    "end",
    "else",
    "always",
    "always_comb",
    "always_ff",
    "always_latch",
    "initial",
    "final",
    "fork",
    "join",
    "join_any",
    "join_none",
    "do",
    "forever",
    "default",
    "generate",
    "endgenerate",
    "endcase",
    "endtask",
    "endfunction",
}
#: Keywords that may stand alone before ``;``.
_BARE = {*_STARTS, "return", "break", "continue", "endmodule", "null", "this", "super"}


def unread_form(code: str) -> str:
    """Why ``code`` (strings blanked) holds a form :func:`inert` cannot judge, or ""."""
    if re.search(r"\\\S", code):
        return "an escaped identifier"
    toks = _TOKEN.findall(code)
    depth = 0
    for tok in toks:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(tok, 0)
        if depth < 0:
            break
    if depth:
        return "brackets that do not pair"
    for i, tok in enumerate(toks):
        prev = toks[i - 1] if i else ""
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if tok == "." and prev not in ("(", ","):
            return f"a hierarchical name ({prev}.{nxt})"
        if not _starts(toks, i):
            continue
        if tok in GATES:
            return f"the gate primitive {tok}"
        if nxt == ";" and _NAME.fullmatch(tok) and tok not in _BARE:
            return f"a call of the task {tok}"
    return ""


def _starts(toks: list[str], i: int) -> bool:
    """Whether a statement or an item may start at ``toks[i]``."""
    if i == 0:
        return True
    prev = toks[i - 1]
    before = toks[i - 2] if i >= 2 else ""
    if prev in _STARTS or prev.startswith("`") or before == "#":
        return True  # after a statement, a block, a macro's use, a delay
    if prev == "*" and before == "@":
        return True
    if before == ":" and i >= 3 and toks[i - 3] in _STARTS:
        return True  # a block's label
    return prev == ":" and not _ternary(toks, i - 1)


def _ternary(toks: list[str], colon: int) -> bool:
    """Whether the ``:`` at ``toks[colon]`` ends a conditional operator's first branch
    (rather than a case item's or a statement's label)."""
    level = 0
    for j in range(colon - 1, -1, -1):
        tok = toks[j]
        if tok in (";", "begin", "end"):
            return False
        if tok == ":":
            level += 1
        elif tok == "?":
            if level == 0:
                return True
            level -= 1
    return False
