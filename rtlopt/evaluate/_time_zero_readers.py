"""What reads the outputs of the blocks that run only on an event at simulation time 0
(:mod:`rtlopt.evaluate._time_zero`): those items must be the same on both sides (the
candidate's alone in a held reading), a register they clock included. Items are compared by
what they compute (:func:`rtlopt.evaluate._time_zero_canon.computed`: their texts with
assignments rewritten by identities exact on x and z), so a reader rewritten to compute the
same four-valued value from the same names (``c <= ~t`` for ``c <= !t`` of one bit, ``!t ? a
: b`` for ``t ? b : a``) is the same item."""

from __future__ import annotations

from rtlopt.evaluate._time_zero_align import reached as _reached
from rtlopt.evaluate._time_zero_canon import computed
from rtlopt.harness._event_blocks import Item, ModuleItems

__all__ = ["FIX", "changed_readers", "readers_message"]

FIX = "keep the reference's form (assign or always_comb, or always @*) for what it computes"


def changed_readers(
    sides: tuple[ModuleItems, ModuleItems],
    late: tuple[list[Item], list[Item]],
    cells: tuple[frozenset[str], frozenset[str]],
    held: bool,
) -> tuple[str, list[Item]] | None:
    """The first item reading a late block's outputs on one side only (the candidate's alone
    where ``held``), with the registers those outputs clock; None when they agree."""
    (ref, cand), (late_ref, late_cand) = sides, late
    readers = (
        _readers(late_ref, ref, cells[0], by_clock=held),
        _readers(late_cand, cand, cells[1], by_clock=held),
    )
    keys = frozenset(readers[0]), frozenset(readers[1])
    changed = keys[1] - keys[0] if held else keys[0] ^ keys[1]
    if not changed:
        return None
    first = sorted(changed)[0]
    text = readers[1].get(first) or readers[0][first]
    clocked = [
        i
        for items, lt, cell in ((ref, late_ref, cells[0]), (cand, late_cand, cells[1]))
        for i in _clocked(lt, items, cell)
    ]
    return text, clocked


def _clocked(late: list[Item], items: ModuleItems, held: frozenset[str]) -> list[Item]:
    """The registers of ``items`` clocked by what ``late`` write (transitively), other than
    by an output of a cell of ``held``."""
    start = frozenset().union(*(i.writes for i in late)) if late else frozenset()
    reached = _reached(start, items, held)
    return [i for i in items.items if (i.clocks - held) & reached]


def readers_message(changed: str, clocked: list[Item], name: str, why: str) -> str:
    """Why a change of ``changed`` (the text of an item reading a late block's outputs on
    one side only) is unchecked; ``clocked``: the registers clocked by those outputs."""
    via = ""
    if clocked:
        reg = clocked[0]
        via = (
            f" through a register clocked by {', '.join(sorted(reg.clocks))} at line "
            f"{reg.line}, which such a block drives: its first event is an edge (x to 0 or "
            "1) where the 0/1 reading may have none, and a clock derived from it "
            "(t !== 1'b0) is defined while it is x;"
        )
    return (
        f"what reads the outputs of the always blocks of {name} that run only on an event "
        f"of what they wait for changes ('{changed[:60]}'),{via} those outputs are x "
        f"until their first event at simulation time 0 ({why}), and the proofs read the "
        f"change on 0/1 values only; {FIX}"
    )


def _readers(
    late: list[Item], items: ModuleItems, held: frozenset[str] = frozenset(), by_clock: bool = False
) -> dict[str, str]:
    """The items, other than ``late`` themselves, that read what ``late`` write
    (transitively; a register clocked by a name of ``held`` does not read it), each as what
    it computes (:func:`computed`) with its text. ``by_clock``
    (the held reading, judged on the candidate's side): only the registers they clock, each
    as its clocks (``@ g``): the late blocks reach the same signals on both sides and the
    candidate's wake whenever the reference's do, so what reads their values as data is
    defined whenever the reference's is; a clock's first edge from x is compared."""
    start = frozenset().union(*(i.writes for i in late)) if late else frozenset()
    reached = _reached(start, items, held)
    own = {i.text for i in late}
    if by_clock:
        return {
            "@ " + " ".join(sorted(i.clocks)): "@ " + " ".join(sorted(i.clocks))
            for i in items.items
            if i.text not in own and (i.clocks - held) & reached
        }
    return {
        computed(i.text, items): i.text
        for i in items.items
        if i.text not in own and (i.mentions - i.writes - (i.clocks & held)) & reached
    }
