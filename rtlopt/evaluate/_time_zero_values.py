"""What changes at simulation time 0 inside the target (:mod:`rtlopt.evaluate._time_zero`).

A name gets an event at time 0 only where its value changes then: from x (its power-up
value) to a defined value. An item that runs at time 0 (a continuous assignment, a net's
declaration, ``always_comb``, a block evaluated on an event of a name changed then) gives
what it writes one only where it writes it on every path with a value surely defined: x
over x is no event (``always @(a) if (a) l = 1;`` leaves ``l`` x when ``a`` goes to 0,
``always @(a or r) l = r;`` writes x while ``r`` is a register before its first write),
and neither is a write of a variable's initializer's or a two-state type's 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rtlopt.frontend.model import Design
    from rtlopt.harness._event_blocks import Item, ModuleItems

__all__ = ["defined_from_x", "evented_within", "late", "may_be_x", "within"]


def late(item: Item, evented: frozenset[str]) -> bool:
    """Whether ``item`` may run after time 0: a block that waits for no input changed then,
    and every instance (what its module's blocks wait for is not followed)."""
    return item.form.startswith("instance") or not (item.waits or frozenset()) & evented


#: Net declarations: an initializer is a continuous assignment (a variable's makes no event).
_NETS = frozenset(
    {"wire", "tri", "wand", "wor", "triand", "trior", "tri0", "tri1", "uwire", "supply0", "supply1"}
)

#: Blocks run once at time 0 whatever changes (what they write changes from x then).
_AT_TIME_0 = ("always_comb ", "always_latch ")


def evented_within(items: ModuleItems, evented: frozenset[str]) -> frozenset[str]:
    """``evented`` and the names the module's items change at time 0 from them (module
    docstring): what ``always_comb``, ``always_latch``, a continuous assignment, a net's
    declaration or a gate drives when EVERY signal it reads is changed then and its value is
    surely defined (:func:`may_be_x`: a net changes only where its value does, one input held
    by an initializer may keep it: ``a | c`` with a = 1); what a block waiting for a changed
    name writes on every path (:attr:`~rtlopt.harness._event_blocks.Item.sure`) under the
    same test; never a register's block, an ``initial`` or an instance, nor a variable
    :attr:`~rtlopt.harness._event_blocks.ModuleItems.fixed` before time 0."""
    out = set(evented)
    while True:
        grown = False
        for i in items.items:
            head = i.text.split(" ", 1)[0]
            if i.waits is not None:
                # runs on a changed name; what it reads before writing must be changed too
                written, reads = i.sure if i.sure is not None else (frozenset(), frozenset())
                runs = bool(i.waits & out) and (reads & items.signals) <= out
            else:
                # a continuous assignment, a net's declaration or always_comb (a gate's or
                # an instance's connections are all taken as written: never counted), by
                # the signals it reads (parameters and functions change nothing)
                written, reads = i.writes, i.mentions - i.writes
                if i.text.startswith(_AT_TIME_0):
                    # run once at time 0: what every path writes, by what it reads first
                    written, reads = i.sure if i.sure is not None else (frozenset(), reads)
                runs = (head == "assign" or head in _NETS or i.text.startswith(_AT_TIME_0)) and (
                    reads & items.signals
                ) <= out
            written = written - items.fixed
            if (
                runs
                and not written <= out
                and not may_be_x(i.text, items.ranges)
                and not defined_from_x(i.text)
            ):
                out |= written
                grown = True
        if not grown:
            return frozenset(out)


def within(design: Design, items: ModuleItems, environment: bool = True) -> frozenset[str]:
    """The names of ``items`` that change at time 0 (:func:`evented_within` from the
    inputs the repository changes then; none when that cannot be read); ``environment``:
    whether a top's inputs count as changed then
    (:func:`rtlopt.frontend._time_zero.evented_inputs`)."""
    from rtlopt.frontend._time_zero import evented_inputs

    try:
        evented = evented_inputs(design, environment)
    except RuntimeError:
        evented = frozenset()  # nothing known: no input counts as changed at time 0
    return evented_within(items, evented)


#: Operators and types that make a defined value from x: what they drive may hold its value
#: before time 0 already (``x === 1'b0`` is 0), so a defined value arriving then is no change.
_DEFINE_X = frozenset({"===", "!==", "==?", "!=?", "inside"}) | frozenset(
    {"bit", "int", "byte", "shortint", "longint", "'"}
)


def defined_from_x(text: str) -> bool:
    """Whether an item's tokens may make a defined value from x (case equality, a wildcard
    comparison, ``inside``, a cast or a two-state type), so that what it drives need not
    change at time 0 when what it reads does."""
    return any(t in _DEFINE_X for t in text.split(" "))


def may_be_x(text: str, ranges: tuple[tuple[str, int, int], ...] = ()) -> bool:
    """Whether an item's tokens may compute x from defined values (allowed: names,
    constants without x or z, bitwise, logical, shift, add and compare operators, ``?:``,
    concatenation, replication and a bit or part select by integers inside the name's
    declared range, ``ranges``): a division or modulo, an x or z constant, any other select
    (may leave its range), any call (its body is not read)."""
    tokens = [t for t in text.split(" ") if t]
    if tokens and (tokens[0] == "assign" or tokens[0] in _NETS) and "=" in tokens:
        tokens = tokens[tokens.index("=") + 1 :]  # the value (a declared range is no select)
    declared = {n: (lo, hi) for n, lo, hi in ranges}
    for k, t in enumerate(tokens):
        low = t.lower()
        if t == "[" and not _inside(tokens, k, declared):
            return True
        if t in ("/", "%", "/=", "%=", "**") or low in ("'x", "'z") or t.startswith("$"):
            return True
        if k and tokens[k - 1].startswith("'") and any(c in low for c in "xz?"):
            return True
        if t == "(" and k and (tokens[k - 1][:1].isalpha() or tokens[k - 1][:1] == "_"):
            if tokens[k - 1] not in _KEYWORDS:
                return True  # a call
    return False


def _inside(tokens: list[str], k: int, declared: dict[str, tuple[int, int]]) -> bool:
    """Whether the select opening at ``tokens[k]`` is ``name [ i ]`` or ``name [ i : j ]``
    with integers inside the declared range of ``name`` (one select, nothing after it)."""
    bounds = declared.get(tokens[k - 1]) if k else None
    end = tokens.index("]", k) if "]" in tokens[k:] else -1
    inner = tokens[k + 1 : end] if end > 0 else []
    if bounds is None or (end + 1 < len(tokens) and tokens[end + 1] == "["):
        return False
    if len(inner) == 3 and inner[1] == ":":
        inner = [inner[0], inner[2]]
    return len(inner) in (1, 2) and all(
        i.isdigit() and bounds[0] <= int(i) <= bounds[1] for i in inner
    )


#: Words a ``(`` may follow without a call.
_KEYWORDS = frozenset(
    {"assign", "always_comb", "always_latch", "if", "case", "casez", "casex", "for", "while"}
    | {"repeat", "foreach", "begin", "else", "return"}
)
