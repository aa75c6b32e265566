"""Statements the SystemVerilog view drops while every event simulator runs them.

``read_slang --ignore-timing --ignore-assertions`` (:mod:`rtlopt.eda._slang`) reads a process
without its timing controls and without its assertions, so two kinds of text make the view
another design than the one a simulator of the repository runs:

* **Timing controls.** Only the leading event control of an ``always``/``always_ff``/
  ``always_latch`` process is hardware (its clock or its sensitivity). Every other one (an
  event control inside the body, ``begin @(posedge clk); q <= d; end``; an intra-assignment
  control, ``q <= @(posedge clk) d``, ``repeat (2) @(...)``, ``#1``; ``wait``; ``##``; net
  and continuous-assignment delays; ``expect``) makes a simulator wait where the view does
  not: ``always begin @(posedge clk); q <= d; end`` is a register in a simulator and a wire
  in the view.
* **Assertion actions.** An assertion whose pass or fail statement does more than report
  (``assert (a != K) else y = 0;``), or whose condition writes (``assert (y++ != K)``), is
  logic; the view drops it with the assertion.

Every proof and rtlopt's own simulation (which samples after the design settles) read the
design without delays and without strengths on either path, so two more kinds are the same
rule: a ``specify`` path delay (``(a => y) = 5``, read by a simulator run with specify blocks)
and a timing check whose notifier or delayed signals logic may read (a ``specify`` block of
timing checks alone, ``specparam`` and ```timescale`` change no value); a drive, pull or
charge strength (``assign (weak0, weak1) y = a;``, ``and (strong0, pull1) g(...)``,
``pullup``, ``trireg (small)``), which decides how a net resolves against its other drivers.

:func:`dropped_problems` finds them on the syntax tree (pyslang) as ``(line, message)``; a
candidate with one is screened out, a reference with one leaves every change unchecked, on the
view path (:func:`reference_dropped` on the reference's texts as the view reads them) and on
the Verilog path (the same, and :func:`texts_dropped` on the preprocessed reference every tool
reads). A delay kept token for token is no answer: the proofs would still not read it, and
the same delay on a restructured statement (inertial on a continuous assignment) filters other
pulses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from rtlopt.harness._call_kinds import (
    _PURE_CALLS,
    ASSERTION_STATEMENTS,
    REPORTING_TASKS,
    _write_kinds,
)
from rtlopt.harness._nodes import _children, _kind, _span, _walk, once_per_design

__all__ = [
    "REPORTING_TASKS",
    "assertion_spans",
    "dropped_problems",
    "reference_dropped",
    "texts_dropped",
]

#: Processes whose leading event control is their clock or sensitivity list.
_PROCESSES = frozenset({"AlwaysBlock", "AlwaysFFBlock", "AlwaysLatchBlock"})
#: Event controls a process may lead with.
_LEADING = frozenset(
    {
        "EventControl",
        "EventControlWithExpression",
        "ImplicitEventControl",
        "ParenImplicitEventControl",
    }
)
#: Timing controls and statements that wait (``expect`` waits for its property).
_TIMING = _LEADING | frozenset(
    {
        "DelayControl",
        "Delay3",  # a net's, gate's or continuous assignment's ``#(4)``, ``#(1, 2)``
        "CycleDelay",
        "RepeatedEventControl",
        "WaitStatement",
        "WaitForkStatement",
        "WaitOrderStatement",
        "ExpectPropertyStatement",
    }
)
_ASSERTIONS = ASSERTION_STATEMENTS
#: Declarations of properties and sequences: read only by assertions.
_ASSERTION_DECLS = frozenset({"PropertyDeclaration", "SequenceDeclaration", "LetDeclaration"})
#: ``specify`` path declarations: a delay from an input to an output.
_PATHS = frozenset({"PathDeclaration", "ConditionalPathDeclaration", "IfNonePathDeclaration"})
#: Strengths: of a continuous assignment, a net declaration or a gate; ``pullup (weak1)``.
_STRENGTHS = frozenset({"DriveStrength", "PullStrength", "ChargeStrength"})
#: Gates that drive with a strength of their own (pull) whether one is written or not.
_PULL_GATES = frozenset({"PullUpKeyword", "PullDownKeyword"})
#: The arguments of each timing check before its notifier: one at or after this place (a
#: notifier, a condition, delayed reference and data signals) may be read by logic.
_CHECK_ARGS = {
    "$setup": 3,
    "$hold": 3,
    "$setuphold": 4,
    "$recovery": 3,
    "$removal": 3,
    "$recrem": 4,
    "$skew": 3,
    "$timeskew": 3,
    "$fullskew": 4,
    "$period": 2,
    "$width": 3,
    "$nochange": 4,
}
_WHY_TIMING = (
    "a timing control other than an always block's leading event control is not allowed "
    "(a delay #, an event control or wait inside a process, a net, gate or continuous "
    "assignment delay): the proofs and rtlopt's simulation read the design without it (the "
    "SystemVerilog view drops it, Yosys ignores it), every simulator waits here"
)
_WHY_PATH = (
    "a timing control in a specify block (a path delay) is not allowed: the proofs and "
    "rtlopt's simulation read the design without it, a simulator reading specify blocks "
    "delays the output here"
)
_WHY_NOTIFIER = (
    "a timing control in a specify block (a timing check with a notifier, a condition or "
    "delayed signals) is not allowed: a simulator writes them, the proofs read the design "
    "without them"
)
_WHY_STRENGTH = (
    "a drive, pull or charge strength (weak0, pull1, pullup, trireg (small), ...) is not "
    "allowed: it decides how a net resolves against its other drivers, which the proofs and "
    "rtlopt's simulation do not model"
)
_WHY_ACTION = (
    "an assertion action that does more than report ($error, $display, ...), or an assertion "
    "condition that writes, is logic: "
    "the SystemVerilog view drops it with the assertion, every simulator runs it"
)


def _leading(node: Any) -> int | None:
    """The offset of a process's leading event control (None: it has none)."""
    st: Any = getattr(node, "statement", None)
    if _kind(st) != "TimingControlStatement":
        return None
    tc = st.timingControl
    return _span(tc)[0] if _kind(tc) in _LEADING else None


def _reports_only(stmt: Any, functions: frozenset[str], pure: frozenset[str] = frozenset()) -> bool:
    """``stmt`` (an action's pass or fail statement) only calls reporting system tasks, whose
    arguments write nothing (:func:`_writes`: ``$display("%d", $sscanf(s, "%d", y))`` writes
    ``y``)."""
    k = _kind(stmt)
    if stmt is None or k == "EmptyStatement":
        return True
    if k == "SequentialBlockStatement":
        items = [i for i in _children(stmt.items)] if getattr(stmt, "items", None) else []
        named = getattr(stmt, "blockName", None)
        return not named and all(_reports_only(i, functions, pure) for i in items)
    if k != "ExpressionStatement":
        return False
    expr = stmt.expr
    if _kind(expr) != "InvocationExpression" or _kind(expr.left) != "SystemName":
        return False
    if str(expr.left.systemIdentifier.valueText) not in REPORTING_TASKS:
        return False
    return not _writes(expr, functions, pure)  # its arguments: the condition's rule


def _writes(
    node: Any, functions: frozenset[str] = frozenset(), pure: frozenset[str] = frozenset()
) -> bool:
    """``node`` may write: an assignment or increment, a call of a user function (it may
    have output arguments or write module signals; ``functions``: the names of the
    functions and tasks the text declares, which SystemVerilog calls without parentheses
    too) other than one of ``pure`` (:mod:`rtlopt.harness._pure_calls`: provably writing
    nothing outside itself, and read where the call is), or of a system function other than
    the pure ones (``$sscanf`` writes its arguments). One rule for every expression of an
    assertion: its condition, its actions and their arguments, nested calls."""
    from rtlopt.harness._pure_calls import visible_pure

    writes = _write_kinds()
    for n in _walk(node):
        k = _kind(n)
        if k in writes:
            return True
        if k == "IdentifierName" and str(n.identifier.valueText) in functions:
            if str(n.identifier.valueText) not in visible_pure(n, pure):
                return True
        if k == "SystemName" and str(n.systemIdentifier.valueText) not in _PURE_CALLS:
            if str(n.systemIdentifier.valueText) not in REPORTING_TASKS:
                return True  # a bare `$random` advances the simulator's shared random state
        if k == "InvocationExpression":
            if _kind(n.left) != "SystemName":
                if _kind(n.left) == "IdentifierName" and str(
                    n.left.identifier.valueText
                ) in visible_pure(n, pure):
                    continue  # its arguments are walked on
                return True
            name = str(n.left.systemIdentifier.valueText)
            if name not in _PURE_CALLS and name not in REPORTING_TASKS:
                return True
    return False


def _action_ok(node: Any, functions: frozenset[str], pure: frozenset[str] = frozenset()) -> bool:
    """The assertion writes nothing: not in its condition (``assert (y++ != K)``, a call that
    may write), nor in its actions, which only report (through arguments that write
    nothing). A property, sequence or ``let`` declaration writes nothing either. ``pure``:
    the functions a call of which writes nothing (:mod:`rtlopt.harness._pure_calls`)."""
    action = getattr(node, "action", None)
    cond = node.expr if action is not None and hasattr(node, "expr") else node
    if _writes(cond, functions, pure):
        return False
    if action is None:
        return True
    else_clause = getattr(action, "elseClause", None)
    fail = getattr(else_clause, "clause", None) if else_clause is not None else None
    return _reports_only(getattr(action, "statement", None), functions, pure) and _reports_only(
        fail, functions, pure
    )


#: Declarations of subroutines: a call of one may write (:func:`_writes`).
_SUBROUTINES = frozenset({"FunctionDeclaration", "TaskDeclaration"})


def _subroutines(root: Any) -> frozenset[str]:
    """The names of the functions and tasks declared in the tree under ``root``."""
    out: set[str] = set()
    for n in _walk(root):
        if _kind(n) in _SUBROUTINES:
            name = getattr(getattr(n, "prototype", None), "name", None)
            out.add(str(name).strip().rsplit("::", 1)[-1].rsplit(".", 1)[-1])
    return frozenset(out)


@functools.lru_cache(maxsize=64)
def _found(code: str) -> tuple[tuple[tuple[int, str], ...], tuple[tuple[int, int], ...]]:
    from rtlopt.harness._pure_calls import pure_functions
    from rtlopt.harness._readings import parse

    tree, shift = parse(code)
    functions = _subroutines(tree.root)
    pure = pure_functions(tree.root) if functions else frozenset()
    problems: list[tuple[int, str]] = []
    quiet: list[tuple[int, int]] = []  # assertions that only report
    leading: set[int] = set()
    stack = [tree.root]
    while stack:
        node = stack.pop()
        k = _kind(node)
        if k in _PROCESSES:
            at = _leading(node)
            if at is not None:
                leading.add(at)
        elif k in _ASSERTIONS or k in _ASSERTION_DECLS:
            if not _action_ok(node, functions, pure):
                problems.append((_span(node)[0] - shift, _WHY_ACTION))
            else:
                a, b = _span(node)
                quiet.append((a - shift, b - shift))
            continue  # a property's clock and delays are the assertion's own
        elif k in _TIMING and _span(node)[0] not in leading:
            problems.append((_span(node)[0] - shift, _WHY_TIMING))
        else:
            why = _delay_or_strength(node, k)
            if why:
                problems.append((_span(node)[0] - shift, why))
        stack.extend(reversed(list(_children(node))))
    return tuple(problems), tuple(quiet)


def _delay_or_strength(node: Any, k: str) -> str:
    """Why ``node`` (of kind ``k``) is a delay of a specify block or a strength, or ""."""
    if k in _PATHS:
        return _WHY_PATH
    if k in _STRENGTHS:
        return _WHY_STRENGTH
    if k == "PrimitiveInstantiation" and _kind(getattr(node, "type", None)) in _PULL_GATES:
        return _WHY_STRENGTH
    if k == "SystemTimingCheck":
        name = str(node.name.valueText)
        args = [a for a in _children(node.args) if _kind(a).endswith("Arg")]
        first = _CHECK_ARGS.get(name, 0)
        if any(_kind(a) != "EmptyTimingCheckArg" for a in args[first:]):
            return _WHY_NOTIFIER
    return ""


def dropped_problems(code: str) -> list[tuple[int, int, str]]:
    """Timing controls other than a process's leading event control (delays, specify path
    delays, timing checks whose notifier logic may read), strengths, and assertions whose
    actions do more than report, in ``code`` (comments blanked), as ``(line, offset,
    message)``.

    Raises:
        RuntimeError: the text nests deeper than pyslang parses.
    """
    from rtlopt.verilog import line_of

    return [(line_of(code, max(at, 0)), at, msg) for at, msg in _found(code)[0]]


def assertion_spans(code: str) -> list[tuple[int, int]]:
    """Spans of the assertions (and property/sequence declarations) of ``code`` whose actions
    only report: the view drops them and a simulator only reports through them."""
    return list(_found(code)[1])


_DESIGNS: dict[int, tuple[object, list[tuple[int, str]]]] = {}
#: The same on the Verilog path (no ``read``: :func:`texts_dropped` judges its unit).
_RAW_DESIGNS: dict[int, tuple[object, list[tuple[int, str]]]] = {}


def texts_dropped(texts: list[str], what: str) -> list[tuple[int, str]]:
    """The first problem of :func:`dropped_problems` in ``texts`` (comments blanked: the
    reference as every tool reads it, ``what``) as an "unchecked" problem on the candidate's
    line 1."""
    found = _first(texts)
    return [(1, f"unchecked: {what}, line {found[0]}: {found[1]}")] if found else []


def reference_dropped(
    design: object,
    texts: Callable[[], list[str]],
    read: Callable[[], list[str]] | None = None,
) -> list[tuple[int, str]]:
    """The first statement of the reference module ``texts`` (comments blanked), then of
    ``read`` (the text the tools read for the reference: every unit, headers and macros
    expanded, :func:`rtlopt.harness._powered.unit_texts`) that the view drops, or that no
    proof reads on either path (:func:`dropped_problems`), as an "unchecked" problem on the
    candidate's line 1: the proofs read another reference than a simulator does. A ``read``
    that raises :class:`RuntimeError` (the text cannot be read so) is unchecked too. The line
    named is the text's: the screen places each reference module at its file's line.
    Computed once per ``design`` and per kind of ``read`` (given or not)."""

    def first() -> list[tuple[int, str]]:
        found = _first(texts())
        if found:
            return [(1, f"unchecked: the reference module, line {found[0]}: {found[1]}")]
        try:
            found = _first(read() if read is not None else [])
        except RuntimeError as exc:
            return [(1, f"unchecked: the reference cannot be read as the tools read it ({exc})")]
        if found:
            where = "the reference as the tools read it (headers and macros expanded)"
            return [(1, f"unchecked: {where}, line {found[0]}: {found[1]}")]
        return []

    return once_per_design(_DESIGNS if read is not None else _RAW_DESIGNS, design, first)


def _first(codes: list[str]) -> tuple[int, str] | None:
    """The line and message of the first problem of :func:`dropped_problems` in ``codes``."""
    for code in codes:
        try:
            found = dropped_problems(code)[:1]
        except (RuntimeError, RecursionError):
            return (1, "it nests deeper than the screen's parser allows")
        if found:
            return (found[0][0], found[0][2])
    return None
