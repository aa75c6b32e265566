"""The *small* stimulus class: every wide input a small number, positive or negative.

Uniform random operands drive arithmetic to its extremes: a product of two random 32-bit
values saturates almost always, so a datapath that clamps (``protect_mul``), accumulates or
scales shows the same clamped value whichever operand a broken edit picks, and sparse
vectors (a few bits of the whole input word) leave most operands 0. Here each input wider
than :data:`NARROW` bits gets a value of at most :data:`MAX_BITS` significant bits, negated
(two's complement) half the time, and narrow inputs (enables, selects) are random; in a
sequential design each draw is held for 1 to :data:`HOLD_MAX` cycles, with an occasional
reset, so the products, sums and accumulators stay in range and their differences reach the
outputs. Its own random stream, and the class comes after the others but the biased one
(:mod:`rtlopt.harness._stimulus`): the vectors of the other classes do not change with it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from rtlopt.config import HarnessConfig

__all__ = ["HOLD_MAX", "MAX_BITS", "NARROW", "small_combinational", "small_cycles"]

#: Inputs at most this wide are drawn whole (control bits).
NARROW = 2
#: Significant bits of a small value (magnitudes below 2**MAX_BITS).
MAX_BITS = 6
#: A sequential draw is held for 1 to this many cycles.
HOLD_MAX = 8


class _Field(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def mask(self) -> int: ...


def _seed(cfg: HarnessConfig) -> str:
    return f"{cfg.seed}:small"


def small_value(rng: random.Random, f: _Field) -> int:
    """A value of ``f``: random when it is narrow, else a small magnitude, negated half the
    time (within the field's width)."""
    if f.width <= NARROW:
        return rng.getrandbits(f.width)
    v = rng.getrandbits(rng.randint(0, min(MAX_BITS, f.width - 1)))
    return (-v) & f.mask if rng.random() < 0.5 else v


def small_combinational(
    fields: Sequence[_Field], put: Callable[[dict[str, int]], int], cfg: HarnessConfig
) -> list[int]:
    """``harness.sparse_vectors`` vectors of small values (none when it is 0)."""
    rng = random.Random(_seed(cfg))
    return [put({f.name: small_value(rng, f) for f in fields}) for _ in range(cfg.sparse_vectors)]


def small_cycles(
    data: Sequence[_Field],
    word: Callable[..., int],
    has_reset: bool,
    cfg: HarnessConfig,
) -> list[int]:
    """``harness.sequence_cycles`` cycles of small values held for a few cycles each, after a
    reset when the design has one (none when ``sequence_cycles`` is 0)."""
    n = cfg.sequence_cycles
    if n <= 0 or not data:
        return []
    rng = random.Random(_seed(cfg))
    out = [word({}, reset=True)] * (1 if has_reset else 0)
    while len(out) < n:
        if has_reset and rng.random() < 0.03:
            out += [word({}, reset=True)]
            continue
        out += [word({f.name: small_value(rng, f) for f in data})] * rng.randint(1, HOLD_MAX)
    return out[:n]
