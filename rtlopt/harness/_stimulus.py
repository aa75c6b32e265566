"""Seeded, reproducible stimulus classes for the equivalence testbench.

Combinational designs get, per mode (every value of the narrow control inputs, like the C910
LZA harness's ``sub_vld`` = 0 / 1): corner values (zero, all ones, MSB only, LSB only,
alternating) on all inputs and per input against zero / all-ones neighbours, walking ones and
zeros, close pairs (two equal-width operands that differ in one bit), then seeded random and
sparse vectors (few bits set or cleared). When the total input width is small every
combination is enumerated instead. Sequential designs get a reset sequence, directed corner
values held for several cycles, walking bits, random cycles, slowly changing inputs with
occasional reset pulses, sparse cycles, and one long run without reset (inputs held for up to
64 cycles) that reaches deep counter and timer states; with several resets, every reset state
(each asserted alone, each released alone) under random inputs.

Both add a *biased* class when the design compares its inputs against constants
(:func:`rtlopt.frontend.compare_constants`): each compared slice of an input gets one of its
constants with probability ``bias_probability`` (don't-care bits and the rest of the input
random). Sequential designs get bursts of fresh biased values every cycle (decoders) and biased
values held for 1 to ``bias_hold_max`` cycles, with the uncompared inputs either held too or
fresh every cycle, so that an operation an opcode starts
runs to its end (a 64-cycle multiplier needs its opcode for 64 cycles); the held operands are
small a third of the time and those of equal width equal a quarter of the time (a divider's tie
of remainder and divisor). The class comes after
every other one, so the vectors of the other classes do not change with it. Before it, the
*small* class (:mod:`rtlopt.harness._small`): every wide input a small number, positive or
negative, so clamped and scaled arithmetic stays in range.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rtlopt.config import HarnessConfig
from rtlopt.frontend import FieldConstant
from rtlopt.harness._small import NARROW, small_combinational, small_cycles, small_value


@dataclass(frozen=True)
class Field:
    """One driven input inside the packed stimulus word."""

    name: str
    width: int
    offset: int  # bit position of the field's LSB in the packed word
    reset_active: int | None = None  # for resets: the active level (0 or 1)

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1


def pack_fields(ports: Sequence[tuple[str, int]], resets: dict[str, int]) -> list[Field]:
    """Lay inputs out LSB-first in a packed word.

    Args:
        ports: ``(name, width)`` of each driven input in declaration order.
        resets: Reset input name to its active level.
    """
    out: list[Field] = []
    off = 0
    for name, width in ports:
        out.append(Field(name, width, off, resets.get(name)))
        off += width
    return out


def total_width(fields: Sequence[Field]) -> int:
    return sum(f.width for f in fields)


def _patterns(width: int) -> dict[str, int]:
    ones = (1 << width) - 1
    alt = int("10" * width, 2) >> width if width > 1 else 1  # ...1010
    return {
        "zero": 0,
        "ones": ones,
        "msb": 1 << (width - 1),
        "lsb": 1,
        "alt10": alt & ones,
        "alt01": (~alt) & ones,
    }


def _put(fields: Sequence[Field], values: dict[str, int]) -> int:
    word = 0
    for f in fields:
        word |= (values.get(f.name, 0) & f.mask) << f.offset
    return word


@dataclass
class Stimulus:
    """Vectors (packed words) grouped by class, in order."""

    classes: dict[str, list[int]]

    @property
    def vectors(self) -> list[int]:
        return [v for vs in self.classes.values() for v in vs]

    def counts(self) -> dict[str, int]:
        return {k: len(v) for k, v in self.classes.items() if v}


def _split_modes(fields: Sequence[Field]) -> tuple[list[Field], list[Field]]:
    """Narrow control inputs (width <= 2, at most 4 bits in all) vs data inputs."""
    narrow = [f for f in fields if f.width <= 2]
    wide = [f for f in fields if f.width > 2]
    if not wide or sum(f.width for f in narrow) > 4:
        return [], list(fields)
    return narrow, wide


def _modes(narrow: Sequence[Field]) -> Iterator[dict[str, int]]:
    ranges = [range(1 << f.width) for f in narrow]
    for combo in itertools.product(*ranges):
        yield dict(zip((f.name for f in narrow), combo, strict=True))


class _Bias:
    """Draws input values that match the design's compared constants."""

    def __init__(
        self, fields: Sequence[Field], constants: Sequence[FieldConstant], cfg: HarnessConfig
    ) -> None:
        self.p = cfg.bias_probability
        by_name = {f.name: f for f in fields}
        # per input: its compared slices, each with the constants seen on it
        slices: dict[str, dict[tuple[int, int], list[FieldConstant]]] = {}
        for c in constants:
            f = by_name.get(c.port)
            if f is None or f.reset_active is not None or c.lsb + c.width > f.width:
                continue
            slices.setdefault(c.port, {}).setdefault((c.lsb, c.width), []).append(c)
        self.slices = {k: list(v.values()) for k, v in sorted(slices.items())}

    def __bool__(self) -> bool:
        return bool(self.slices)

    def value(self, rng: random.Random, f: Field) -> int:
        v = rng.getrandbits(f.width)
        groups = list(self.slices.get(f.name, ()))
        rng.shuffle(groups)
        # nested slices (insn[15:13] and insn[15:14]): the wider first, since random values
        # cover a narrow slice's few values anyway but almost never a wide slice's one
        groups.sort(key=lambda g: -g[0].width)
        taken = 0
        for group in groups:
            span = ((1 << group[0].width) - 1) << group[0].lsb
            if span & taken or rng.random() >= self.p:
                continue  # bits another slice already set keep its constant
            c = rng.choice(group)
            care = c.care << c.lsb
            v = (v & ~care) | ((c.value << c.lsb) & care)
            taken |= span
        return v & f.mask


def _operands(
    values: dict[str, int], data: Sequence[Field], bias: _Bias, rng: random.Random
) -> dict[str, int]:
    """``values`` with the wide inputs no constant is compared with (the operands of an
    operation an opcode starts) small a third of the time, and those of equal width equal a
    quarter of the time: a divider's step that meets an equal remainder (``3 / 3``), a
    comparator's tie, which random wide operands almost never reach (held-out trial 49:
    biriscv's divider broken at ``divisor <= remainder`` passed 6,283 cycles)."""
    wide = [f for f in data if f.name not in bias.slices and f.width > NARROW]
    out = dict(values)
    if wide and rng.random() < 1 / 3:
        out.update({f.name: small_value(rng, f) for f in wide})
    if rng.random() < 1 / 4:  # every operand of one width equal to the first of them
        first: dict[int, int] = {}
        for f in wide:
            out[f.name] = first.setdefault(f.width, out[f.name])
    return out


def _bias_seed(cfg: HarnessConfig) -> str:
    # its own stream: the other classes' vectors do not depend on whether bias is on
    return f"{cfg.seed}:biased"


def _biased_combinational(fields: Sequence[Field], bias: _Bias, cfg: HarnessConfig) -> list[int]:
    rng = random.Random(_bias_seed(cfg))
    return [
        _put(fields, {f.name: bias.value(rng, f) for f in fields}) for _ in range(cfg.bias_vectors)
    ]


def _hold_length(rng: random.Random, hold_max: int) -> int:
    r = rng.random()
    if r < 0.25:
        return rng.randint(1, min(8, hold_max))
    if r < 0.5:
        return rng.randint(1, min(32, hold_max))
    # long holds: an operation an opcode starts (a 32- or 64-cycle divider) runs to its end
    return rng.randint(max(1, hold_max // 4), hold_max)


def combinational(
    fields: Sequence[Field], cfg: HarnessConfig, constants: Sequence[FieldConstant] = ()
) -> Stimulus:
    """Stimulus for a combinational module.

    Args:
        fields: Layout of the driven inputs.
        cfg: Stimulus settings.
        constants: Values the design compares inputs against (the biased class).
    """
    rng = random.Random(cfg.seed)
    width = total_width(fields)
    if width <= cfg.exhaustive_max_bits:
        return Stimulus({"exhaustive": list(range(1 << width))})
    narrow, wide = _split_modes(fields)
    corner: list[int] = []
    walking: list[int] = []
    close: list[int] = []
    for mode in _modes(narrow):
        for pname in _patterns(1):
            corner.append(
                _put(fields, {**{f.name: _patterns(f.width)[pname] for f in wide}, **mode})
            )
        for f in wide:
            for value in _patterns(f.width).values():
                for others in ("zero", "ones"):
                    vals = {g.name: _patterns(g.width)[others] for g in wide}
                    vals[f.name] = value
                    corner.append(_put(fields, {**vals, **mode}))
        positions = [(f, k) for f in wide for k in range(f.width)]
        if len(positions) > 512:
            positions = rng.sample(positions, 512)
        for f, k in positions:
            walking.append(_put(fields, {f.name: 1 << k, **mode}))
            vals = {g.name: g.mask for g in wide}
            vals[f.name] = f.mask ^ (1 << k)
            walking.append(_put(fields, {**vals, **mode}))
    pairs = [(a, b) for a, b in itertools.combinations(wide, 2) if a.width == b.width]
    if pairs:
        modes = list(_modes(narrow))
        for _ in range(100):
            a, b = rng.choice(pairs)
            va = rng.getrandbits(a.width)
            vals = {f.name: rng.getrandbits(f.width) for f in fields}
            vals[a.name] = va
            vals[b.name] = va ^ (1 << rng.randrange(a.width))
            vals.update(rng.choice(modes))
            close.append(_put(fields, vals))
    rand = [rng.getrandbits(width) for _ in range(cfg.random_vectors)]
    sparse = _sparse(rng, width, cfg.sparse_vectors)
    bias = _Bias(fields, constants if cfg.bias_constants else (), cfg)
    biased = _biased_combinational(fields, bias, cfg) if bias else []
    return Stimulus(
        {
            "corner": corner,
            "walking": walking,
            "close": close,
            "random": rand,
            "sparse": sparse,
            "small": small_combinational(fields, lambda v: _put(fields, v), cfg),
            "biased": biased,
        }
    )


def _sparse(rng: random.Random, width: int, n: int) -> list[int]:
    out = []
    ones = (1 << width) - 1
    for i in range(n):
        word = 0
        for _ in range(rng.randint(1, min(3, width))):
            word |= 1 << rng.randrange(width)
        out.append(word if i % 2 == 0 else ones ^ word)
    return out


def sequential(
    fields: Sequence[Field], cfg: HarnessConfig, constants: Sequence[FieldConstant] = ()
) -> Stimulus:
    """Cycle-by-cycle stimulus for a clocked module (clocks are driven by the testbench).

    Args:
        fields: Layout of the driven inputs (resets marked).
        cfg: Stimulus settings.
        constants: Values the design compares inputs against (the biased class).
    """
    rng = random.Random(cfg.seed)
    resets = [f for f in fields if f.reset_active is not None]
    data = [f for f in fields if f.reset_active is None]

    def word(values: dict[str, int], reset: bool = False) -> int:
        vals = dict(values)
        for r in resets:
            active = r.reset_active if r.reset_active is not None else 1
            vals[r.name] = active if reset else 1 - active
        return _put(fields, vals)

    def rand_vals() -> dict[str, int]:
        return {f.name: rng.getrandbits(f.width) for f in data}

    reset_seq = [word({}, reset=True) for _ in range(cfg.reset_cycles if resets else 0)]
    directed: list[int] = []
    for pname in _patterns(1):
        directed += [word({f.name: _patterns(f.width)[pname] for f in data})] * 4
    positions = [(f, k) for f in data for k in range(f.width)]
    if len(positions) > 128:
        positions = rng.sample(positions, 128)
    for f, k in positions:
        directed += [word({f.name: 1 << k})] * 2
    rand = [word(rand_vals()) for _ in range(cfg.random_vectors)]
    hold: list[int] = []
    while len(hold) < cfg.sequence_cycles:
        if resets and rng.random() < 0.03:
            hold += [word(rand_vals(), reset=True)] * rng.randint(1, 2)
        else:
            hold += [word(rand_vals())] * rng.randint(1, 16)
    hold = hold[: cfg.sequence_cycles]
    width = sum(f.width for f in data)
    sparse: list[int] = []
    if width:
        for w in _sparse(rng, width, cfg.sparse_vectors):
            vals: dict[str, int] = {}
            off = 0
            for f in data:
                vals[f.name] = (w >> off) & f.mask
                off += f.width
            sparse.append(word(vals))
    # one long run: reset once, then slowly changing inputs (deep counter/timer states)
    long: list[int] = []
    if cfg.long_run_cycles > 0:
        long = [word({}, reset=True)] * (1 if resets else 0)
        while len(long) < cfg.long_run_cycles:
            long += [word(rand_vals())] * rng.randint(1, 64)
        long = long[: cfg.long_run_cycles]
    bias = _Bias(fields, constants if cfg.bias_constants else (), cfg)
    biased: list[int] = []
    if bias and cfg.bias_vectors > 0:
        biased = _biased_cycles(word, data, bool(resets), bias, cfg)
    return Stimulus(
        {
            "reset": reset_seq,
            "directed": directed,
            "random": rand,
            "hold": hold,
            "sparse": sparse,
            "long": long,
            "small": small_cycles(data, word, bool(resets), cfg),
            "biased": biased,
            "each_reset": _each_reset(fields, resets, data, cfg),
        }
    )


def _each_reset(
    fields: Sequence[Field], resets: Sequence[Field], data: Sequence[Field], cfg: HarnessConfig
) -> list[int]:
    """With several resets: every reset state, not only all asserted or all released.

    Each reset is asserted alone (the others released) and each is released alone (the
    others asserted), for one to three cycles at a time between runs of random inputs, so the
    other control inputs are exercised in every combination a design can see (its own seed:
    the other classes do not change)."""
    if len(resets) < 2:
        return []
    rng = random.Random(cfg.seed * 7919 + 17)
    states: list[set[str]] = [{r.name} for r in resets]
    states += [{q.name for q in resets if q is not r} for r in resets]
    out: list[int] = []
    for _ in range(8):
        for active in states:
            vals = {f.name: rng.getrandbits(f.width) for f in data}
            for r in resets:
                level = r.reset_active if r.reset_active is not None else 1
                vals[r.name] = level if r.name in active else 1 - level
            out += [_put(fields, vals)] * rng.randint(1, 3)
            released = {f.name: rng.getrandbits(f.width) for f in data}
            for r in resets:
                level = r.reset_active if r.reset_active is not None else 1
                released[r.name] = 1 - level
            out += [_put(fields, released)] * rng.randint(1, 8)
    return out


def _biased_cycles(
    word: Callable[..., int],
    data: Sequence[Field],
    has_reset: bool,
    bias: _Bias,
    cfg: HarnessConfig,
) -> list[int]:
    """The biased class of a clocked module: compared constants held for a few cycles, bursts
    of fresh draws, wide operands fresh under held control inputs (its own seed)."""
    brng = random.Random(_bias_seed(cfg))
    biased = [word({}, reset=True)] * (1 if has_reset else 0)
    while len(biased) < cfg.bias_vectors:
        if has_reset and brng.random() < 0.03:
            biased += [word({}, reset=True)] * brng.randint(1, 2)
            continue
        if brng.random() < 1 / 3:
            # a burst of fresh draws: decoders see as many distinct values as possible
            for _ in range(brng.randint(8, 32)):
                biased.append(word({f.name: bias.value(brng, f) for f in data}))
            continue
        held = _operands({f.name: bias.value(brng, f) for f in data}, data, bias, brng)
        n = _hold_length(brng, cfg.bias_hold_max)
        if brng.random() < 0.5:
            biased += [word(held)] * n
        else:
            # compared and narrow (control) inputs held, wide operands fresh every cycle
            fresh = [f for f in data if f.name not in bias.slices and f.width > 2]
            for _ in range(n):
                vals = dict(held)
                vals.update({f.name: brng.getrandbits(f.width) for f in fresh})
                biased.append(word(vals))
    return biased[: cfg.bias_vectors]
