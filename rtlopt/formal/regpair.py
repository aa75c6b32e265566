"""Register correspondence by simulation: which candidate register bit tracks which reference bit.

The AIGER miter's free power-up model (:mod:`rtlopt.formal.miter`, ``free_init``) gives every
register a free defined power-up value and lets a reference and a candidate register bit share
one. Any pairing is sound (a wrong one only makes the proof fail), but the proof needs the right
one: a register that is not reset and holds its power-up value until it is first loaded (an
operand or accumulator register of an iterative multiplier) must start equal to its counterpart,
or the two differ while both hold junk that no output sees, and register correspondence
(ABC ``scorr``) cannot prove them equal afterwards. A rewrite that renames registers defeats
pairing by name.

:func:`signature_pairs` pairs by behaviour instead, as signal correspondence does (van
Eijk), by simulation only: start with every unpaired register bit of both designs in one class;
each round gives every class one random value per run (the same on both sides: the states in
which the registers of a class are equal), draws random inputs, evaluates every register's
next value in ternary logic (many runs side by side as the bits of Python integers) and splits
the classes by it; until a few rounds split nothing. A class holding reference and candidate
bits is paired in order of register width and bit index, so same-shaped registers go together.
No reachable state is needed, so a multiplier that a rare opcode starts is paired as well as one
that runs all the time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence, Set
from typing import TYPE_CHECKING

from rtlopt.formal.netlist import fanin_order, input_leaves

if TYPE_CHECKING:
    from rtlopt.formal.netlist import Bit, MiterSpec, Netlist

__all__ = ["signature_pairs"]

#: A ternary word: (may be 1, may be 0) over the simulated runs, one run per bit.
TWord = tuple[int, int]


def _t_not(a: TWord) -> TWord:
    return (a[1], a[0])


def _t_and(a: TWord, b: TWord) -> TWord:
    return (a[0] & b[0], a[1] | b[1])


def _t_or(a: TWord, b: TWord) -> TWord:
    return (a[0] | b[0], a[1] & b[1])


def _t_xor(a: TWord, b: TWord) -> TWord:
    return ((a[0] & b[1]) | (a[1] & b[0]), (a[0] & b[0]) | (a[1] & b[1]))


def _t_mux(a: TWord, b: TWord, s: TWord) -> TWord:  # s ? b : a
    return ((s[0] & b[0]) | (s[1] & a[0]), (s[0] & b[1]) | (s[1] & a[1]))


#: Ternary word functions of the single-bit gates (inputs in the pin order of ``_GATES``).
_OPS: dict[str, Callable[..., TWord]] = {
    "$_BUF_": lambda a: a,
    "$_NOT_": _t_not,
    "$_AND_": _t_and,
    "$_NAND_": lambda a, b: _t_not(_t_and(a, b)),
    "$_OR_": _t_or,
    "$_NOR_": lambda a, b: _t_not(_t_or(a, b)),
    "$_XOR_": _t_xor,
    "$_XNOR_": lambda a, b: _t_not(_t_xor(a, b)),
    "$_ANDNOT_": lambda a, b: _t_and(a, _t_not(b)),
    "$_ORNOT_": lambda a, b: _t_or(a, _t_not(b)),
    "$_MUX_": _t_mux,
    "$_NMUX_": lambda a, b, s: _t_not(_t_mux(a, b, s)),
    "$_AOI3_": lambda a, b, c: _t_not(_t_or(_t_and(a, b), c)),
    "$_OAI3_": lambda a, b, c: _t_not(_t_and(_t_or(a, b), c)),
    "$_AOI4_": lambda a, b, c, d: _t_not(_t_or(_t_and(a, b), _t_and(c, d))),
    "$_OAI4_": lambda a, b, c, d: _t_not(_t_and(_t_or(a, b), _t_or(c, d))),
}


class _Sim:
    """Ternary values of one netlist's register inputs in one step (a compiled gate order)."""

    def __init__(self, net: Netlist, mask: int, leaves: set[Bit]) -> None:
        self.mask = mask
        x: TWord = (mask, mask)
        self.consts: dict[Bit, TWord] = {"0": (0, mask), "1": (mask, 0), "x": x, "z": x}
        self.order: list[tuple[Bit, Callable[..., TWord], tuple[Bit, ...]]] = []
        self.undriven: list[Bit] = []
        done: set[Bit] = set(leaves)
        for b, drv in fanin_order(net.driver, [d for d, _ in net.ffs], done, loops_undriven=True):
            done.add(b)
            if drv is None:  # undriven, or a combinational loop: the miter refuses it anyway
                self.undriven.append(b)
            else:
                self.order.append((b, _OPS[drv[0]], tuple(drv[1])))

    def step(self, leaves: Mapping[Bit, TWord], wanted: Sequence[Bit]) -> list[TWord]:
        memo: dict[Bit, TWord] = {**self.consts, **leaves}
        x = self.consts["x"]
        for b in self.undriven:
            memo[b] = x
        for b, op, ins in self.order:
            memo[b] = op(*[memo[i] for i in ins])
        return [memo.get(b, x) for b in wanted]


def signature_pairs(
    gold: Netlist,
    gate: Netlist,
    spec: MiterSpec,
    *,
    paired: Sequence[tuple[Bit, Bit]] = (),
    taken: tuple[Set[Bit], Set[Bit]] = (frozenset(), frozenset()),
    runs: int = 64,
    seed: int = 1,
) -> list[tuple[Bit, Bit]]:
    """Pairs (reference Q bit, candidate Q bit) of registers whose next-state functions agree.

    Args:
        gold: The reference netlist.
        gate: The candidate netlist (same ports).
        spec: The miter's time model (clocks are not data; resets active at step 0).
        paired: Register bits already paired (by name): (reference bit, candidate bit).
        taken: Reference and candidate bits already placed otherwise (by next-state
            function, :mod:`rtlopt.formal.regcorr`): left out of the classes.
        runs: Random states and inputs simulated side by side per round.
        seed: The random values' seed (fixed: the same designs give the same pairs).
    """
    skip_gold = {g for g, _ in paired} | set(taken[0])
    skip_gate = {t for _, t in paired} | set(taken[1])
    free_g = [q for _, q in gold.ffs if q not in skip_gold]
    free_t = [q for _, q in gate.ffs if q not in skip_gate]
    if not free_g or not free_t:
        return []
    mask = (1 << runs) - 1
    rng = random.Random(seed)
    clocks = set(spec.clocks) if not spec.global_clock else set()
    ports = [(p, len(bits)) for p, bits in gold.inputs.items() if p not in clocks]
    sims = tuple(
        _Sim(n, mask, {b for bits in n.inputs.values() for b in bits} | {q for _, q in n.ffs})
        for n in (gold, gate)
    )
    assert len(sims) == 2
    nets = (gold, gate)
    late = spec.pair_deadline or float("inf")
    classes = _refine(nets, sims, ports, rng, mask, paired, free_g, free_t, late)
    return _match(gold, gate, free_g, free_t, classes[0], classes[1])


def _refine(
    nets: tuple[Netlist, Netlist],
    sims: tuple[_Sim, _Sim],
    ports: Sequence[tuple[str, int]],
    rng: random.Random,
    mask: int,
    paired: Sequence[tuple[Bit, Bit]],
    free_g: Sequence[Bit],
    free_t: Sequence[Bit],
    late: float,
    rounds: int = 200,
    quiet: int = 4,
) -> tuple[dict[Bit, object], dict[Bit, object]]:
    """Split the simulation classes by next-state behaviour until nothing changes.

    A run of the designs may never leave an idle state (a multiplier started by a rare
    opcode), so registers that hold their power-up value throughout look alike. Each round
    gives every class one random value per run (the same on both sides: the state where each
    class's registers are equal, as correspondence assumes), draws random inputs, and splits
    the classes by the registers' next values (signal correspondence, by simulation only).
    """
    cls: list[dict[Bit, object]] = [{q: 0 for q in free_g}, {q: 0 for q in free_t}]
    # registers paired by name are fixed classes of their own
    fixed: list[dict[Bit, object]] = [{}, {}]
    for k, (g, t) in enumerate(paired):
        fixed[0][g] = fixed[1][t] = ("n", k)
    for side in (0, 1):
        for _, q in nets[side].ffs:
            if q not in cls[side] and q not in fixed[side]:
                fixed[side][q] = ("u", side, q)  # paired otherwise, or left alone
    count = 1
    still = 0
    for _ in range(rounds):
        if time.monotonic() > late:
            break  # the classes so far: coarser, still a pairing
        values: dict[object, TWord] = {}

        def word(key: object, values: dict[object, TWord] = values) -> TWord:
            if key not in values:
                v = rng.getrandbits(mask.bit_length())
                values[key] = (v, mask ^ v)
            return values[key]

        inputs: dict[str, list[TWord]] = {}
        for port, width in ports:
            inputs[port] = [word(("i", port, i)) for i in range(width)]
        new: list[dict[Bit, object]] = [{}, {}]
        for side in (0, 1):
            net = nets[side]
            leaves: dict[Bit, TWord] = {}
            for _, q in net.ffs:
                key = cls[side].get(q, fixed[side].get(q))
                leaves[q] = word(key)
            leaves.update(input_leaves(net.inputs, inputs))
            regs = [(d, q) for d, q in net.ffs if q in cls[side]]
            nxt = sims[side].step(leaves, [d for d, _ in regs])
            for (_, q), v in zip(regs, nxt, strict=True):
                new[side][q] = (cls[side][q], v)
        # canonical class ids, so the keys stay small
        ids: dict[object, int] = {}
        for side in (0, 1):
            for q, key in new[side].items():
                new[side][q] = ids.setdefault(key, len(ids))
        cls = new
        n = len(ids)
        still = still + 1 if n == count else 0
        if still >= quiet:
            break
        count = n
    return cls[0], cls[1]


def _shapes(net: Netlist, qs: Sequence[Bit]) -> dict[Bit, tuple[int, int, str]]:
    """(register width, bit index, name) of register bits, for pairing in order."""
    widths: dict[str, int] = {}
    for q in qs:
        base = net.names.get(q, "").partition("[")[0]
        widths[base] = widths.get(base, 0) + 1
    out: dict[Bit, tuple[int, int, str]] = {}
    for q in qs:
        name = net.names.get(q, "")
        base, _, index = name.partition("[")
        try:
            bit = int(index.rstrip("]")) if index else 0
        except ValueError:
            bit = 0
        out[q] = (widths[base], bit, name)
    return out


def _match(
    gold: Netlist,
    gate: Netlist,
    free_g: Sequence[Bit],
    free_t: Sequence[Bit],
    cls_g: Mapping[Bit, object],
    cls_t: Mapping[Bit, object],
) -> list[tuple[Bit, Bit]]:
    groups: dict[object, tuple[list[Bit], list[Bit]]] = {}
    for q in free_g:
        groups.setdefault(cls_g[q], ([], []))[0].append(q)
    for q in free_t:
        groups.setdefault(cls_t[q], ([], []))[1].append(q)
    shape_g, shape_t = _shapes(gold, free_g), _shapes(gate, free_t)
    pairs: list[tuple[Bit, Bit]] = []
    for gq, tq in groups.values():
        if not gq or not tq:
            continue
        gq.sort(key=lambda q: shape_g[q])
        tq.sort(key=lambda q: shape_t[q])
        pairs += list(zip(gq, tq, strict=False))
    return pairs
