"""Nets with more than one driver on a bit, for :class:`rtlopt.frontend._net_drivers.Drivers`:
two continuous drivers (assignments, gate or instance outputs, connections of a module the
repository does not define) of one bit of a ``wire``/``tri`` net may drive 0 and 1 at once,
and the net reads x there in a simulation although each driver is defined.

Only nets resolve drivers: a variable written by several processes holds the last write.
``wand``/``wor``/``triand``/``trior`` nets resolve 0 against 1 without x (intended), and a
``supply0``/``supply1`` net overrides its drivers. A driver whose bits are not known counts
on every bit (fail closed).
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._net_bits import width
from rtlopt.frontend._run_x import MayBeX, place
from rtlopt.frontend._slang import node_kind

__all__ = ["conflict"]

# nets whose drivers resolve without x, or that their own value overrides
_RESOLVED = {"WAnd", "WOr", "TriAnd", "TriOr", "Supply0", "Supply1"}


def _overlaps(spans: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """The bits of ``[lo, hi)`` that two or more of ``spans`` cover, as merged ranges."""
    both: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(spans):
        for c, d in spans[i + 1 :]:
            first, last = max(a, c, lo), min(b, d, hi)
            if first < last:
                both.append((first, last))
    merged: list[tuple[int, int]] = []
    for first, last in sorted(both):
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _where(value: Any, sm: Any) -> tuple[Any, int] | None:
    """Where a driver stands: an assignment's value, or an instance's port."""
    node = getattr(value, "instance", None) or value
    if node is None:
        return None
    found = place(node, sm)
    return found if found[1] else None


def conflict(
    sym: Any,
    bits: tuple[int, int],
    drivers: list[tuple[int | None, int | None, Any]],
    sm: Any,
) -> tuple[MayBeX, list[tuple[int, int]]] | None:
    """The bits of ``bits`` of the net ``sym`` that two or more of ``drivers`` (first bit,
    one past the last or None when not known, value) drive, with why that may be x; None
    when no bit has two drivers or ``sym`` is no net that reads x on a conflict."""
    if node_kind(sym) != "Net":
        return None
    kind = getattr(getattr(getattr(sym, "netType", None), "netKind", None), "name", "")
    if kind in _RESOLVED:
        return None
    size = width(sym)
    spans = [
        (0, max(size, 1)) if first is None or last is None else (first, last)
        for first, last, _ in drivers
    ]
    lo, hi = bits if size else (0, 1)
    both = _overlaps(spans, lo, hi)
    if not both:
        return None
    at = [
        where
        for (first, last), (_, _, value) in zip(spans, drivers, strict=True)
        if any(first < b and a < last for a, b in both)
        for where in [_where(value, sm)]
        if where is not None
    ]
    places = tuple(dict.fromkeys(at))
    listed = "; ".join(f"{{{i}}}" for i in range(len(places)))
    shown = f" ({listed})" if places else ""
    count = sum(1 for first, last in spans if any(first < b and a < last for a, b in both))
    text = f"{count} drivers{shown} drive the same bits of this net: where they disagree it reads x"
    return MayBeX.make(text, places), both
