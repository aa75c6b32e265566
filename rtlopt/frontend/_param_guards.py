"""Parameter guards a candidate writes that its reference does not: a constant expression
over the module's parameters with a comparison, a logical or bitwise operator, a shift, a
division, a modulo, a choice or a function call.

A module nothing in the repository instantiates has its parameters as its interface, and a
change is checked there under probes, a few values per parameter. A guard can single out a
value no probe tries, however they are chosen: ``(W >> 11) ? a - b : a + b`` differs for
``W >= 2048`` only, ``((W * 7 % 64) == 27)`` at ``W = 13, 77, ...``, ``(A == B)`` when two
parameters meet, ``(R * 4 == 9.0)`` at a fraction of a real parameter (red-team round 97). A
guard the reference writes itself is the module's own (its probes were chosen around it);
one the candidate adds cannot be checked for every value, so the change is not accepted
(:meth:`rtlopt.evaluate._params.ParameterCheck._unchecked`). Sums, differences, products and
``$clog2``/``$bits`` of parameters (widths, ``W - 1``, ``2 * W``) are no guards, nor is a
bitwise negation ``~K`` (one-to-one: it singles out no value; ``~&``/``~|`` reduce and are).

Expressions are read from the syntax tree (pyslang) and compared by their tokens: an
expression is constant when every name in it is a parameter or localparam of the module (or
the variable of a generate loop whose header is constant), and a guard when it also names a
parameter (a header or ``parameter`` declaration, a localparam computed from one, or the
variable of a generate loop it bounds: ``g * g == 9801`` in a loop to W holds only where W >
99, red-team round 104) and holds one of the operators above.

Forms that single out values without such an operator count as well (red-team round 115): a
bit-, part- or member select of a parameter (``W[11] * (1 - W[31])`` is 1 only where bit 11
is set), a size or type cast (``8'(W - 1)`` wraps at W = 257), ``inside``, the items of a
``case`` on a parameter (``case (W) 8, 4000:`` compares W with each), a localparam of a fixed
type narrower than an integer computed from one (``localparam [7:0] MSB = W - 1`` wraps),
and a comparison inside a generate loop's header other than the header's own expressions
(``i = i + 1 + (W == 4000)``: only ``i < W`` and ``i = i + 1`` themselves are the loop's
bound and step).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rtlopt.frontend._param_deps import _tokens, parsed_module
from rtlopt.frontend._slang import children, node_kind

__all__ = ["new_guards"]

_OPS = frozenset(
    "== != === !== ==? !=? < > <= >= && || ! & | ^ ~& ~| ~^ ^~".split()
    + "<< >> <<< >>> % / ? ** -> <->".split()
)
#: Calls of these are no guards (widths and conversions); a ``$clog2`` call the reference
#: does not write is one (``$clog2(W + 3001) - $clog2(W + 3000)`` is 1 only where W + 3000 is
#: a power of two: red-team round 98).
_BENIGN = frozenset({"$clog2", "$bits", "$size", "$signed", "$unsigned"})
#: Array queries: constant for any argument (a port's width follows the parameters).
_QUERIES = frozenset(
    {"$bits", "$size", "$high", "$low", "$left", "$right", "$increment", "$dimensions"}
)
_REAL_TYPES = ("real", "realtime", "shortreal")


def _nodes(node: Any) -> Any:
    """Every syntax node under ``node`` (tokens left out), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))


def _real(toks: list[Any]) -> bool:
    """Whether the tokens hold a real literal (``0.5``, ``1e-6``, ``2.5E3``)."""
    for a, b in zip(toks, [*toks[1:], None], strict=True):
        if a.kind == "number" and (
            "." in a.text or (b is not None and b.start == a.end and b.text[:1] in ("e", "E"))
        ):
            return True
    return False


def _assigned(mod: Any) -> dict[str, list[str]]:
    """Every value written to each variable or net of the module (declaration initializers,
    continuous and procedural assignments), by the written name."""
    out: dict[str, list[str]] = {}
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind in ("AssignmentExpression", "NonblockingAssignmentExpression"):
            left = [t for t in _tokens(str(n.left)) if t.kind == "ident"]
            if left:
                out.setdefault(left[0].text, []).append(str(n.right))
        elif kind == "Declarator" and getattr(n, "initializer", None) is not None:
            out.setdefault(str(n.name.valueText), []).append(str(n.initializer.expr))
    return out


def _parameters(mod: Any) -> tuple[set[str], set[str], set[str]]:
    """The module's constant names, those of them that vary with its parameters, and its
    real parameters. A variable or net every write of which is constant counts as constant
    (``wire [31:0] k = K``: a copy of a parameter is no signal)."""
    names: set[str] = set()
    varying: set[str] = set()
    reals: set[str] = set()
    local: dict[str, set[str]] = {}
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind not in ("ParameterDeclaration", "TypeParameterDeclaration"):
            continue
        keyword = str(getattr(n.keyword, "valueText", "") or "")
        real_type = any(w in _REAL_TYPES for w in str(getattr(n, "type", "")).split())
        for d in n.declarators:
            if node_kind(d) == "Comma":
                continue
            name = str(d.name.valueText)
            names.add(name)
            if real_type or _real(_tokens(str(d))):
                reals.add(name)
            if keyword == "localparam":
                local[name] = {t.text for t in _tokens(str(d)) if t.kind == "ident"}
            else:
                varying.add(name)
    for name, values in _assigned(mod).items():
        used = {t.text for v in values for t in _tokens(v) if t.kind == "ident"}
        # constant once every name it reads is; one that reads itself (a loop's variable,
        # `ik = ik - 1`, a counter) changes as it runs (held-out trial 43: ZipCPU's apbslave)
        if name not in names and name not in used:
            local[name] = used
    for n in _nodes(mod):  # a generate loop's variable: its header's names bound it
        if node_kind(n) == "LoopGenerate":
            head = f"{n.initialExpr} {n.stopExpr} {n.iterationExpr}"
            local[str(n.identifier.valueText)] = {
                t.text for t in _tokens(head) if t.kind == "ident"
            } - {str(n.identifier.valueText)}
    grew = True
    while grew:
        grew = False
        for name, used in local.items():
            if name not in names and not used - names - _QUERIES - _BENIGN:
                names.add(name)
                grew = True
            if name not in varying and used & (varying | _QUERIES):
                varying.add(name)
                grew = True
    return names, varying, reals


def _query_arguments(toks: list[Any]) -> set[int]:
    """The indices of the tokens inside the parentheses of an array query."""
    inside: set[int] = set()
    for i, t in enumerate(toks):
        if t.text in _QUERIES and i + 1 < len(toks) and toks[i + 1].text == "(":
            depth = 0
            for j in range(i + 1, len(toks)):
                depth += {"(": 1, ")": -1}.get(toks[j].text, 0)
                inside.add(j)
                if depth == 0:
                    break
    return inside


def _a_call(toks: list[Any], name: str) -> bool:
    """Whether the tokens are exactly one call of ``name``."""
    if len(toks) < 3 or toks[0].text != name or toks[1].text != "(":
        return False
    depth = 0
    for j in range(1, len(toks)):
        depth += {"(": 1, ")": -1}.get(toks[j].text, 0)
        if depth == 0:
            return j == len(toks) - 1
    return False


def _header_spans(mod: Any) -> set[tuple[int, int]]:
    """The spans of each generate loop's own header expressions (its start, bound and step):
    the loop variable's range, no guard; what they hold is judged as any expression."""
    return {
        (int(e.sourceRange.start.offset), int(e.sourceRange.end.offset))
        for n in _nodes(mod)
        if node_kind(n) == "LoopGenerate"
        for e in (n.initialExpr, n.stopExpr, n.iterationExpr)
    }


def _bracketed(toks: list[Any], at: int) -> set[str]:
    """The names inside the brackets opening at ``toks[at]``."""
    depth, out = 0, set()
    for t in toks[at:]:
        depth += {"[": 1, "]": -1}.get(t.text, 0)
        if depth == 0:
            break
        if t.kind in ("ident", "escaped"):
            out.add(t.text)
    return out


def _singles_out(toks: list[Any], varying: set[str], names: frozenset[str] = frozenset()) -> bool:
    """Whether the tokens select from a varying constant (``W[11]``, ``CFG.width``) or select
    from any constant at an index that varies (``M[W:W]`` of a fixed table ``M`` is 1 only at
    the W where M's bit is set: red-team round 119), cast (``8'(W - 1)``: a cast's ``'``
    before a parenthesis, not a fill literal ``'0``), test membership (``inside``) or query a
    parameter's type (``$bits(W)``: an untyped one's is the overriding value's, 32 for
    ``8``, 16 for ``16'd8``)."""
    if any(toks[i].text in varying for i in _query_arguments(toks)):
        return True
    for i, t in enumerate(toks):
        if t.text in ("[", ".") and i > 0 and toks[i - 1].text in varying:
            return True
        if t.text == "[" and i > 0 and toks[i - 1].text in names and _bracketed(toks, i) & varying:
            return True
        if t.text == "'" and i + 1 < len(toks) and toks[i + 1].text == "(" and i > 0:
            return True
        if t.kind == "ident" and t.text == "inside":
            return True
    return False


def _free_names(toks: list[Any], queried: set[int]) -> list[tuple[int, str]]:
    """The names the tokens read (index, name): not an array query's argument, a cast's type
    or size (``byte'(``), a member after ``.``, nor ``inside``."""
    return [
        (i, t.text)
        for i, t in enumerate(toks)
        if t.kind in ("ident", "escaped")
        and i not in queried
        and t.text != "inside"
        and not (i + 1 < len(toks) and toks[i + 1].text == "'")
        and not (i > 0 and toks[i - 1].text == ".")
    ]


def _case_guards(mod: Any, constant: Any) -> list[str]:
    """Each item of a ``case`` (generate or procedural) on a varying constant, as the
    comparison it makes: ``case (W) 8, 4000:`` compares W with 8 and with 4000."""
    out: list[str] = []
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind not in ("CaseGenerate", "CaseStatement"):
            continue
        cond = n.condition if kind == "CaseGenerate" else n.expr
        head = " ".join(t.text for t in _tokens(str(cond)))
        if not constant(_tokens(str(cond))):
            continue
        for item in n.items:
            if node_kind(item) != "StandardCaseItem":
                continue
            for e in item.expressions:
                if node_kind(e) != "Comma":
                    label = " ".join(t.text for t in _tokens(str(e)))
                    out.append(f"case ( {head} ) {label}")
    return out


def _narrow(decl: Any) -> bool:
    """Whether a declaration's type is a fixed one narrower than an integer (a packed range
    other than a literal one of 32 bits or more, ``bit``, ``logic``, ``reg``, ``byte``,
    ``shortint``, a net of no range), so that a value computed into it wraps."""
    kind = node_kind(decl.type)
    dims = [d for d in getattr(decl.type, "dimensions", None) or () if node_kind(d)]
    if kind in ("BitType", "LogicType", "RegType") and not dims:
        return True
    if kind in ("ByteType", "ShortIntType"):
        return True
    if not dims:
        # a type by name (``u12_t``): its width is not read here (red-team round 119)
        return kind == "NamedType" or (
            node_kind(decl) == "NetDeclaration" and kind == "ImplicitType"
        )
    if len(dims) == 1:
        nums = [t for t in _tokens(str(dims[0])) if t.kind != "op"]
        if len(nums) == 2 and all(t.kind == "number" and t.text.isdigit() for t in nums):
            return abs(int(nums[0].text) - int(nums[1].text)) + 1 < 32
    return True


_HOLDERS = frozenset({"ParameterDeclaration", "NetDeclaration", "DataDeclaration"})


def _local_body(mod: Any) -> Any:
    """Whether a parameter declaration of ``mod`` is a body ``parameter`` of a module with a
    parameter port list: a localparam (red-team round 119)."""
    ports = getattr(getattr(mod, "header", None), "parameters", None)
    span = (
        (int(ports.sourceRange.start.offset), int(ports.sourceRange.end.offset))
        if ports is not None and node_kind(ports)
        else None
    )

    def local_body(n: Any) -> bool:
        at = int(n.sourceRange.start.offset)
        return span is not None and not span[0] <= at < span[1]

    return local_body


def _narrowed(mod: Any, names: set[str], varying: set[str], exempt: frozenset[str]) -> list[str]:
    """Each localparam, net or variable of a narrow fixed type (:func:`_narrow`) declared
    with a constant computed from a varying one (``wire [11:0] k = W`` holds W only below
    4096: red-team round 117), as its declaration."""
    local_body = _local_body(mod)
    out: list[str] = []
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind not in _HOLDERS or not _narrow(n):
            continue
        keyword = getattr(n, "netType", None) or getattr(n, "keyword", None)
        word = str(getattr(keyword, "valueText", "") or "")
        if kind == "ParameterDeclaration" and word != "localparam" and not local_body(n):
            continue
        for d in n.declarators:
            init = getattr(d, "initializer", None) if node_kind(d) != "Comma" else None
            if init is None:
                continue
            toks = _tokens(str(init.expr))
            idents = {t.text for t in toks if t.kind in ("ident", "escaped")}
            if not idents & (varying - exempt):
                continue
            if kind != "ParameterDeclaration" and idents - names:
                continue  # a net or variable that reads a signal holds no constant
            head = " ".join(t.text for t in _tokens(f"{word} {n.type}"))
            out.append(f"{head} {d.name.valueText} = " + " ".join(t.text for t in toks))
    return out


def _narrow_writes(mod: Any, names: set[str], varying: set[str]) -> list[str]:
    """Each assignment of a constant computed from a varying one to a net or variable of a
    narrow fixed type (:func:`_narrow`) declared without it (``wire [11:0] k; assign k =
    W``: red-team round 119), as the declaration's type, the name and the value."""
    narrow: dict[str, str] = {}
    for n in _nodes(mod):
        if node_kind(n) not in ("NetDeclaration", "DataDeclaration") or not _narrow(n):
            continue
        dims = [d for d in getattr(n.type, "dimensions", None) or () if node_kind(d)]
        if any(t.kind != "number" for d in dims for t in _tokens(str(d)) if t.kind != "op"):
            continue  # a width the parameters set moves with them: no wrap of their value
        keyword = getattr(n, "netType", None) or getattr(n, "keyword", None)
        word = str(getattr(keyword, "valueText", "") or "")
        head = " ".join(t.text for t in _tokens(f"{word} {n.type}"))
        for d in n.declarators:
            if node_kind(d) != "Comma":
                narrow[str(d.name.valueText)] = head
    out: list[str] = []
    for n in _nodes(mod):
        if node_kind(n) not in ("AssignmentExpression", "NonblockingAssignmentExpression"):
            continue
        left = str(n.left).strip()
        toks = _tokens(str(n.right))
        idents = {t.text for t in toks if t.kind in ("ident", "escaped")}
        if left in narrow and idents & varying and not idents - names:
            out.append(f"{narrow[left]} {left} = " + " ".join(t.text for t in toks))
    return out


def _guards(
    text: str, module: str, exempt: frozenset[str] = frozenset(), writes: bool = True
) -> list[str] | None:
    """The guards of ``module`` in ``text`` (module docstring) by their tokens, first seen
    first; None when the text does not parse or holds no such module. A guard whose varying
    names are all in ``exempt`` (parameters whose every value is probed) is none; without
    ``writes``, a narrow net assigned a parameter's value (:func:`_narrow_writes`) is none."""
    parsed = parsed_module(text, module)
    if parsed is None:
        return None
    tree, mod = parsed
    names, varying, reals = _parameters(mod)
    headers = _header_spans(mod)

    def constant(toks: list[Any]) -> bool:
        """Whether the tokens are a constant that varies with a parameter not exempt."""
        queried = _query_arguments(toks)
        idents = _free_names(toks, queried)
        calls = {i for i, _ in idents if i + 1 < len(toks) and toks[i + 1].text == "("}
        if any(
            name not in names
            for i, name in idents
            if i not in calls
            and not (i > 0 and toks[i - 1].end == toks[i].start and toks[i - 1].kind == "number")
        ):
            return False  # a signal, genvar or function argument: not constant
        return bool(queried) or any(name in varying - exempt for _, name in idents)

    defs = _definitions(mod)
    far = _far_guarded(defs)
    out: list[str] = []
    for n in _nodes(mod):
        kind = node_kind(n)
        if not (kind.endswith("Expression") or kind == "IdentifierSelectName"):
            continue
        if (int(n.sourceRange.start.offset), int(n.sourceRange.end.offset)) in headers:
            continue  # a generate loop's own start, bound or step: the variable's range
        toks = _tokens(str(n))
        if not constant(toks):
            continue
        idents = _free_names(toks, _query_arguments(toks))
        calls = {i for i, _ in idents if i + 1 < len(toks) and toks[i + 1].text == "("}
        ops = {t.text for t in toks if t.kind == "op"} & _OPS
        user_calls = [toks[i].text for i in calls if toks[i].text not in _BENIGN | _QUERIES]
        real = _real(toks) or any(name in reals for _, name in idents)
        if (
            ops
            or user_calls
            or real
            or _a_call(toks, "$clog2")
            or _singles_out(toks, varying - exempt, frozenset(names))
            or any(name in far for _, name in idents)
        ):
            out.append(" ".join(t.text for t in toks))
    out += _case_guards(mod, constant)
    out += _narrowed(mod, names, varying, exempt)
    if writes:
        out += _narrow_writes(mod, names, varying - exempt)
    out = [_with_definitions(g, defs) for g in out]
    del tree  # the tree owns its nodes: released only after the last one is read
    return list(dict.fromkeys(out))


def _definitions(mod: Any) -> dict[str, str]:
    """The text of each local constant's declaration (a localparam, a body ``parameter`` of a
    module with a parameter port list) and of each function, by name, as tokens."""
    out: dict[str, str] = {}
    local_body = _local_body(mod)
    for n in _nodes(mod):
        kind = node_kind(n)
        word = str(getattr(getattr(n, "keyword", None), "valueText", "") or "")
        if kind == "ParameterDeclaration" and word != "localparam" and not local_body(n):
            continue  # a parameter: its values are the probes'
        if kind == "FunctionDeclaration":
            name = str(n.prototype.name).strip()
            out[name] = " ".join(t.text for t in _tokens(str(n)))
        elif kind == "ParameterDeclaration":
            for d in n.declarators:
                if node_kind(d) != "Comma" and getattr(d, "name", None) is not None:
                    out.setdefault(str(d.name.valueText), " ".join(t.text for t in _tokens(str(n))))
    return out


def _far_guarded(defs: Mapping[str, str]) -> set[str]:
    """The local constants whose definitions, at any depth, compare with a number past the
    probes (:data:`PROBE_MAX`): ``BIG = (W > 4096); DROP = BIG`` is 0 at every probe, so an
    expression reading DROP counts as a guard, carrying the definitions (red-team round 119:
    a candidate changing only ``DROP = BIG * 2`` differs past W = 4096 alone)."""
    from rtlopt.frontend._probe_values import PROBE_MAX

    out: set[str] = set()
    for name in defs:
        toks = _tokens(_with_definitions(name, defs))
        compares = any(t.kind == "op" and t.text in _OPS for t in toks)
        big = any(t.kind == "number" and t.text.isdigit() and int(t.text) > PROBE_MAX for t in toks)
        if compares and big:
            out.add(name)
    return out


def _with_definitions(guard: str, defs: Mapping[str, str]) -> str:
    """``guard`` with the declarations of the local constants and functions it reads, at
    any depth (red-team round 119: a candidate that changes only ``K = 2 * W`` or a
    function's body keeps the guard ``K == 3`` token for token)."""
    seen: list[str] = []
    queue = [guard]
    while queue:
        text = queue.pop(0)
        for word in sorted(set(re.findall(r"[A-Za-z_$][\w$]*", text)) & set(defs)):
            if word not in seen and defs[word] not in (guard,):
                seen.append(word)
                queue.append(defs[word])
    if not seen:
        return guard
    return f"{guard} (where {'; '.join(defs[w] for w in sorted(seen))})"


def new_guards(ref: str, cand: str, module: str, exempt: frozenset[str] = frozenset()) -> list[str]:
    """The parameter guards of ``module`` that ``cand`` writes and ``ref`` does not, first
    seen first; a text that does not parse has none here (its other checks refuse it).
    ``exempt``: parameters whose every behaviour the probes cover
    (:func:`rtlopt.frontend._param_choices.string_choices`)."""
    mine = _guards(cand, module, exempt)
    if not mine:
        return []
    theirs = set(_guards(ref, module) or ())
    return [g for g in mine if g not in theirs]
