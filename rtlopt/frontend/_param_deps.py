"""Which parameters a candidate's change depends on (text work, once per candidate).

A change whose meaning depends on a parameter (a generate guard, a loop bound, a condition or
case on a parameter, a width, a localparam or function of parameters) can fold away under the
parameterizations the repository uses; :func:`changed_parameters` names the parameters whose
other values could show it, so that the candidate is also checked under probes of them.

The module's items (header parameters and ports, declarations, assignments, always blocks,
instances; an if or case generate construct as its guard, the text outside its branches, and
each branch's members; any other generate construct, a loop with its bounds, whole) are linked
through the names they share. A change inside a branch depends on the guard's parameters only
through what the branch names: where the guard selects the branch, the branch is the same text,
checked under the parameterization that elaborates it (a branch no setting elaborates is the
unused-block check's). From every item the token diff touches, the search follows: an internal
signal or output to every item naming it (its drivers, readers and declaration: the fan-in and
fan-out that could show or mask the change); an input, localparam, function or genvar to its
declaration only (its width or value); a name the changed item declares to every item that uses
it. The parameters found on the way are the answer; a change outside every item (the header,
another module of the file) or a changed item that uses a text macro depends on every
parameter. Over-approximating is safe: a parameter too many costs probes, one too few would
accept unchecked code.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rtlopt.frontend._slang import node_kind
from rtlopt.verilog import PARAMETER_SCAN_DIRECTIVES as _DIRECTIVES

__all__ = ["ParamDependence", "changed_parameters", "compared", "literal_numbers"]

#: Operators are read whole, as a lexer does (``a && b`` is not ``a & &b``, the AND of ``a``
#: and the reduction AND of ``b``): two texts with equal tokens mean the same.
_TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*|/\*.*?\*/)
    |(?P<string>"(?:\\.|[^"\\\n])*")
    |(?P<escaped>\\\S+)
    |(?P<number>(?:\d[\d_]*)?'[sS]?[bBoOdDhH][0-9a-fA-FxXzZ?_]+|\d[\d_]*(?:\.\d+)?)
    |(?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)
    |(?P<op><<<=|>>>=|===|!==|==\?|!=\?|<<=|>>=|<<<|>>>|<->|->>|\*\*|==|!=|<=|>=|&&|\|\||<<|>>
        |~&|~\||~\^|\^~|\+:|-:|->|\+\+|--|[-+*/%&|^]=|::|\#\#|=>|[^\sA-Za-z0-9_$])""",
    re.S | re.X,
)

#: Words that name no signal (a name not listed here is treated as one: safe, only coarser).
_KEYWORDS = frozenset(
    """always always_comb always_ff always_latch and assign automatic begin bit buf byte case
    casex casez cell default defparam disable do else end endcase endfunction endgenerate
    endmodule endtask enum event for force forever fork function generate genvar if iff
    initial inout input int integer join localparam logic longint module negedge nand nor not
    or output packed parameter posedge real realtime reg release repeat return shortint signed
    specify struct supply0 supply1 task time tri tri0 tri1 triand trior typedef union unique
    unsigned var void wand while wire wor xnor xor""".split()
)


@dataclass(frozen=True)
class ParamDependence:
    """What a candidate's change depends on.

    Attributes:
        changed: Whether the candidate's tokens differ from the reference's at all.
        params: The parameters (of those asked about) the change depends on, in their order.
        numbers: The integer literals that the changed items (both sides) write near a
            parameter or localparam (a comparison, a bound, a width), then their others, then
            those of the changed tokens, first seen first: the values a change tests.
        fixed: Whether the changed tokens write a fixed width (a sized literal, a literal MSB
            ``[7:``, an ``integer`` or ``int``): then a parameter past it may show the change.
        macros: The text macros the change depends on: used by a changed item, or by a
            constant declaration (a localparam or parameter default) the change reaches. A
            macro is set outside the module (a define), so it is checked only at the value
            this compilation gives it.
    """

    changed: bool
    params: tuple[str, ...] = ()
    numbers: tuple[int, ...] = ()
    fixed: bool = False
    macros: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int


#: An escaped identifier that names a simple one (``\\W`` is ``W``: IEEE 1800 5.6.1).
_SIMPLE = re.compile(r"\\([A-Za-z_][A-Za-z0-9_$]*)")


def _tokens(raw: str) -> list[_Tok]:
    """The tokens of ``raw``, comments left out; an escaped identifier whose name is a simple
    identifier is read as that identifier, so ``\\W`` names parameter ``W``."""
    out = []
    for m in _TOKEN.finditer(raw):
        kind = m.lastgroup or "op"
        text = m.group()
        if kind == "escaped":
            simple = _SIMPLE.fullmatch(text)
            if simple is not None:
                kind, text = "ident", simple.group(1)
        if kind != "comment":
            out.append(_Tok(kind, text, m.start(), m.end()))
    return out


def identifiers(text: str) -> set[str]:
    """The identifiers of a Verilog text (its words, keywords included)."""
    return {t.text for t in _tokens(text) if t.kind == "ident"}


def literal_numbers(texts: Sequence[str]) -> list[int]:
    """The non-negative integer values of the literals in ``texts`` (x/z digits skipped)."""
    out: list[int] = []
    for t in texts:
        m = re.fullmatch(r"(?:\d[\d_]*)?'[sS]?([bBoOdDhH])([0-9a-fA-F_]+)|(\d[\d_]*)", t)
        if m is None:
            continue
        if m.group(3) is not None:
            out.append(int(m.group(3).replace("_", "")))
        else:
            base = {"b": 2, "o": 8, "d": 10, "h": 16}[m.group(1).lower()]
            try:
                out.append(int(m.group(2).replace("_", ""), base))
            except ValueError:
                continue
    return out


def parsed_module(text: str, module: str) -> tuple[Any, Any] | None:
    """The syntax tree of ``text`` and its declaration of ``module`` (keep the tree while the
    module's nodes are read: it owns them), or None when the text does not parse or holds
    no such module."""
    from pyslang import syntax

    try:
        tree = syntax.SyntaxTree.fromText(text)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return None
    mod = _module(tree.root, module)
    return None if mod is None else (tree, mod)


def _module(root: Any, module: str) -> Any:
    stack = [root]
    while stack:
        node = stack.pop()
        k = node_kind(node)
        if k == "ModuleDeclaration":
            if node.header.name.valueText == module:
                return node
            continue
        if k == "CompilationUnit":
            stack.extend(node.members)
    return None


def _span(node: Any) -> tuple[int, int]:
    r = node.sourceRange
    return int(r.start.offset), int(r.end.offset)


def _item_spans(mod: Any) -> Iterator[tuple[int, int, str]]:
    """The module's items as ``(start, end, kind)`` byte ranges: header parameters and ports,
    then its members (a generate region's members one by one; an if or case generate split
    into its guard (the text outside its branches) and each branch's members, so a change in
    a branch depends on the guard's parameters only through what the branch itself names;
    any other generate construct, a loop with its bounds, whole)."""
    params = mod.header.parameters
    if params is not None:
        for d in params.declarations:
            if node_kind(d) != "Comma":
                yield (*_span(d), node_kind(d))
    ports = getattr(mod.header, "ports", None)
    for p in getattr(ports, "ports", None) or ():
        if node_kind(p) != "Comma":
            yield (*_span(p), node_kind(p))
    yield from _members(list(mod.members))


def _branches(node: Any) -> list[Any]:
    """The branch bodies of an if or case generate construct (an else-if is its own
    construct, so it is a branch here and split again below)."""
    if node_kind(node) == "IfGenerate":
        out = [node.block]
        if node.elseClause is not None:
            out.append(node.elseClause.clause)
        return out
    return [item.clause for item in node.items]


def _members(nodes: list[Any]) -> Iterator[tuple[int, int, str]]:
    stack = nodes[::-1]
    while stack:
        node = stack.pop()
        kind = node_kind(node)
        if kind == "GenerateRegion":
            stack.extend(list(node.members)[::-1])
        elif kind in ("IfGenerate", "CaseGenerate"):
            branches = _branches(node)
            at, end = _span(node)
            for b in sorted(branches, key=lambda b: _span(b)[0]):
                b0, b1 = _span(b)
                if b0 > at:
                    yield at, b0, "GenerateGuard"
                at = max(at, b1)
            if end > at:
                yield at, end, "GenerateGuard"
            for b in branches:
                inner = list(b.members) if node_kind(b) == "GenerateBlock" else [b]
                yield from _members(inner)
        else:
            yield (*_span(node), kind)


@dataclass
class _Module:
    """One text's module: its tokens (the whole text), items as token index ranges."""

    raw: str
    toks: list[_Tok]
    span: tuple[int, int]
    items: list[tuple[int, int, str]]  # first token, past-last token, node kind
    names: list[set[str]]  # the identifiers of each item


def _read(text: str, module: str) -> _Module | None:
    from pyslang import syntax

    raw = text.encode("utf-8", "surrogateescape").decode("latin-1")  # byte offsets
    toks = _tokens(raw)
    # the tree owns every node: it stays referenced until the last node is read (a node of a
    # collected tree is freed memory, and reading it crashes the interpreter)
    tree = syntax.SyntaxTree.fromText(text)
    mod = _module(tree.root, module)
    if mod is None:
        return None
    starts = [t.start for t in toks]

    def index(offset: int) -> int:
        import bisect

        return bisect.bisect_left(starts, offset)

    r = mod.sourceRange
    items = []
    for start, end, kind in _item_spans(mod):
        items.append((index(start), index(end), kind))
    names = [{t.text for t in toks[a:b] if t.kind in ("ident", "escaped")} for a, b, _ in items]
    span = (index(int(r.start.offset)), index(int(r.end.offset)))
    del tree
    return _Module(raw, toks, span, items, names)


def _declared(m: _Module, k: int) -> set[str]:
    """The constant names item ``k`` declares: parameters (a name before ``=``), functions,
    tasks, genvars."""
    a, b, kind = m.items[k]
    toks = m.toks[a:b]
    if "Parameter" in kind:
        return {
            t.text
            for i, t in enumerate(toks[:-2])
            if t.kind == "ident" and toks[i + 1].text == "=" and toks[i + 2].text != "="
        }
    if kind in ("FunctionDeclaration", "TaskDeclaration"):
        head = [t for t in toks if t.text in ("(", ";")][:1]
        before = [t for t in toks if head and t.start < head[0].start and t.kind == "ident"]
        return {before[-1].text} if before else set()
    if kind == "GenvarDeclaration":
        return {t.text for t in toks if t.kind == "ident"} - _KEYWORDS
    return set()


def _closure(
    m: _Module, start: set[int], params: set[str], inputs: set[str]
) -> tuple[set[str], set[str]]:
    """The parameters of every item reachable from ``start`` (see the module docstring), and
    the macros that the constant declarations on the way use."""
    consts: dict[str, set[int]] = {}
    users: dict[str, set[int]] = {}
    for k, names in enumerate(m.names):
        for n in names:
            users.setdefault(n, set()).add(k)
        for n in _declared(m, k):
            consts.setdefault(n, set()).add(k)
    for n in inputs:
        consts[n] = {k for k in users.get(n, ()) if "Port" in m.items[k][2]}
    found: set[str] = set()
    macros: set[str] = set()
    todo = list(start)
    for k in start:  # a changed declaration changes every use of what it declares
        todo += [u for n in m.names[k] if k in consts.get(n, ()) for u in users[n]]
    seen: set[int] = set()
    while todo:
        k = todo.pop()
        if k in seen:
            continue
        seen.add(k)
        if _declared(m, k):
            macros |= _macros(m, k)
        for n in m.names[k]:
            if n in params:
                found.add(n)
            elif n in consts:
                todo += consts[n]
            elif n not in _KEYWORDS and not n.startswith("$"):
                todo += users[n]
    return found, macros


def _macros(m: _Module, k: int) -> set[str]:
    """The text macros item ``k`` uses (a macro's body may name any parameter)."""
    a, b, _ = m.items[k]
    toks = m.toks[a:b]
    return {
        "`" + toks[i + 1].text
        for i, t in enumerate(toks)
        if t.text == "`" and i + 1 < len(toks) and toks[i + 1].text not in _DIRECTIVES
    }


def _touched(m: _Module, spans: list[tuple[int, int]]) -> set[int] | None:
    """The items that token ranges (or, when empty, insertion points) fall in; None when one
    falls outside every item of the module."""
    out: set[int] = set()
    for a, b in spans:
        points = range(a, b) if b > a else [a]
        for i in points:
            hit = {k for k, (s, e, _) in enumerate(m.items) if (s <= i < e if b > a else s < i < e)}
            inside = m.span[0] < i < m.span[1]
            if not hit and (b > a or not inside):
                return None
            out |= hit
    return out


def changed_parameters(
    ref: str, cand: str, module: str, params: Sequence[str], inputs: Sequence[str]
) -> ParamDependence:
    """The parameters among ``params`` that the difference of ``cand`` from ``ref`` (the
    texts holding ``module``) depends on; ``inputs``: the module's input ports."""
    r, c = _read(ref, module), _read(cand, module)
    rt = [t.text for t in (r.toks if r else _tokens(ref))]
    ct = [t.text for t in (c.toks if c else _tokens(cand))]
    if rt == ct:
        return ParamDependence(False)
    ops = [
        op
        for op in difflib.SequenceMatcher(None, rt, ct, autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    numbers: list[int] = []
    fixed = _fixed(r.toks if r else _tokens(ref), [(o[1], o[2]) for o in ops]) or _fixed(
        c.toks if c else _tokens(cand), [(o[3], o[4]) for o in ops]
    )
    changed = literal_numbers(
        [rt[i] for op in ops for i in range(op[1], op[2])]
        + [ct[j] for op in ops for j in range(op[3], op[4])]
    )
    wanted, ins = set(params), set(inputs)
    found: set[str] = set()
    macros: set[str] = set()
    for m, spans in ((r, [(o[1], o[2]) for o in ops]), (c, [(o[3], o[4]) for o in ops])):
        hit = _touched(m, spans) if m is not None else None
        used = set().union(*(_macros(m, k) for k in hit)) if m is not None and hit else set()
        macros |= used
        if m is None or hit is None or used:
            found = set(wanted)
            macros |= _changed_macros(rt, ct, ops)
            break
        deps, through = _closure(m, hit, wanted, ins)
        found |= deps
        macros |= through
        numbers += _near(m, hit, wanted)
    return ParamDependence(
        True,
        tuple(p for p in params if p in found),
        tuple(dict.fromkeys(numbers + changed)),
        fixed,
        tuple(sorted(macros)),
    )


def _changed_macros(rt: list[str], ct: list[str], ops: list[Any]) -> set[str]:
    """The macros the changed tokens of either side use."""
    out: set[str] = set()
    for toks, lo, hi in [(rt, 1, 2), (ct, 3, 4)]:
        for op in ops:
            for i in range(op[lo], op[hi]):
                if toks[i] == "`" and i + 1 < len(toks) and toks[i + 1] not in _DIRECTIVES:
                    out.add("`" + toks[i + 1])
    return out


_FIXED_TYPES = frozenset("integer int longint shortint byte".split())


def _fixed(toks: list[_Tok], spans: list[tuple[int, int]]) -> bool:
    """Whether the tokens in ``spans`` write a fixed width: a sized literal (``32'hffff``), a
    literal MSB (``[7:``) or a fixed-width integer type."""
    for a, b in spans:
        for i in range(a, b):
            t = toks[i]
            if t.text in _FIXED_TYPES or re.match(r"\d[\d_]*\s*'", t.text):
                return True
            if t.kind == "number" and 0 < i < len(toks) - 1:
                if toks[i - 1].text == "[" and toks[i + 1].text == ":":
                    return True
    return False


_NUM = r"(\d*'[sS]?[bBoOdDhH][0-9a-fA-F_]+|\d[\d_]*)"
_CMP = r"\s*(?:[<>]=?|[!=]==?)\s*"


def compared(text: str, names: set[str]) -> list[int]:
    """The numbers ``text`` compares one of ``names`` with (``W > 6``, ``5 == W``), in
    order."""
    if not names:
        return []
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pat = re.compile(rf"(?<![\w$])(?:{alt})(?![\w$]){_CMP}{_NUM}|{_NUM}{_CMP}(?:{alt})(?![\w$])")
    return literal_numbers([a or b for a, b in pat.findall(text)])


def _near(m: _Module, items: set[int], params: set[str]) -> list[int]:
    """The numbers ``items`` compare a parameter or a constant with, those they write within 8
    tokens of one, then their other numbers (a case label far from its case expression)."""
    consts = set(params)
    for k in range(len(m.items)):
        consts |= _declared(m, k)
    out: list[int] = []
    rest: list[int] = []
    for k in sorted(items):
        a, b = m.items[k][0], m.items[k][1]
        if b > a:
            out += compared(m.raw[m.toks[a].start : m.toks[b - 1].end], consts)
    for k in sorted(items):
        toks = [t.text for t in m.toks[m.items[k][0] : m.items[k][1]]]
        for i, t in enumerate(toks):
            if t in consts:
                out += literal_numbers(toks[max(0, i - 8) : i + 9])
        rest += literal_numbers(toks)
    return out + rest
