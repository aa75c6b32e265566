"""What a design means, the same for every tool: power-up values and event controls.

* **Power-up.** ASIC flip-flops have no power-up value: under ``harness.initial_values =
  "ignore"`` (the default) a register's initial value (``reg [15:0] c = 0;``, or an ``initial``
  block that only assigns constants to registers) is dropped by every tool. The formal scripts
  drop Yosys's ``init`` attributes (``attrmap -remove init``); simulation reads the same texts
  with those initializers blanked (:func:`strip_initial_values`), so neither tool sees a value
  the other does not. ``"honor"`` (FPGA flows) keeps them in simulation and the netlist check;
  the formal models start from unknown registers, so they refuse to prove a design whose
  target has initial values (:func:`initial_values`).
* **Event controls.** Synthesis, the formal check and the slang view ignore an ``always``
  block's level-sensitive event list: ``always @(a) y = a + b;`` becomes combinational there,
  while a simulator updates ``y`` only when ``a`` changes. A candidate whose explicit event
  list misses a signal its block reads is rejected (:func:`incomplete_event_controls`).

Both read the syntax tree (pyslang); blanked text keeps every line and column.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# re-exported: the other rules read trees through these names
from rtlopt.harness._nodes import _NOT_POWER_UP as _NOT_POWER_UP
from rtlopt.harness._nodes import _children as _children
from rtlopt.harness._nodes import _is_constant as _is_constant
from rtlopt.harness._nodes import _kind as _kind
from rtlopt.harness._nodes import _span as _span
from rtlopt.harness._nodes import _tokens as _tokens
from rtlopt.harness._nodes import _tree as _tree
from rtlopt.harness._nodes import _walk as _walk
from rtlopt.harness._nodes import once_per_design as once_per_design

__all__ = [
    "EventProblem",
    "event_violations",
    "incomplete_event_controls",
    "initial_values",
    "power_up_difference",
    "power_up_file",
    "power_up_text",
    "power_up_values",
    "strip_initial_values",
    "uninitialised_registers",
]

#: Procedural or subprogram scopes: a declaration there is not a register's power-up value.
_SCOPES = frozenset(
    {
        "FunctionDeclaration",
        "TaskDeclaration",
        "AlwaysBlock",
        "AlwaysCombBlock",
        "AlwaysFFBlock",
        "AlwaysLatchBlock",
        "InitialBlock",
        "FinalBlock",
        "ClassDeclaration",
    }
)
_NET_WORDS = frozenset(
    {"wire", "tri", "wand", "wor", "tri0", "tri1", "supply0", "supply1", "uwire"}
)


def _initializers(root: Any) -> Iterator[tuple[str, Any]]:
    """``(name, EqualsValueClause)`` of every variable of the module ``root`` declared with an
    initializer, whatever the declaration (a data declaration, an ANSI or non-ANSI port, a
    generate block's variable; a type of any name): all but those :data:`_NOT_POWER_UP`
    holds, and ports whose header names a net type."""
    stack = list(_children(root))
    while stack:
        node = stack.pop()
        k = _kind(node)
        if k in _NOT_POWER_UP:
            continue
        header = getattr(node, "header", None) if k in _PORTS else None
        if header is not None and set(_tokens(header)) & _NET_WORDS:
            continue  # a net port: its initializer is a continuous assignment
        if k in ("Declarator", "UdpOutputPortDecl"):
            init = getattr(node, "initializer", None)
            if init is not None:
                yield node.name.valueText, init
        elif k == "UdpInitialStmt":  # a sequential primitive's power-up value (the statement)
            yield node.name.valueText, node
        stack.extend(_children(node))


#: Port declarations whose header says net or variable.
_PORTS = frozenset({"ImplicitAnsiPort", "PortDeclaration"})


def _constant_initial(node: Any) -> list[str] | None:
    """The registers an ``initial`` block sets to constants, or None when it does more."""
    found = _constant_assignments(node)
    return [name for name, _ in found] if found is not None else None


def _constant_assignments(node: Any) -> list[tuple[str, Any]] | None:
    """``(register, value expression)`` of each assignment of an ``initial`` block that sets
    registers to constants only, in order, or None when it does more."""
    items = [node.statement]
    found: list[tuple[str, Any]] = []
    while items:
        st = items.pop(0)
        k = _kind(st)
        if k == "SequentialBlockStatement":
            items = [i for i in _children(st) if not hasattr(i, "valueText")] + items
            items = [i for i in items if _kind(i) != "SyntaxList"] + [
                x for i in items if _kind(i) == "SyntaxList" for x in _children(i)
            ]
            continue
        expr: Any = getattr(st, "expr", None)
        if k != "ExpressionStatement" or _kind(expr) != "AssignmentExpression":
            return None
        if _kind(expr.left) != "IdentifierName" or not _is_constant(expr.right):
            return None
        found.append((expr.left.identifier.valueText, expr.right))
    return found or None


def _scopes(root: Any) -> list[tuple[Any, bool]]:
    """``(node, outside)`` of every scope of ``root`` that may hold power-up values: each
    module and each :data:`UNIT_KINDS` unit, and (``outside`` True) the compilation unit's own
    declarations. A tree of one unit has that unit as its root; else the root is the
    compilation unit (or its one member outside every unit)."""
    units = [n for n in _walk(root) if _kind(n) == "ModuleDeclaration" or _kind(n) in UNIT_KINDS]
    if units and units[0] is root:
        return [(u, False) for u in units]
    return [(root, True), *((u, False) for u in units)]


def _initial_blocks(node: Any, outside: bool) -> Iterator[Any]:
    """The ``initial`` blocks of the scope ``node`` (not in a function or procedure; outside
    every unit when ``outside``)."""
    stop = _SCOPES - {"InitialBlock"} | (_NOT_POWER_UP if outside else frozenset())
    return (b for b in _walk(node, stop) if _kind(b) == "InitialBlock")


def _untimed_always(node: Any, outside: bool) -> Iterator[Any]:
    """The ``always`` blocks of the scope ``node`` whose first statement waits for no event
    (``always begin c = 8'h5a; @(negedge n); end``, ``always #0 ...``, ``always wait (1)``):
    a simulator runs it before the first clock edge, as it runs an ``initial`` block."""
    stop = _SCOPES - {"AlwaysBlock"} | (_NOT_POWER_UP if outside else frozenset())
    for block in _walk(node, stop):
        if _kind(block) != "AlwaysBlock":
            continue
        first = block.statement
        while _kind(first) == "SequentialBlockStatement":
            items = list(first.items)
            first = items[0] if items else None
        timing = getattr(first, "timingControl", None) if first is not None else None
        if first is not None and _kind(timing) not in _EVENTS:
            yield block


#: Timing controls that wait for an event (a delay or a ``wait`` may pass at once).
_EVENTS = frozenset(
    {"EventControl", "EventControlWithExpression", "ImplicitEventControl", "RepeatedEventControl"}
)


def _spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    out: list[tuple[str, tuple[int, int]]] = []
    for node, outside in _scopes(_tree(text).root):
        out += [(name, _span(init)) for name, init in _initializers(node)]
        for block in _initial_blocks(node, outside):
            out += [(n, _span(block)) for n in _constant_initial(block) or []]
    return out


def initial_values(text: str) -> list[str]:
    """Names of the registers ``text`` gives a power-up value (declaration initializers and
    ``initial`` blocks that only assign constants), in source order."""
    return [name for name, _ in sorted(_spans(text), key=lambda s: s[1])]


def strip_initial_values(text: str) -> str:
    """``text`` with every register's power-up value blanked (spaces; lines keep their place).

    Net declaration assignments (``wire w = a & b;``), initializers in functions, tasks and
    procedural blocks, and ``initial`` blocks that do more than assign constants to registers
    (``$readmemh``, loops) are kept.
    """
    spans = sorted({s for _, s in _spans(text)})
    if not spans:
        return text
    raw = text.encode("utf-8", "surrogateescape")
    out = bytearray(raw)
    for a, b in spans:
        for i in range(a, min(b, len(out))):
            if out[i] not in (0x0A, 0x0D):
                out[i] = 0x20
    return out.decode("utf-8", "surrogateescape")


#: The key of :func:`power_up_values` for an ``always`` block that starts untimed (it runs at
#: time 0, as an ``initial`` block does).
UNTIMED_ALWAYS = "(always block starting at time 0)"
#: The key of :func:`power_up_values` for ``initial`` blocks that do more than assign constants.
INITIAL_BLOCK = "(initial block)"
#: An ``initial`` block that is one report task whose arguments hold no call, assignment,
#: increment or decrement (``$display(c++)`` writes ``c``) or nested parenthesis: it states no
#: power-up value.
REPORT_ONLY = re.compile(
    r"initial \$(?:display|write|strobe|info|warning|dumpfile|dumpvars|timeformat)"
    r" ?(?:\((?:(?!\+ ?\+|- ?-)[^()=;])*\))? ?;"
)


#: Power-up values by design unit: module (or :data:`UNIT_KINDS` word and name) -> register ->
#: its values (see :func:`power_up_values`).
PowerUp = dict[str, dict[str, tuple[str, ...]]]

#: Design units that are no module but hold state a design reads (an interface instance's
#: variables, a package's or the compilation unit's, a class's static properties), by syntax
#: kind: the word that names them in :func:`power_up_values`'s keys (``"interface cnt_if"``;
#: ``"$unit"`` for declarations outside every unit).
UNIT_KINDS = {
    "InterfaceDeclaration": "interface",
    "ProgramDeclaration": "program",
    "PackageDeclaration": "package",
    "CheckerDeclaration": "checker",
    "ClassDeclaration": "class",
    "UdpDeclaration": "primitive",
}


def power_up_values(text: str) -> PowerUp:
    """Module -> register -> the power-up values ``text`` gives it (a declaration
    initializer, then each constant assignment of an ``initial`` block, in source order; each
    value's tokens joined by NULs), for every module ``text`` defines (one without
    initial values maps to {}); an ``initial`` block that does more than assign constants is
    one value of :data:`INITIAL_BLOCK`. Every other unit a design reads state from (an
    interface, program, package, checker, class, the compilation unit) is a key of its kind's
    word and name (:data:`UNIT_KINDS`), ``"$unit"`` for the compilation unit: only where it
    states a value."""
    return power_up_values_in(_tree(text).root)


def power_up_values_in(root: Any) -> PowerUp:
    """:func:`power_up_values` of a syntax tree's root (a preprocessed one: its macros and
    included headers expanded)."""
    from rtlopt.harness._check_blocks import states_nothing
    from rtlopt.harness._rom_fill import fills_rom
    from rtlopt.harness._two_state import two_state_variables, type_names

    out: PowerUp = {}
    names = type_names(root)
    for node, outside in _scopes(root):
        found: list[tuple[tuple[int, int], str, Any]] = [
            (_span(init), name, getattr(init, "expr", getattr(init, "value", init)))
            for name, init in _initializers(node)
        ]
        # a 2-state variable without an initializer starts at 0 in every simulator
        found += [(_span(d), n, v) for n, d, v in two_state_variables(node, names)]
        for block in _initial_blocks(node, outside):
            if REPORT_ONLY.fullmatch(" ".join(str(block).split())):
                continue  # one report (``initial $display("x");``) holds no state
            if states_nothing(block, None if outside else node, root):
                continue  # reporting assertions, and variables only they read
            if not outside and fills_rom(block, node):
                continue  # a constant table's contents (Yosys's proc_rom), no state
            pairs = _constant_assignments(block)
            # one that does more (a loop, $readmemh) is kept by some tools: as it is
            found += [(_span(e), n, e) for n, e in pairs or [(INITIAL_BLOCK, block)]]
        found += [(_span(b), UNTIMED_ALWAYS, b) for b in _untimed_always(node, outside)]
        values: dict[str, tuple[str, ...]] = {}
        for _, name, expr in sorted(found, key=lambda f: f[0]):
            value = expr if isinstance(expr, str) else "\0".join(_tokens(expr))
            values[name] = (*values.get(name, ()), value)
        if outside:
            if values:
                out["$unit"] = values
        elif _kind(node) == "ModuleDeclaration":
            out.setdefault(node.header.name.valueText, values)
        elif values:
            label = getattr(getattr(node, "header", node), "name", None)
            word = f"{UNIT_KINDS[_kind(node)]} {getattr(label, 'valueText', '') or '?'}"
            out[word] = {**out.get(word, {}), **values}
    return out


def _two_state_problem(read: Collection[str], ref: PowerUp, cand: PowerUp) -> str:
    """A 2-state variable's power-up value on either side (Yosys gives one without an
    initializer no initial value: the proof from the stated values would start it unknown
    where every simulator starts it at 0), or ""."""
    from rtlopt.harness._two_state import TWO_STATE, UNKNOWN_STATE

    two_state = next(
        (
            (m, r, v)
            for m in dict.fromkeys([*read, *cand])
            for r, v in {**ref.get(m, {}), **cand.get(m, {})}.items()
            if set(v) & {TWO_STATE, UNKNOWN_STATE}
        ),
        None,
    )
    if two_state is None:
        return ""
    module, reg, value = two_state
    return (
        f"{reg} in {module} has the power-up value {_shown(reg, value)}: every simulator "
        "starts a 2-state variable at 0, and the proof from the stated power-up values "
        "does not model that (unchecked under either harness.initial_values model)"
    )


def power_up_difference(
    candidate: str | PowerUp,
    reference: str | PowerUp,
    *,
    elsewhere: Collection[str] = frozenset(),
    hierarchy: Collection[str] = frozenset(),
    unproven: bool = False,
    deferred: list[str] | None = None,
) -> str:
    """Why ``candidate`` states other power-up values than ``reference`` (a register's initial
    value added, dropped or changed, module by module), or "" where they agree: each module
    ``candidate`` defines against the reference's module of the same name (none: every
    initial value is added), except one ``elsewhere`` names that the reference does not
    define (a module of the repository judged on its own). Under ``harness.initial_values =
    "ignore"`` both sides' values are dropped, which is sound only where they are the same:
    every simulator and FPGA flow reading the written text keeps them. Where they are, the
    formal check proves the design from unknown registers and from the stated values
    (:mod:`rtlopt.formal.power_up_models`); with ``unproven`` (no formal check runs) any
    value a compared module or a reference module of ``hierarchy`` (the target and its
    submodules) states is named too. With ``deferred`` (the formal check runs the proof from
    the stated values, :mod:`rtlopt.formal.engines.stated`), a difference in a register's
    plain value (an initializer or a constant ``initial`` assignment) in a module is left to
    that proof: its description is appended to ``deferred`` instead of returned; one in an
    ``initial`` block that does more, an untimed ``always`` or a unit that is no module is
    still returned."""
    ref = power_up_values(reference) if isinstance(reference, str) else reference
    cand = power_up_values(candidate) if isinstance(candidate, str) else candidate
    # given the texts, a declaration initializer is compared by slang's value of it ('1 and
    # 8'hff on an 8-bit register are the same; INIT and INIT are not where INIT differs)
    from rtlopt.harness._initializer_values import Elaborated, by_value

    elaborated = Elaborated(candidate, reference)
    from rtlopt.harness._two_state import TWO_STATE, UNKNOWN_STATE

    # a type the candidate's reading does not define (a package's) may be 2-state: only the
    # reference's 2-state variables bind (a candidate's value 0 refines an unknown one)
    cand = {u: {r: v for r, v in vs.items() if v != (UNKNOWN_STATE,)} for u, vs in cand.items()}
    # every unit that is no module (an interface, a package, $unit, ...) may be read by the
    # hierarchy: its values are stated as a hierarchy module's are
    read = [*hierarchy, *(u for u in ref if u not in hierarchy and _not_a_module(u))]
    stated: tuple[str, str, tuple[str, ...]] | None = next(
        ((m, *next(iter(ref[m].items()))) for m in read if ref.get(m)), None
    )
    for module, values in cand.items():
        if module in elsewhere and module not in ref:
            continue
        theirs = ref.get(module, {})
        first = next(iter({**theirs, **values}.items()), None)
        stated = stated or (first and (module, *first))
        named: set[str] = set()  # a register a deferred difference names already
        for reg in [*values, *(r for r in theirs if r not in values)]:
            valued = by_value(elaborated, module, reg, theirs, values)
            if valued is None and values.get(reg) != theirs.get(reg) or valued:
                shown = valued if isinstance(valued, tuple) else (theirs, values)
                change, other = _power_up_change(module, reg, *shown)
                kinds = {*theirs.get(reg, ()), *values.get(reg, ())}
                plain = not (
                    reg in (INITIAL_BLOCK, UNTIMED_ALWAYS)
                    or _not_a_module(module)
                    or kinds & {TWO_STATE, UNKNOWN_STATE}
                )
                if deferred is not None and plain and not unproven:
                    if reg not in named:
                        deferred.append(change)
                    named.add(other)
                    continue
                if plain and unproven:
                    change += " (the formal check, off: formal.enabled = false, decides that)"
                return (
                    f"{change}: under "
                    'harness.initial_values = "ignore" (the ASIC model) no tool here reads '
                    "initial values, but every simulator and FPGA flow reading the written "
                    "text does; keep the reference's initial values, or set "
                    'harness.initial_values = "honor" to judge power-up values'
                )
    why = _two_state_problem(read, ref, cand)
    if why:
        return why
    if stated is not None and unproven:
        module, reg, value = stated
        return (
            f"{reg} in {module} has the power-up value {_shown(reg, value)}: only the "
            "formal check (off: formal.enabled = false) shows that the candidate keeps the "
            "reference's power-up behaviour, from unknown registers and from the stated values"
        )
    return ""


def _not_a_module(unit: str) -> bool:
    """``unit`` (a key of :func:`power_up_values`) names no module."""
    return unit == "$unit" or " " in unit


def _power_up_change(
    module: str, reg: str, theirs: dict[str, tuple[str, ...]], mine: dict[str, tuple[str, ...]]
) -> tuple[str, str]:
    """What differs for ``reg`` in ``module`` (the reference's values ``theirs``, the
    candidate's ``mine``), naming the register of the other side that holds the value (and
    that register, or "")."""
    old, new = theirs.get(reg), mine.get(reg)
    if old is None:
        value = new or ()
        other = next((r for r, v in theirs.items() if v == value and r not in mine), "")
        where = (
            f"the reference states that value on {other} instead"
            if other
            else "the reference states none on a register of that name"
        )
        return f"{reg} in {module} gets the power-up value {_shown(reg, value)}; {where}", other
    if new is None:
        other = next((r for r, v in mine.items() if v == old and r not in theirs), "")
        where = f" (the candidate states it on {other} instead)" if other else ""
        return f"{reg} in {module} loses its power-up value {_shown(reg, old)}{where}", other
    change = f"the power-up value of {reg} in {module} changes from {_shown(reg, old)} to "
    return change + _shown(reg, new), ""


def _shown(reg: str, values: tuple[str, ...]) -> str:
    text = " / ".join(v.replace("\0", " " if reg == INITIAL_BLOCK else "") for v in values)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True)
class EventProblem:
    """An ``always`` block whose event list misses signals its body reads."""

    line: int
    missing: tuple[str, ...]

    def __str__(self) -> str:
        names = ", ".join(self.missing)
        return (
            f"line {self.line}: the event list of this always block misses {names}, which it "
            "reads: simulators update it only on the listed signals, while synthesis and the "
            "formal check treat it as combinational; write @* (or always_comb)"
        )


def _declared_signals(root: Any) -> set[str]:
    names: set[str] = set()
    for node in _walk(root, _SCOPES):
        k = _kind(node)
        if k == "ImplicitAnsiPort" and getattr(node, "declarator", None) is not None:
            names.add(node.declarator.name.valueText)
        elif k in ("DataDeclaration", "NetDeclaration", "PortDeclaration"):
            for d in _children(node.declarators):
                if _kind(d) == "Declarator":
                    names.add(d.name.valueText)
    return names


def _assigned(node: Any) -> set[str]:
    out: set[str] = set()
    for n in _walk(node):
        if "Assignment" in _kind(n) and hasattr(n, "left"):
            for x in _walk(n.left):
                if _kind(x) == "IdentifierName":
                    out.add(x.identifier.valueText)
                    break
    return out


def incomplete_event_controls(text: str) -> list[EventProblem]:
    """``always`` blocks with an explicit level-sensitive event list (no edges) that misses a
    signal of the module the block reads (and does not assign first)."""
    tree = _tree(text)
    root = tree.root
    signals = _declared_signals(root)
    out: list[EventProblem] = []
    for node in _walk(root):
        if _kind(node) != "AlwaysBlock":
            continue
        st = node.statement
        if _kind(st) != "TimingControlStatement":
            continue
        tc = st.timingControl
        if _kind(tc) != "EventControlWithExpression":
            continue
        events = list(_walk(tc.expr))
        if any(_kind(e) == "SignalEventExpression" and e.edge.valueText for e in events):
            continue
        listed = {e.identifier.valueText for e in events if _kind(e) == "IdentifierName"}
        body = st.statement
        assigned = _assigned(body)
        read = {
            n.identifier.valueText
            for n in _walk(body)
            if _kind(n) == "IdentifierName" and n.identifier.valueText in signals
        }
        missing = sorted(read - listed - assigned)
        if missing:
            line = text.count("\n", 0, _span(node)[0]) + 1
            out.append(EventProblem(line, tuple(missing)))
    return out


@functools.lru_cache(maxsize=16)
def _reference_events(reference: str) -> tuple[EventProblem, ...]:
    """:func:`incomplete_event_controls` of a reference, once per process."""
    return tuple(incomplete_event_controls(reference))


def event_violations(candidate: str, reference: str) -> list[str]:
    """Screening messages for the candidate's incomplete event lists, and for the reference's
    own (the target's text): a block the simulator updates only on its listed signals is
    combinational to every proof, so a rewrite that computes its value anew elsewhere, or
    completes the list, is proven while every simulation of the repository changes (round
    73). A candidate other than the reference's own text is refused there."""
    try:
        problems = list(_reference_events(reference))
    except Exception:  # noqa: BLE001 - a reference pyslang cannot read has no known problems
        problems = []
    if problems and candidate.strip() != reference.strip():
        return [
            f"the reference's {p} (a simulator reads the reference otherwise than the proofs "
            "do: no rewrite of it can be checked; complete the reference's event list in a "
            "commit of its own first)".replace("; write @* (or always_comb) (", " (")
            for p in problems
        ]
    ref = [p.missing for p in problems]
    try:
        found = incomplete_event_controls(candidate)
    except RuntimeError:  # pyslang's own limit (nesting depth): no tool is to read it either
        return ["line 1: the candidate nests deeper than the parser allows"]
    out: list[str] = []
    for p in found:
        if p.missing in ref:
            ref.remove(p.missing)
            continue
        out.append(str(p))
    return out


def uninitialised_registers(text: str, module: str) -> list[str]:
    """Names of the variables (scalars and vectors; no arrays) module ``module`` of ``text``
    declares at module level without a power-up value (no initializer, no constant
    ``initial``): what a replay from the power-up state "initial value, else 0" sets to 0.
    [] when the module is not found."""
    from rtlopt.verilog import find_span

    span = find_span(text, module)
    if span is None:
        return []
    body = text[span.start : span.end]
    root = _tree(body).root
    given = {name for name, _ in _spans(body)}
    out: list[str] = []
    for node in _walk(root, _SCOPES):
        k = _kind(node)
        if k == "DataDeclaration":
            items = [d for d in _children(node.declarators) if _kind(d) == "Declarator"]
        elif k == "ImplicitAnsiPort":
            header = getattr(node, "header", None)
            words = set(_tokens(header)) if header is not None else set()
            if words & _NET_WORDS or not {"reg", "logic", "bit", "var", "integer"} & words:
                continue
            items = [getattr(node, "declarator", None)]
        else:
            continue
        for d in items:
            if d is None or getattr(d, "initializer", None) is not None:
                continue
            if len(list(_children(getattr(d, "dimensions", None) or []))):
                continue  # an array: no single assignment powers it up
            name = d.name.valueText
            if name and name not in given and name not in out:
                out.append(name)
    return out


def power_up_file(path: Path, mode: str) -> Path:
    """The file simulation reads for ``path`` under ``harness.initial_values = mode``: itself
    (``honor``, or nothing to drop), else a copy beside it with initial values blanked."""
    if mode == "honor":
        return path
    text = path.read_text(errors="surrogateescape")
    stripped = strip_initial_values(text)
    if stripped == text:
        return path
    out = path.with_name(path.stem + "_powerup" + path.suffix)
    out.write_text(stripped, errors="surrogateescape")
    return out


def power_up_text(text: str, mode: str) -> str:
    """``text`` as simulation reads it under ``harness.initial_values = mode``."""
    return text if mode == "honor" else strip_initial_values(text)
