"""Time 0 with a top's inputs held by the environment (:mod:`rtlopt.evaluate._time_zero`).

A testbench outside the repository may hold a top's inputs by initializers (``logic a =
1'b0;``): no event at time 0, so every block evaluated only on an event of what they reach is x
until the environment first changes one of them. In that reading the candidate is judged on
its own side only: a candidate block defined earlier than the reference's (an ``always @*``
made ``assign`` or ``always_comb``, or waiting for more) refines an x the environment left;
one x longer than the reference's is unchecked.

:func:`covered` decides that a candidate block wakes whenever the reference's block with the
same reach does: every name an event of the reference's block may come from (through
continuous assignments, back to the target's inputs) surely makes an event of a name the
candidate's block waits for (the name itself, or a net copying it whole: ``t = s`` with both
declared of one width: the same dimensions' text).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rtlopt.evaluate._time_zero_align import reached

if TYPE_CHECKING:
    from rtlopt.frontend.model import Design
    from rtlopt.harness._event_blocks import Item, ModuleItems

__all__ = [
    "connected_otherwise",
    "covered",
    "edge_message",
    "edge_names",
    "edge_ports",
    "generated",
    "one_sided",
    "folded",
    "read_outside",
    "refines",
    "unfolded",
]

#: Net declarations (an initializer is a continuous assignment).
_NETS = frozenset({"wire", "tri", "uwire", "logic"})

#: Tokens a whole copy's value may hold beside its name (not ``~``: it reads z as x, so a
#: bit going from z to x changes s and not ~s).
_COPY = frozenset({"(", ")"})


def covered(
    cand: Item, ref: Item, ref_items: ModuleItems, cand_items: ModuleItems, inputs: frozenset[str]
) -> bool:
    """Whether the candidate's late block ``cand`` surely runs whenever the reference's late
    block ``ref`` does, once a top's inputs are held (module docstring): every source of what
    ``ref`` waits for is an input of the target and wakes ``cand``."""
    if cand.instance or ref.instance or cand.waits is None or ref.waits is None:
        return False
    came = _sources(ref.waits - ref.writes, ref_items)
    if came is None or not came <= inputs:
        return False
    return came <= _woken(cand.waits - cand.writes, cand_items)


#: Two-state types a cast may name (``bit'(s)`` is 0 where s is x).
_TWO_STATE = frozenset({"bit", "byte", "shortint", "int", "longint", "real", "shortreal"})

#: Operators that read x otherwise than as "unknown": a refined x may change their value.
_DECIDING = frozenset({"===", "!==", "==?", "!=?", "inside"})


def refines(item: Item, reached: frozenset[str]) -> bool:
    """Whether ``item`` keeps a refinement of the names ``reached`` a refinement: it reads
    none of them, reads them only as a register's clock (compared by :func:`covered`'s
    caller), or is a continuous assignment of plain operators (no ``===``, ``==?``,
    ``inside`` or call: a four-valued operator, ``?:`` too, of a refined x gives a refined
    value)."""
    if not (item.mentions - item.writes) & reached:
        return True
    if item.clocks and not (item.mentions - item.writes - item.clocks) & reached:
        return True
    if not _continuous(item):
        return False
    tokens = item.text.split(" ")
    calls = any(t == "(" and k and tokens[k - 1][:1].isalpha() for k, t in enumerate(tokens))
    return not calls and not any(
        t in _DECIDING or t in _TWO_STATE or t == "'" or t.startswith("$") for t in tokens
    )


def _continuous(item: Item) -> bool:
    """A continuous assignment or a net's declaration (``always_comb`` is none: it runs at
    time 0 whatever its inputs hold, an event of what it writes from held values)."""
    head = item.text.split(" ", 1)[0]
    return (
        item.waits is None
        and not item.instance
        and not item.clocks
        and (head == "assign" or head in _NETS)
    )


def _sources(names: frozenset[str], items: ModuleItems) -> frozenset[str] | None:
    """The names an event of ``names`` may come from: through the continuous items writing
    them, what those read (transitively); a name written by anything else is its own source.
    None when a name is written by two items (not followed)."""
    out: set[str] = set()
    seen: set[str] = set()
    stack = list(names)
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        writers = [i for i in items.items if n in i.writes]
        if len(writers) > 1:
            return None
        if writers and _continuous(writers[0]) and _plain_copy(writers[0], items):
            # what its value reads (a parameter in its declared range changes nothing)
            stack += sorted((writers[0].mentions - writers[0].writes) & items.signals)
        else:
            out.add(n)
    return frozenset(out)


#: Tokens a plain copy's value may hold beside names and integers in selects.
_PLAIN_COPY = frozenset({"[", "]", ":", "{", "}", ",", "(", ")"})


def _plain_copy(item: Item, items: ModuleItems) -> bool:
    """Whether a continuous assignment's value is names, their selects by integers and their
    concatenation only: it changes at time 0 only where what it reads does (measured in
    iverilog 11: ``^``, ``~^``, ``&&``, ``||`` and unary ``-`` make an event at time 0 even
    where every name is held, ``&`` and ``|`` by the values, a constant operand may)."""
    tokens = item.text.rstrip(" ;").split(" ")
    value = tokens[tokens.index("=") + 1 :] if "=" in tokens else []
    depth = 0
    for t in value:
        depth += {"[": 1, "]": -1}.get(t, 0)
        if t in _PLAIN_COPY or t in items.signals or (depth and t.isdigit()):
            continue
        return False
    return bool(value) and not _constant_operand(item, items)


def _constant_operand(item: Item, items: ModuleItems) -> bool:
    """Whether a continuous assignment's value holds a constant operand (a number, a
    parameter): iverilog then evaluates it at time 0 with an event even where every name it
    reads is held (``n = a + 4'd1``)."""
    tokens = item.text.rstrip(" ;").split(" ")
    value = tokens[tokens.index("=") + 1 :] if "=" in tokens else tokens
    depth = 0
    for k, t in enumerate(value):
        depth += {"[": 1, "]": -1}.get(t, 0)
        counts = 0 < k < len(value) - 1 and value[k - 1] == "{" and value[k + 1] == "{"
        if depth or counts:
            continue  # a select's index, a replication's count: no operand
        if t[:1].isdigit() or t[:1] == "'":
            return True
        if (t[:1].isalpha() or t[:1] == "_") and t not in items.signals:
            return True
    return False


def _woken(names: frozenset[str], items: ModuleItems) -> frozenset[str]:
    """``names`` and the names whose every event surely changes one of them: what a net
    copying a name whole (a plain assignment of the name, both declared with the same
    dimensions) copies, transitively."""
    widths = dict(items.dims)
    out = set(names)
    stack = list(names)
    while stack:
        n = stack.pop()
        writers = [i for i in items.items if n in i.writes]
        if len(writers) != 1 or not _continuous(writers[0]):
            continue
        tokens = writers[0].text.rstrip(" ;").split(" ")
        if "=" not in tokens:
            continue
        value = tokens[tokens.index("=") + 1 :]
        copied = [t for t in value if t not in _COPY]
        if len(copied) != 1 or widths.get(copied[0], "?") != widths.get(n, "!"):
            continue
        if copied[0] not in out:
            out.add(copied[0])
            stack.append(copied[0])
    return frozenset(out)


#: Shifts: iverilog leaves ``b >> 4`` of a 4-bit ``b`` out of an ``@*`` list.
_SHIFTS = frozenset({">>", "<<", ">>>", "<<<"})

#: System functions whose argument is no value (array and type queries).
_QUERIES = frozenset(
    {"$bits", "$size", "$left", "$right", "$low", "$high", "$increment", "$dimensions"}
    | {"$unpacked_dimensions", "$typename", "$clog2"}
)


def _constant_word(t: str, signals: frozenset[str]) -> bool:
    """Whether token ``t`` starts a constant: a number, a based literal, a parameter, ``(``."""
    return t[:1].isdigit() or t[:1] in "'(" or (t not in signals and t[:1].isalpha())


#: Keywords whose parenthesized condition iverilog may fold when it is constant.
_CONDITIONS = frozenset({"if", "case", "casez", "casex", "while"})

#: Tokens that end the condition of a ``?:`` read backwards.
_BEFORE = frozenset({"=", "<=", "(", ",", ";", ":", "?", "begin"})


def folded(item: Item, signals: frozenset[str], own: frozenset[str] = frozenset()) -> bool:
    """Whether the ``always @*`` block ``item`` may wait for fewer names than its text
    mentions: iverilog builds its list after folding constants, so a branch under a constant
    condition (``if (1'b0)``, ``if (P)``, a ``?:`` or ``case`` of constants), a query's
    argument (``$bits(b)``) or a shift by a constant past the width (``b >> 4``) wakes
    nothing. A shift of a name in ``own`` (written by this block alone: a block-local
    variable, ``d1 = (d0 << 16) | (d0 >> 16)``) drops nothing that wakes it: only the block
    itself changes that name, never while it waits."""
    if not item.form.startswith("always @*"):
        return False
    tokens = item.text.split(" ")
    for k, t in enumerate(tokens):
        if t in _QUERIES:
            return True  # a query's argument is no value: left out of the list
        if (
            t in _SHIFTS
            and k + 1 < len(tokens)
            and _constant_word(tokens[k + 1], signals)
            and not (k and tokens[k - 1] in own)
        ):
            return True  # a shift by a constant may pass the width: left out of the list
        if t in _CONDITIONS and k + 1 < len(tokens) and tokens[k + 1] == "(":
            depth, cond = 0, []
            for u in tokens[k + 1 :]:
                depth += {"(": 1, ")": -1}.get(u, 0)
                cond.append(u)
                if depth == 0:
                    break
            if not set(cond) & signals:
                return True
        if t == "?":
            j = k - 1
            while j >= 0 and tokens[j] not in _BEFORE:
                j -= 1
            if not set(tokens[j + 1 : k]) & signals:
                return True
    return False


def unfolded(on: list[Item], items: ModuleItems) -> list[Item]:
    """``on`` with each block iverilog may wake on fewer names than it mentions
    (:func:`folded`) waiting for its own text: late in every reading, paired only with the
    same block."""
    from dataclasses import replace

    def own(i: Item) -> frozenset[str]:  # the names no other item of the module writes
        return i.writes - frozenset().union(*(o.writes for o in items.items if o is not i))

    return [
        replace(i, waits=frozenset({f"<{i.text}>"})) if folded(i, items.signals, own(i)) else i
        for i in on
    ]


def read_outside(
    design: Design, sides: tuple[ModuleItems, ModuleItems], late: tuple[list[Item], list[Item]]
) -> bool:
    """Whether a late block's outputs reach an output port of a target the repository
    instantiates (its parents' readers, an ``if`` on x among them, are not read here)."""
    from rtlopt.frontend._time_zero import instantiated

    outs = {p.name for p in design.target.ports if p.direction in ("output", "inout")}
    reach = frozenset().union(
        *(
            reached(frozenset().union(*(i.writes for i in lt)), items)
            for items, lt in zip(sides, late, strict=True)
            if lt
        )
    )
    if not reach & outs:
        return False
    try:
        return instantiated(design)
    except RuntimeError:
        return True


#: Words of an event control that name no signal.
_EVENT_WORDS = frozenset({"posedge", "negedge", "edge", "or", ",", "(", ")", "@", "iff"})


def edge_names(items: ModuleItems) -> frozenset[str]:
    """The names an edge event control of ``items`` reads (clocks, asynchronous resets,
    sets and loads): whether each makes an event at time 0 depends on how it is written."""
    out: set[str] = set()
    for i in items.items:
        tokens = i.text.split(" ")
        if "@" not in tokens or not {"posedge", "negedge", "edge"} & set(tokens):
            continue
        at = tokens.index("@")
        if at + 1 >= len(tokens) or tokens[at + 1] != "(":
            continue
        depth = 0
        for t in tokens[at + 1 :]:
            depth += {"(": 1, ")": -1}.get(t, 0)
            if t not in _EVENT_WORDS and (t[:1].isalpha() or t[:1] == "_"):
                out.add(t)
            if depth == 0:
                break
    return frozenset(out)


#: Tokens of a connection that make it more than a name (an operator or a constant).
_OPERATORS = frozenset("|&^~!+-*/%<>?=")


def connected_otherwise(
    ref: ModuleItems, cand: ModuleItems, edges: Callable[[str], frozenset[str] | None]
) -> str:
    """Why a submodule's clock or asynchronous reset port (``edges``: a module's ports an
    edge event control reads, None: unread) connected through an operator on one side only
    is unchecked: whether the connected value makes an event at time 0 (``rst_n | 1'b0``
    does, ``rst_n & 1'b1`` not) is not compared; "" otherwise."""
    from collections import Counter

    def found(items: ModuleItems) -> Counter[str]:
        out: Counter[str] = Counter()
        for i in items.items:
            if not i.instance:
                continue
            module = i.text.split(" ", 1)[0]
            ports = edges(module)
            if i.connections is None:
                out.update([i.text] if _operator(i.text) else [])
                continue
            out.update(
                f"{module} . {port} ( {expr} )"
                for port, expr, _ in i.connections[1]
                if (ports is None or port in ports) and _operator(expr)
            )
        return out

    mine, theirs = found(cand), found(ref)
    for text in sorted((mine - theirs) + (theirs - mine)):
        return (
            f"an instance's clock or reset is connected otherwise through an operator "
            f"('{text[:80]}'): whether it makes an event at simulation time 0 is not compared"
        )
    return ""


def _operator(text: str) -> bool:
    return any(c in _OPERATORS for t in text.split(" ") for c in t if not t.startswith("'"))


def edge_message(bad: tuple[str, str], name: str, why: str) -> str:
    """Why a clock or asynchronous reset derived otherwise (``bad``: the name an edge waits
    for and the one whose writers change) is unchecked."""
    via = f"'{bad[0]}'" + (f", which reaches '{bad[1]}'," if bad[1] != bad[0] else "")
    return (
        f"a register of {name} waits for an edge of {via} whose writers the candidate "
        "changes: whether it makes an event at simulation time 0 (an always_comb or an "
        "operand that is a constant makes one, a plain alias or a port an environment holds "
        f"by an initializer none) is not compared ({why}); keep how clocks and "
        "asynchronous resets are derived"
    )


def edge_ports(design: Design, own: str, module: str) -> frozenset[str] | None:
    """The ports of ``module`` (the candidate's own definition first) an edge event control in
    it reads; None where it cannot be read (every port counts)."""
    from rtlopt.harness._event_blocks import module_items
    from rtlopt.verilog import module_declarations

    mine = {n for n, _ in module_declarations(own)}
    mod = design.modules.get(module)
    try:
        if module in mine:
            items = module_items(own, module)
        elif mod is not None:
            items = module_items(mod.file.read_text(errors="replace")[mod.start : mod.end], module)
        else:
            return None
    except (OSError, RuntimeError):
        return None
    return None if items is None else edge_names(items)


def one_sided(
    design: Design,
    sides: tuple[ModuleItems, ModuleItems],
    late: tuple[list[Item], list[Item]],
    outside: bool = True,
) -> bool:
    """Whether the held reading may be judged on the candidate's side alone: what reads the
    late outputs keeps a refinement one (:func:`refines`), inside the target only (with
    ``outside``: the repository's instances of it read them too; without: a testbench
    instantiating the target reads its ports, as a top's)."""
    return all(
        refines(i, reached(frozenset().union(*(j.writes for j in lt)), items))
        for items, lt in zip(sides, late, strict=True)
        if lt
        for i in items.items
        if i not in lt
    ) and not (outside and read_outside(design, sides, late))


def generated(late: tuple[list[Item], list[Item]], name: str, why: str, held: bool) -> str:
    """Why a late block in a generate construct is unchecked (the candidate's alone in the
    held reading judged on its side), or ""."""
    for side, items in (("candidate", late[1]), ("reference", late[0]))[: 2 - held]:
        gen = next((i for i in items if i.generate), None)
        if gen is not None:
            return (
                f"the {side}'s {gen.form} block of {name} at line {gen.line} lies in a "
                "generate branch or loop and runs only on an event of what it waits for: "
                f"which branch elaborates is not read by this rule ({why})"
            )
    return ""
