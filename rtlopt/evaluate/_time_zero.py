"""Simulation time 0: a change between a continuous form and a block evaluated on an event.

``assign y = ~a;`` (a gate, ``always_comb``) is evaluated at time 0; ``always @* y = ~a;``
(``always @(a)``) runs on an event of ``a`` only. Where the repository's design gives ``a`` no
event at time 0 (``reg a = 1'b1;`` under SystemVerilog: a declaration initializer is no
event; a register before its first write; :mod:`rtlopt.frontend._time_zero`), the block's
outputs stay x until ``a`` changes, where the continuous form's are defined, and the other
way round. The proofs (0/1 values, combinational) read both forms alike and rtlopt's own
simulation changes every input, so neither sees it; a register that captures the output at
the first clock edge, a ``$display`` or a reader that decides on x does.

The rule (:func:`time_zero_unchecked`), per module item of the target (the reference's and the
candidate's text as the tools read them):

* a block evaluated only on an event that waits for an input the repository changes at time 0
  in every instance (:func:`rtlopt.frontend._time_zero.evented_inputs`), or for a name an
  item changes at time 0 from those (:mod:`rtlopt.evaluate._time_zero_values`: written on
  every path with a value surely defined), runs at time 0 like a continuous form: it may
  become one, or come from one;
* every other such block (an instance of a module with one in its hierarchy counts, waiting
  for what it connects) must have its counterpart on the other side: a block waiting for the
  same names (inputs and signals both sides declare) whose writes reach the same signals of
  both sides (its body may change, and so may the names of what it writes first: ``r`` for
  ``alu_r``); and what it waits for must reach time 0 the same way on both sides: an input,
  a parameter, or a signal whose writers are the same items on both sides, whose own reads
  are so too (transitively);
* what reads the outputs of late blocks (transitively) must be the same items on both sides,
  compared by what they compute on x and z (:mod:`._time_zero_canon`: ``!t ? a : b`` is
  ``t ? b : a``);
  a register clocked by one reads it (its first event is an edge, x to 0 or 1, where the 0/1
  reading may have none: ``always @(clk or b) t = clk;`` with ``clk`` held at 1 rises when
  ``b`` first changes), and so is one clocked by a net derived from one (``t !== 1'b0`` is 1
  while ``t`` is x), except a register clocked straight by an output of a kept instance
  (:func:`clock_cells`: a clock-gate cell, inputs and outputs only) whose every input
  changes at time 0 and whose module's blocks each wait for one of its inputs: its blocks
  run at time 0 and its latch holds its power-up value, which the x-faithfulness proof
  reads, until then;
* a kept instance with parameter overrides elaborates alike only where the declarations they
  may read (parameters, functions, ``let``, types) are the same on both sides and they call
  no function the module does not declare; the candidate's own modules are followed to any
  depth for such blocks;
* names are read as text, without scopes: a name a generate or statement block declares and
  another declaration shares is unchecked;
* anything else is unchecked, fail closed (so is a repository whose instances cannot be read:
  then no input counts as changed at time 0).

Not decided here: the power-up x a kept cell's latch or register holds until it first opens
or is written (the x-faithfulness proof reads it). Held inputs: :mod:`._time_zero_held`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from rtlopt.evaluate._time_zero_align import aligned as _aligned
from rtlopt.evaluate._time_zero_align import reached as _reached
from rtlopt.evaluate._time_zero_align import writers as _writers
from rtlopt.evaluate._time_zero_cells import clock_cells
from rtlopt.evaluate._time_zero_held import (
    connected_otherwise,
    covered,
    edge_message,
    edge_names,
    edge_ports,
    generated,
    one_sided,
    unfolded,
)
from rtlopt.evaluate._time_zero_readers import FIX as _FIX
from rtlopt.evaluate._time_zero_readers import changed_readers, readers_message
from rtlopt.evaluate._time_zero_values import evented_within
from rtlopt.evaluate._time_zero_values import late as _late
from rtlopt.evaluate._time_zero_values import within as _within
from rtlopt.harness._event_blocks import Item, ModuleItems, module_items

if TYPE_CHECKING:
    from rtlopt.evaluate._candidate import Candidate
    from rtlopt.evaluate._preprocess import Preprocessed
    from rtlopt.evaluate._setup import EvalSetup
    from rtlopt.frontend.model import Design

__all__ = ["time_zero_change", "time_zero_unchecked"]

_WHY = (
    "a variable's initializer (reg a = 1'b1) makes no event in SystemVerilog (iverilog "
    "-g2012, read unless known otherwise), nor does a register before its first write"
)
_HELD = (
    "a testbench outside the repository may hold a top's inputs by initializers (logic a = "
    "1'b0;) without an event, so nothing its inputs reach changes at time 0 either"
)
_DIRECT = (
    "a testbench outside the repository (or a file the configuration leaves out) may "
    "instantiate the module itself and hold its inputs so"
)


def time_zero_unchecked(s: EvalSetup, c: Candidate, pp: Preprocessed | None) -> str:
    """Why the candidate is unchecked at simulation time 0 (module docstring), or "":
    ``pp`` is its preprocessed text (None on the view path: the texts as written)."""
    from rtlopt.harness import same_as_reference

    if same_as_reference(c.text, s.design):
        return ""
    t = s.design.target
    unit = s.unit
    if pp is not None and unit is not None:
        ref_text = unit.unit_text()

        def ref_line(n: int) -> int:
            where = unit.source_of(n)
            return where[1] if where is not None else n

    else:
        whole = t.file.read_text(errors="replace")
        ref_text = whole[t.start : t.end]
        first = whole.count("\n", 0, t.start)

        def ref_line(n: int) -> int:
            return first + n

    cand_text = pp.text if pp is not None else c.text
    seen: dict[str, bool] = {}
    why = time_zero_change(
        s.design, ref_text, cand_text, ref_line, pp.source_line if pp is not None else None, seen
    )
    c.event_blocks = seen.get("event_blocks", True)
    return why


def time_zero_change(
    design: Design,
    ref_text: str,
    cand_text: str,
    ref_line: Callable[[int], int] | None = None,
    cand_line: Callable[[int], int] | None = None,
    seen: dict[str, bool] | None = None,
) -> str:
    """The rule of the module docstring on the texts holding the reference's and the
    candidate's target module; "" when they agree at time 0. ``ref_line`` and
    ``cand_line`` map a line of the texts to the one a message names; ``seen["event_blocks"]``
    is set False where neither side holds a block run on an event."""
    name = design.target.name
    try:
        ref = module_items(ref_text, name)
        cand = module_items(cand_text, name)
    except RuntimeError as exc:  # pyslang's own limits
        return f"the module cannot be read for what it evaluates at simulation time 0 ({exc})"
    if ref is None or cand is None:
        return "the module cannot be read for what it evaluates at simulation time 0"
    ref, cand = _lines(ref, ref_line), _aligned(ref, _lines(cand, cand_line))
    edges = edge_names(ref) | edge_names(cand)
    if edges:
        inputs = {p.name for p in design.target.ports if p.direction in ("input", "inout")}
        read = _instances_read(ref, design), _instances_read(cand, design)
        bad = _changed_reach(sorted(edges), read[0], read[1], inputs)
        if bad:
            return edge_message(bad, name, _WHY)
    moved = connected_otherwise(ref, cand, lambda m: edge_ports(design, cand_text, m))
    if moved:
        return f"{moved} ({_WHY}); keep the connections' expressions"
    hier: dict[str, bool] = {}
    if not _on_event(ref, design, hier) and not _on_event(cand, design, {}, own=cand_text):
        if seen is not None:
            seen["event_blocks"] = False  # nothing waits for an event: nothing is late
        return ""
    shadowed = _shadowed(ref, cand, name)
    if shadowed:
        return shadowed
    readings = [(_within(design, ref), _within(design, cand))]
    held = _within(design, ref, False), _within(design, cand, False)
    if held != readings[0]:
        readings.append(held)  # a top's inputs held by the environment: the candidate's side
    # a testbench outside the repository may instantiate the target itself and hold its
    # inputs (its unit test, a file the configuration leaves out): read as a top's
    direct = evented_within(ref, frozenset()), evented_within(cand, frozenset())
    kinds = [0, 1][: len(readings)] + ([2] if direct not in readings else [])
    if direct not in readings:
        readings.append(direct)
    ref, cand = _instances_read(ref, design), _instances_read(cand, design)
    on = _on_event(ref, design, hier), _on_event(cand, design, {}, own=cand_text)
    on = unfolded(on[0], ref), unfolded(on[1], cand)
    for k, (within_ref, within_cand) in zip(kinds, readings, strict=True):
        late = (
            [i for i in on[0] if _late(i, within_ref)],
            [i for i in on[1] if _late(i, within_cand)],
        )
        why = _held_before(late, ref, cand, name) or _compare(
            design, (ref, cand), late, (within_ref, within_cand), held=k
        )
        if why:
            return why
    return ""


def _held_before(
    late: tuple[list[Item], list[Item]], ref: ModuleItems, cand: ModuleItems, name: str
) -> str:
    """Why what a late block writes holds another value before its first event (a
    declaration's initializer, a two-state type's 0: round 67), or ""."""
    written = frozenset().union(*(i.writes for side in late for i in side))
    before = [{(n, t) for n, t in items.fixed_decls if n in written} for items in (ref, cand)]
    if before[0] == before[1]:
        return ""
    changed = sorted({n for n, _ in before[0] ^ before[1]})[0]
    return (
        f"{changed} of {name}, written by a block that runs only on an event of what it "
        "waits for, is declared otherwise (an initializer, a two-state type): until that "
        f"event at simulation time 0 it holds what its declaration gives ({_WHY}); keep its "
        "declaration"
    )


def _compare(
    design: Design,
    sides: tuple[ModuleItems, ModuleItems],
    late: tuple[list[Item], list[Item]],
    within: tuple[frozenset[str], frozenset[str]],
    held: int,
) -> str:
    """The rule of the module docstring on the late blocks ``late`` of the reference and the
    candidate (``sides``) in one reading of what changes at time 0 (``within``). ``held``
    1: a top's inputs held without an event (:data:`_HELD`), judged for the candidate alone
    where :func:`one_sided` (defined earlier than the reference refines what the environment
    left x, as LEC at a top's ports; x where the reference is defined is unchecked); 2: the
    target's own inputs held by a testbench instantiating it (:data:`_DIRECT`), read as a
    top's."""
    name = design.target.name
    ref, cand = sides
    late_ref, late_cand = late
    why = {0: _WHY, 1: f"{_WHY}; {_HELD}", 2: f"{_WHY}; {_DIRECT}"}[held]
    held = bool(held) and one_sided(design, sides, late, outside=held == 1)
    gen = generated(late, name, why, held)
    if gen:
        return f"{gen}; {_FIX}"
    inputs = {p.name for p in design.target.ports if p.direction in ("input", "inout")}
    relevant = ref.signals | cand.signals | inputs
    shared = (ref.signals & cand.signals) | inputs | {p.name for p in design.target.ports}

    cells = clock_cells(late_ref, design, within[0]), clock_cells(late_cand, design, within[1])

    def shape(items: ModuleItems, cell: frozenset[str]) -> Callable[[Item], _Shape]:
        def of(i: Item) -> _Shape:
            """When a block runs and which signals of both sides it reaches (its body and
            the names of what it writes for the first time may change)."""
            waits = (i.waits or frozenset()) - i.writes
            reach = _reached(i.writes, items, cell) & shared
            marks = frozenset(w for w in waits if w.startswith("<"))  # an expression's value
            return (
                i.text if i.form.startswith("instance") else "",
                reach,
                waits & relevant | marks,
            )

        return of

    ref_shape, cand_shape = shape(ref, cells[0]), shape(cand, cells[1])

    def _woken(i: Item, side: str = "candidate") -> bool:
        """A block of the other side reaching the same wakes with it (:func:`covered`; held
        reading: the candidate's whenever the reference's; else both ways, ``t = s``)."""
        ins = frozenset(inputs)
        if side == "reference":
            return not held and any(
                cand_shape(c)[:2] == ref_shape(i)[:2]
                and covered(c, i, ref, cand, ins)
                and covered(i, c, cand, ref, ins)
                for c in late_cand
            )
        return any(
            # held: the same block (what it reaches may shrink: defined earlier refines)
            (ref_shape(r)[:2] == cand_shape(i)[:2] or (held and r.text == i.text))
            and covered(i, r, ref, cand, ins)
            and (held or covered(r, i, cand, ref, ins))
            for r in late_ref
        )

    extra_cand = Counter(map(cand_shape, late_cand)) - Counter(map(ref_shape, late_ref))
    extra_ref = Counter(map(ref_shape, late_ref)) - Counter(map(cand_shape, late_cand))
    for side, items, extra in (
        ("candidate", late_cand, extra_cand),
        ("reference", late_ref, extra_ref),
    )[: 2 - held]:
        of = cand_shape if side == "candidate" else ref_shape
        item = next((i for i in items if of(i) in extra and not _woken(i, side)), None)
        if item is not None:
            return _message(side, item, name, why)
    changed = changed_readers(sides, late, cells, held)
    if changed:
        return readers_message(changed[0], changed[1], name, why)
    kept = [i for i in late_cand if not _woken(i)]  # a covered block wakes as the reference's
    return _kept_reads(kept, ref, cand, inputs, relevant, name, why)


def _shadowed(ref: ModuleItems, cand: ModuleItems, name: str) -> str:
    """Why the rule cannot read names of the module without scopes, or ""."""
    for side, read in (("reference", ref), ("candidate", cand)):
        if read.shadowed:
            return (
                f"the {side}'s {name} declares {sorted(read.shadowed)[0]} in a generate "
                "block or a statement block and elsewhere too: which one a block waiting for "
                "it reads is not resolved by this rule, which decides what runs at simulation "
                f"time 0 by names ({_WHY}); {_FIX}"
            )
    return ""


def _kept_reads(
    late: list[Item],
    ref: ModuleItems,
    cand: ModuleItems,
    inputs: set[str],
    relevant: set[str] | frozenset[str],
    name: str,
    why: str = _WHY,
) -> str:
    """Why the candidate's late blocks, paired with the reference's, may change at time 0
    through what they read (writers changed on the way, or an instance's parameters), or
    ""."""
    for item in late:
        # an instance: every name its connections read, inouts and outputs too
        instance = item.form.startswith("instance")
        waited = sorted(
            ((item.waits or frozenset()) - (frozenset() if instance else item.writes)) & relevant
        )
        if instance and _elaborated_otherwise(item, ref, cand):
            return (
                f"the {item.form} at line {item.line} runs blocks only on an event of what "
                "it connects, and the candidate changes the parameter, function, let or type "
                "declarations its parameters may read (or they call a function the module "
                f"does not declare): what it elaborates at simulation time 0 ({why}) is "
                f"not compared; {_FIX}"
            )
        bad = _changed_reach(waited, ref, cand, inputs)
        if bad:
            via = f"'{bad[0]}'" + (f", which reaches '{bad[1]}'," if bad[1] != bad[0] else "")
            return (
                f"the {item.form} block of {name} at line {item.line} runs only on an event "
                f"of what it waits for, as the reference's, and it reads {via} whose writers "
                "the candidate changes: whether that changes at simulation time 0 as in the "
                f"reference is not checked ({why}); {_FIX}"
            )
    return ""


_Shape = tuple[str, frozenset[str], frozenset[str]]


def _elaborated_otherwise(item: Item, ref: ModuleItems, cand: ModuleItems) -> bool:
    """Whether the kept instance ``item`` may elaborate otherwise in the candidate: the
    parameter declarations differ, or it has overrides and the declarations they may read
    differ (functions, tasks, ``let``, types), or they (or a parameter's value) call a
    function the module does not declare (of a package or the compilation unit: not
    compared)."""
    overrides = item.connections[0] if item.connections else _overrides(item.text)
    if ref.params != cand.params:
        return True
    if not overrides:
        return False  # it elaborates by its own module's defaults (a defparam is screened)
    if ref.subprograms != cand.subprograms:
        return True
    declared = set()
    for t in cand.subprograms:
        head = t.split(" ")
        if head[0] == "function":
            ends = [k for k, w in enumerate(head) if w in ("(", ";")]
            declared.add(head[ends[0] - 1] if ends else "")
    return any(n not in declared for t in (overrides, *cand.params) for n in _calls(t))


def _overrides(text: str) -> str:
    """The parameter list ``# ( ... )`` of an instance's text (tokens), or ""."""
    tokens = text.split(" ")
    if "#" not in tokens:
        return ""
    depth, out = 0, []
    for t in tokens[tokens.index("#") + 1 :]:
        out.append(t)
        depth += {"(": 1, ")": -1}.get(t, 0)
        if depth <= 0:
            break
    return " ".join(out)


def _calls(text: str) -> set[str]:
    """The names ``text`` calls (``f (``; a system function's ``$clog2 (`` and a named
    override's ``. MODE (`` aside)."""
    tokens = text.split(" ")
    return {
        t
        for k, (t, nxt) in enumerate(zip(tokens, tokens[1:], strict=False))
        if nxt == "("
        and (t[:1].isalpha() or t[:1] == "_")
        and t not in _NOT_CALLS
        and (k == 0 or tokens[k - 1] != ".")
    }


#: Words a ``(`` follows in a parameter list or declaration without a call.
_NOT_CALLS = frozenset({"parameter", "localparam", "type", "if", "case"})


def _lines(items: ModuleItems, line: Callable[[int], int] | None) -> ModuleItems:
    if line is None:
        return items
    from dataclasses import replace

    return replace(items, items=tuple(replace(i, line=line(i.line)) for i in items.items))


def _message(side: str, item: Item, name: str, why: str = _WHY) -> str:
    names = sorted((item.waits or frozenset()) - item.writes) or sorted(item.waits or ())
    names = [
        n if not n.startswith("<") else "an expression's value, compared as written" for n in names
    ]
    waits = ", ".join(names[:6]) or "nothing"
    other = "reference" if side == "candidate" else "candidate"
    return (
        f"the {side}'s {item.form} block of {name} at line {item.line} runs only on an event "
        f"of what it waits for ({waits}), and the repository changes none of its inputs at "
        f"simulation time 0 in every instance ({why}): its outputs stay x until then where "
        f"the {other}'s are evaluated at time 0 (assign, a gate or always_comb), which neither "
        f"the proofs nor rtlopt's simulation model; {_FIX}"
    )


def _on_event(
    items: ModuleItems, design: Design, hier: dict[str, bool], own: str = ""
) -> list[Item]:
    """The module's blocks evaluated only on an event, and its instances of a module with
    one in its hierarchy (each waiting for every name its connections mention); ``own``:
    the candidate's text, whose own modules count as the repository's."""
    from dataclasses import replace

    out = list(items.on_event)
    for item in items.items:
        module = item.text.split(" ", 1)[0]
        mine = bool(own) and item.waits is None and item.instance
        if mine and (module in _declared(own) or _other_unit(module, own)):
            # the candidate's own definition (also of a repository module it redefines, or
            # an interface, program or checker, not followed: counted)
            if _other_unit(module, own) or _own_late(module, own, design, hier, set()):
                form = f"instance of {module} (a module the candidate defines with such a block)"
                out.append(replace(item, waits=item.mentions, form=form))
            continue
        if mine and module not in design.modules:
            continue  # a module defined nowhere (a vendor cell) is judged by the other rules
        if module in design.modules and item.waits is None:
            if _has_event_blocks(module, design, hier):
                form = f"instance of {module} (a module with such a block below it)"
                # what it waits for: the sources of its inputs (nothing when its
                # connections are not read: every name it mentions counts as written)
                out.append(replace(item, waits=item.mentions, form=form))
    return out


def _other_unit(name: str, text: str) -> bool:
    """Whether ``text`` defines ``name`` as an interface, program or checker."""
    import re

    unit = rf"\b(?:interface|program|checker)\s+(?:\w+\s+)?{re.escape(name)}\b"
    return bool(re.search(unit, text))


def _declared(text: str) -> set[str]:
    """The modules ``text`` defines."""
    from rtlopt.verilog import module_declarations

    return {n for n, _ in module_declarations(text)}


def _own_late(module: str, own: str, design: Design, hier: dict[str, bool], seen: set[str]) -> bool:
    """Whether the candidate's module ``module`` (in its text ``own``) or a module below it
    has a block evaluated only on an event, or instantiates a repository module (followed no
    further: counted); a module that cannot be read: yes."""
    if module in seen:
        return False  # a loop of instances adds nothing
    seen.add(module)
    try:
        mine = module_items(own, module)
    except RuntimeError:
        return True
    if mine is None or mine.on_event or _instances(mine, design):
        return True
    return any(
        _own_late(i.text.split(" ", 1)[0], own, design, hier, seen)
        for i in mine.items
        if i.instance and i.waits is None
    )


def _instances_read(items: ModuleItems, design: Design) -> ModuleItems:
    """``items`` with each instance of a repository module whose connections are all named
    writing only what its outputs and inouts connect, its text the module, its parameters and
    its connections as written in port order (the same instance on both sides is the same
    text whatever its name; what its connections read is compared by their writers,
    :func:`_changed_reach`)."""
    from dataclasses import replace

    out = []
    for item in items.items:
        mod = design.modules.get(item.text.split(" ", 1)[0])
        if item.connections is not None and mod is not None and item.waits is None:
            directions = {p.name: p.direction for p in mod.ports}
            params, conns = item.connections
            w = [ns for p, _, ns in conns if directions.get(p) != "input"]
            # its name and the order of its connections change nothing
            text = " ".join([mod.name, params, *(f". {p} ( {e} )" for p, e, _ in conns)])
            item = replace(item, text=text, writes=frozenset().union(*w))
        out.append(item)
    return replace(items, items=tuple(out))


def _instances(items: ModuleItems, design: Design) -> bool:
    """Whether ``items`` instantiate a repository module (followed no further: counted)."""
    return any(i.text.split(" ", 1)[0] in design.modules for i in items.items if i.waits is None)


def _has_event_blocks(module: str, design: Design, hier: dict[str, bool]) -> bool:
    """Whether ``module`` (of the repository) or a module below it has a block evaluated
    only on an event (a module that cannot be read: yes)."""
    if module in hier:
        return hier[module]
    hier[module] = False  # a loop of instances adds nothing
    found = True
    mod = design.modules.get(module)
    if mod is not None:
        try:
            items = module_items(mod.text(), module)
        except (RuntimeError, OSError):
            items = None
        if items is not None:
            found = bool(items.on_event) or any(
                _has_event_blocks(i.text.split(" ", 1)[0], design, hier)
                for i in items.items
                if i.text.split(" ", 1)[0] in design.modules and i.waits is None
            )
    hier[module] = found
    return found


def _changed_reach(
    start: list[str], ref: ModuleItems, cand: ModuleItems, inputs: set[str]
) -> tuple[str, str] | None:
    """``(name waited for, name it reaches)`` when a name of ``start`` reaches (through the
    items writing it and what they mention) a signal whose writers differ between the
    reference and the candidate; else None. Inputs and names neither side declares as a
    signal (parameters, functions, a block's own variables) reach nothing."""
    for first in start:
        seen: set[str] = set()
        stack = [first]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            if n in inputs or (n not in ref.signals and n not in cand.signals):
                continue
            if _writers(ref, n) != _writers(cand, n):
                return first, n
            stack += sorted({m for i in ref.items if n in i.writes for m in i.mentions} - seen)
    return None
