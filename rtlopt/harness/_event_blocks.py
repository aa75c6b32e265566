"""The blocks of a module that a simulator evaluates only on an event, and what drives each
signal (pyslang's syntax tree), for the time-0 rule (:mod:`rtlopt.evaluate._time_zero`).

An ``always @*`` block, ``always @(a or b)`` (an event list without edges) or an ``always``
that starts with anything else than an edge's event control runs on an event of what it
waits for: until then its outputs hold their power-up value (x). A continuous assignment, a
gate, an instance and ``always_comb`` / ``always_latch`` (run once at time 0) are evaluated at
time 0; an edge's block (``always @(posedge clk)``) is a register in both readings.

:func:`module_items` reads a module's items: each with its text (tokens, comments dropped),
the names it may write (over-approximated: every name on an assignment's left side, in a
call's arguments, in an instance's connections) and the names it mentions; the blocks of the
first kind with the names they wait for (for ``@*`` every name the body mentions).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rtlopt.harness._event_paths import sure_writes
from rtlopt.harness._nodes import _children, _kind, _tokens, _tree

__all__ = ["Item", "ModuleItems", "module_items"]

#: Items a writer signature is made of (each read whole).
_ITEMS = frozenset(
    {
        "AlwaysBlock",
        "AlwaysCombBlock",
        "AlwaysFFBlock",
        "AlwaysLatchBlock",
        "InitialBlock",
        "FinalBlock",
        "ContinuousAssign",
        "HierarchyInstantiation",
        "PrimitiveInstantiation",
        "DataDeclaration",
        "NetDeclaration",
        "PortDeclaration",
        "ImplicitAnsiPort",
        "NetAlias",
    }
)
#: Kinds not entered while looking for items: subprograms run per call (their writes are
#: the calls' in the items that call them), nested design units are read on their own.
_SKIP = frozenset(
    {"FunctionDeclaration", "TaskDeclaration", "ModuleDeclaration", "InterfaceDeclaration"}
)
_DECLS = frozenset({"DataDeclaration", "NetDeclaration", "PortDeclaration", "ImplicitAnsiPort"})
#: Parameter declarations (a module's header and body).
_PARAMS = frozenset(
    {"ParameterDeclarationStatement", "ParameterDeclaration", "TypeParameterDeclaration"}
)
#: Generate constructs whose items elaborate conditionally or repeatedly.
_GENERATE = frozenset({"IfGenerate", "CaseGenerate", "LoopGenerate"})


#: An event control on these waits for the signal's change; on anything else (``a | c``)
#: for the expression's value, which may not change when a signal does.
@dataclass(frozen=True)
class Item:
    """One module item.

    Attributes:
        text: Its tokens, one space apart (comments and layout dropped).
        line: Its first line in the module's text.
        writes: The names it may write.
        mentions: Every name it mentions.
        waits: For a block evaluated only on an event, the names whose event runs it
            (``@*``: every name the body mentions); None for any other item.
        form: How the block waits, as written (``always @*``), for messages.
        generate: Whether it lies in an ``if``/``case``/``for`` generate construct.
    """

    text: str
    line: int
    writes: frozenset[str]
    mentions: frozenset[str]
    waits: frozenset[str] | None = None
    form: str = ""
    #: It lies in a conditional or loop generate construct (which branch elaborates is not
    #: read here).
    generate: bool = False
    #: For a register's block, the names its edge event control reads that its body does
    #: not (its clocks and resets as events only).
    clocks: frozenset[str] = frozenset()
    #: For an instance of one module with every connection named: its parameter tokens and
    #: per port ``(port, expression tokens, names it mentions)``; None for any other item.
    connections: tuple[str, tuple[tuple[str, str, frozenset[str]], ...]] | None = None
    #: It instantiates a module (or an interface), however its connections are written.
    instance: bool = False
    #: For a block evaluated on an event, ``always_comb`` or ``always_latch`` whose body is read
    #: (:func:`rtlopt.harness._event_paths.sure_writes`): the names every path writes whole,
    #: and the names it reads before writing them; None otherwise.
    sure: tuple[frozenset[str], frozenset[str]] | None = None


@dataclass(frozen=True)
class ModuleItems:
    """A module's items and the names it declares as nets, variables or ports."""

    items: tuple[Item, ...]
    signals: frozenset[str]
    #: The texts of its parameter declarations (header and body), sorted.
    params: tuple[str, ...] = ()
    #: Per signal declared with one packed range of integer bounds and nothing unpacked
    #: (``wire [23:0] a``), every declaration alike: ``(low, high)``.
    ranges: tuple[tuple[str, int, int], ...] = ()
    #: Variables holding a defined value before time 0 (a declaration's initializer, a
    #: two-state type's 0): a write of that value is no event.
    fixed: frozenset[str] = frozenset()
    #: Names declared in a generate block or a statement block that another declaration of
    #: the module (its own level, another such scope, a port) declares too: the items read
    #: names as text, without scopes.
    shadowed: frozenset[str] = frozenset()
    #: The texts of its function, task, ``let`` and ``typedef`` declarations (what a
    #: parameter's value may read), sorted.
    subprograms: tuple[str, ...] = ()
    #: Per signal declared by plain words (a direction, ``wire``, ``reg``, ``logic``, ``var``,
    #: ``unsigned``; not ``signed``) and packed dimensions only, every declaration alike: the
    #: dimensions' tokens (``[ W - 1 : 0 ]``; "" for one bit): equal texts, one width.
    dims: tuple[tuple[str, str], ...] = ()
    #: Per variable of :attr:`fixed`, the text of its declaration (what it holds before time
    #: 0, until a block writes it), sorted.
    fixed_decls: tuple[tuple[str, str], ...] = ()

    @property
    def on_event(self) -> tuple[Item, ...]:
        """The blocks evaluated only on an event."""
        return tuple(i for i in self.items if i.waits is not None)

    def writers(self, name: str) -> tuple[str, ...]:
        """The texts of the items that may write ``name``, sorted."""
        return tuple(sorted(i.text for i in self.items if name in i.writes))


@lru_cache(maxsize=16)
def module_items(text: str, name: str) -> ModuleItems | None:
    """The items of module ``name`` in ``text`` (generate blocks included); None when no
    module of that name is found (kept for the last texts: the reference's is read again
    for every candidate)."""
    root = _tree(text).root
    modules = [root] if _kind(root) == "ModuleDeclaration" else []
    for module in modules or _walk_kinds(root, frozenset({"ModuleDeclaration"})):
        if module.header.name.valueText != name:
            continue
        items: list[Item] = []
        signals: set[str] = set()
        generated = {
            int(n.sourceRange.start.offset)
            for g in _walk_kinds(module, _GENERATE, skip=_SKIP, top=module)
            for n in _walk_kinds(g, _ITEMS, skip=_SKIP)
        }
        decls = []
        for node in _walk_kinds(module, _ITEMS, skip=_SKIP, top=module):
            items.append(_item(node, text, int(node.sourceRange.start.offset) in generated))
            if _kind(node) in _DECLS:
                signals |= _declared(node)
                decls.append(node)
        for port in _walk_kinds(module.header, _DECLS):
            signals |= _declared(port)
            decls.append(port)
        params = tuple(
            sorted(
                " ".join(t for t in _tokens(n) if t)
                for n in _walk_kinds(module, _PARAMS, skip=_SKIP, top=module)
            )
        )
        subs = tuple(
            sorted(
                " ".join(t for t in _tokens(n) if t)
                for n in _walk_kinds(module, _SUBPROGRAMS, skip=_SKIP, top=module)
            )
        )
        dims = _dims(decls)
        items = [_whole_waits(i, dict(dims)) for i in items]
        return ModuleItems(
            tuple(items),
            frozenset(signals),
            params,
            _ranges(decls),
            frozenset(n for d in decls for n in _fixed(d)),
            _shadowed(module),
            subs,
            dims,
            tuple(
                sorted(
                    {(n, " ".join(t for t in _tokens(d) if t)) for d in decls for n in _fixed(d)}
                )
            ),
        )
    return None


#: Declarations a parameter's value may read besides parameters.
_SUBPROGRAMS = frozenset(
    {"FunctionDeclaration", "TaskDeclaration", "LetDeclaration", "TypedefDeclaration"}
)
#: Types whose variables power up defined (0), not x.
_TWO_STATE = frozenset(
    {"bit", "int", "byte", "shortint", "longint", "real", "shortreal", "realtime", "string"}
)


def _fixed(node: Any) -> set[str]:
    """The variables the declaration ``node`` gives a defined value before time 0."""
    if _kind(node) == "NetDeclaration":
        return set()
    tokens = {t for t in _tokens(node) if t}
    if tokens & _TWO_STATE or "enum" in tokens:
        return _declared(node)
    return _writes(node)  # those with an initializer


def _shadowed(module: Any) -> frozenset[str]:
    """:attr:`ModuleItems.shadowed` of ``module``."""
    seen: dict[str, int] = {}
    nested: set[str] = set()
    stack: list[tuple[Any, bool]] = [(module, False)]
    while stack:
        cur, inner = stack.pop()
        kind = _kind(cur)
        if cur is not module and kind in _SKIP:
            continue
        if kind in _DECLS:
            for n in _declared(cur):
                seen[n] = seen.get(n, 0) + 1
                if inner:
                    nested.add(n)
            continue
        deeper = inner or kind in (
            "GenerateBlock",
            "SequentialBlockStatement",
            "ParallelBlockStatement",
        )
        stack.extend((c, deeper) for c in _children(cur))
    return frozenset(n for n in nested if seen[n] > 1)


def _heads(decls: list[Any]) -> Iterator[tuple[list[str], list[Any]]]:
    """Per declaration of ``decls``: the tokens before its first declared name, and its
    declarators."""
    for node in decls:
        tokens = [t for t in _tokens(node) if t]
        if _kind(node) == "ImplicitAnsiPort":
            declarators = [node.declarator]
        else:
            found = getattr(node, "declarators", None) or ()
            declarators = [d for d in _children(found) if _kind(d) == "Declarator"]
        if not declarators:
            continue
        first = declarators[0].name.valueText
        head = tokens[: tokens.index(first)] if first in tokens else []
        yield head, declarators


def _ranges(decls: list[Any]) -> tuple[tuple[str, int, int], ...]:
    """:attr:`ModuleItems.ranges` of the declarations ``decls``."""
    seen: dict[str, tuple[int, int] | None] = {}
    for head, declarators in _heads(decls):
        at = head.index("[") if "[" in head else -1
        dims = head[at:] if at >= 0 else []
        bounds: tuple[int, int] | None = None
        if len(dims) == 5 and dims[2] == ":" and dims[4] == "]":
            if dims[1].isdigit() and dims[3].isdigit():
                lo, hi = sorted((int(dims[1]), int(dims[3])))
                bounds = (lo, hi)
        for d in declarators:
            name = d.name.valueText
            mine = None if list(_children(getattr(d, "dimensions", None) or ())) else bounds
            seen[name] = mine if seen.get(name, mine) == mine else None
    return tuple(sorted((n, b[0], b[1]) for n, b in seen.items() if b is not None))


def _whole_waits(item: Item, dims: dict[str, str]) -> Item:
    """``item`` waiting for names where its event control's expression (``@(a[23:0] or
    b)``) selects each name's whole declared range; as it is otherwise."""
    from dataclasses import replace

    marks = [w for w in item.waits or () if w.startswith("<( ") and w.endswith(" )>")]
    if len(marks) != 1:
        return item
    names: set[str] = set()
    for part in " ".join(marks[0][3:-3].split(" , ")).split(" or "):
        words = part.split(" ")
        name, rest = words[0], " ".join(words[1:])
        if name not in dims or rest not in ("", dims[name]):
            return item
        names.add(name)
    return replace(item, waits=frozenset(names))


#: Words a declaration may hold before its dimensions for :attr:`ModuleItems.dims`.
_PLAIN = frozenset(
    {"input", "output", "inout", "wire", "reg", "logic", "var", "tri", "uwire", "unsigned"}
)


def _dims(decls: list[Any]) -> tuple[tuple[str, str], ...]:
    """:attr:`ModuleItems.dims` of the declarations ``decls``."""
    seen: dict[str, str | None] = {}
    for head, declarators in _heads(decls):
        at = head.index("[") if "[" in head else len(head)
        plain = bool(head[:at]) and set(head[:at]) <= _PLAIN and "]" not in head[:at]
        text = " ".join(head[at:]) if plain else None
        for d in declarators:
            mine = None if list(_children(getattr(d, "dimensions", None) or ())) else text
            name = d.name.valueText
            seen[name] = mine if seen.get(name, mine) == mine else None
    return tuple(sorted((n, t) for n, t in seen.items() if t is not None))


def _walk_kinds(
    node: Any, kinds: frozenset[str], skip: frozenset[str] = frozenset(), top: Any = None
) -> Iterator[Any]:
    """The nodes of ``kinds`` below ``node`` (not entered), not entering ``skip``."""
    stack = [node]
    while stack:
        cur = stack.pop()
        kind = _kind(cur)
        if cur is not node and cur is not top:
            if kind in kinds:
                yield cur
                continue
            if kind in skip:
                continue
        stack.extend(reversed(list(_children(cur))))


def _identifiers(node: Any) -> set[str]:
    """Every identifier ``node`` mentions (simple names, selects' and scoped names' first
    parts included)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if _kind(cur) in ("IdentifierName", "IdentifierSelectName"):
            out.add(cur.identifier.valueText)
        stack.extend(_children(cur))
    return out


def _declared(node: Any) -> set[str]:
    if _kind(node) == "ImplicitAnsiPort":
        d = getattr(node, "declarator", None)
        return {d.name.valueText} if d is not None else set()
    out: set[str] = set()
    for d in _children(getattr(node, "declarators", None) or ()):
        if _kind(d) == "Declarator":
            out.add(d.name.valueText)
    return out


def _writes(node: Any) -> set[str]:
    """The names ``node`` may write: every name on an assignment's left side, an
    increment's operand, a call's argument, an instance's or gate's connection, a
    declarator with an initializer."""
    kind = _kind(node)
    if kind in ("HierarchyInstantiation", "PrimitiveInstantiation", "NetAlias"):
        return _identifiers(node)
    if kind in _DECLS:
        if kind == "ImplicitAnsiPort":
            d = getattr(node, "declarator", None)
            if d is None or getattr(d, "initializer", None) is None:
                return set()
            return {d.name.valueText}
        return {
            d.name.valueText
            for d in _children(getattr(node, "declarators", None) or ())
            if _kind(d) == "Declarator" and getattr(d, "initializer", None) is not None
        }
    out: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        k = _kind(cur)
        if "Assignment" in k and hasattr(cur, "left"):
            out |= _identifiers(cur.left)
        elif k in ("InvocationExpression", "ArrayOrRandomizeMethodExpression"):
            out |= _identifiers(cur)
        elif "Increment" in k or "Decrement" in k:
            out |= _identifiers(cur)
        stack.extend(_children(cur))
    return out


def _item(node: Any, text: str, generate: bool) -> Item:
    start = int(node.sourceRange.start.offset)
    line = text.count("\n", 0, start) + 1
    waits, form = _waits(node)
    return Item(
        " ".join(t for t in _tokens(node) if t),
        line,
        frozenset(_writes(node)),
        frozenset(_identifiers(node)),
        waits,
        form,
        generate,
        _clocks(node),
        _connections(node),
        _kind(node) == "HierarchyInstantiation",
        sure_writes(node),
    )


def _leading(stmt: Any) -> Any:
    """The first statement ``stmt`` runs (through ``begin``/``end``), or None."""
    while _kind(stmt) == "SequentialBlockStatement":
        items = list(stmt.items)
        stmt = items[0] if items else None
    return stmt


def _edge_control(node: Any) -> tuple[Any, Any] | None:
    """``(timing control, statement it controls)`` of a register's block (a leading event
    control with an edge), else None."""
    if _kind(node) not in ("AlwaysBlock", "AlwaysFFBlock"):
        return None
    first = _leading(node.statement)
    if _kind(first) != "TimingControlStatement":
        return None
    timing = first.timingControl
    if _kind(timing) != "EventControlWithExpression":
        return None
    signals = list(_walk_kinds(timing, frozenset({"SignalEventExpression"})))
    if not any(n.edge.valueText for n in signals):
        return None
    return timing, first.statement


def _clocks(node: Any) -> frozenset[str]:
    control = _edge_control(node)
    if control is None:
        return frozenset()
    timing, body = control
    rest = set(_identifiers(node)) - _identifiers(timing)
    return frozenset(_identifiers(timing) - rest - _identifiers(body))


def _connections(
    node: Any,
) -> tuple[str, tuple[tuple[str, str, frozenset[str]], ...]] | None:
    if _kind(node) != "HierarchyInstantiation":
        return None
    instances = [i for i in _children(node.instances) if _kind(i) == "HierarchicalInstance"]
    if len(instances) != 1 or instances[0].decl is None:
        return None
    inst = instances[0]
    if list(_children(inst.decl.dimensions)):
        return None  # an array of instances
    out = []
    for conn in _children(inst.connections):
        if not _kind(conn).endswith("PortConnection"):
            continue  # a comma
        if _kind(conn) != "NamedPortConnection":
            return None
        expr = conn.expr
        text = " ".join(t for t in _tokens(expr) if t) if expr is not None else ""
        ids = frozenset(_identifiers(expr)) if expr is not None else frozenset()
        out.append((conn.name.valueText, text, ids))
    params = node.parameters
    ptext = " ".join(t for t in _tokens(params) if t) if params is not None else ""
    return ptext, tuple(sorted(out))


def _waits(node: Any) -> tuple[frozenset[str] | None, str]:
    """For a plain ``always`` block that is no register's (no edge in its leading event
    control): the names whose event runs it, and its form; else ``(None, "")``."""
    if _kind(node) != "AlwaysBlock":
        return None, ""
    first = _leading(node.statement)
    if _kind(first) != "TimingControlStatement":
        return frozenset(), "always"  # a delay or nothing first: no event of its inputs
    timing = first.timingControl
    kind = _kind(timing)
    if kind == "ImplicitEventControl":
        return frozenset(_identifiers(first.statement)), "always @*"
    if kind == "EventControl":
        return frozenset(_identifiers(timing)), "always @(...)"
    if kind == "EventControlWithExpression":
        signals = list(_walk_kinds(timing, frozenset({"SignalEventExpression"})))
        if any(n.edge.valueText for n in signals):
            return None, ""  # a register's block
        if any(_kind(n.expr) != "IdentifierName" for n in signals):
            # waits for a value (a select wakes on its bits only, an operator may change at
            # time 0 or not): for its own text, paired only with the same expression
            text = " ".join(t for t in _tokens(timing.expr) if t)
            return frozenset({f"<{text}>"}), "always @(...)"
        return frozenset(_identifiers(timing.expr)), "always @(...)"
    return frozenset(), "always"
