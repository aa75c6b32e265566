"""Constants the target compares its inputs against, found in the elaborated design.

Random stimulus almost never issues the 7-bit opcode *and* the 7-bit funct7 that start a
coprocessor (2^-14 per vector), so a rewrite that is wrong only for that instruction passes
simulation. The design itself says which values matter: every ``==``/``!=``/``===``/``==?``
against a constant, every ``case``/``casez``/``casex`` item, where the other side is made of
input-port bits, through slices (``insn[6:0] == 7'b0110011``), concatenations, continuous
assignments to plain wires (``wire [6:0] op = insn[6:0]``) and the input ports of
instantiated submodules. Found structurally (pyslang's elaborated AST: which bits of which
port feed the compared expression), never by signal names.

Bits a ``casez`` item marks ``z``/``?`` (``x`` too for ``casex``, and ``==?``'s ``x``/``z``) are
don't-care and left random by the stimulus.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rtlopt.frontend._slang import compilation_options, node_kind, preprocessor
from rtlopt.frontend.model import Design

__all__ = ["FieldConstant", "compare_constants"]

log = logging.getLogger(__name__)

Bit = tuple[str, int] | None  # (input port, bit position from the port's LSB) or not an input
_MAX_DEPTH = 16  # wire-to-wire hops followed before giving up (also stops on loops)
_MAX_CONSTANTS = 4096  # a huge case table (a ROM) adds nothing past this


@dataclass(frozen=True, order=True)
class FieldConstant:
    """A value the design compares a slice of one input port against.

    Attributes:
        port: Input port name.
        lsb: Position of the slice's lowest bit, counted from the port's LSB (0).
        width: Width of the slice.
        value: The compared value, LSB-aligned to ``lsb`` (don't-care bits are 0).
        care: Mask of the bits that matter (1) inside the slice; the others stay random.
    """

    port: str
    lsb: int
    width: int
    value: int
    care: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form for results: slice, value and care mask as binary strings (MSB first)."""
        w = self.width
        bits = "".join(
            ("1" if (self.value >> i) & 1 else "0") if (self.care >> i) & 1 else "?"
            for i in reversed(range(w))
        )
        return {"port": self.port, "slice": f"[{self.lsb + w - 1}:{self.lsb}]", "value": bits}


def _const_bits(expr: Any, ctx: Any) -> str | None:
    """The constant's digits ``0 1 x z``, LSB first, or None when ``expr`` is not constant."""
    import pyslang

    cv = expr.constant
    if cv is None:
        k = node_kind(expr)
        param = k == "NamedValue" and node_kind(expr.symbol) == "Parameter"
        if not param and k not in ("IntegerLiteral", "UnbasedUnsizedIntegerLiteral", "Conversion"):
            return None
        try:
            cv = expr.eval(ctx)
        except Exception:  # pyslang raises plain exceptions for what it cannot evaluate
            return None
    value = getattr(cv, "value", None) if cv is not None else None
    if not isinstance(value, pyslang.SVInt):
        return None
    digits = value.toString(pyslang.LiteralBase.Binary, False).lower().replace("_", "")
    width = int(value.bitWidth)
    if not digits or any(c not in "01xz?" for c in digits):
        return None
    fill = digits[0] if digits[0] in "xz" else "0"
    digits = digits.rjust(width, fill)[-width:]
    return digits[::-1].replace("?", "z")


class _Resolver:
    """Maps an expression to the input-port bits it is made of (LSB first)."""

    def __init__(self, body: Any, inputs: dict[str, str], ctx: Any = None) -> None:
        self._inputs = inputs  # hierarchical path of a top input's symbol -> port name
        self._drivers: dict[str, Any] = {}  # hierarchical path of a net -> its driving expr
        self._ranges: dict[str, tuple[int, int]] = {}
        self._ctx = ctx  # evaluates a mask named by a parameter

    def add_driver(self, symbol: Any, expr: Any) -> None:
        key = str(symbol.hierarchicalPath)
        # a net driven twice (or a variable assigned in pieces) is not a plain wire
        self._drivers[key] = None if key in self._drivers else expr

    def bits(self, expr: Any, depth: int = 0) -> list[Bit]:
        width = _width(expr)
        if width is None or width <= 0 or width > 4096:
            return []
        if depth > _MAX_DEPTH:
            return [None] * width
        k = node_kind(expr)
        if k == "NamedValue":
            sym = expr.symbol
            key = str(sym.hierarchicalPath)
            if key in self._inputs:
                return [(self._inputs[key], i) for i in range(width)]
            drv = self._drivers.get(key)
            if drv is not None:
                inner = self.bits(drv, depth + 1)
                return (inner + [None] * width)[:width]
            return [None] * width
        if k == "Conversion":
            inner = self.bits(expr.operand, depth)
            return (inner + [None] * width)[:width]
        if k == "RangeSelect":
            return self._range(expr, width, depth)
        if k == "ElementSelect":
            base = self.bits(expr.value, depth)
            pos = self._position(expr.value, expr.selector)
            if pos is None or not base or pos >= len(base) or width != 1:
                return [None] * width
            return [base[pos]]
        if k == "BinaryOp" and getattr(expr.op, "name", "") == "BinaryAnd":
            return self._masked(expr, width, depth)
        if k == "Concatenation":
            out: list[Bit] = []
            for op in reversed(list(expr.operands)):  # the last operand is the LSB end
                w = _width(op)
                if w is None:
                    return [None] * width
                got = self.bits(op, depth)
                out += (got + [None] * w)[:w]
            return (out + [None] * width)[:width]
        return [None] * width

    def _masked(self, expr: Any, width: int, depth: int) -> list[Bit]:
        """``x & MASK`` with a constant mask: x's bits where the mask is 1, none (no input:
        left random) where it is 0, so ``(insn & MASK) == DIV`` compares the opcode's
        masked bits (RISC-V decoders: held-out trial 49, biriscv's divider)."""
        for var, const in ((expr.left, expr.right), (expr.right, expr.left)):
            mask = _const_bits(const, self._ctx) if self._ctx is not None else None
            if mask is None or (self._ctx is not None and _const_bits(var, self._ctx)):
                continue
            inner = (self.bits(var, depth) + [None] * width)[:width]
            mask = mask.ljust(width, "0")
            return [b if m == "1" else None for b, m in zip(inner, mask, strict=False)]
        return [None] * width

    def _position(self, value: Any, selector: Any) -> int | None:
        """Bit position (from the LSB) that index ``selector`` of ``value`` names."""
        idx = _int(selector)
        rng = _range_of(value)
        if idx is None or rng is None:
            return None
        left, right = rng
        return idx - right if left >= right else right - idx

    def _range(self, expr: Any, width: int, depth: int) -> list[Bit]:
        base = self.bits(expr.value, depth)
        if not base:
            return [None] * width
        sel = getattr(expr.selectionKind, "name", "")
        left, right = _int(expr.left), _int(expr.right)
        if left is None or right is None:
            return [None] * width
        rng = _range_of(expr.value)
        if rng is None:
            return [None] * width
        a, b = rng
        if sel == "Simple":
            p1 = left - b if a >= b else b - left
            p2 = right - b if a >= b else b - right
        elif sel in ("IndexedUp", "IndexedDown"):
            start = left if sel == "IndexedUp" else left - right + 1
            end = start + right - 1
            p1 = start - b if a >= b else b - start
            p2 = end - b if a >= b else b - end
        else:
            return [None] * width
        lo = min(p1, p2)
        if lo < 0 or lo + width > len(base):
            return [None] * width
        return base[lo : lo + width]


def _width(expr: Any) -> int | None:
    try:
        t = expr.type
        if not t.isIntegral:
            return None
        return int(t.bitWidth)
    except Exception:  # an expression without a type (bad or void)
        return None


def _range_of(expr: Any) -> tuple[int, int] | None:
    try:
        t = expr.type
        if not t.hasFixedRange:
            return None
        r = t.fixedRange
        return int(r.left), int(r.right)
    except Exception:  # not a packed vector
        return None


def _int(expr: Any) -> int | None:
    cv = getattr(expr, "constant", None)
    if cv is None:
        return None
    try:
        return int(str(cv.value).split("'")[-1].lstrip("sSdD"), 10)
    except (ValueError, AttributeError):
        try:
            return int(cv.value)
        except Exception:  # not an integer constant
            return None


_COMPARES = {
    "Equality": "exact",
    "Inequality": "exact",
    "CaseEquality": "exact",
    "CaseInequality": "exact",
    "WildcardEquality": "wild",
    "WildcardInequality": "wild",
}


def _fields(bits: Sequence[Bit], digits: str, dont_care: str) -> Iterator[FieldConstant]:
    """Split a compare of ``bits`` with ``digits`` (both LSB first) into per-port constants."""
    per_port: dict[str, dict[int, int]] = {}
    for b, d in zip(bits, digits, strict=False):
        if b is None or d in dont_care or d not in "01":
            continue
        per_port.setdefault(b[0], {})[b[1]] = int(d)
    for port, pos in per_port.items():
        lo, hi = min(pos), max(pos)
        value = care = 0
        for p, v in pos.items():
            care |= 1 << (p - lo)
            value |= v << (p - lo)
        yield FieldConstant(port, lo, hi - lo + 1, value, care)


def _conjuncts(node: Any) -> Iterator[Any]:
    """Operands of a chain of ``&&`` (conversions looked through)."""
    while node_kind(node) == "Conversion":
        node = node.operand
    if node_kind(node) == "BinaryOp" and getattr(node.op, "name", "") == "LogicalAnd":
        yield from _conjuncts(node.left)
        yield from _conjuncts(node.right)
    else:
        yield node


@dataclass
class _Scan:
    """What one walk over the elaborated body collects (besides the wires' drivers)."""

    compares: list[tuple[Any, Any, str]] = field(default_factory=list)  # left, right, mode
    cases: list[Any] = field(default_factory=list)
    ands: list[Any] = field(default_factory=list)
    instances: list[Any] = field(default_factory=list)


def _scan(body: Any, res: _Resolver) -> _Scan:
    """Walk the body once: record the drivers of plain wires in ``res``, collect the compares,
    ``case`` statements, ``&&`` chains and instances."""
    from pyslang import ast

    found = _Scan()

    def visit(node: Any) -> Any:
        name = type(node).__name__
        if name == "ContinuousAssignSymbol":
            a = node.assignment
            # an assignment slang could not bind (an error elsewhere) is an InvalidExpression
            left = getattr(a, "left", None)
            if left is not None and node_kind(left) == "NamedValue":
                res.add_driver(left.symbol, a.right)
        elif name == "NetSymbol" and node.initializer is not None:
            res.add_driver(node, node.initializer)
        elif name == "InstanceSymbol":
            found.instances.append(node)
        elif name == "BinaryExpression":
            op = getattr(node.op, "name", "")
            if op in _COMPARES:
                found.compares.append((node.left, node.right, _COMPARES[op]))
            elif op == "LogicalAnd":
                found.ands.append(node)
        elif name == "CaseStatement":
            found.cases.append(node)
        return ast.VisitAction.Advance

    body.visit(visit)
    return found


def _drive_instance_ports(res: _Resolver, instances: Sequence[Any]) -> None:
    """Input ports of submodules are driven by their connection in the parent."""
    for inst in instances:
        try:
            conns = list(inst.portConnections)
        except Exception:  # an instance of an unknown module
            continue
        for c in conns:
            port = c.port
            expr = getattr(c, "expression", None)
            internal = getattr(port, "internalSymbol", None)
            if (
                expr is not None
                and internal is not None
                and getattr(port.direction, "name", "") == "In"
            ):
                res.add_driver(internal, expr)


def _compare(res: _Resolver, ctx: Any, left: Any, right: Any, mode: str) -> set[FieldConstant]:
    """The per-port constants of one compare, whichever side the constant stands on."""
    for var, const in ((left, right), (right, left)):
        digits = _const_bits(const, ctx)
        if digits is None or _const_bits(var, ctx) is not None:
            continue
        return set(_fields(res.bits(var), digits, "xz" if mode == "wild" else ""))
    return set()


def _from_compares(
    res: _Resolver, ctx: Any, compares: Sequence[tuple[Any, Any, str]]
) -> set[FieldConstant]:
    """The constants of the ``==``-like compares; a one-bit test gets both its values."""
    found: set[FieldConstant] = set()
    for left, right, mode in compares:
        got = _compare(res, ctx, left, right, mode)
        for c in got:
            if c.width == 1:
                # a one-bit test has two branches: forcing its constant would starve the other
                found.add(FieldConstant(c.port, c.lsb, 1, 1 - c.value, 1))
        found |= got
    return found


def _from_enables(res: _Resolver, ctx: Any, ands: Sequence[Any]) -> set[FieldConstant]:
    """Enables: one-bit inputs in a conjunction with such a compare (``valid && op == 7'h33``)
    get the value that makes the conjunction true, so the decode they gate can fire."""
    found: set[FieldConstant] = set()
    for node in ands:
        terms = list(_conjuncts(node))
        if not any(
            node_kind(t) == "BinaryOp"
            and getattr(t.op, "name", "") in ("Equality", "CaseEquality")
            and _compare(res, ctx, t.left, t.right, "exact")
            for t in terms
        ):
            continue
        for t in terms:
            want = "1"
            unary = node_kind(t) == "UnaryOp"
            if unary and getattr(t.op, "name", "") in ("LogicalNot", "BitwiseNot"):
                t, want = t.operand, "0"
            if _width(t) == 1:
                found.update(_fields(res.bits(t), want, ""))
    return found


def _add_case_items(
    found: set[FieldConstant], res: _Resolver, ctx: Any, cases: Sequence[Any]
) -> None:
    """Add the constants of ``case`` items (don't-care digits of ``casez``/``casex`` left
    random) to ``found``, until it holds more than :data:`_MAX_CONSTANTS`."""
    for case in cases:
        cond = getattr(case.condition, "name", "")
        dont = {"WildcardJustZ": "z", "WildcardXOrZ": "xz"}.get(cond, "")
        subject = case.expr
        subject_digits = _const_bits(subject, ctx)
        for item in case.items:
            for e in item.expressions:
                if subject_digits is None:
                    digits = _const_bits(e, ctx)
                    if digits is not None:
                        found.update(_fields(res.bits(subject), digits, dont))
                else:
                    # case (1'b1) sel[0]: ... : the item is the variable side
                    found.update(_fields(res.bits(e), subject_digits, dont))
        if len(found) > _MAX_CONSTANTS:
            break


def _collect(body: Any, inputs: dict[str, str]) -> set[FieldConstant]:
    """Every constant the body compares a slice of an input port against."""
    from pyslang import ast

    ctx = ast.EvalContext(body)
    res = _Resolver(body, inputs, ctx)
    scan = _scan(body, res)
    _drive_instance_ports(res, scan.instances)
    found = _from_compares(res, ctx, scan.compares)
    found |= _from_enables(res, ctx, scan.ands)
    _add_case_items(found, res, ctx, scan.cases)
    return found


def compare_constants(design: Design) -> tuple[FieldConstant, ...]:
    """Constants the target compares its (non-clock) inputs against, sorted.

    The target is elaborated on its own (default parameters, the design's prelude, include
    folders and defines). A design pyslang cannot elaborate yields no constants (logged): the
    stimulus then stays plain random, which is what it was before.
    """
    try:
        return _compare_constants(design)
    except Exception as exc:  # never let a stimulus hint break an evaluation
        log.warning("no compared constants for %s: %s", design.target.name, exc)
        return ()


def _compare_constants(design: Design) -> tuple[FieldConstant, ...]:
    import pyslang
    from pyslang import ast, syntax

    t = design.target
    sm, popts = preprocessor(design.include_dirs, design.defines)
    copts = compilation_options()
    copts.topModules = {t.name}
    bag = pyslang.Bag([popts, copts])
    comp = ast.Compilation(bag)
    from rtlopt.frontend._packages import package_files

    # the packages the closure imports come first, as for every tool reading SystemVerilog
    files = list(dict.fromkeys([*package_files(design), *design.closure, t.file]))
    prelude = [p for p in design.prelude if p not in files]
    if prelude:
        bufs = [sm.readSource(str(p)) for p in [*prelude, *files]]
        comp.addSyntaxTree(syntax.SyntaxTree.fromBuffers(bufs, sm, bag))
    else:
        for f in files:
            comp.addSyntaxTree(syntax.SyntaxTree.fromFile(str(f), sm, bag))
    tops = [i for i in comp.getRoot().topInstances if i.body.definition.name == t.name]
    if not tops:
        log.warning("no compared constants: %s does not elaborate on its own", t.name)
        return ()
    body = tops[0].body
    clocks = set(t.clocks)
    inputs: dict[str, str] = {}
    for p in body.portList:
        if type(p).__name__ != "PortSymbol" or getattr(p.direction, "name", "") != "In":
            continue
        if p.name in clocks or p.internalSymbol is None:
            continue
        inputs[str(p.internalSymbol.hierarchicalPath)] = str(p.name)
    if not inputs:
        return ()
    found = _collect(body, inputs)
    return tuple(sorted(found))[:_MAX_CONSTANTS]
