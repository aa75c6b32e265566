"""Which instance a hierarchical name's first segment names, for the reach rule
(:mod:`._reach`).

The rule gathers the names of every instance of the target in the repository (``dut`` in
one testbench) and counts a name that starts at any of them as a reach into the target. A
name resolves in the scope that holds it first (IEEE 1800 23.8): where that module declares
its own instance of that name, ``dut.x`` is a name into that instance, so where every
instance of that name it declares is of another module, the name does not start at the
target (``dut`` of ``chacha_core`` in one testbench, of ``chacha`` in the other). A name that
goes on into the target through that instance names another instance of the target later
on and is found there. Anything not read plainly (a declaration through a macro, one of
several instances in one statement, a module the target itself) counts as before.
"""

from __future__ import annotations

import re

from rtlopt.verilog import module_spans
from rtlopt.verilog_instances import instances_of

__all__ = ["another_modules_instance"]

#: Words that may stand before a parenthesis without declaring an instance.
_KEYWORDS = frozenset(
    {
        "if", "else", "case", "casez", "casex", "while", "for", "repeat", "forever", "wait",
        "begin", "end", "fork", "join", "assign", "always", "initial", "return", "assert",
        "assume", "cover", "property", "sequence", "function", "task", "module", "disable",
        "posedge", "negedge", "or", "and", "not", "output", "input", "inout", "wire", "reg",
        "logic", "bit", "integer", "genvar", "generate", "endgenerate", "default", "new",
    }
)  # fmt: skip


def another_modules_instance(code: str, at: int, anchor: str, target: str) -> bool:
    """Whether the hierarchical name whose first segment ``anchor`` starts at ``code[at]``
    (comments blanked) resolves to an instance of another module than ``target``: the
    innermost module holding it declares instances named ``anchor``, each plainly, and
    none of ``target``."""
    if anchor == target or _continues(code, at):
        return False
    inside = [s for s in module_spans(code) if s.start <= at < s.end]
    if not inside:
        return False
    span = min(inside, key=lambda s: s.end - s.start)
    unit = code[span.start : span.end]
    modules: set[str] = set()
    for m in re.finditer(rf"(?<![\w$.`\\]){re.escape(anchor)}(?![\w$])\s*[\[(]", unit):
        word = _module_before(unit, m.start())
        if word is None:
            return False  # a declaration not read plainly: may be the target's
        if word not in _KEYWORDS and not _module_level(unit, m.start(), word):
            return False  # in a generate scope: a name outside it resolves upward (round 68)
        if word not in _KEYWORDS and anchor in {
            n for i in instances_of(unit, word) for n in i.names
        }:
            modules.add(word)
    return bool(modules) and target not in modules


#: Words that open or close a scope an instance may be declared in.
_SCOPE = re.compile(
    r"(?<![\w$`\\])(begin|end|generate|endgenerate|fork|join|join_any|join_none)(?![\w$])"
)


def _module_level(unit: str, at: int, module: str) -> bool:
    """Whether the instance of ``module`` whose name stands at ``unit[at]`` is declared at the
    module's own level: outside every ``begin``/``generate``/``fork`` scope, its statement
    following a ``;`` (not a generate ``if``/``for``/``else``)."""
    head = unit.rfind(module, 0, at)
    depth = 0
    for m in _SCOPE.finditer(unit, 0, max(head, 0)):
        depth += 1 if m.group(1) in ("begin", "generate", "fork") else -1
    k = head - 1
    while k >= 0 and unit[k].isspace():
        k -= 1
    return head >= 0 and depth == 0 and k >= 0 and unit[k] == ";"


def _continues(code: str, at: int) -> bool:
    """Whether ``code[at]`` continues a hierarchical name (a ``.`` before it)."""
    k = at - 1
    while k >= 0 and code[k].isspace():
        k -= 1
    return k >= 0 and code[k] in ".\\`$"


def _module_before(unit: str, at: int) -> str | None:
    """The word before the name at ``unit[at]``, past a parameter list ``#(...)``: the module
    of an instance declared there; "" where no word stands there (a call, an expression);
    None where a declaration may stand that is not read plainly (after a comma or a macro)."""
    k = at - 1
    while k >= 0 and unit[k].isspace():
        k -= 1
    if k >= 0 and unit[k] == ")":
        level = 0
        while k >= 0:
            level += {")": 1, "(": -1}.get(unit[k], 0)
            if level == 0:
                break
            k -= 1
        k -= 1
        while k >= 0 and unit[k].isspace():
            k -= 1
        if k < 0 or unit[k] != "#":
            return ""  # a parenthesized operand: no declaration
        k -= 1
        while k >= 0 and unit[k].isspace():
            k -= 1
    if k >= 0 and unit[k] == ",":
        return None
    word = re.search(r"[`\\]?[A-Za-z_][\w$]*$", unit[: k + 1])
    if word is None:
        return ""
    if word.group(0)[0] in "`\\":
        return None
    return word.group(0)
