"""Which x-fed clocks are only clocks (``formal/xfaith_clock.py``), on Yosys JSON shapes."""

from __future__ import annotations

from typing import Any

from rtlopt.formal.xfaith_clock import clock_only


def _dff(clk: Any, polarity: str = "1", kind: str = "$dff") -> dict[str, Any]:
    return {
        "type": kind,
        "parameters": {"CLK_POLARITY": polarity},
        "port_directions": {"CLK": "input", "D": "input", "Q": "output"},
        "connections": {"CLK": [clk], "D": [5], "Q": [6]},
    }


def _mod(*cells: dict[str, Any]) -> dict[str, Any]:
    return {
        "ports": {"clk": {"direction": "input", "bits": [2]}},
        "cells": {f"c{i}": c for i, c in enumerate(cells)},
    }


AND = {
    "type": "$and",
    "port_directions": {"A": "input", "B": "input", "Y": "output"},
    "connections": {"A": [2], "B": [5], "Y": [7]},
}


def test_the_clock_of_every_register_on_one_edge() -> None:
    mods = {
        "gold": _mod(_dff(2), _dff(2)),
        "gate": _mod(_dff(2, "00000000000000000000000000000001")),
    }
    assert clock_only(mods, ["gold", "gate"], "clk")


def test_read_as_data_another_clock_or_edge_is_not() -> None:
    ref = _mod(_dff(2))
    assert not clock_only({"gold": ref, "gate": _mod(_dff(2), AND)}, ["gold", "gate"], "clk")
    assert not clock_only({"gold": ref, "gate": _mod(_dff(2), _dff(9))}, ["gold", "gate"], "clk")
    assert not clock_only({"gold": ref, "gate": _mod(_dff(2, "0"))}, ["gold", "gate"], "clk")
    assert not clock_only(
        {"gold": ref, "gate": _mod(_dff(2, kind="$dlatch"))}, ["gold", "gate"], "clk"
    )
    assert not clock_only({"gold": ref}, ["gold", "gate"], "clk")  # a side missing
