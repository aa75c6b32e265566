"""The values of register initializers as slang elaborates them, for the power-up rule.

The rule under ``harness.initial_values = "ignore"`` (:func:`rtlopt.harness._semantics
.power_up_difference`) compares each register's stated power-up value on the two sides. By
its tokens alone, ``'1`` and ``8'hff`` on an 8-bit register differ, and ``INIT`` and ``INIT``
are the same although one side's ``localparam INIT`` is ``8'd1`` and the other's ``'1``. Here
each declaration initializer is evaluated by slang in its module's elaboration (the text
elaborated alone: every module it does not instantiate is a top with its default parameters,
the others as the text's instances set them), converted to the register's type, so the rule
compares what every simulator starts the register from.
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._slang import compilation_options

__all__ = ["Elaborated", "Values", "by_value", "initializer_values"]

#: Module -> register -> slang's value of its declaration initializer (a register whose
#: initializer does not evaluate, or evaluates otherwise in two instances, is left out).
Values = dict[str, dict[str, str]]

#: A register two instances of its module start from different values.
_MIXED = "\0mixed"


def initializer_values(text: str) -> Values:
    """The elaborated initializer values of ``text``'s registers (see the module's text)."""
    import pyslang
    from pyslang import ast, syntax

    comp = ast.Compilation(pyslang.Bag([compilation_options()]))
    comp.addSyntaxTree(syntax.SyntaxTree.fromText(text))
    out: Values = {}
    stack = list(comp.getRoot().topInstances)
    seen = 0
    while stack and seen < _MAX_INSTANCES:
        inst = stack.pop()
        seen += 1
        body = inst.body
        mine = out.setdefault(str(body.name), {})
        for member in body:
            if member.kind == ast.SymbolKind.Instance:
                stack.append(member)
                continue
            if member.kind != ast.SymbolKind.Variable or member.initializer is None:
                continue
            value = _value(member.initializer, ast.EvalContext(body))
            name = str(member.name)
            if value is None or mine.get(name, value) != value:
                mine[name] = _MIXED
            else:
                mine[name] = value
    if stack:  # more instances than are read here: no value is known for certain
        return {}
    return {m: {r: v for r, v in regs.items() if v != _MIXED} for m, regs in out.items()}


#: Instances walked at most (a deep generated hierarchy is left to the tokens).
_MAX_INSTANCES = 2000


def _value(expr: Any, ctx: Any) -> str | None:
    try:
        value = expr.eval(ctx)
    except Exception:  # noqa: BLE001 - pyslang raises plain errors for what does not evaluate
        return None
    if not value or len(ctx.diagnostics):
        return None
    return str(value)


class Elaborated:
    """slang's initializer values of the two texts (candidate's, reference's), elaborated when
    first asked (a pair of modules whose registers state no value on both sides needs none);
    none when they are not given as texts or do not elaborate: the tokens decide."""

    def __init__(self, candidate: object, reference: object) -> None:
        self._texts = (candidate, reference)
        self._values: tuple[Values, Values] | None = None
        self._done = False

    def values(self) -> tuple[Values, Values] | None:
        if not self._done:
            self._done = True
            cand, ref = self._texts
            if isinstance(cand, str) and isinstance(ref, str):
                try:
                    self._values = initializer_values(cand), initializer_values(ref)
                except Exception:  # noqa: BLE001 - pyslang's bindings raise plain errors
                    self._values = None
        return self._values


def by_value(
    elaborated: Elaborated,
    module: str,
    reg: str,
    theirs: dict[str, tuple[str, ...]],
    mine: dict[str, tuple[str, ...]],
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]] | None | bool:
    """For a register whose one power-up value on each side is its declaration initializer
    and slang evaluates both: False when the values are the same, else the two sides' values
    to show (with the value where the tokens are the same); None when the tokens decide."""
    if len(theirs.get(reg, ())) != 1 or len(mine.get(reg, ())) != 1:
        return None
    pair = elaborated.values()
    if pair is None:
        return None
    new, old = (e.get(module, {}).get(reg) for e in pair)
    if new is None or old is None:
        return None
    if new == old:
        return False
    if theirs[reg] != mine[reg]:
        return theirs, mine  # the tokens say it
    return (
        {**theirs, reg: (f"{theirs[reg][0]} (= {old})",)},
        {**mine, reg: (f"{mine[reg][0]} (= {new})",)},
    )
