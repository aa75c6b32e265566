"""Register correspondence without names: which reference and candidate register bits hold the
same value, found from the next-state functions (van Eijk's fixpoint, by simulation).

Designs without reset have no common starting state, so a sequential equivalence proof needs
a pairing of the two designs' registers: paired bits start equal, the proof covers every such
power-up state (see ``free_init`` in :mod:`rtlopt.formal.miter`). Names are a weak guide (a
rewrite renames registers, several may share one width). :func:`correspondence` computes the
greatest partition of all register bits (reference and candidate, each bit with a phase: equal
or complemented) that random simulation cannot refute as inductive: starting from one class,
every round gives each class one random value per pattern (members complemented by their
phase), random primary inputs, evaluates every register's next value, and splits the classes
by that value (complemented for complemented members). Phases are hypotheses fixed at the
start: a first fixpoint with every bit equal, then one where the bits left alone are
complements of the other side's. The partition is stable when several rounds with fresh random
values split nothing.

The result is only a *candidate* pairing: whether it is right is for the proof to decide. The
miter uses it soundly whatever it is (each candidate bit is either free or the one source of
its class's shared value; reference bits copy it), so a wrong class can only make the proof
fail, never make it pass.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from rtlopt.formal.netlist import fanin_order, input_leaves, user_name

__all__ = ["Member", "correspondence", "match_classes", "pairs_of"]

#: A register bit: (side, Q bit), side 0 = reference, 1 = candidate.
Node = tuple[int, int | str]
#: A class member: (node, phase); phase 1 = complemented against the class value.
Member = tuple[Node, int]
#: A value an input slice is compared against: (port, lsb, width, value, care mask).
Constant = tuple[str, int, int, int, int]

_WIDTH = 256  # patterns per round (bit-parallel)
_STABLE_ROUNDS = 6
_MAX_ROUNDS = 200

_F = Callable[[int, Sequence[int]], int]
#: Binary functions of Yosys's single-bit gates on bit-parallel words (m: all-ones mask).
_FUN: dict[str, _F] = {
    "$_BUF_": lambda m, i: i[0],
    "$_NOT_": lambda m, i: ~i[0] & m,
    "$_AND_": lambda m, i: i[0] & i[1],
    "$_NAND_": lambda m, i: ~(i[0] & i[1]) & m,
    "$_OR_": lambda m, i: i[0] | i[1],
    "$_NOR_": lambda m, i: ~(i[0] | i[1]) & m,
    "$_XOR_": lambda m, i: i[0] ^ i[1],
    "$_XNOR_": lambda m, i: ~(i[0] ^ i[1]) & m,
    "$_ANDNOT_": lambda m, i: i[0] & ~i[1] & m,
    "$_ORNOT_": lambda m, i: (i[0] | ~i[1]) & m,
    "$_MUX_": lambda m, i: (i[0] & ~i[2] | i[1] & i[2]) & m,
    "$_NMUX_": lambda m, i: ~(i[0] & ~i[2] | i[1] & i[2]) & m,
    "$_AOI3_": lambda m, i: ~((i[0] & i[1]) | i[2]) & m,
    "$_OAI3_": lambda m, i: ~((i[0] | i[1]) & i[2]) & m,
    "$_AOI4_": lambda m, i: ~((i[0] & i[1]) | (i[2] & i[3])) & m,
    "$_OAI4_": lambda m, i: ~((i[0] | i[1]) & (i[2] | i[3])) & m,
}


class Net(Protocol):
    """What :func:`correspondence` reads of a netlist (``rtlopt.formal.netlist.Netlist``)."""

    inputs: dict[str, list[int | str]]
    driver: dict[int | str, tuple[str, list[int | str]]]
    ffs: list[tuple[int | str, int | str]]


def correspondence(
    gold: Net,
    gate: Net,
    *,
    seed: int = 1,
    constants: Sequence[Constant] = (),
    deadline: float = 0.0,
) -> list[list[Member]]:
    """Classes of register bits that random simulation finds inductively equal.

    Args:
        gold: The reference's netlist.
        gate: The candidate's netlist (same input ports).
        seed: Random seed (the result is deterministic for a seed).
        constants: Values input slices are compared against (biased patterns).
        deadline: ``time.monotonic()`` after which refinement stops (0: none); the classes
            are then coarser than the fixpoint, which is as sound (a wrong class only fails
            the proof) and keeps a large design within the proof's time limit.

    Returns:
        The classes with two or more members, members sorted (reference bits first).
    """
    rng = random.Random(seed)
    nodes: list[Node] = [(0, q) for _, q in gold.ffs] + [(1, q) for _, q in gate.ffs]
    if not nodes:
        return []
    slices: dict[tuple[str, int, int], list[tuple[int, int]]] = {}
    for port, lsb, width, value, care in constants:
        if port in gold.inputs:
            slices.setdefault((port, lsb, width), []).append((value, care))
    # equal bits first (one class, every phase 0) ...
    cls = _fixpoint(
        gold, gate, nodes, dict.fromkeys(nodes, 0), dict.fromkeys(nodes, 0), rng, slices, deadline
    )
    groups = _groups(nodes, cls)
    # ... then the bits left alone, as complements of the other side's
    alone = [g[0][0] for g in groups if len(g) == 1]
    if {n[0] for n in alone} == {0, 1}:
        start = {n: i + 1 for i, g in enumerate(groups) if len(g) > 1 for n, _ in g}
        phase = {n: ph for g in groups for n, ph in g}
        for n in alone:
            start[n], phase[n] = 0, n[0]
        cls = _fixpoint(gold, gate, nodes, start, phase, rng, slices, deadline)
        groups = _groups(nodes, cls)
    return [g for g in groups if len(g) > 1]


def _groups(
    nodes: Sequence[Node], cls: tuple[dict[Node, int], dict[Node, int]]
) -> list[list[Member]]:
    ids, phase = cls
    out: dict[int, list[Member]] = {}
    for node in nodes:
        out.setdefault(ids[node], []).append((node, phase[node]))
    return [sorted(g, key=_order) for g in out.values()]


def _fixpoint(
    gold: Net,
    gate: Net,
    nodes: Sequence[Node],
    cls: dict[Node, int],
    phase: dict[Node, int],
    rng: random.Random,
    slices: Mapping[tuple[str, int, int], Sequence[tuple[int, int]]] | None = None,
    deadline: float = 0.0,
) -> tuple[dict[Node, int], dict[Node, int]]:
    """Refine ``cls``/``phase`` until random next-state values split no class (or until
    ``deadline``)."""
    mask = (1 << _WIDTH) - 1
    nets = (gold, gate)
    stable = 0
    for _ in range(_MAX_ROUNDS):
        if deadline and time.monotonic() > deadline:
            break
        n_classes = len(set(cls.values()))
        value = {c: rng.getrandbits(_WIDTH) for c in set(cls.values())}
        ports = {p: [rng.getrandbits(_WIDTH) for _ in bits] for p, bits in gold.inputs.items()}
        _bias(ports, slices or {}, rng)
        nxt: dict[Node, int] = {}
        for side, net in enumerate(nets):
            leaves = input_leaves(net.inputs, ports, missing=0)
            for _, q in net.ffs:
                node = (side, q)
                leaves[q] = value[cls[node]] ^ (mask if phase[node] else 0)
            ev = _Sim(net, leaves, mask, rng)
            for d, q in net.ffs:
                nxt[(side, q)] = ev.get(d)
        keys: dict[tuple[int, int], int] = {}
        new_cls: dict[Node, int] = {}
        for node in nodes:
            # the relation must hold again one step later with the same phases
            v = nxt[node] ^ (mask if phase[node] else 0)
            new_cls[node] = keys.setdefault((cls[node], v), len(keys))
        cls = new_cls
        if len(keys) == n_classes:
            stable += 1
            if stable >= _STABLE_ROUNDS:
                break
        else:
            stable = 0
    return cls, phase


def _bias(
    ports: dict[str, list[int]],
    slices: Mapping[tuple[str, int, int], Sequence[tuple[int, int]]],
    rng: random.Random,
) -> None:
    """Put compared constants on about half of the patterns of each compared slice (each
    pattern gets one of the slice's constants; its don't-care bits stay random)."""
    for (port, lsb, width), values in slices.items():
        words = ports[port]
        left = rng.getrandbits(_WIDTH)
        for value, care in rng.sample(list(values), len(values)):
            sel = left & rng.getrandbits(_WIDTH) if len(values) > 1 else left
            left &= ~sel
            for j in range(min(width, len(words) - lsb)):
                if care >> j & 1:
                    w = words[lsb + j]
                    words[lsb + j] = (w | sel) if value >> j & 1 else (w & ~sel)


def _order(m: Member) -> tuple[int, str]:
    return m[0][0], str(m[0][1])


class _Sim:
    """Bit-parallel binary values of a netlist's bits (x constants and undriven bits random)."""

    def __init__(
        self, net: Net, leaves: Mapping[int | str, int], mask: int, rng: random.Random
    ) -> None:
        self.net = net
        self.memo: dict[int | str, int] = dict(leaves)
        self.mask = mask
        self.rng = rng

    def _const(self, bit: int | str) -> int | None:
        if bit == "0":
            return 0
        if bit == "1":
            return self.mask
        if isinstance(bit, str):
            return self.rng.getrandbits(_WIDTH)
        return None

    def get(self, bit: int | str) -> int:
        c = self._const(bit)
        if c is not None:
            return c
        memo = self.memo
        if bit in memo:
            return memo[bit]
        for b, drv in fanin_order(self.net.driver, (bit,), memo):
            if drv is None:
                memo[b] = self.rng.getrandbits(_WIDTH)
            else:
                memo[b] = _FUN[drv[0]](self.mask, [self._value(i) for i in drv[1]])
        return memo[bit]

    def _value(self, bit: int | str) -> int:
        c = self._const(bit)
        return c if c is not None else self.memo[bit]


def pairs_of(classes: Iterable[list[Member]]) -> list[tuple[list[Member], Member | None]]:
    """Per class: the reference members and the one candidate member they copy (or None)."""
    out: list[tuple[list[Member], Member | None]] = []
    for members in classes:
        golds = [m for m in members if m[0][0] == 0]
        gates = [m for m in members if m[0][0] == 1]
        if golds:
            out.append((golds, gates[0] if gates else None))
    return out


#: At most this many gate evaluations for :func:`match_classes` (a few seconds of Python).
_MATCH_BUDGET = 1_000_000
_MATCH_ROUNDS = 2


def match_classes(
    gold: Net, gate: Net, classes: Sequence[list[Member]], *, seed: int = 1
) -> list[list[Member]]:
    """Split classes holding several bits of each side into one-to-one pairs.

    Bits whose next-state functions agree under the class hypothesis (the six always-zero bits
    of a status register, the bits of a register that only holds its power-up value) land in
    one class; pairing every reference bit of it with one candidate bit would leave the
    candidate's other bits free and the proof would fail. Here each bit of such a class gets
    an observation signature (what flipping it alone changes on the outputs and on the next
    values of the paired registers, in random simulation), and reference bits pair with
    candidate bits of the same signature; the rest pair in order. Classes with one candidate
    bit are kept (every reference bit copies it: registers the candidate merged).

    Any pairing is sound (see :mod:`rtlopt.formal.miter`'s ``free_init``): a wrong one only
    makes the proof fail.

    Returns:
        Classes with at most one candidate bit each (its reference bits copy it).
    """
    classes = _by_name(gold, gate, classes)
    multi = [c for c in classes if _count(c, 0) > 1 and _count(c, 1) > 1]
    size = len(getattr(gold, "driver", {})) + len(getattr(gate, "driver", {}))
    flips = sum(len(c) for c in multi)
    if not multi or flips * size * _MATCH_ROUNDS > _MATCH_BUDGET:
        return _in_order(classes)
    sigs = _signatures(gold, gate, classes, multi, random.Random(seed))
    out: list[list[Member]] = []
    for c in classes:
        if c not in multi:
            out.append(c)
            continue
        golds = [m for m in c if m[0][0] == 0]
        gates = [m for m in c if m[0][0] == 1]
        left: list[Member] = []
        for g in golds:
            t = next((t for t in gates if sigs.get(t[0]) == sigs.get(g[0])), None)
            if t is None:
                left.append(g)
                continue
            gates.remove(t)
            out.append([g, t])
        out += _in_order([left + gates]) if left else []
    return out


def _by_name(gold: Net, gate: Net, classes: Sequence[list[Member]]) -> list[list[Member]]:
    """Pairs of one class whose register bits have the same name on both sides first (a
    register the rewrite kept, such as a register file beside renamed pipeline registers)."""
    names = (getattr(gold, "names", {}), getattr(gate, "names", {}))
    out: list[list[Member]] = []
    for c in classes:
        if _count(c, 0) <= 1 or _count(c, 1) <= 1:
            out.append(c)
            continue
        gates: dict[str, Member] = {}
        for m in c:
            name = user_name(names[1], m[0][1])
            if m[0][0] == 1 and name:
                gates.setdefault(name, m)
        rest: list[Member] = []
        used: list[Member] = []
        for m in c:
            if m[0][0] != 0:
                continue
            t = gates.pop(names[0].get(m[0][1], "") or "\0", None)
            if t is None:
                rest.append(m)
            else:
                out.append([m, t])
                used.append(t)
        rest += [m for m in c if m[0][0] == 1 and m not in used]
        if rest and used and _count(rest, 1) == 0:
            out[-1] += rest  # surplus reference bits copy a matched candidate bit
        elif rest:
            out.append(rest)
    return out


def _count(c: Sequence[Member], side: int) -> int:
    return sum(1 for m in c if m[0][0] == side)


def _in_order(classes: Sequence[list[Member]]) -> list[list[Member]]:
    """Pair the reference and candidate bits of each class in order; surplus reference bits
    copy the last candidate bit, surplus candidate bits stay free."""
    out: list[list[Member]] = []
    for c in classes:
        golds = [m for m in c if m[0][0] == 0]
        gates = [m for m in c if m[0][0] == 1]
        if len(gates) <= 1:
            out.append(c)
            continue
        for i, g in enumerate(golds):
            if i < len(gates) - 1 or i == len(golds) - 1:
                out.append([g, gates[min(i, len(gates) - 1)]])
            else:
                out.append([g, gates[-1]])
    return out


def _signatures(
    gold: Net,
    gate: Net,
    classes: Sequence[list[Member]],
    multi: Sequence[list[Member]],
    rng: random.Random,
) -> dict[Node, tuple[object, ...]]:
    """What flipping each bit of ``multi`` alone changes (outputs by port and bit, next values
    by class), over a few rounds of random patterns; equal for bits that play one role."""
    mask = (1 << _WIDTH) - 1
    cls = {m[0]: i for i, c in enumerate(classes) for m in c}
    phase = {m[0]: m[1] for c in classes for m in c}
    nets = (gold, gate)
    sigs: dict[Node, list[object]] = {m[0]: [] for c in multi for m in c}
    for _ in range(_MATCH_ROUNDS):
        value = {i: rng.getrandbits(_WIDTH) for i in range(len(classes))}
        ports = {p: [rng.getrandbits(_WIDTH) for _ in bits] for p, bits in gold.inputs.items()}
        for side, net in enumerate(nets):
            leaves = input_leaves(net.inputs, ports, missing=0)
            for _, q in net.ffs:
                node = (side, q)
                if node in cls:
                    leaves[q] = value[cls[node]] ^ (mask if phase[node] else 0)
                else:
                    leaves[q] = rng.getrandbits(_WIDTH)
            sim_seed = rng.getrandbits(32)
            base = _observe(net, leaves, mask, side, cls, sim_seed)
            for node in sigs:
                if node[0] != side:
                    continue
                flipped = dict(leaves)
                flipped[node[1]] ^= mask
                seen = _observe(net, flipped, mask, side, cls, sim_seed)
                sigs[node].append(_diff(base, seen))
    return {n: tuple(s) for n, s in sigs.items()}


def _observe(
    net: Net,
    leaves: Mapping[int | str, int],
    mask: int,
    side: int,
    cls: Mapping[Node, int],
    sim_seed: int,
) -> dict[object, int]:
    """Output bits (by port and index) and next values of classed registers (by class)."""
    ev = _Sim(net, leaves, mask, random.Random(sim_seed))
    seen: dict[object, int] = {}
    for port, bits in getattr(net, "outputs", {}).items():
        for i, b in enumerate(bits):
            seen[(port, i)] = ev.get(b)
    for d, q in net.ffs:
        c = cls.get((side, q))
        if c is not None:
            seen[("next", c, q)] = ev.get(d)
    return seen


def _diff(base: Mapping[object, int], seen: Mapping[object, int]) -> object:
    outs = []
    nexts: dict[object, list[int]] = {}
    for k, v in base.items():
        d = v ^ seen[k]
        if not d:
            continue
        if isinstance(k, tuple) and k[0] == "next":
            nexts.setdefault(k[1], []).append(d)
        else:
            outs.append((k, d))
    return (
        tuple(sorted(outs, key=repr)),
        tuple(sorted((c, tuple(sorted(v))) for c, v in nexts.items())),
    )
