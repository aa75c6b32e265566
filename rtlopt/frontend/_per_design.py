"""One elaboration walk per design: its result (or the reason it failed) kept for the last
few designs, as the evaluator asks again for every candidate of one design."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rtlopt.frontend.model import Design

__all__ = ["PerDesign"]

T = TypeVar("T")


class PerDesign(Generic[T]):
    """``compute(design)`` once per design object; a ``RuntimeError`` it raises is kept and
    raised again (with "it cannot be elaborated" when it says nothing)."""

    def __init__(self, compute: Callable[[Design], T], keep: int = 8) -> None:
        self._compute = compute
        self._keep = keep
        self._found: dict[int, tuple[Design, T | str]] = {}

    def __call__(self, design: Design) -> T:
        hit = self._found.get(id(design))
        if hit is None or hit[0] is not design:
            if len(self._found) > self._keep:
                self._found.clear()
            try:
                found: T | str = self._compute(design)
            except RuntimeError as exc:
                found = str(exc) or "it cannot be elaborated"
            hit = self._found[id(design)] = (design, found)
        if isinstance(hit[1], str):
            raise RuntimeError(hit[1])
        return hit[1]
