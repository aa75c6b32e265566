"""Values of a parameter where a text's constant expressions change rarely: the values a guard
computed from the parameter singles out.

A probe of a parameter tries the numbers written beside it, their neighbours and common
widths. A change may single out a value no text writes: ``((W ^ 5) == 8) ? a - b : a + b``
differs only at ``W = 13`` (round 96). Here the text is elaborated (slang) at each value of the
parameter from 0 up, as many as a time budget allows (at least :data:`LEAST`, at most
:data:`rtlopt.frontend._params.PROBE_MAX` + 1), and every constant expression is followed
across them: an expression whose value changes at only a few of them (a comparison, a shift
by a computed amount, a flag) marks those values and the ones before, rarest first. An
expression that changes at most steps (``W / 2``, ``W - 1``) marks nothing. What a guard
singles out through the design's signals (no constant expression holds it) or above the
values tried is not found here.
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict
from typing import Any

from rtlopt.frontend._slang import compilation_options
from rtlopt.frontend.model import Design

__all__ = ["LEAST", "RARE", "special_values"]

#: At least this many values (0, 1, ...) are elaborated, whatever the time budget.
LEAST = 64
#: An expression whose value changes at more than this many of the values tried marks none.
RARE = 32
#: Constants of an integer's width or narrower are everywhere (probes pass 32).
_INTEGER_BITS = 32
_KINDS = frozenset({"BinaryOp", "UnaryOp", "ConditionalOp", "Conversion", "Call", "Concatenation"})
_CONSTANT_KINDS = _KINDS | {"IntegerLiteral", "Replication"}
_SIZED = re.compile(r"^(\d+)'s?([bodh])(.*)$", re.IGNORECASE)
_BASES = {"b": 2, "o": 8, "d": 10, "h": 16}


def _kind(node: Any) -> str:
    return str(getattr(node, "kind", "")).rsplit(".", 1)[-1]


def _number(value: Any) -> str:
    """A constant's value without its width (a width that follows the parameter changes at
    every step: ``300'h1`` and ``301'h0`` differ by value, ``300'h1`` and ``301'h1`` do not)."""
    text = str(value)
    m = _SIZED.match(text)
    if m is None or any(c in m.group(3).lower() for c in "xz?"):
        return text
    return str(int(m.group(3).replace("_", ""), _BASES[m.group(2).lower()]))


def _constants(tree: Any, module: str, name: str, value: int, popts: Any) -> dict[int, str]:
    """Each constant expression of ``module`` elaborated with ``name = value``, by its start
    offset, with its value (:func:`_number`)."""
    import pyslang
    from pyslang import ast

    copts = compilation_options()
    copts.topModules = {module}
    copts.paramOverrides = [f"{name}={value}"]
    comp = ast.Compilation(pyslang.Bag([popts, copts]))
    comp.addSyntaxTree(tree)
    root = comp.getRoot()
    ctx = ast.EvalContext(root)
    out: dict[int, str] = {}

    def each(node: Any) -> Any:
        if _kind(node) in _KINDS and node.syntax is not None:
            c = node.eval(ctx)
            if c:
                out[int(node.sourceRange.start.offset)] = _number(c)
        return ast.VisitAction.Advance

    root.visit(each)
    return out


def special_values(
    text: str, module: str, name: str, default: str, design: Design, budget_s: float = 1.0
) -> list[str]:
    """The values of parameter ``name`` of ``module`` in ``text`` that a rarely changing
    constant expression singles out (module docstring), rarest first, ``default`` left out;
    [] when the text does not parse."""
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._probe_values import PROBE_MAX
    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor(design.include_dirs, design.defines)
    bag = pyslang.Bag([popts])
    try:
        tree = syntax.SyntaxTree.fromText(text, sm, "candidate.v", "", bag)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return []
    seen: dict[int, list[str | None]] = defaultdict(list)
    start = time.monotonic()
    n = 0
    while n <= PROBE_MAX and (n < LEAST or time.monotonic() - start < budget_s):
        try:
            values = _constants(tree, module, name, n, popts)
        except Exception:  # noqa: BLE001 - a value slang cannot elaborate: no constants
            values = {}
        for at in set(seen) | set(values):
            seen[at] += [None] * (n - len(seen[at])) + [values.get(at)]
        n += 1
    marks: list[tuple[int, int]] = []  # (how often its expression changes, value)
    for row in seen.values():
        changes = [v for v in range(1, len(row)) if row[v] != row[v - 1]]
        if 0 < len(changes) <= RARE:
            marks += [(len(changes), v) for c in changes for v in (c, c - 1)]
    out = [str(v) for _, v in sorted(marks)]
    return [v for v in dict.fromkeys(out) if v != default]


#: A shift amount or an index of at most this many bits reaches every value it can hold: its
#: widest value bounds the width a probe goes past (:func:`reach_numbers`).
REACH_BITS = 8
_SHIFTS = frozenset(
    {"LogicalShiftLeft", "LogicalShiftRight", "ArithmeticShiftLeft", "ArithmeticShiftRight"}
)


def _value(c: Any) -> int | None:
    """The integer a constant holds (negative for a signed one with its top bit set)."""
    try:
        v = int(_number(c))
    except ValueError:  # x or z bits
        return None
    width = int(getattr(c.value, "bitWidth", 0) or 0)
    if getattr(c.value, "isSigned", False) and width and v >= 2 ** (width - 1):
        v -= 2**width
    return v


def reach_numbers(text: str, module: str, design: Design, values: bool = False) -> list[int]:
    """The widths past which ``module`` of ``text`` may compute differently, at its
    defaults, from what it reaches without writing it: a shift by a constant amount, a select
    at a constant index and a replication count reach that number (``a >> (13 * 3)`` is 0
    while ``W <= 39``: red-team round 100); a shift by a signal or a select at a signal of
    at most :data:`REACH_BITS` bits reaches every value it can hold (a 6-bit amount: 63);
    any other constant reaches its bit length (``a == 1000`` can hold only where ``W >=
    10``); with ``values``, its value (``i < 5 * 8`` bounds a loop at 40: red-team round
    102). [] when the text does not elaborate."""
    import pyslang
    from pyslang import ast, syntax

    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor(design.include_dirs, design.defines)
    copts = compilation_options()
    copts.topModules = {module}
    bag = pyslang.Bag([popts, copts])
    out: set[int] = set()
    text = constant_nets(text, module)
    try:
        tree = syntax.SyntaxTree.fromText(text, sm, "candidate.v", "", bag)
        comp = ast.Compilation(bag)
        comp.addSyntaxTree(tree)
        root = comp.getRoot()
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return []
    ctx = ast.EvalContext(root)

    def amount(node: Any) -> None:
        c = node.eval(ctx)
        if c:
            v = _value(c)
            if v is not None:
                out.add(abs(v))
            return
        width = int(getattr(node.type, "bitWidth", 0) or 0)
        if 0 < width <= REACH_BITS:
            out.add(2**width - 1)

    def each(node: Any) -> Any:
        kind = _kind(node)
        if kind == "BinaryOp" and str(node.op).rsplit(".", 1)[-1] in _SHIFTS:
            amount(node.right)
        elif kind == "ElementSelect":
            amount(node.selector)
        elif kind == "RangeSelect":
            amount(node.left)
            amount(node.right)
        elif kind == "Replication":
            amount(node.count)
        elif kind in _KINDS or kind == "IntegerLiteral":
            c = node.eval(ctx)
            v = _value(c) if c else None
            if v is not None:
                out.add(abs(v) if values else abs(v).bit_length())
        bits = int(getattr(node.type, "bitWidth", 0) or 0) if kind in _CONSTANT_KINDS else 0
        if bits > _INTEGER_BITS and node.eval(ctx):
            # a constant as wide as this computes in a wider context otherwise: past it
            # ``{33{32'hFFFF_FFFF}} + 1'b1`` is 2**1056, not 0 (red-team round 119)
            out.add(bits)
        return ast.VisitAction.Advance

    root.visit(each)
    widths = _widths(root)
    overrides = _nudged(root)
    grows = _products(root)
    del comp
    out.update(_capacities(tree.root))
    del tree
    fixed, nudged = _fixed_widths(text, module, popts, sm, widths, overrides)
    out.update(fixed)
    defaults = [int(o.split("=", 1)[1]) - 1 for o in overrides]
    out.update(_wraps(grows, nudged, max(defaults, default=0)))
    out.update(_wraps_apart(text, module, popts, sm, grows, overrides))
    return sorted(out)


#: At most this many parameters are nudged one at a time for the products' growth.
APART = 4
#: No tool elaborates a vector wider than this (slang's limit), so a product of parameters
#: that wraps only past it wraps at no width a design can have.
WIDEST = 1 << 24
_GROWS = frozenset(
    {"Add", "Subtract", "Multiply", "Power", "LogicalShiftLeft", "ArithmeticShiftLeft"}
)


#: A constant that may wrap, by its span and operation: its value, its width and, for
#: a product or a power, its operands' values.
Grows = dict[tuple[int, int, str], tuple[int, int, tuple[int | None, ...]]]


def _products(root: Any) -> Grows:
    """Each constant product, power or left shift of the design whose type has at most 64
    bits, and each conversion of a constant to a narrower type (``localparam integer P = Q``
    with a ``longint Q``: it wraps where Q leaves 32 bits, red-team round 119), by its span
    and operation, with its value (the operand's, for a conversion) and its width."""
    from pyslang import ast

    ctx = ast.EvalContext(root)
    out: Grows = {}

    def each(node: Any) -> Any:
        kind = _kind(node)
        if kind not in ("BinaryOp", "Conversion"):
            return ast.VisitAction.Advance
        # an implicit conversion has no text of its own: its (innermost) operand's
        inner = node
        while inner.syntax is None and _kind(inner) == "Conversion":
            inner = inner.operand
        where = inner.syntax
        if where is None:
            return ast.VisitAction.Advance
        bits = int(getattr(node.type, "bitWidth", 0) or 0)
        if kind == "BinaryOp" and str(node.op).rsplit(".", 1)[-1] in _GROWS:
            value = node
        elif kind == "Conversion" and 0 < bits < int(
            getattr(node.operand.type, "bitWidth", 0) or 0
        ):
            value = node.operand
        else:
            return ast.VisitAction.Advance
        c = value.eval(ctx) if 0 < bits <= 64 else None
        v = _value(c) if c else None
        if v is None:
            return ast.VisitAction.Advance
        op = str(node.op).rsplit(".", 1)[-1] if kind == "BinaryOp" else kind
        if op in ("Multiply", "Power"):  # its factors: whether both move (a polynomial)
            sides = [value.left.eval(ctx), value.right.eval(ctx)]
            factors = tuple(_value(x) if x else None for x in sides)
        else:
            factors = ()
        span = where.sourceRange
        out[(int(span.start.offset), int(span.end.offset), op)] = (v, bits, factors)
        return ast.VisitAction.Advance

    root.visit(each)
    return out


def _wraps(at_defaults: Grows, nudged: Grows, default: int) -> set[int]:
    """The width near which each product that grows with the parameters (``W * 1048576``,
    from the defaults to a parameter one past them) leaves the range of its type: a
    32-bit product wraps there while the same product in 64 bits does not (red-team round
    117: ``(64'd0 + W * 1048576) - P`` with ``localparam integer P = W * 1048576`` is 0 below
    W = 4096 only). The earlier of a straight-line and a power-law extrapolation (exact for
    ``a * W + b`` and for ``c * W ** d``); past :data:`WIDEST`, none. A product of two moving
    factors that shrinks as the parameters grow is a polynomial before its root, whose growth
    no two points tell (``(W - 30) * (W - 30) * 1048576`` wraps at W = 76: red-team round
    119): WIDEST, past every probe."""
    out: set[int] = set()
    for at, (v0, bits, factors) in at_defaults.items():
        v1, _, moved = nudged.get(at, (v0, bits, factors))
        a0, a1, room = abs(v0), abs(v1), 2 ** (bits - 1)
        if (
            a1 < a0
            and len(factors) == 2
            and all(f != g for f, g in zip(factors, moved, strict=False))
        ):
            out.add(WIDEST)
        if a1 <= a0:
            continue  # does not move with the parameters, or shrinks
        if a1 >= room:
            out.add(default + 1)
            continue
        steps = (room - a0) / (a1 - a0)
        if a0 and default > 0:  # in logarithms: a sum's power is near 0
            power = math.log(a1 / a0) / math.log((default + 1) / default)
            grown = math.log(default) + math.log(room / a0) / power
            if grown < math.log(WIDEST * 2):
                steps = min(steps, math.exp(grown) - default)
        at_width = default + max(1, math.ceil(steps))
        if at_width <= WIDEST:
            out.add(at_width)
    return out


def _widths(root: Any) -> dict[str, int]:
    """The bit width of every net and variable of the design (functions' too), by path."""
    from pyslang import ast

    found: dict[str, int] = {}

    def each(node: Any) -> Any:
        if _kind(node) in ("Net", "Variable"):
            found[str(node.hierarchicalPath)] = int(getattr(node.type, "bitWidth", 0) or 0)
        return ast.VisitAction.Advance

    root.visit(each)
    return found


def _nudged(root: Any) -> list[str]:
    """An override of every integral parameter of the top instances one past its value."""
    out: list[str] = []
    for inst in root.topInstances:
        for p in inst.body.parameters:
            if getattr(p, "isLocalParam", False) or not hasattr(p, "value"):
                continue
            try:
                out.append(f"{p.name}={int(_number(p.value)) + 1}")
            except ValueError:
                continue
    return out


def _fixed_widths(
    text: str,
    module: str,
    popts: Any,
    sm: Any,
    widths: dict[str, int],
    overrides: list[str],
) -> tuple[set[int], Grows]:
    """The widths of the nets and variables that keep their width when every parameter
    changes (``wire [C-1:0] t`` with ``C = 27 * 27``, a constant function's value, an
    ``integer``): W-bit data in one is cut past that width (red-team round 103), whatever
    expression computes it; with :data:`COUNTS_BITS` bits or fewer, the count it holds too;
    and the products (:func:`_products`) there. Nothing when the text does not elaborate with
    every parameter nudged."""
    found = _elaborated_at(text, module, popts, sm, overrides) if overrides else None
    if found is None:
        return set(), {}
    nudged, grown = found
    out: set[int] = set()
    for path, bits in widths.items():
        if bits and nudged.get(path) == bits:
            out.add(bits)
            if bits <= COUNTS_BITS:
                out.add(2**bits - 1)
    return out, grown


def _elaborated_at(
    text: str, module: str, popts: Any, sm: Any, overrides: list[str]
) -> tuple[dict[str, int], Grows] | None:
    """The widths (:func:`_widths`) and the products (:func:`_products`) of ``module`` under
    ``overrides``; None when it does not elaborate there."""
    import pyslang
    from pyslang import ast, syntax

    copts = compilation_options()
    copts.topModules = {module}
    copts.paramOverrides = overrides
    try:
        bag = pyslang.Bag([popts, copts])
        tree = syntax.SyntaxTree.fromText(text, sm, "candidate.v", "", bag)
        comp = ast.Compilation(bag)
        comp.addSyntaxTree(tree)
        if any(d.isError() for d in comp.getAllDiagnostics()):
            return None
        found = _widths(comp.getRoot()), _products(comp.getRoot())
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return None
    del comp, tree
    return found


def _wraps_apart(
    text: str, module: str, popts: Any, sm: Any, grows: Grows, overrides: list[str]
) -> set[int]:
    """:func:`_wraps` with each parameter nudged alone (up to :data:`APART` of them): nudged
    together, ``(A - B) * (A - B) * 1048576`` stays 0 though it wraps where A and B are 46
    apart (red-team round 119)."""
    out: set[int] = set()
    for o in overrides[:APART] if len(overrides) > 1 else []:
        found = _elaborated_at(text, module, popts, sm, [o])
        if found is not None:
            out |= _wraps(grows, found[1], int(o.split("=", 1)[1]) - 1)
    return out


#: A variable of a fixed width from this many bits to :data:`COUNTS_BITS` holds counts up to
#: 2**bits - 1: a count of W things wraps past that (red-team round 100: a 10-bit popcount
#: of a W-bit port wraps only at W >= 1024). Below it, the count is probed past; wider than
#: that, widths past 2**bits are not built.
COUNTS_BITS = 16
_RANGE = re.compile(r"\[([\d\s+*()-]+):([\d\s+*()-]+)\]")


def _folded(text: str) -> int | None:
    """The value of a bound written with digits, ``+ - *`` and parentheses only (``5*8-1``)."""
    import ast as pyast

    def value(n: Any) -> int:
        if isinstance(n, pyast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, pyast.UnaryOp) and isinstance(n.op, pyast.USub):
            return -value(n.operand)
        if isinstance(n, pyast.BinOp) and isinstance(n.op, (pyast.Add, pyast.Sub, pyast.Mult)):
            a, b = value(n.left), value(n.right)
            if abs(a) > 1 << 20 or abs(b) > 1 << 20:
                raise ValueError("too large")
            return (
                a + b
                if isinstance(n.op, pyast.Add)
                else a - b
                if isinstance(n.op, pyast.Sub)
                else a * b
            )
        raise ValueError("not a bound")

    try:
        return value(pyast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _capacities(node: Any) -> set[int]:
    """The largest value each variable or net declared with a fixed width (``reg [9:0] c``)
    of at most :data:`COUNTS_BITS` bits holds."""
    out: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        kind = _kind(n)
        if kind in ("DataDeclaration", "NetDeclaration"):
            ranges = _RANGE.findall(str(getattr(n, "type", "")))
            msb, lsb = (_folded(ranges[-1][0]), _folded(ranges[-1][1])) if ranges else (None, None)
            if msb is not None and lsb is not None:
                bits = abs(msb - lsb) + 1
                out.add(bits)  # W-bit data in it is cut past that width (round 102)
                if bits <= COUNTS_BITS:
                    out.add(2**bits - 1)
            continue
        try:
            stack.extend(c for c in n if c is not None and hasattr(c, "kind"))
        except TypeError:
            continue
    return out


def constant_nets(text: str, module: str) -> str:
    """``text`` with each net of ``module`` declared with one constant initializer (``wire
    [7:0] k = 9``: every name in it a parameter, a localparam or such a net) declared as a
    localparam of its range instead, so that what the text computes from it is a constant
    (``x >> (k * k + k * 2)`` shifts by 99: red-team round 105)."""
    from pyslang import syntax

    from rtlopt.frontend._param_deps import _module, identifiers
    from rtlopt.frontend._param_guards import _nodes
    from rtlopt.frontend._slang import node_kind

    raw = text.encode("utf-8", "surrogateescape").decode("latin-1")
    tree = syntax.SyntaxTree.fromText(raw)
    mod = _module(tree.root, module)
    if mod is None:
        return text
    names = set()
    nets = []
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind == "ParameterDeclaration":
            names |= {str(d.name.valueText) for d in n.declarators if node_kind(d) != "Comma"}
        elif kind == "NetDeclaration" and str(n.netType.valueText) == "wire":
            decls = [d for d in n.declarators if node_kind(d) != "Comma"]
            init = getattr(decls[0], "initializer", None) if len(decls) == 1 else None
            if init is not None and n.delay is None:
                words = identifiers(str(init.expr))
                nets.append((n, str(decls[0].name.valueText), words))
    edits = []
    grew = True
    while grew:
        grew = False
        for n, name, words in nets:
            if name not in names and not words - names:
                names.add(name)
                at = int(n.netType.location.offset)
                kept = str(n.type).strip()
                edits.append((at, at + 4, "localparam" + ("" if kept else " [0:0]")))
                grew = True
    del tree
    for at, end, new in sorted(edits, reverse=True):
        raw = raw[:at] + new + raw[end:]
    return raw.encode("latin-1").decode("utf-8", "surrogateescape")
