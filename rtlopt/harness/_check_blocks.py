"""``initial`` blocks that state no power-up value: checks that only report.

An ``initial`` block of immediate assertions that only report (no ``$fatal``, ``$finish``,
``$stop``; conditions and actions that write nothing: :func:`rtlopt.harness._dormant.
reports_only`) writes no state. Nor does one that computes a value only its own reporting
assertions read. A parameter check often fills a scratch variable before asserting on it
(prim_lfsr's ``initial begin : p_perm_check lfsr_perm_test = '0; for (int k = 0; k < LfsrDw; k++)
lfsr_perm_test[StatePerm[k]] = 1'b1; `ASSERT_I(PermutationCheck_A, &lfsr_perm_test) end``).
A simulator runs it at time 0, synthesis reads no ``initial`` block: the readings differ, but
only in a variable nothing of the design reads. :func:`scratch_check` recognises such a block
on the syntax tree, failing closed on anything else:

* its statements are blocks, ``for`` loops over a variable they declare (stepped by ``++``,
  ``--``, ``+=``, ``-=``), blocking assignments to a plain variable or a select of one, and
  immediate assertions that only report without ending the simulation
  (:func:`rtlopt.harness._dormant.reports_only`);
* outside the assertions it calls nothing but pure system functions, waits for nothing;
* every variable it assigns is declared in the module without an initializer, is no port,
  and is named nowhere in the module outside this block (no other block, assignment, port
  connection or declaration reads it), nor anywhere else in the design's unit (a
  hierarchical read from another module).

Such a block writes only state no other code reads: it states no power-up value.
"""

from __future__ import annotations

import re
from typing import Any

from rtlopt.harness._call_kinds import _PURE_CALLS, ASSERTION_STATEMENTS, _write_kinds
from rtlopt.harness._nodes import _children, _kind, _walk

__all__ = ["scratch_check", "states_nothing"]

#: Statement kinds the block may hold besides assignments, loops and assertions.
_FRAME = frozenset({"SequentialBlockStatement", "NamedBlockClause", "SyntaxList"})
#: How a ``for`` loop may step its own variable.
_STEPS = frozenset(
    {
        "PostincrementExpression",
        "PreincrementExpression",
        "PostdecrementExpression",
        "PredecrementExpression",
        "AddAssignmentExpression",
        "SubtractAssignmentExpression",
    }
)


def states_nothing(block: Any, module: Any | None, root: Any | None = None) -> bool:
    """Whether the ``initial`` block ``block`` states no power-up value: it holds nothing but
    immediate assertions that only report, none ending the simulation (cv32e40p's ``initial
    begin : p_assertions assert (C_LOG_WIDTH == $clog2(C_WIDTH + 1)) else $error(...);
    end``), or it is a :func:`scratch_check` of ``module`` (None: outside every module), with
    or without its assertions (a reading whose assertion macros expand to nothing:
    Verilator's of prim_lfsr)."""
    text = " ".join(t.rawText for t in _walk(block) if hasattr(t, "valueText"))
    if re.search(r"\b(?:assert|assume|cover)\b", text):
        from rtlopt.harness._dormant import reports_only

        try:
            if reports_only(text):
                return True
        except (RuntimeError, RecursionError):
            return False
    return module is not None and scratch_check(block, module, root)


def scratch_check(block: Any, module: Any, root: Any | None = None) -> bool:
    """Whether the ``initial`` block ``block`` of ``module`` (syntax nodes) only fills
    variables that nothing but its own reporting assertions reads (see the module's
    docstring); with ``root`` (the tree holding the module: the design's unit) a name of one
    of them anywhere else in ``root`` (a hierarchical read from another module) counts as a
    read."""
    written: set[str] = set()
    try:
        if not _statement(block.statement, written, frozenset()):
            return False
    except (AttributeError, RuntimeError, RecursionError):
        return False
    return bool(written) and _private(written, block, module, root)


def _statement(st: Any, written: set[str], loop_vars: frozenset[str]) -> bool:
    """``st`` is a statement the rule allows; the variables it assigns are added to
    ``written``."""
    k = _kind(st)
    if st is None or k == "EmptyStatement":
        return True
    if k in ASSERTION_STATEMENTS:
        return _reporting_assertion(st)
    if k == "SequentialBlockStatement":
        return all(_statement(i, written, loop_vars) for i in _children(st.items))
    if k == "ForLoopStatement":
        return _loop(st, written, loop_vars)
    if k != "ExpressionStatement" or _kind(st.expr) != "AssignmentExpression":
        return False
    target = _base(st.expr.left)
    if target is None or target in loop_vars or not _reads_only(st.expr.right):
        return False
    written.add(target)
    return _reads_only(st.expr.left, skip_base=True)


def _loop(st: Any, written: set[str], loop_vars: frozenset[str]) -> bool:
    """A ``for`` loop over variables it declares: its condition reads, its steps change only
    those variables, its body is allowed."""
    own: set[str] = set()
    for init in _children(st.initializers):
        if _kind(init) == "Comma":
            continue
        if _kind(init) != "ForVariableDeclaration":
            return False
        decl = init.declarator
        own.add(decl.name.valueText)
        if decl.initializer is not None and not _reads_only(decl.initializer.expr):
            return False
    if not own or (st.stopExpr is not None and not _reads_only(st.stopExpr)):
        return False
    for step in _children(st.steps):
        if _kind(step) == "Comma":
            continue
        if _kind(step) not in _STEPS:
            return False
        operand: Any = getattr(step, "operand", None) or getattr(step, "left", None)
        if _kind(operand) != "IdentifierName" or operand.identifier.valueText not in own:
            return False
        if not _reads_only(getattr(step, "right", None)):
            return False
    return _statement(st.statement, written, loop_vars | own)


def _base(left: Any) -> str | None:
    """The variable an assignment's left side names (itself, or a select of it), or None."""
    while _kind(left) == "ElementSelectExpression":
        left = left.left
    if _kind(left) == "IdentifierSelectName":
        return str(left.identifier.valueText)
    if _kind(left) == "IdentifierName":
        return str(left.identifier.valueText)
    return None


def _reads_only(expr: Any, *, skip_base: bool = False) -> bool:
    """``expr`` writes nothing and calls nothing but pure system functions (``skip_base``:
    the left side of an assignment, whose base is the written variable)."""
    if expr is None:
        return True
    writes = _write_kinds()
    for n in _walk(expr):
        k = _kind(n)
        if k in writes or k == "InvocationExpression" and _kind(n.left) != "SystemName":
            return False
        if k == "SystemName" and str(n.systemIdentifier.valueText) not in _PURE_CALLS:
            return False
        if "Timing" in k or "EventControl" in k or "Delay" in k:
            return False
    return True


def _reporting_assertion(st: Any) -> bool:
    """An immediate assertion (a concurrent one waits for a clock) that only reports,
    without ending the simulation."""
    from rtlopt.harness._dormant import reports_only

    if not _kind(st).startswith("Immediate"):
        return False
    text = " ".join(t.rawText for t in _walk(st) if hasattr(t, "valueText"))
    return reports_only(f"initial begin {text} end")


def _private(written: set[str], block: Any, module: Any, root: Any | None) -> bool:
    """Each of ``written`` is declared in ``module`` without an initializer (no port) and
    named nowhere in ``module`` outside ``block`` (it is named there as often as in
    ``block``)."""
    declared: set[str] = set()
    for n in _walk(module):
        k = _kind(n)
        if k in ("ImplicitAnsiPort", "PortDeclaration") and set(_names(n)) & written:
            return False
        if k == "Declarator" and n.name.valueText in written:
            if n.initializer is not None:
                return False
            declared.add(n.name.valueText)
    uses = _uses(block, written)
    return declared == written and _uses(module if root is None else root, written) == uses


def _uses(node: Any, names: set[str]) -> int:
    """How often ``node`` names one of ``names`` (an identifier, whatever its syntax)."""
    return sum(
        1
        for n in _walk(node)
        if _kind(n) in ("IdentifierName", "IdentifierSelectName")
        and n.identifier.valueText in names
    )


def _names(node: Any) -> list[str]:
    """Every identifier token under ``node``."""
    return [t.valueText for t in _walk(node) if hasattr(t, "valueText")]
