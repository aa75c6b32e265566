"""The module items of a Verilog text and the context each stands in, for the kept-check rule.

A module's text is cut into its items (:func:`items`): a statement up to its ``;`` or the
``end`` closing its block, an ``if`` with its ``else``, a macro use with its arguments; a
generate block's items are items of their own. Each item's *context* is the chain of generate
blocks enclosing it (their headers: ``if (...) begin : name``, an ``else`` with the condition of
the ``if`` it follows, ``for (...)``) and of the conditional directives enclosing it (``ifdef X``,
its ``else``): a check kept word for word means the same only where it stands in the same
context (:mod:`._kept_context`).
"""

from __future__ import annotations

import bisect
import re

from rtlopt.verilog import blank_comments

__all__ = [
    "KEYWORDS",
    "NAME",
    "STRING",
    "Chain",
    "chain_at",
    "contexts",
    "directive_events",
    "flat",
    "items",
    "normal",
    "tokens_of",
    "words",
]

#: A context: the headers of the enclosing generate blocks and conditional directives.
Chain = tuple[str, ...]

_TOKEN = re.compile(
    r'"(?:\\.|[^"\\\n])*"|`?[A-Za-z_$][\w$]*|\\\S+|\d*\s*\'[sS]?[bodhBODH]\s*[\w?]+|\d[\w.]*|'
    r"===|!==|==\?|!=\?|==|!=|<<<|>>>|\|->|\|=>|&&&|&&|\|\||<=|>=|<<|>>|->|##|::|\*\*|~&|~\||~\^|"
    r"\^~|\+\+|--|[-+*/%&|^]=|\S"
)
_OPEN = frozenset(
    "begin fork case casex casez randcase function task property sequence clocking "
    "covergroup specify checker".split()
)
_CLOSE = frozenset(
    "end join join_any join_none endcase endfunction endtask endproperty endsequence "
    "endclocking endgroup endspecify endchecker".split()
)

_STATES = frozenset({"assert", "assume", "cover", "restrict", "expect"})
_SEPARATE = frozenset({"generate", "endgenerate", "endmodule"})
#: Directive lines blanked before the items are cut (every branch is read).
_DIRECTIVE_LINE = re.compile(
    r"`(?:ifdef|ifndef|elsif|else|endif|undef|undefineall|resetall|timescale|"
    r"default_nettype|celldefine|endcelldefine|line|include|pragma|begin_keywords|"
    r"end_keywords|nounconnected_drive|unconnected_drive)\b[^\n]*"
)
_DEFINE_LINE = re.compile(r"`define\b(?:[^\n\\]|\\.)*", re.S)


def items(
    code: str,
    nested: list[Chain] | None = None,
    events: list[tuple[int, Chain]] | None = None,
) -> list[tuple[int, int]]:
    """Spans of the module items of ``code`` (comments blanked, directives blanked); a
    generate block's items are items of their own (its ``if (...) begin : name`` and ``end``
    hold none); ``nested`` gets, per span, the headers of the generate blocks enclosing it
    (empty at module level); ``events`` gets ``(offset, headers)`` where they change."""
    out: list[tuple[int, int]] = []
    flags: list[Chain] = [] if nested is None else nested
    changes: list[tuple[int, Chain]] = [] if events is None else events
    tokens = list(_TOKEN.finditer(code))
    start: int | None = None
    depth = paren = 0
    stack: list[str] = []
    closed = ""  # the header of the block an ``end`` just closed (an ``else`` continues it)
    i = 0
    while i < len(tokens):
        m = tokens[i]
        tok = m.group(0)
        if start is None:
            if tok in _SEPARATE:
                i += 1
                continue
            if tok == "end" and stack:  # a generate block's end (and its label)
                closed = stack.pop()
                i += 3 if i + 1 < len(tokens) and tokens[i + 1].group(0) == ":" else 1
                changes.append((m.start(), tuple(stack)))
                continue
            opened = _generate_block(tokens, i)
            if opened:
                head = normal(code[m.start() : tokens[opened - 1].end()])
                stack.append(f"{closed} {head}" if tok == "else" else head)
                changes.append((m.start(), tuple(stack)))
                i = opened
                continue
            start = m.start()
            if tok.startswith("`") and i + 1 < len(tokens) and tokens[i + 1].group(0) == "(":
                j = _macro_end(tokens, i + 1)
                out.append((start, tokens[min(j, len(tokens) - 1)].end()))
                flags.append(tuple(stack))
                start, i = None, j + 1
                continue
        if tok in "([{":
            paren += 1
        elif tok in ")]}":
            paren = max(paren - 1, 0)
        elif tok in _OPEN and not (i and _prototype(tokens[i - 1].group(0), tok)):
            depth += 1  # ``assert property (...)``, ``export "DPI-C" function f;``: no body
        elif tok in _CLOSE:
            depth = max(depth - 1, 0)
        if paren == 0 and depth == 0 and (tok == ";" or tok in _CLOSE):
            nxt = tokens[i + 1].group(0) if i + 1 < len(tokens) else ""
            if nxt != "else":
                out.append((start, m.end()))
                flags.append(tuple(stack))
                start = None
        i += 1
    if start is not None:
        out.append((start, len(code)))
        flags.append(tuple(stack))
    return out


_CONDITIONAL = re.compile(r"`(ifdef|ifndef|elsif|else|endif)\b[ \t]*([A-Za-z_][\w$]*)?")


def directive_events(code: str) -> list[tuple[int, Chain]]:
    """``(offset, open conditional directives)`` where the conditional directives enclosing
    the text of ``code`` (comments blanked) change: each an ``ifdef X``, with the branches
    before it (``ifdef X | else``)."""
    stack: list[str] = []
    out: list[tuple[int, Chain]] = []
    for m in _CONDITIONAL.finditer(code):
        kind, word = m.group(1), m.group(2) or ""
        if kind in ("ifdef", "ifndef"):
            stack.append(f"`{kind} {word}")
        elif kind == "endif":
            if stack:
                stack.pop()
        elif stack:
            stack[-1] += f" | `{kind} {word}".rstrip()
        out.append((m.start(), tuple(stack)))
    return out


def chain_at(events: list[tuple[int, Chain]], offset: int) -> Chain:
    """The context in force at ``offset`` after ``events`` (sorted by offset)."""
    k = bisect.bisect_right([e[0] for e in events], offset)
    return events[k - 1][1] if k else ()


def contexts(text: str, spans: list[tuple[int, int]], generate: list[Chain]) -> list[Chain]:
    """The full context of each span of ``text`` (its directives, then its generate blocks)."""
    directives = directive_events(blank_comments(text, strings=False))
    return [tuple(chain_at(directives, a)) + generate[k] for k, (a, _) in enumerate(spans)]


def _prototype(before: str, tok: str) -> bool:
    """Whether ``tok`` after ``before`` opens no body: an assertion's ``property``, a DPI or
    ``extern`` subroutine prototype."""
    if before in _STATES:
        return True
    return tok in ("function", "task") and (
        before.startswith('"') or before in ("import", "export", "extern", "pure")
    )


def _generate_block(tokens: list[re.Match[str]], i: int) -> int:
    """The index after ``if (...) begin [: name]``, ``else [if (...)] begin [: name]`` or
    ``for (...) begin [: name]`` starting at ``i`` (module level: a generate block), else 0."""
    j = i
    if tokens[j].group(0) == "else":
        j += 1
    if j < len(tokens) and tokens[j].group(0) in ("if", "for"):
        if j + 1 >= len(tokens) or tokens[j + 1].group(0) != "(":
            return 0
        j = _macro_end(tokens, j + 1, semicolon=False) + 1
    elif j == i:
        return 0
    if j >= len(tokens) or tokens[j].group(0) != "begin":
        return 0
    return j + 3 if j + 1 < len(tokens) and tokens[j + 1].group(0) == ":" else j + 1


def _macro_end(tokens: list[re.Match[str]], j: int, *, semicolon: bool = True) -> int:
    """The index of the token closing the parentheses opened at ``j`` (with ``semicolon``, a
    ``;`` right after them included: a macro use's)."""
    level = 0
    while j < len(tokens):
        level += {"(": 1, ")": -1}.get(tokens[j].group(0), 0)
        if level == 0:
            break
        j += 1
    if semicolon and j + 1 < len(tokens) and tokens[j + 1].group(0) == ";":
        j += 1
    return j


def flat(text: str) -> str:
    """``text`` with comments and directive lines blanked (offsets kept): every branch read."""
    code = blank_comments(text, strings=False)
    for pattern in (_DEFINE_LINE, _DIRECTIVE_LINE):
        code = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    return code


def normal(item: str) -> str:
    tokens = _TOKEN.findall(item)
    return " ".join(t if t.startswith('"') else re.sub(r"\s+", "", t) for t in tokens)


def tokens_of(text: str) -> list[str]:
    """The tokens of ``text``."""
    return _TOKEN.findall(text)


#: A name (no macro, no member, no escaped name).
NAME = re.compile(r"(?<![\w$`'.\\])[A-Za-z_][\w$]*")
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
KEYWORDS = frozenset(
    "always always_comb always_ff always_latch initial final assign begin end if else case "
    "casex casez endcase for foreach while repeat forever do posedge negedge edge or and not "
    "iff default assert assume cover restrict expect property endproperty sequence "
    "endsequence disable fork join join_any join_none reg wire logic bit int integer "
    "genvar generate endgenerate signed unsigned unique unique0 priority within throughout "
    "intersect first_match s_eventually eventually nexttime s_nexttime until s_until "
    "until_with s_until_with implies accept_on reject_on sync_accept_on sync_reject_on "
    "strong weak clocking endclocking local localparam parameter const automatic static "
    "var string byte shortint longint time real event return void function endfunction "
    "task endtask inside dist with matches tagged null this super endmodule type "
    "module input output inout typedef enum struct packed union let".split()
)

#: A member, a port connection or an inner name after a dot (``. a``, normalised): no name.
_MEMBER = re.compile(r"\.\s*[A-Za-z_][\w$]*")


def words(text: str) -> set[str]:
    return set(NAME.findall(_MEMBER.sub(" ", STRING.sub(" ", text)))) - KEYWORDS
