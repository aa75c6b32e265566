"""The instances of a module in a text, read from the text (no elaboration).

One reading for every rule that finds instances by text: the module's name, its parameter
values (``#(...)`` at any depth, or a single value without parentheses: ``m #200 u(...)``,
which iverilog and other simulators accept, a Verilog-1995 habit), then each instance's name
(plain or escaped) before its ports or array range, for every instance of the statement
(``m a(...), b(...);``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "BUILT_INSTANCE",
    "Instance",
    "instance_follows",
    "instances_of",
    "procedural_spans",
]

#: Stands for an instance whose name a macro builds.
BUILT_INSTANCE = "`"

#: Words that start a statement or declaration, never an instance's name.
_KEYWORDS = frozenset(
    "module macromodule if else for foreach while do repeat forever case casez casex wait "
    "assert assume cover restrict return unique unique0 priority always always_ff "
    "always_comb always_latch initial final assign function task begin end fork join "
    "property sequence disable generate genvar import export".split()
)
_IDENT = re.compile(r"\s*([A-Za-z_][\w$]*|\\\S+)")
#: A parameter value written without parentheses after ``#``: a number (``200``, ``8'd200``,
#: ``1.5``), a name (``W``, ``pkg::W``) or a macro (```W``).
_BARE_VALUE = re.compile(
    r"\s*(?:`?[\w$]+(?:\s*'\s*[sS]?[bBoOdDhH]\s*[\w?]+)?|'\s*[sS]?[bBoOdDhH]\s*[\w?]+)"
    r"(?:(?:\.|::)[\w$]+)*"
)


@dataclass(frozen=True)
class Instance:
    """One instantiation statement of a module.

    Attributes:
        start: Offset of the module's name.
        names: The instances' names (an escaped name without its backslash; :data:`BUILT_INSTANCE`
            for a name a macro builds).
        bare: Its parameter value is written without parentheses (``m #200 u``).
    """

    start: int
    names: tuple[str, ...]
    bare: bool = False


def instances_of(code: str, name: str) -> list[Instance]:
    """The instantiations of module ``name`` in ``code`` (comments blanked)."""
    out: list[Instance] = []
    for m in re.finditer(rf"(?<![\w$`]){re.escape(name)}(?![\w$])", code):
        at = m.end()
        rest = code[at:].lstrip()
        at = len(code) - len(rest)
        bare = False
        if rest.startswith("#"):
            after = code[at + 1 :].lstrip()
            if after.startswith("("):
                at = _matching(code, code.index("(", at))
                if at < 0:
                    continue
            else:
                value = _BARE_VALUE.match(code, at + 1)
                if value is None:
                    continue
                at, bare = value.end(), True
        names: list[str] = []
        while True:  # each instance of the statement
            if code[at:].lstrip().startswith("`"):
                names.append(BUILT_INSTANCE)
                break
            ident = _IDENT.match(code, at)
            if ident is None or ident.group(1) in ("module", "macromodule"):
                break
            if code[ident.end() :].lstrip()[:1] not in ("(", "["):
                break
            names.append(ident.group(1).removeprefix("\\"))  # ``\u `` is the name ``u``
            close = _after_ports(code, ident.end())
            if close < 0 or not code[close:].lstrip().startswith(","):
                break
            at = code.index(",", close) + 1
        if names:
            out.append(Instance(m.start(), tuple(names), bare))
    return out


def instance_follows(code: str, at: int) -> bool:
    """Whether the text at ``at`` (just past what names a module: a macro standing there)
    reads as the rest of an instantiation: parameter values (``#(...)`` or ``#value``), then
    an instance's name (plain or escaped) before its ports or array range."""
    rest = code[at:].lstrip()
    at = len(code) - len(rest)
    if rest.startswith("#"):
        if code[at + 1 :].lstrip().startswith("("):
            at = _matching(code, code.index("(", at))
            if at < 0:
                return False
        else:
            value = _BARE_VALUE.match(code, at + 1)
            if value is None:
                return False
            at = value.end()
    ident = _IDENT.match(code, at)
    if ident is None or ident.group(1) in _KEYWORDS:
        return False
    at = ident.end()
    while code[at:].lstrip().startswith("["):  # an instance array's ranges
        at = _matching(code, code.index("[", at), "[]")
        if at < 0:
            return False
    return code[at:].lstrip().startswith("(")


def _matching(code: str, open_at: int, pair: str = "()") -> int:
    """Just past the ``)`` that closes the ``(`` at ``open_at`` (``pair``: another bracket
    pair), or -1."""
    depth = 0
    for i in range(open_at, len(code)):
        depth += {pair[0]: 1, pair[1]: -1}.get(code[i], 0)
        if depth == 0:
            return i + 1
    return -1


def _after_ports(code: str, at: int) -> int:
    """Where an instance's array ranges and port list that start at ``at`` end, or -1."""
    depth, i = 0, at
    while i < len(code):
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0 and code[i + 1 :].lstrip()[:1] != "(":
                if c == ")":
                    return i + 1
        elif c == ";" and depth == 0:
            return -1
        i += 1
    return -1


#: A word (not a macro's, a system name's or an escaped name's), a number, or a bracket, ``;``,
#: ``@``, ``#``, ``*``.
_TOKEN = re.compile(r"(?<![\w$`\\'])([A-Za-z_][\w$]*|\d[\w$.']*)|([()\[\]{};@#*])")
_PROCESS = frozenset({"initial", "final", "always", "always_ff", "always_comb", "always_latch"})
_OPENS = {"begin": "end", "fork": "join"}
_CLOSES = frozenset({"end", "join", "join_any", "join_none"})
#: Words that end or start a scope a procedural block never holds: a span reaching one is
#: misread (left out).
_OUTSIDE = frozenset(
    "module macromodule endmodule interface endinterface program endprogram package "
    "endpackage generate endgenerate task endtask function endfunction class endclass "
    "initial final always always_ff always_comb always_latch".split()
)
#: Words before ``task``/``function`` that declare one without a body (a prototype).
_PROTOTYPE = frozenset({"extern", "import", "export", "pure", "typedef"})


#: A macro definition with its continued lines.
_DEFINE = re.compile(r"`define\b(?:\\\r?\n|[^\n])*")
_NOT_NEWLINE = re.compile(r"[^\n]")


def procedural_spans(code: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of ``code`` (comments and strings blanked) that are
    procedural for certain, where no instance may stand: the ``begin ... end`` (``fork ...
    join``) block an ``initial``, ``always`` or ``final`` runs, and a task's or function's
    body up to its ``endtask``/``endfunction``. Read from the literal words only (what a macro
    expands to is not read: a macro closing the block would leave its ``end`` unmatched); a
    block misread (another scope's word inside, unbalanced) is left out, so the spans never
    reach beyond the procedural code."""
    # a macro's body is no code where it is defined (`define B begin: round 68)
    code = _DEFINE.sub(lambda m: _NOT_NEWLINE.sub(" ", m.group()), code)
    tokens = [(m.group(1) or m.group(2), m.start(), m.end()) for m in _TOKEN.finditer(code)]
    spans: list[tuple[int, int]] = []
    k = 0
    while k < len(tokens):
        word, start, _ = tokens[k]
        found = None
        if word in _PROCESS:
            found = _process_block(tokens, k + 1)
        elif word in ("task", "function") and (k == 0 or tokens[k - 1][0] not in _PROTOTYPE):
            found = _subprogram_body(tokens, k + 1, "end" + word)
        if found is None:
            k += 1
            continue
        spans.append((start, tokens[found][2]))
        k = found + 1
    return spans


def _process_block(tokens: list[tuple[str, int, int]], k: int) -> int | None:
    """The index of the ``end`` (``join``) closing the block a process runs, its timing
    control (``@(...)``, ``@*``, ``@name``, ``#(...)``, ``#name``) skipped from token ``k``;
    None where the statement is no ``begin``/``fork`` block or is misread."""
    while k < len(tokens) and tokens[k][0] in ("@", "#"):
        k += 1
        if k < len(tokens) and tokens[k][0] == "(":
            depth = 0
            while k < len(tokens):
                depth += {"(": 1, ")": -1}.get(tokens[k][0], 0)
                k += 1
                if depth == 0:
                    break
        else:
            k += 1  # a name, a number or ``*``
    if k >= len(tokens) or tokens[k][0] not in _OPENS:
        return None
    depth = 0
    for j in range(k, len(tokens)):
        word = tokens[j][0]
        if word in _OUTSIDE:
            return None
        if word in _OPENS:
            depth += 1
        elif word in _CLOSES:
            depth -= 1
            if depth == 0:
                return j
    return None


def _subprogram_body(tokens: list[tuple[str, int, int]], k: int, closing: str) -> int | None:
    """The index of ``closing`` ending the task or function declared from token ``k``; None
    where another scope's word comes first (a prototype without a body, misread)."""
    for j in range(k, len(tokens)):
        word = tokens[j][0]
        if word == closing:
            return j
        if word in _OUTSIDE:
            return None
    return None
