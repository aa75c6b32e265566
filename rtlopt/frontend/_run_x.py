"""Values that defined operands make x at run time, for :mod:`rtlopt.frontend._open_inputs`.

A constant with x/z bits is found by :func:`rtlopt.frontend._net_drivers.x_value`; the parts
of an expression found here are x in a simulation although every operand they read is 0 or 1:

- a select or array index whose index can leave the declared range (``v[s]`` with ``v``
  6 bits wide and ``s`` 3 bits: ``s`` = 6, 7 read x; ``tbl[s]`` with 6 entries; ``v[s +: 2]``;
  a constant index outside the range), judged from the index's width and signedness (or its
  value when constant, or the values the bounds of the procedural ``for`` loops around it
  give it when it reads only their variables, :mod:`rtlopt.frontend._loops`); a select of
  what has no fixed range (a dynamic array, a queue, an associative array) fails closed;
- ``/`` and ``%`` (and ``/=``, ``%=``) whose divisor is not a nonzero constant (x on 0);
- ``**`` whose exponent may be negative (a negative constant, or signed and not a constant)
  and whose base may be 0 (``0 ** -1`` is x; round 51: ``en ** -1``);
- a call of a function the repository defines whose body assigns or returns such a part or
  a value with x/z bits (followed into the functions it calls, each once), or that leaves
  its result, or a local its body reads, unassigned on some path
  (:func:`rtlopt.frontend._assigned.unassigned`: a ``case`` without ``default``, an ``if``
  without ``else``; :attr:`MayBeX.kind` "unassigned").

An arm of a ``?:`` chain no 0/1 value of the conditions' operands selects is not judged
for x constants (:mod:`rtlopt.frontend._reach`).

Operands of ``===``, ``!==``, ``==?``, ``!=?`` and ``inside`` are not judged (the result is
0 or 1 whatever they read). A net with more than one driver (two drivers that may disagree)
is judged by :class:`rtlopt.frontend._net_drivers.Drivers`, which phrases it the same way.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from rtlopt.frontend._loops import Loops, enter, values
from rtlopt.frontend._slang import node_kind

__all__ = ["MayBeX", "run_x", "taken", "unassigned_local", "x_value"]

# operators that compare x as a value: whatever their operands hold, the result is defined
_CASE_OPS = {"CaseEquality", "CaseInequality", "WildcardEquality", "WildcardInequality"}


def _compared(node: Any) -> list[Any]:
    """The operands of ``===``, ``!==``, ``==?``, ``!=?`` or ``inside`` whose x makes the
    result x: none of ``===``/``!==`` (x read as a value), the left one of the wildcard
    operators and of ``inside`` (x or z on the right is a wildcard; round 54:
    ``v[{en, en}] ==? 1'b1`` is x where the select leaves its range)."""
    kind = node.kind.name
    op = getattr(getattr(node, "op", None), "name", "")
    if kind == "Inside" or op in ("WildcardEquality", "WildcardInequality"):
        left = getattr(node, "left", None)
        return [left] if left is not None else []
    return []


_DIVIDE = {"Divide", "Mod"}


class MayBeX(str):
    """Why a value may be x at run time although its operands are defined. The text holds
    ``{0}``, ``{1}``... where :attr:`places` (file, line) go: :meth:`render` fills them in,
    relative to the repository's root. :attr:`cover`: the value is x only on the bits no
    defined driver of the net also writes (a memory ``$readmemh`` may leave unloaded), else
    on its bits whatever else drives them. :attr:`fix`: how to make it defined ("" the
    caller's own). :attr:`kind`: "powerup" for a register that powers up x
    (:mod:`rtlopt.frontend._powerup`), "switch", "udp" or "delay" for a driver of
    :mod:`rtlopt.frontend._x_drivers`, else "". :attr:`z`: the value may be z too (a switch,
    a value with z bits), not x only."""

    places: tuple[tuple[Path, int], ...] = ()
    cover: bool = False
    fix: str = ""
    kind: str = ""
    z: bool = False

    @classmethod
    def make(
        cls,
        text: str,
        places: tuple[tuple[Path, int], ...] = (),
        *,
        cover: bool = False,
        fix: str = "",
        kind: str = "",
        z: bool = False,
    ) -> MayBeX:
        out = cls(text)
        out.places, out.cover, out.fix, out.kind, out.z = places, cover, fix, kind, z
        return out

    def render(self, root: Path) -> str:
        where = [f"{_relative(path, root)}, line {line}" for path, line in self.places]
        try:
            return str(self).format(*where)
        except (IndexError, KeyError, ValueError):
            return str(self)


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return str(path)


def place(node: Any, sm: Any) -> tuple[Path, int]:
    """The file and line where ``node`` (an expression or a symbol) starts."""
    try:
        loc = node.sourceRange.start if hasattr(node, "sourceRange") else node.location
        return Path.cwd() / str(sm.getFileName(loc)), int(sm.getLineNumber(loc))
    except Exception:  # noqa: BLE001 - no location known
        return Path("?"), 0


def text_of(node: Any) -> str:
    """``node``'s source text (braces doubled for :meth:`MayBeX.render`)."""
    syntax = getattr(node, "syntax", None)
    text = " ".join(str(syntax).split()) if syntax is not None else "a compound assignment"
    return text.replace("{", "{{").replace("}", "}}")


def _const(expr: Any, root: Any) -> int | None:
    from rtlopt.frontend._net_bits import _const as const

    return const(expr, root)


def taken(node: Any, root: Any) -> Any:
    """The branch a conditional ``c ? a : b`` takes when ``c`` is a defined constant (a
    parameter): the other one is never read; None otherwise (both may be)."""
    conds = list(getattr(node, "conditions", None) or [])
    if len(conds) != 1 or conds[0].pattern is not None:
        return None
    value = _const(conds[0].expr, root)
    if value is None:
        return None
    return node.left if value else node.right


def _unwrap(expr: Any) -> Any:
    """``expr`` without the implicit conversions slang adds around it."""
    while expr.kind.name == "Conversion" and getattr(expr, "isImplicit", False):
        expr = expr.operand
    return expr


def _values(expr: Any, root: Any, loops: Loops | None = None) -> tuple[int, int] | None:
    """The least and greatest value ``expr`` can take (its value when constant, its values
    over the iterations of ``loops`` when it reads only their variables, else from its
    width and signedness); None when not an integral value."""
    value = _const(expr, root)
    if value is not None:
        return value, value
    looped = values(expr, root, loops)
    if looped:
        return looped[0], looped[-1]
    expr = _unwrap(expr)
    try:
        bits = int(expr.type.bitWidth)
        signed = bool(expr.type.isSigned)
    except Exception:  # noqa: BLE001 - a type slang cannot size
        return None
    if not bits or not expr.type.isIntegral:
        return None
    if signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def _select(node: Any, root: Any, loops: Loops | None = None) -> str:
    """Why the element or range select ``node`` may read past its value's range, or ""."""
    rng = getattr(getattr(node.value.type, "canonicalType", None), "fixedRange", None)
    if rng is None:
        return "selects from a value with no fixed range (a missing element reads x)"
    low, high = min(rng.left, rng.right), max(rng.left, rng.right)
    declared = f"[{rng.left}:{rng.right}]"
    if node.kind.name == "ElementSelect":
        index = node.selector
        span = _values(index, root, loops)
        extra = (0, 0)
    else:
        how = node.selectionKind.name
        if how == "Simple":
            one, two = _values(node.left, root, loops), _values(node.right, root, loops)
            if one is None or two is None or one[0] != one[1] and loops is None:
                return "selects a range whose bounds are not constant"
            span = (min(one[0], two[0]), max(one[1], two[1]))
            index, extra = node.left, (0, 0)
        else:
            index, size = node.left, _const(node.right, root)
            span = _values(index, root, loops)
            if size is None or size < 1:
                return "selects a part whose width is not a positive constant"
            extra = (0, size - 1) if how == "IndexedUp" else (1 - size, 0)
    if span is None:
        return "selects with an index that is not an integral value"
    first, last = span[0] + extra[0], span[1] + extra[1]
    if low <= first and last <= high:
        return ""
    if span[0] == span[1] and _const(index, root) is not None:
        return f"selects outside the declared range {declared} (reads x)"
    return (
        f"selects with an index {text_of(index)} that can reach {first}..{last}, outside "
        f"the declared range {declared} (reads x there)"
    )


def _divisor(node: Any, root: Any) -> str:
    """Why the ``/``, ``%`` or ``**`` ``node`` may be x, or ""."""
    op = node.op.name
    if op in _DIVIDE:
        value = _const(node.right, root)
        if value is None or value == 0:
            return f"divides by {text_of(node.right)}, which is not a nonzero constant (x on 0)"
    elif op == "Power":
        value = _const(node.right, root)
        signed = getattr(_unwrap(node.right).type, "isSigned", True)
        if not (value < 0 if value is not None else signed):
            return ""  # never negative
        base = _values(node.left, root)
        if base is None or base[0] <= 0 <= base[1]:  # the base may be 0 (or is not known)
            return (
                f"raises to {text_of(node.right)}, an exponent that may be negative (0 ** -1 is x)"
            )
    return ""


def _shifted(inner: str, by: int) -> str:
    """``inner``'s ``{i}`` places renumbered ``{i + by}`` (its own braces stay doubled)."""
    return re.sub(r"(?<!\{)\{(\d+)\}(?!\})", lambda m: f"{{{int(m.group(1)) + by}}}", inner)


def _called(node: Any, root: Any, sm: Any, seen: set[int]) -> str:
    """Why the function ``node`` calls may return x: a value with x/z bits, or a part
    that may be x at run time, in an assignment or ``return`` of its body (functions it
    calls included, each once; an index in a ``for`` loop judged by the loop's bounds), or
    ""."""
    from pyslang import ast

    from rtlopt.frontend._assigned import unassigned

    sub = node.subroutine
    if id(sub) in seen:
        return ""
    seen.add(id(sub))
    found: list[str] = []
    open_loops: list[Loops | None] = [None]

    def each(inner: Any) -> Any:
        if found:
            return ast.VisitAction.Interrupt
        kind = inner.kind.name
        if kind == "ForLoop" and isinstance(inner.kind, ast.StatementKind):
            open_loops.append(enter(inner, root, open_loops[-1]))
            try:
                inner.body.visit(each)
            finally:
                open_loops.pop()
            return ast.VisitAction.Skip
        value = inner.right if kind == "Assignment" else None
        value = getattr(inner, "expr", None) if kind in ("Return", "ReturnStatement") else value
        if value is not None:
            if got := x_value(value, root):
                found.append(f"a value with x/z bits ({got})")
            elif got := run_x(value, root, sm, seen, open_loops[-1]):
                found.append(_shifted(got, 1))
                places.extend(getattr(got, "places", ()))
        return ast.VisitAction.Advance

    places: list[tuple[Path, int]] = [place(node, sm)]
    if unassigned(sub, root, selector_x=case_selector_x):
        places.append(place(sub, sm))
        found.append("a path through its body ({1}) leaves its result unassigned (x)")
    elif local := unassigned_local(sub, root):
        places.append(place(local, sm))
        result = getattr(sub, "returnValVar", None)
        if result is not None and local.hierarchicalPath == result.hierarchicalPath:
            what = f"reads its result '{local.name}' ({{1}}) before assigning it (x)"
        else:
            what = f"leaves its local '{local.name}' ({{1}}) unassigned (x), and the body reads it"
        found.append(f"a path through its body {what}")
    kind = "unassigned" if found else ""
    sub.visit(each)
    if not found:
        return ""
    return MayBeX.make(
        f"{text_of(node)} ({{0}}) calls {node.subroutineName}, whose body may give x: {found[0]}",
        tuple(places),
        kind=kind,
        fix=(
            f"assign the result and every local of {node.subroutineName} on every path "
            "before it is read"
        )
        if kind
        else "",
    )


def unassigned_local(sub: Any, root: Any) -> Any:
    """A variable of the function or task ``sub`` that its body (or a local's initializer)
    reads and some path through the body leaves unassigned or reads before assigning it, or
    None: a local, in a block nested in the body too (round 51: ``begin : blk reg s; ...
    end``), its result variable and an output argument read before their first write (``f =
    f & d;``). A static local keeps the previous call's value, x before the first call that
    assigns it; its initializer runs once at time 0, so one that is not a constant counts as
    none (``static logic t = r;``). An automatic local's initializer is read where it is
    declared (:func:`rtlopt.frontend._self_read.read_first`). A loop's variable the loop
    assigns counts as assigned (:func:`rtlopt.frontend._assigned.surely`); a two-state
    variable reads 0, never x. Two variables of one name (unnamed blocks) are not told apart:
    the first is returned (fail closed)."""
    from collections import Counter

    from pyslang import ast

    from rtlopt.frontend._assigned import unassigned
    from rtlopt.frontend._call_reads import variables
    from rtlopt.frontend._net_bits import key
    from rtlopt.frontend._self_read import read_first

    result = getattr(sub, "returnValVar", None)
    outs = [
        a
        for a in getattr(sub, "arguments", None) or []
        if str(getattr(a, "direction", "")).rsplit(".", 1)[-1] == "Out"
    ]
    read: set[str] = set()

    def each(node: Any) -> None:
        read.add(key(node.symbol))

    sub.visit(lookup_table={ast.ExpressionKind.NamedValue: each})  # initializers too
    judged = [
        v
        for v in [*variables(sub), *outs]
        if key(v) in read and getattr(getattr(v, "type", None), "isFourState", False)
    ]
    names = Counter(key(v) for v in judged)
    for var in judged:
        if names[key(var)] > 1:
            return var  # not told apart from another of its name
        init = getattr(var, "initializer", None)
        automatic = str(getattr(var, "lifetime", "")).endswith("Automatic")
        if init is not None and (automatic or _const(init, root) is not None):
            continue  # set on entry, or a defined constant from time 0
        if (result is None or key(var) != key(result)) and unassigned(
            sub, root, var, selector_x=case_selector_x
        ):
            return var  # some path leaves it unassigned
        if read_first(sub.body, var, root, selector_x=case_selector_x) is not None:
            return var  # some path reads it before writing it
    return None


def _real_to_bits(node: Any) -> str:
    """Why ``node`` (a conversion, ``$rtoi``) may make x of a real value (a simulator turns
    an infinite or not-a-number real into x bits), or "" (a finite constant, no real)."""
    if node.kind.name == "Call":
        if not node.isSystemCall or str(node.subroutineName) != "$rtoi" or not node.arguments:
            return ""
        operand = node.arguments[0]
    else:
        operand = node.operand
        if not getattr(getattr(node, "type", None), "isIntegral", False):
            return ""
    if not getattr(getattr(operand, "type", None), "isFloating", False):
        return ""
    value = getattr(operand, "constant", None)
    try:
        if value is not None and math.isfinite(float(str(value))):
            return ""
    except ValueError:
        pass
    return "turns a real value into bits: x where it is infinite or not a number"


def run_x(
    expr: Any, root: Any, sm: Any, seen: set[int] | None = None, loops: Loops | None = None
) -> str:
    """The first part of ``expr`` (itself included) that may be x at run time although its
    operands are defined, as a :class:`MayBeX`, or "". A call of a function the repository
    defines is judged by its body (:func:`_called`); ``loops``: the procedural ``for`` loops
    around ``expr`` (an index reading their variables is judged by their bounds).

    An expression the walk cannot read raises (the caller fails closed)."""
    from pyslang import ast

    found: list[str] = []
    seen = set() if seen is None else seen

    def each(node: Any) -> Any:
        if found:
            return ast.VisitAction.Interrupt
        kind = node.kind.name
        op = getattr(getattr(node, "op", None), "name", "")
        if kind == "Inside" or (kind == "BinaryOp" and op in _CASE_OPS):
            for operand in _compared(node):
                found.extend([got] if (got := run_x(operand, root, sm, seen, loops)) else [])
            return ast.VisitAction.Skip
        branch = taken(node, root) if kind == "ConditionalOp" else None
        if branch is not None:
            found.extend([got] if (got := run_x(branch, root, sm, seen, loops)) else [])
            return ast.VisitAction.Skip
        if kind in ("Conversion", "Call") and (real := _real_to_bits(node)):
            found.append(MayBeX.make(f"{text_of(node)} ({{0}}) {real}", (place(node, sm),)))
            return ast.VisitAction.Interrupt
        if _const(node, root) is not None:
            return ast.VisitAction.Skip  # a defined constant: nothing made at run time
        why = ""
        if kind in ("ElementSelect", "RangeSelect"):
            why = _select(node, root, loops)
        elif kind == "BinaryOp":
            why = _divisor(node, root)
        elif kind == "Call" and not node.isSystemCall:
            called = _called(node, root, sm, seen)
            if called:
                found.append(called)
                return ast.VisitAction.Interrupt
        if why:
            found.append(MayBeX.make(f"{text_of(node)} ({{0}}) {why}", (place(node, sm),)))
            return ast.VisitAction.Interrupt
        return ast.VisitAction.Advance

    expr.visit(each)
    return found[0] if found else ""


def _x_arm(node: Any, root: Any) -> list[str] | None:
    """The first constant with x/z bits in the ``?:`` chain ``node``: in a condition, or in
    an arm some 0/1 value of the conditions' operands selects
    (:func:`rtlopt.frontend._reach.arm_reached`; an x in a condition itself is found where it
    is made)."""
    from rtlopt.frontend._reach import arm_reached, chain

    conds, arms = chain(node)
    if not conds:
        return None  # a pattern: every part judged
    for cond in conds:
        if got := x_value(cond, root):
            return [got]
    for k, arm in enumerate(arms):
        got = x_value(arm, root)
        if got and arm_reached(conds, k, root):
            return [got]
    return []


def x_value(expr: Any, root: Any) -> str:
    """The first part of ``expr`` (itself included) that is a constant with an x or z bit,
    as slang prints it, or ""; operands of ``===`` and ``!==`` are not parts (they compare x
    as a value), nor are the right ones of ``==?``, ``!=?`` and ``inside`` (wildcards)."""
    from pyslang import ast

    found: list[str] = []

    def each(node: Any) -> Any:
        if found:
            return ast.VisitAction.Interrupt
        kind = node_kind(node)
        if kind == "Inside" or (
            kind == "BinaryOp" and getattr(getattr(node, "op", None), "name", "") in _CASE_OPS
        ):
            found.extend(got for operand in _compared(node) if (got := x_value(operand, root)))
            return ast.VisitAction.Skip
        branch = taken(node, root) if kind == "ConditionalOp" else None
        if branch is not None:  # a parameter picks the branch: the other is never read
            inner = x_value(branch, root)
            found.extend([inner] if inner else [])
            return ast.VisitAction.Skip
        arm = _x_arm(node, root) if kind == "ConditionalOp" else None
        if arm is not None:
            found.extend(arm)
            return ast.VisitAction.Skip
        try:
            value = node.eval(ast.EvalContext(root))
            if value is not None and value.hasUnknown():
                found.append(str(value))
                return ast.VisitAction.Interrupt
        except Exception:  # noqa: BLE001, S110 - pyslang raises plain exceptions: not constant
            pass
        return ast.VisitAction.Advance

    expr.visit(each)
    return found[0] if found else ""


#: The ``case`` statements whose selectors are being judged (a function's selector calling
#: the function again), by where they start.
_JUDGED: set[tuple[int, int]] = set()


def case_selector_x(stmt: Any, root: Any, loops: Loops | None) -> bool:
    """Whether the selector of the ``case`` ``stmt`` may be x at run time although what it
    reads is defined (:func:`run_x`: ``en / en``, a select out of range, a call that may
    return x): no item matches then (round 51). An x it reads is followed where it is made.
    Not known (a selector the walk cannot read, a function's selector reached again through
    its own call): x."""
    start = stmt.sourceRange.start
    where = (int(start.buffer.id), int(start.offset))
    if where in _JUDGED:
        return True
    _JUDGED.add(where)
    try:
        # an x or z constant bit too (round 54: ``case (en ^ 1'bx)``)
        return bool(x_value(stmt.expr, root) or run_x(stmt.expr, root, None, None, loops))
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not known
        return True
    finally:
        _JUDGED.discard(where)
