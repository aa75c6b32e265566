"""Values the repository rules compute once per design object: the reach scan, the foreign
testbenches' x, the macro-built instances, the other readings' parameterizations. A design is
frozen, so its id names it while the object lives; the cache keeps the object (its id is not
reused meanwhile) and at most 8 designs."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = ["per_design"]

V = TypeVar("V")

#: Designs kept per cache before it is emptied (a run evaluates one design; tests, a batch and
#: the gate a few).
_KEPT = 8


def per_design(
    cache: dict[Any, tuple[object, Any]],
    design: object,
    compute: Callable[[], V],
    key: Hashable = None,
) -> V:
    """``compute()`` once per ``design`` object and ``key`` in ``cache``."""
    k = (id(design), key)
    hit = cache.get(k)
    if hit is not None and hit[0] is design:
        value: V = hit[1]
        return value
    if len(cache) > _KEPT:
        cache.clear()
    value = compute()
    cache[k] = (design, value)
    return value
