"""Registers the second proof's single-clock AIGER cannot step (rtlopt.formal.second_clocks)."""

from __future__ import annotations

import json

from rtlopt.formal.second_clocks import unmodelled_clocking


def _netlist(cells: dict[str, object]) -> str:
    module = {
        "ports": {
            "clk": {"direction": "input", "bits": [2]},
            "en": {"direction": "input", "bits": [3]},
        },
        "cells": cells,
        "netnames": {
            "clk": {"bits": [2]},
            "en": {"bits": [3]},
            "gclk": {"bits": [4]},
            "q": {"bits": [5]},
            "$auto$x": {"bits": [4]},
        },
    }
    return json.dumps({"modules": {"m__ref": module, "m": {"ports": {}, "cells": {}}}})


def _dff(clk: list[object], kind: str = "$adff") -> dict[str, object]:
    return {"type": kind, "parameters": {}, "connections": {"CLK": clk, "D": [6], "Q": [5]}}


def test_registers_on_the_clock_input_are_modelled() -> None:
    assert unmodelled_clocking(_netlist({"r": _dff([2])}), ["m__ref", "m"], ["clk"]) == ""


def test_a_register_on_a_gated_clock_is_named() -> None:
    got = unmodelled_clocking(_netlist({"r": _dff([4])}), ["m__ref", "m"], ["clk"])
    assert got == "register q in m__ref clocked by gclk"


def test_a_register_on_an_input_that_is_no_clock_is_named() -> None:
    got = unmodelled_clocking(_netlist({"r": _dff([3], "$dff")}), ["m__ref"], ["clk"])
    assert "clocked by en" in got


def test_a_fine_grained_register_reads_its_c_pin() -> None:
    cell = {"type": "$_DFF_P_", "connections": {"C": ["0"], "D": [6], "Q": [5]}}
    assert "clocked by 0" in unmodelled_clocking(_netlist({"r": cell}), ["m__ref"], ["clk"])


def _cell(kind: str, **pins: tuple[str, list[object]]) -> dict[str, object]:
    return {
        "type": kind,
        "parameters": {},
        "port_directions": {p: d for p, (d, _) in pins.items()},
        "connections": {p: bits for p, (_, bits) in pins.items()},
    }


def test_a_register_clocked_through_buffers_of_the_clock_is_on_the_clock() -> None:
    # a flattened submodule's clock port: a buffer of the clock input
    cells = {
        "b1": _cell("$buf", A=("input", [2]), Y=("output", [7])),
        "b2": _cell("$pos", A=("input", [7]), Y=("output", [8])),
        "r": _dff([8]),
    }
    assert unmodelled_clocking(_netlist(cells), ["m__ref"], ["clk"]) == ""


def test_a_latch_open_on_a_clock_phase_is_named() -> None:
    # the clock gate's latch: enabled by the clock (through a buffer and an inverter)
    cells = {
        "b": _cell("$buf", A=("input", [2]), Y=("output", [7])),
        "n": _cell("$logic_not", A=("input", [7]), Y=("output", [8])),
        "l": _cell("$dlatch", D=("input", [3]), EN=("input", [8]), Q=("output", [5])),
    }
    got = unmodelled_clocking(_netlist(cells), ["m__ref"], ["clk"])
    assert got == "latch q in m__ref enabled by the clock"


def test_a_latch_on_data_alone_steps_per_cycle() -> None:
    # a latch a frontend infers from an incomplete case: its enable is data
    cells = {"l": _cell("$dlatch", D=("input", [6]), EN=("input", [3]), Q=("output", [5]))}
    assert unmodelled_clocking(_netlist(cells), ["m__ref"], ["clk"]) == ""


def test_an_asynchronous_memory_read_port_has_no_clock() -> None:
    rd = {"type": "$memrd", "parameters": {"CLK_ENABLE": "0"}, "connections": {"CLK": ["x"]}}
    assert unmodelled_clocking(_netlist({"rd": rd}), ["m__ref"], ["clk"]) == ""
    rd["parameters"] = {"CLK_ENABLE": "1"}
    assert "clocked by x" in unmodelled_clocking(_netlist({"rd": rd}), ["m__ref"], ["clk"])


def test_an_unreadable_netlist_is_not_taken_for_one_clock() -> None:
    assert "cannot be read" in unmodelled_clocking("not json", ["m"], ["clk"])
    assert "cannot be read" in unmodelled_clocking("", ["m"], ["clk"])


def test_registers_on_both_edges_of_the_clock_are_named() -> None:
    # a falling-edge register (a submodule's port or an alias wire: a buffer of the clock)
    rise = _dff([2], "$dff")
    fall = {
        "type": "$dff",
        "parameters": {"CLK_POLARITY": "0"},
        "connections": {"CLK": [7], "D": [6], "Q": [8]},
    }
    cells = {"b": _cell("$buf", A=("input", [2]), Y=("output", [7])), "r": rise, "f": fall}
    got = unmodelled_clocking(_netlist(cells), ["m__ref", "m"], ["clk"])
    assert got.startswith("registers on two clock edges"), got
    assert unmodelled_clocking(_netlist({"r": rise}), ["m__ref", "m"], ["clk"]) == ""


def test_a_fine_register_on_the_falling_edge_beside_a_rising_one() -> None:
    fall = {"type": "$_DFF_N_", "connections": {"C": [2], "D": [6], "Q": [8]}}
    cells = {"r": _dff([2], "$dff"), "f": fall}
    got = unmodelled_clocking(_netlist(cells), ["m__ref"], ["clk"])
    assert "two clock edges" in got


def test_an_asynchronous_pin_on_a_net_is_named_and_a_constant_one_is_not() -> None:
    def adff(arst: list[object]) -> dict[str, object]:
        return {
            "type": "$adff",
            "parameters": {},
            "connections": {"CLK": [2], "ARST": arst, "D": [6], "Q": [5]},
        }

    got = unmodelled_clocking(_netlist({"r": adff([3])}), ["m__ref"], ["clk"])
    assert "asynchronous ARST pin on en" in got, got
    assert unmodelled_clocking(_netlist({"r": adff(["0"])}), ["m__ref"], ["clk"]) == ""
    load = {
        "type": "$aldff",
        "parameters": {},
        "connections": {"CLK": [2], "ALOAD": [3], "AD": [6], "D": [6], "Q": [5]},
    }
    assert "ALOAD" in unmodelled_clocking(_netlist({"r": load}), ["m__ref"], ["clk"])
