"""A width parameter's value leaking into data: W-wide data written into a net of fixed width.

A parameter that sizes ports cannot be an input of the proof; the split proof
(:mod:`._param_split`) reads its uses as a value, and probes cover its widths. A net whose
width stays when every parameter moves (``wire [255:0] x``) that is written from data whose
width moves (``a``, ``{W{1'b1}}``, ``$bits(a)``) holds a number that depends on ``W``: ``x =
{W{1'b1}}`` is ``2**W - 1``, and a comparison of it with a constant computed through nets
(``x + 1 == c * c * ... * c``, ``c`` holding 1024) holds only at ``W = 100`` (red-team round
104), a value no written number leads a probe to. :func:`width_leaks` names such nets; a
candidate that adds one leaves a change of a module nothing instantiates unchecked (a one-bit
net too: it can hold a comparison that singles out a width), but a write the reference has in
the same shape, names read as their widths' classes, is no new one (:func:`new_width_leaks`: a
renamed carry).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from rtlopt.frontend._slang import compilation_options
from rtlopt.frontend.model import Design

__all__ = ["new_width_leaks", "width_leaks"]

#: A replication's count: ``{COUNT{`` (read overlapping: ``{1'b0, {W{1'b1}}}`` holds one at
#: its second brace, red-team round 107).
_COUNT = re.compile(r"\{(?=\s*([^{}]+?)\s*\{)")


def width_leaks(text: str, module: str, design: Design) -> list[str]:
    """The nets and variables of ``module`` in ``text`` (and of the helpers it instantiates
    there) that keep their width when every parameter is nudged and are written from a name
    whose width moves or from a replication a parameter counts, sorted; [] when slang cannot
    read the text."""
    return sorted({name for name, _, _ in _leaks(text, module, design)})


def new_width_leaks(ref: str, cand: str, module: str, design: Design) -> list[str]:
    """The leaking nets of ``cand`` (:func:`width_leaks`) written by a statement whose shape
    no leaking write of ``ref`` has, sorted: the shape is the statement's tokens with every
    name read as its class (``M`` a width that moves, ``F8`` a fixed width of 8 bits), so a
    rename of the reference's own carry (``{cy, sum} = a + b``) is none. A leak the candidate
    reads matches only one the reference reads too (red-team round 119: an unused debug tap
    ``wire [299:0] acc = a`` kept verbatim and read, ``y = acc + b``, cuts ``a`` past 300)."""
    theirs = Counter(shape for _, shape, _ in _leaks(ref, module, design))
    theirs_read = Counter(shape for _, shape, read in _leaks(ref, module, design) if read)
    out: set[str] = set()
    for name, shape, read in _leaks(cand, module, design):
        pool = theirs_read if read else theirs
        if pool[shape] > 0:
            pool[shape] -= 1
        else:
            out.add(name)
    return sorted(out)


def _leaks(text: str, module: str, design: Design) -> list[tuple[str, str, bool]]:
    """Each leaking write (:func:`width_leaks`) as (the net, the write's shape, whether the
    net is read anywhere)."""
    from pyslang import syntax

    from rtlopt.frontend._param_deps import _tokens

    base, params, overrides = _elaborated(text, module, design, None)
    if base is None or not overrides:
        return []
    nudged = _elaborated(text, module, design, overrides)[0]
    if nudged is None:
        return []
    fixed = {p.rsplit(".", 1)[-1] for p, b in base.items() if b and nudged.get(p) == b}
    moving = {p.rsplit(".", 1)[-1] for p, b in base.items() if nudged.get(p, b) != b}
    fixed -= moving  # a name used in two scopes, one of which moves: not certainly fixed
    width = {p.rsplit(".", 1)[-1]: b for p, b in base.items()}
    nudged_width = {p.rsplit(".", 1)[-1]: b for p, b in nudged.items()}
    tree = syntax.SyntaxTree.fromText(text)
    writes: list[tuple[str, str]] = []
    reads: set[str] = set()
    for mod in _modules(tree.root):  # the target and the helpers the text defines
        writes += _writes(mod)
        reads |= _reads(mod)
        params |= _declared(mod)
    del tree
    out = []
    for left, value in writes:
        names = _outside_selects(_tokens(left))
        toks = _tokens(value)
        # a select of W-wide data at a constant position (`shifter[0]`, `a[7:0]`, `a[i]`)
        # is bits, not W's value; a range a name bounds (`ones[W-1:0]`) is W-wide data
        words = {t.text for i, t in enumerate(toks) if t.kind == "ident" and not _bits(toks, i + 1)}
        counts = {t.text for c in _COUNT.findall(value) for t in _tokens(c)}
        if not (words & moving or counts & params):
            continue
        if not counts and _uniform_reduction(toks, moving, width, nudged_width):
            continue
        shape = " ".join(
            "M" if t.text in moving else f"F{width[t.text]}" if t.text in fixed else t.text
            for t in _tokens(f"{left} = {value}")
        )
        # a one-bit net too: `p = ({1'b0, {W{1'b1}}} == d1 * d2 * d3)` is 1 at W = 36 only
        # (red-team round 107)
        out += [(n, shape, n in reads) for n in dict.fromkeys(names) if n in fixed]
    return out


#: Reduction operators, and the bitwise operators a uniform reduction's operand may hold: no
#: exclusive or, whose value follows the width's parity (red-team round 125: `^(~ta)` and
#: `^(~tb)` over two parameters differ only where one width is odd and the other even, a pair
#: no probe tries).
_REDUCTIONS = frozenset({"&", "|", "~&", "~|"})
_BITWISE = frozenset({"~", "&", "|", "(", ")"})


def _uniform_reduction(
    toks: list[Any], moving: set[str], width: dict[str, Any], nudged: dict[str, Any]
) -> bool:
    """Whether a value is one and/or reduction (``&``, ``|`` or their negations) of a bitwise
    expression (``~ & |``, parentheses) of names of one moving width, nothing else
    (``~|(token & request)``, ``&(~token | ~request)``): whether every bit, or some bit,
    holds the same function of the operands' bits, so two such values equal at widths 1 and
    2 are equal at every width, which the probes try; no width wraps or truncates in it. A
    constant, a select, a shift, an exclusive or or an operand of another width is no such
    value."""
    if len(toks) < 2 or toks[0].kind != "op" or toks[0].text not in _REDUCTIONS:
        return False
    rest = toks[1:]
    if len(rest) > 1 and (rest[0].text != "(" or rest[-1].text != ")"):
        return False
    depth = 0
    for i, t in enumerate(rest):
        depth += (t.text == "(") - (t.text == ")")
        if depth == 0 and 0 < i < len(rest) - 1:
            return False  # the reduction's operand ends before the value does
    names = {t.text for t in rest if t.kind != "op"}
    if not names or names - moving or any(t.kind == "op" and t.text not in _BITWISE for t in rest):
        return False
    return len({width.get(n) for n in names}) == 1 and len({nudged.get(n) for n in names}) == 1


def _reads(mod: Any) -> set[str]:
    """The names a module reads: every name outside an assignment's left side (its selects'
    indices are reads too)."""
    from rtlopt.frontend._param_guards import _nodes
    from rtlopt.frontend._slang import children, node_kind

    names = ("IdentifierName", "IdentifierSelectName")
    written: set[int] = set()

    def heads(node: Any) -> None:  # the names a left side writes, not its selects' indices
        if node_kind(node) in names:
            written.add(int(node.sourceRange.start.offset))
            return
        for c in children(node):
            heads(c)

    for n in _nodes(mod):
        if node_kind(n) in ("AssignmentExpression", "NonblockingAssignmentExpression"):
            heads(n.left)
    return {
        str(n.identifier.valueText)
        for n in _nodes(mod)
        if node_kind(n) in names and int(n.sourceRange.start.offset) not in written
    }


def _writes(mod: Any) -> list[tuple[str, str]]:
    """Every write of a module as (its left side, its value): declaration initializers,
    continuous and procedural assignments."""
    from rtlopt.frontend._param_guards import _nodes
    from rtlopt.frontend._slang import node_kind

    out: list[tuple[str, str]] = []
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind in ("AssignmentExpression", "NonblockingAssignmentExpression"):
            out.append((str(n.left), str(n.right)))
        elif kind == "Declarator" and getattr(n, "initializer", None) is not None:
            out.append((str(n.name.valueText), str(n.initializer.expr)))
    return out


def _outside_selects(toks: list[Any]) -> list[str]:
    """The names of a left side outside its selects' brackets (``{c, s[i]}``: c, s)."""
    out, depth = [], 0
    for t in toks:
        depth += {"[": 1, "]": -1}.get(t.text, 0)
        if depth == 0 and t.kind == "ident":
            out.append(t.text)
    return out


def _elaborated(
    text: str, module: str, design: Design, overrides: list[str] | None
) -> tuple[dict[str, int] | None, set[str], list[str]]:
    """Every net's width by path (None when slang cannot read the text), the non-local
    parameters, and the override nudging each integral one past its value."""
    import pyslang
    from pyslang import ast, syntax

    from rtlopt.frontend._param_special import _nudged, _widths
    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor(design.include_dirs, design.defines)
    copts = compilation_options()
    copts.topModules = {module}
    if overrides:
        copts.paramOverrides = overrides
    try:
        bag = pyslang.Bag([popts, copts])
        tree = syntax.SyntaxTree.fromText(text, sm, "candidate.v", "", bag)
        comp = ast.Compilation(bag)
        comp.addSyntaxTree(tree)  # an unknown module (the repository's) leaves the rest
        root: Any = comp.getRoot()
        widths = _widths(root)
        params = {
            str(p.name)
            for top in root.topInstances
            for p in top.body.parameters
            if not getattr(p, "isLocalParam", True)
        }
        nudge = _nudged(root)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return None, set(), []
    del comp, tree
    return widths, params, nudge


def _modules(root: Any) -> list[Any]:
    """Every module declaration of a syntax tree's compilation unit."""
    from rtlopt.frontend._slang import node_kind

    if node_kind(root) == "ModuleDeclaration":  # a text of one module is its own root
        return [root]
    members = root.members if node_kind(root) == "CompilationUnit" else []
    return [m for m in members if node_kind(m) == "ModuleDeclaration"]


def _declared(mod: Any) -> set[str]:
    """The names of a module's non-local parameters (its header list's and its body's)."""
    from rtlopt.frontend._param_guards import _nodes
    from rtlopt.frontend._slang import node_kind

    out: set[str] = set()
    for n in _nodes(mod):
        if node_kind(n) == "ParameterDeclaration" and str(n.keyword.valueText) != "localparam":
            out |= {str(d.name.valueText) for d in n.declarators if node_kind(d) != "Comma"}
    return out


def _bits(toks: list[Any], at: int) -> bool:
    """Whether ``toks[at:]`` opens a select of a single bit or of a range written with
    numbers only (``[0]``, ``[i]``, ``[7:0]``), not one a name bounds (``[W-1:0]``)."""
    if at >= len(toks) or toks[at].text != "[":
        return False
    depth, inside = 0, []
    for t in toks[at:]:
        depth += {"[": 1, "]": -1}.get(t.text, 0)
        if depth == 0:
            break
        inside.append(t)
    ranged = any(t.text in (":", "+:", "-:") or t.text.endswith(":") for t in inside)
    return not (ranged and any(t.kind == "ident" for t in inside))
