"""The one walk of a fan-in cone (``netlist.fanin_order``) that the miter, the register
correspondence and the pairing evaluate along, on hand-built gate drivers."""

from __future__ import annotations

import pytest

from rtlopt.formal.netlist import Bit, CombinationalLoop, Driver, fanin_order, input_leaves


def _walk(
    driver: dict[Bit, Driver], roots: list[Bit], known: set[Bit], **kw: bool
) -> list[tuple[Bit, str | None]]:
    out: list[tuple[Bit, str | None]] = []
    for b, drv in fanin_order(driver, roots, known, name="net", **kw):
        known.add(b)  # the caller evaluates each bit as it comes
        out.append((b, drv[0] if drv else None))
    return out


def test_each_bit_comes_once_after_its_inputs() -> None:
    # 10 = 1 & 11, 11 = ~2, 12 = 11 ^ 10; bit 3 is undriven, 13 = 3 | "1"
    driver: dict[Bit, Driver] = {
        10: ("$_AND_", [1, 11]),
        11: ("$_NOT_", [2]),
        12: ("$_XOR_", [11, 10]),
        13: ("$_OR_", [3, "1"]),
    }
    got = _walk(driver, [12, 13, "x", 10], {1, 2})
    assert [b for b, _ in got] == [11, 10, 12, 3, 13]
    assert dict(got)[3] is None and dict(got)[13] == "$_OR_"


def test_a_loop_raises_or_becomes_undriven() -> None:
    driver: dict[Bit, Driver] = {10: ("$_AND_", [1, 11]), 11: ("$_NOT_", [10])}
    with pytest.raises(CombinationalLoop, match="net: combinational loop"):
        _walk(driver, [10], {1})
    # the gate where the walk meets its own cone again is undriven (x), the rest evaluates
    assert _walk(driver, [10], {1}, loops_undriven=True) == [(10, None), (11, "$_NOT_")]


def test_input_leaves_skip_constants_and_missing_ports() -> None:
    inputs: dict[str, list[Bit]] = {"a": [1, "0", 2], "b": [3]}
    assert input_leaves(inputs, {"a": [7, 8, 9]}) == {1: 7, 2: 9}
    assert input_leaves(inputs, {"a": [7]}, missing=0) == {1: 7, 3: 0}
