"""Constant values the screen's flow analysis needs (:mod:`rtlopt.harness._carry`): indices,
loop bounds and parameters at their defaults, evaluated on the syntax tree (pyslang). Sized
values are kept at their width: arithmetic on sized operands only, which Verilog computes at
that width, is not followed (None: not constant), so no wrapped index is taken for another."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rtlopt.harness._nodes import _children, _kind, _walk

__all__ = ["NARROW", "arguments", "constants", "evaluate", "loop_values", "step_value", "unwrap"]

_BINARY: dict[str, Callable[[int, int], int | None]] = {
    "AddExpression": lambda a, b: a + b,
    "SubtractExpression": lambda a, b: a - b,
    "MultiplyExpression": lambda a, b: a * b,
    "DivideExpression": lambda a, b: a // b if b else None,
    "ModExpression": lambda a, b: a % b if b else None,
    "LogicalShiftLeftExpression": lambda a, b: a << b if 0 <= b < 64 else None,
    "LogicalShiftRightExpression": lambda a, b: a >> b if b >= 0 else None,
    "ArithmeticShiftLeftExpression": lambda a, b: a << b if 0 <= b < 64 else None,
    "ArithmeticShiftRightExpression": lambda a, b: a >> b if b >= 0 else None,
    "BinaryAndExpression": lambda a, b: a & b,
    "BinaryOrExpression": lambda a, b: a | b,
    "BinaryXorExpression": lambda a, b: a ^ b,
    "PowerExpression": lambda a, b: a**b if 0 <= b < 64 else None,
    "LessThanExpression": lambda a, b: int(a < b),
    "LessThanEqualExpression": lambda a, b: int(a <= b),
    "GreaterThanExpression": lambda a, b: int(a > b),
    "GreaterThanEqualExpression": lambda a, b: int(a >= b),
    "EqualityExpression": lambda a, b: int(a == b),
    "InequalityExpression": lambda a, b: int(a != b),
    "LogicalAndExpression": lambda a, b: int(bool(a) and bool(b)),
    "LogicalOrExpression": lambda a, b: int(bool(a) or bool(b)),
}
_BASES = {"d": 10, "h": 16, "b": 2, "o": 8}


#: The key in an environment that marks a name's value as narrow (a sized literal's width).
NARROW = "\0"
_WRAPS = frozenset(
    {
        "AddExpression",
        "SubtractExpression",
        "MultiplyExpression",
        "LogicalShiftLeftExpression",
        "ArithmeticShiftLeftExpression",
        "PowerExpression",
    }
)


def evaluate(e: Any, env: dict[str, int]) -> int | None:
    """The integer value of a constant expression under ``env`` (None: not constant here,
    or arithmetic on sized operands only, which may wrap at their width)."""
    got = _value(e, env)
    return None if got is None else got[0]


def _value(e: Any, env: dict[str, int]) -> tuple[int, bool] | None:
    """The value and whether it is narrow (every operand sized: Verilog computes it at that
    width, so arithmetic on it is not followed)."""
    k = _kind(e)
    if k == "IntegerLiteralExpression":
        text = str(e.literal.valueText).replace("_", "")
        return (int(text), False) if text.isdigit() else None
    if k == "IntegerVectorExpression":
        return _sized(e)
    if k == "IdentifierName":
        name = str(e.identifier.valueText)
        return None if name not in env else (env[name], NARROW + name in env)
    if k == "ParenthesizedExpression":
        return _value(e.expression, env)
    if k in _BINARY:
        a, b = _value(e.left, env), _value(e.right, env)
        if a is None or b is None or (a[1] and b[1] and k in _WRAPS):
            return None
        v = _BINARY[k](a[0], b[0])
        return None if v is None else (v, k not in _WRAPS and a[1] and b[1])
    if k in ("UnaryMinusExpression", "UnaryPlusExpression", "UnaryLogicalNotExpression"):
        got = _value(e.operand, env)
        if got is None or (got[1] and k == "UnaryMinusExpression"):
            return None
        v = got[0]
        return (-v if k == "UnaryMinusExpression" else int(not v) if "Not" in k else v), got[1]
    if k == "ConditionalExpression":
        conds = [x for x in _children(e.predicate.conditions) if not hasattr(x, "valueText")]
        c = evaluate(conds[0].expr, env) if len(conds) == 1 else None
        return None if c is None else _value(e.left if c else e.right, env)
    if k == "InvocationExpression" and _kind(e.left) == "SystemName":
        args = arguments(e)
        v = evaluate(args[0], env) if len(args) == 1 else None
        if str(e.left.systemIdentifier.valueText) == "$clog2" and v is not None and v >= 0:
            return max(v - 1, 0).bit_length(), False
    return None


def _sized(e: Any) -> tuple[int, bool] | None:
    """A based literal's value (at its size, when it has one)."""
    base = str(e.base.valueText).lower().lstrip("'").lstrip("s")
    digits = str(e.value.valueText).replace("_", "")
    try:
        v = int(digits, _BASES[base[:1]])
    except (KeyError, ValueError):
        return None
    size = e.size.valueText if e.size is not None else ""
    if not str(size).isdigit():
        return v, False
    return v & ((1 << int(str(size))) - 1), True


def arguments(call: Any) -> list[Any]:
    """The argument expressions of a call, in order (named ones too)."""
    args = getattr(call, "arguments", None)
    if args is None:
        return []
    out = []
    for a in _children(args.parameters):
        if _kind(a) in ("OrderedArgument", "NamedArgument"):
            out.append(unwrap(a.expr))
    return out


def constants(module: Any) -> dict[str, int]:
    """Parameters and localparams of ``module`` (not of its generate blocks) with an integer
    value at their defaults."""
    decls = []
    stop = frozenset({"FunctionDeclaration", "TaskDeclaration", "GenerateBlock", "AlwaysBlock"})
    for node in _walk(module, stop | {"AlwaysCombBlock", "AlwaysFFBlock", "ContinuousAssign"}):
        if _kind(node) == "ParameterDeclaration":
            for d in _children(node.declarators):
                init = getattr(d, "initializer", None)
                if _kind(d) == "Declarator" and init is not None:
                    decls.append((str(d.name.valueText), init.expr, _typed(node)))
    env: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for name, expr, typed in decls:
            if name not in env:
                got = _value(expr, env)
                if got is not None:
                    env[name] = got[0]
                    if typed or got[1]:
                        env[NARROW + name] = 1
                    changed = True
    return env


def _typed(decl: Any) -> bool:
    """A parameter declared with a width of its own (a range, or a narrow type)."""
    t = getattr(decl, "type", None)
    words = {str(x.valueText) for x in _walk(t) if hasattr(x, "valueText")} if t else set()
    return any(_kind(d) == "VariableDimension" for d in _walk(t)) or bool(
        words & {"bit", "logic", "reg", "byte", "shortint"}
    )


def loop_values(
    var: str, start: int | None, stop: Any, step: Any, env: dict[str, int], limit: int
) -> list[int] | None:
    """The values a loop variable takes from ``start`` (a ``for`` loop or a generate loop),
    or None when the loop is not constant or runs more than ``limit`` times."""
    v = start
    out: list[int] = []
    while v is not None and len(out) <= limit:
        more = evaluate(stop, {**env, var: v})
        if more is None:
            return None
        if not more:
            return out
        out.append(v)
        v = step_value(step, var, {**env, var: v})
    return None


def step_value(step: Any, var: str, env: dict[str, int]) -> int | None:
    k = _kind(step)
    target: Any = getattr(step, "left", None) or getattr(step, "operand", None)
    if _kind(target) != "IdentifierName" or str(target.identifier.valueText) != var:
        return None
    if k == "AssignmentExpression":
        return evaluate(step.right, env)
    cur = env[var]
    if "crement" in k:
        return cur + 1 if "increment" in k.lower() else cur - 1
    ops: dict[str, Callable[[int, int], int]] = {
        "AddAssignmentExpression": lambda a, b: a + b,
        "SubtractAssignmentExpression": lambda a, b: a - b,
        "MultiplyAssignmentExpression": lambda a, b: a * b,
        "LogicalLeftShiftAssignmentExpression": lambda a, b: a << b,
    }
    by = evaluate(step.right, env) if k in ops else None
    return None if by is None else ops[k](cur, by)


def unwrap(e: Any) -> Any:
    """The expression inside an argument's property/sequence wrappers."""
    while _kind(e) in ("SimplePropertyExpr", "SimpleSequenceExpr"):
        e = e.expr
    return e
