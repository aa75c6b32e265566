"""State that simulation keeps in combinational code and synthesis does not, found on the
syntax tree (pyslang); each is a reading Yosys, the slang frontend and iverilog disagree on.

* **A combinational block reads a variable before it writes it** (``always @*``,
  ``always_comb``, ``always_latch``, ``always @(list)``): simulation reads the value the
  block's previous run left (a variable holds its value, IEEE 1364 4.2.2), synthesis and the
  proofs the value the block assigns below (a wire). Reads through called functions and tasks
  count; a block that writes a value first (a default, a temporary, a ``for`` variable) and
  reads it after is no problem (bit by bit where indices are constant: :mod:`._carry`).
* **A function or task reads a module signal that is not one of its arguments**, called
  where simulation does not wake on that signal: a continuous assignment and ``@*`` wake on
  the names of their own expression or statement (IEEE 1364-2005 6.1.2, 9.7.5), an explicit
  list on its names; ``always_comb`` also on what called functions read (IEEE 1800 9.2.2.2,
  iverilog too), not on what tasks read. Synthesis reads the signal combinationally.
  **A function that writes a module signal** updates it only when the call runs in
  simulation; synthesis drives it always.
* **A static function or task reads its own variable before it writes it** (a local, its
  return value, an output) or returns without assigning its value on some path: simulation
  reads the previous call's value (Verilog-2001 subprograms are static), synthesis and the
  proofs a fresh frame (x). ``automatic`` ones hold no state.
"""

from __future__ import annotations

import re
from typing import Any

from rtlopt.harness._carry import ALL, Flow, Summary, merge, widths
from rtlopt.harness._constants import constants, evaluate, loop_values
from rtlopt.harness._nodes import _children, _kind, _span, _walk
from rtlopt.harness._races import nodes

__all__ = ["carried_state_problems"]

_SUBPROGRAMS = ("FunctionDeclaration", "TaskDeclaration")
_PROCESSES = frozenset({"AlwaysBlock", "AlwaysCombBlock", "AlwaysLatchBlock"})
_PROCEDURAL = frozenset(
    {*_SUBPROGRAMS, "AlwaysBlock", "AlwaysCombBlock", "AlwaysFFBlock", "AlwaysLatchBlock"}
    | {"InitialBlock", "FinalBlock", "ClassDeclaration"}
)


def _name(n: Any) -> str | None:
    if _kind(n) in ("IdentifierName", "IdentifierSelectName"):
        return str(n.identifier.valueText)
    return None


def _declared(scope: Any, stop: frozenset[str]) -> set[str]:
    """Names of the ports, nets and variables ``scope`` declares (not looking into ``stop``)."""
    out: set[str] = set()
    for node in _walk(scope, stop):
        k = _kind(node)
        if k in ("ImplicitAnsiPort", "FunctionPort", "ForVariableDeclaration"):
            out.add(str(node.declarator.name.valueText))
        elif k in ("DataDeclaration", "NetDeclaration", "PortDeclaration"):
            out |= {
                str(d.name.valueText)
                for d in _children(node.declarators)
                if _kind(d) == "Declarator"
            }
    return out


def _targets(node: Any) -> list[Any]:
    """The name nodes that assignments and increments under ``node`` write (their roots)."""
    out = []
    for n in _walk(node):
        k = _kind(n)
        left = getattr(n, "left", None) if "AssignmentExpression" in k else None
        if "crement" in k:
            left = getattr(n, "operand", None) or getattr(n, "left", None)
        out += _roots(left)
    return out


def _roots(left: Any) -> list[Any]:
    """The variables a target names (through concatenations and members)."""
    while _kind(left) == "ScopedName":
        left = left.left
    if _kind(left) == "ConcatenationExpression":
        return [r for x in _children(left.expressions) for r in _roots(x)]
    return [left] if _name(left) else []


def _calls(node: Any, names: set[str] | dict[str, Any]) -> list[tuple[str, Any]]:
    """``(subprogram, node)`` for each call under ``node`` of one of ``names``."""
    out = []
    for n in _walk(node):
        k = _kind(n)
        if k == "InvocationExpression" and _name(n.left) in names:
            out.append((str(_name(n.left)), n))
        elif (
            k == "IdentifierName"
            and _name(n) in names
            and _kind(n.parent) != ("InvocationExpression")
        ):
            out.append((str(_name(n)), n))
    return out


def _ports(decl: Any) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    direction = "input"
    for n in _walk(decl, frozenset({"SequentialBlockStatement"})):
        k = _kind(n)
        if k == "FunctionPort":
            if n.direction is not None and n.direction.valueText:
                direction = str(n.direction.valueText)
            out.append((str(n.declarator.name.valueText), direction))
        elif k == "PortDeclaration":
            d = str(n.header.direction.valueText)
            out += [
                (str(x.name.valueText), d)
                for x in _children(n.declarators)
                if _kind(x) == "Declarator"
            ]
    return tuple(out)


def _summaries(module: Any, signals: set[str]) -> tuple[dict[str, Summary], dict[str, Any]]:
    """Each function's and task's module reads and writes, through the ones it calls."""
    decls = {}
    for node in nodes(module, *_SUBPROGRAMS):
        decls[str(_name(node.prototype.name) or "")] = node
    direct: dict[str, tuple[set[str], set[str], set[str]]] = {}
    for fname, node in decls.items():
        # a name only a nested block declares is the module's outside that block: counted
        own = _declared(node, frozenset({"SequentialBlockStatement", "ForLoopStatement"}))
        own |= {fname}
        lhs = {id(t) for t in _targets(node)}
        names = [n for n in _walk(node) if _name(n) and n is not node.prototype.name]
        reads = {str(_name(n)) for n in names if id(n) not in lhs} & signals - own
        writes = {str(_name(n)) for n in names if id(n) in lhs} & signals - own
        called = {c for c, _ in _calls(node, decls)} - {fname}
        direct[fname] = (reads, writes, called)
    out: dict[str, Summary] = {}
    for fname, node in decls.items():
        reads, writes, seen = set(), set(), set()
        todo = [fname]
        while todo:
            cur = todo.pop()
            if cur in seen or cur not in direct:
                continue
            seen.add(cur)
            r, w, c = direct[cur]
            reads |= r
            writes |= w
            todo += sorted(c)
        out[fname] = Summary(frozenset(reads), frozenset(writes), _ports(node))
    return out, decls


def _automatic(decl: Any, module: Any) -> bool:
    life = getattr(decl.prototype, "lifetime", None)
    if life is not None and life.valueText:
        return str(life.valueText) == "automatic"
    head = getattr(module.header, "lifetime", None)
    return head is not None and str(head.valueText) == "automatic"


def _clocked(proc: Any) -> bool | None:
    """True for an edge-triggered block, False for a combinational one, None otherwise."""
    if _kind(proc) in ("AlwaysCombBlock", "AlwaysLatchBlock"):
        return False
    if _kind(proc) == "AlwaysFFBlock":
        return True
    st = proc.statement
    if _kind(st) != "TimingControlStatement":
        return None
    tc = st.timingControl
    if _kind(tc) == "ImplicitEventControl":
        return False
    if _kind(tc) != "EventControlWithExpression":
        return None
    edges = [e for e in _walk(tc.expr) if _kind(e) == "SignalEventExpression" and e.edge.valueText]
    return True if edges else False


def _names(node: Any) -> set[str]:
    return {str(_name(n)) for n in _walk(node) if _name(n)}


def _contexts(module: Any, procs: list[Any]) -> list[tuple[Any, Any, bool]]:
    """``(code, what it wakes on, tasks only)`` of each continuous assignment, net
    initializer and combinational block: a call's subprogram may read only what it wakes on
    (``always_comb`` wakes on what its functions read too)."""
    out: list[tuple[Any, Any, bool]] = []
    for node in nodes(module, "ContinuousAssign", "NetDeclaration"):
        if _kind(node) == "ContinuousAssign":
            out += [(a, a, False) for a in _children(node.assignments)]
        elif _kind(node) == "NetDeclaration":
            out += [
                (d.initializer, d.initializer, False)
                for d in _children(node.declarators)
                if _kind(d) == "Declarator" and d.initializer is not None
            ]
    for node in procs:
        st = node.statement
        tc: Any = getattr(st, "timingControl", None)
        if _kind(tc) == "EventControlWithExpression":
            out.append((st.statement, tc.expr, False))
        else:
            body = getattr(st, "statement", st) if tc is not None else st
            out.append((body, body, _kind(node) == "AlwaysCombBlock"))
    return out


def _wake_problems(
    module: Any, procs: list[Any], subs: dict[str, Summary], decls: dict[str, Any]
) -> list[tuple[int, str]]:
    """Calls whose subprogram reads a signal the caller's simulation does not wake on."""
    out: list[tuple[int, str]] = []
    reading = {f: s for f, s in subs.items() if s.reads}
    if not reading:
        return out
    for node, wake, tasks_only in _contexts(module, procs):
        wakes: set[str] | None = None
        for fname, call in _calls(node, reading):
            if tasks_only and _kind(decls[fname]) == "FunctionDeclaration":
                continue
            wakes = _names(wake) if wakes is None else wakes
            for v in sorted(subs[fname].reads - wakes)[:1]:
                out.append((_span(call)[0], _wake_message(fname, v)))
    return out


def _wake_message(fname: str, v: str) -> str:
    return (
        f"'{fname}' reads '{v}', which is not one of its arguments, and is called where "
        f"simulation does not wake on '{v}' (a continuous assignment, @* and an event list "
        "wake on their own names only, IEEE 1364 9.7.5), while synthesis and the proofs read "
        f"it combinationally; pass '{v}' as an argument"
    )


def _static_problems(decl: Any, flow: Flow, fname: str) -> list[tuple[int, str]]:
    """A static function's or task's own variable read before written, or its value left
    unassigned on a path."""
    ports = dict(_ports(decl))
    function = _kind(decl) == "FunctionDeclaration"
    void = _kind(decl.prototype.returnType) == "VoidType"
    own = _declared(decl, frozenset()) - {p for p, d in ports.items() if d != "output"}
    flow.watched = frozenset(own | ({fname} if function and not void else set()))
    done: Any = {p: ALL for p, d in ports.items() if d in ("input", "inout")}
    for item in _children(decl.items):
        if _kind(item) not in ("DataDeclaration", "PortDeclaration"):
            done = flow.stmt(item, done, flow.env)
    why = (
        "simulation keeps it from the previous call (the subprogram is static), synthesis and "
        "the proofs read a fresh frame (x); assign it first, or declare the subprogram automatic"
    )
    out = [
        (at, f"'{fname}' reads its variable '{v}' before writing it: {why}")
        for v, at in sorted(flow.early.items(), key=lambda x: x[1])
    ]
    if function and not void and done is not None and done.get(fname) != ALL:
        out.append(
            (
                _span(decl)[0],
                f"the function '{fname}' does not assign its value on every path: {why}",
            )
        )
    return out


def _module_problems(module: Any) -> list[tuple[int, str]]:
    procs = [n for n in nodes(module, *_PROCESSES) if _clocked(n) is False]
    if not procs and not nodes(module, *_SUBPROGRAMS):
        return []
    signals = _declared(module, _PROCEDURAL)
    subs, decls = _summaries(module, signals)
    env = constants(module)
    full = widths(module, env, _PROCEDURAL)
    out = _wake_problems(module, procs, subs, decls)
    writers = {f for f, d in decls.items() if _kind(d) == "FunctionDeclaration" and subs[f].writes}
    called = {f for f, _ in _calls(module, writers)} if writers else set()
    for fname, decl in decls.items():
        if fname in called:
            v = sorted(subs[fname].writes)[0]
            out.append(
                (
                    _span(decl)[0],
                    f"the function '{fname}' writes '{v}', a signal of the module: simulation "
                    "updates it only when a call runs, synthesis and the proofs drive it "
                    "always; return the value instead",
                )
            )
        if not _automatic(decl, module):
            local = merge(full, widths(decl, env))
            flow = Flow(frozenset(), env, local, subs)
            out += _static_problems(decl, flow, fname)
    for node in procs:
        out += _block_problems(node, subs, env, full)
    return out


#: At most this many instances of a block inside generate loops are judged one by one (more:
#: once, with the generate variables unknown).
_MAX_INSTANCES = 64


def _generate_envs(node: Any, env: dict[str, int]) -> list[dict[str, int]]:
    """The constants of each instance of ``node`` inside generate loops: the loop variables'
    values and the localparams of the enclosing generate blocks."""
    chain = []
    p = node.parent
    while p is not None and _kind(p) != "ModuleDeclaration":
        chain.append(p)
        p = p.parent
    envs = [env]
    for anc in reversed(chain):
        if _kind(anc) == "LoopGenerate":
            var = str(anc.identifier.valueText)
            more: list[dict[str, int]] = []
            for e in envs:
                start = evaluate(anc.initialExpr, e)
                values = loop_values(var, start, anc.stopExpr, anc.iterationExpr, e, 256)
                more += [{**e, var: v} for v in values or ()]
                if values is None:
                    more.append(e)
            envs = more if len(more) <= _MAX_INSTANCES else [env]
        elif _kind(anc) == "GenerateBlock":
            for e in envs:
                for m in _children(anc.members):
                    for d in _walk(m, frozenset(_PROCESSES | {"GenerateBlock"})):
                        if _kind(d) == "ParameterDeclaration":
                            for x in _children(d.declarators):
                                init = getattr(x, "initializer", None)
                                v = evaluate(init.expr, e) if init is not None else None
                                if v is not None:
                                    e[str(x.name.valueText)] = v
    return envs


def _block_problems(
    proc: Any, subs: dict[str, Summary], env: dict[str, int], full: dict[str, Any]
) -> list[tuple[int, str]]:
    # with the generate variables unknown the judgement is coarser (an index it cannot place
    # may be any bit): only what it finds is judged again instance by instance
    found = _block_reads(proc, subs, env, full)
    if found and _kind(proc.parent) != "ModuleDeclaration":
        found = {}
        for inst in _generate_envs(proc, env):
            for v, at in _block_reads(proc, subs, {**inst}, full).items():
                found.setdefault(v, at)
    return [
        (
            at,
            f"'{v}' is read in a combinational block before the block writes it: simulation "
            "reads the value the block's previous run left (state), synthesis and the proofs "
            "the value the block assigns (a wire); write it before reading it",
        )
        for v, at in sorted(found.items(), key=lambda x: x[1])
    ]


def _block_reads(
    proc: Any, subs: dict[str, Summary], env: dict[str, int], full: dict[str, Any]
) -> dict[str, int]:
    written = {str(_name(t)) for t in _targets(proc)}
    for fname, call in _calls(proc, subs):
        written |= subs[fname].writes
        for i, a in enumerate(_call_args(call)):
            ports = subs[fname].ports
            if i < len(ports) and ports[i][1] in ("output", "inout"):
                written |= _names(a)
    flow = Flow(frozenset(written), env, merge(full, widths(proc, env)), subs)
    st = proc.statement
    flow.stmt(st, {}, env)
    return flow.early


def _call_args(call: Any) -> list[Any]:
    args = getattr(call, "arguments", None)
    if args is None:
        return []
    return [a for a in _children(args.parameters) if _kind(a) == "OrderedArgument"]


_CODE = re.compile(r"\b(?:always|always_comb|always_latch|function|task)\b")


def carried_state_problems(code: str, tree: Any, shift: int = 0) -> list[tuple[int, str]]:
    """The three rules above for every module of ``code`` (``tree`` its syntax tree, whose
    text starts at ``shift``), as ``(offset, message)``. A text the parser rejects (macros
    aside: the preprocessed text is judged too) that has such code is one problem."""
    if any(d.isError() for d in tree.diagnostics):
        if "`" in code or not _CODE.search(code):
            return []  # macros left in: the preprocessed text is judged (its tree is whole)
        return [
            (
                0,
                "the screen's parser cannot read this text, so its combinational blocks and "
                "functions cannot be checked for state simulation keeps; fix the syntax",
            )
        ]
    out: list[tuple[int, str]] = []
    for module in nodes(tree.root, "ModuleDeclaration"):
        if _kind(module) != "ModuleDeclaration":
            continue
        try:
            found = _module_problems(module)
        except (AttributeError, TypeError, ValueError, KeyError) as e:  # a form not followed
            why = f"{type(e).__name__}: {str(e)[:80]}"
            found = [
                (
                    _span(module)[0],
                    "the screen cannot follow this module's combinational code and functions "
                    f"({why}), so it cannot check them for state simulation keeps; simplify them",
                )
            ]
        out += [(at - shift, msg) for at, msg in found]
    return out
