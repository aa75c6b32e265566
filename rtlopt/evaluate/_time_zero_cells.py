"""The clock-gate cell exemption of the time-0 rule (:mod:`rtlopt.evaluate._time_zero`): a
register clocked straight by an output of a kept cell that surely runs at time 0 is no
reader of that cell's late blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rtlopt.evaluate._time_zero_values import may_be_x
from rtlopt.harness._event_blocks import module_items

if TYPE_CHECKING:
    from rtlopt.frontend.model import Design
    from rtlopt.harness._event_blocks import Item

__all__ = ["clock_cells"]


def clock_cells(late: list[Item], design: Design, evented: frozenset[str]) -> frozenset[str]:
    """The names the outputs of the late instances in ``late`` connect that a register may
    take as its clock without counting as their reader: an instance of a repository module
    with inputs and outputs only (an inout's driver at time 0 is not read), connected by
    name, whose every input reads only names changed at time 0 (``evented``) by an
    expression surely defined then and no name an output connects, of a module
    (:func:`_runs_on_inputs`) whose blocks each wait for one of its inputs and which
    instantiates nothing: every block of it runs at time 0, its outputs are the 0/1
    reading's from then on but for a latch's or a register's power-up value (a clock-gate
    cell's latch while the clock is high), which the x-faithfulness proof reads. Nothing
    else: a late block's own output, or a net derived from one, may have an edge the proofs
    do not see (module docstring)."""
    out: set[str] = set()
    for item in late:
        mod = design.modules.get(item.text.split(" ", 1)[0])
        if not item.instance or item.connections is None or mod is None:
            continue
        directions = {p.name: p.direction for p in mod.ports}
        conns = item.connections[1]
        if {p for p, _, _ in conns} != set(directions):
            continue  # a port left open floats (z)
        if any(d not in ("input", "output") for d in directions.values()):
            continue  # an inout (or a ref): what drives it at time 0 is not read
        inputs = [(e, ns) for p, e, ns in conns if directions[p] == "input"]
        outputs = frozenset().union(*(ns for p, _, ns in conns if directions[p] == "output"))
        if all(
            ns <= evented and not ns & outputs and e and not may_be_x(e) for e, ns in inputs
        ) and _runs_on_inputs(mod.name, design):
            out |= outputs
    return frozenset(out)


def _runs_on_inputs(module: str, design: Design) -> bool:
    """Whether every block of ``module`` evaluated only on an event waits for one of its
    inputs and the module instantiates nothing (read as written; unreadable: no)."""
    mod = design.modules.get(module)
    if mod is None:
        return False
    try:
        items = module_items(mod.text(), module)
    except (RuntimeError, OSError):
        return False
    inputs = {p.name for p in mod.ports if p.direction == "input"}
    return items is not None and not any(
        i.instance or (i.waits is not None and not i.waits & inputs) for i in items.items
    )
