"""Unit tests: clock/reset structure of Yosys JSON modules (hand-written netlists, no tools)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rtlopt.formal.clocking import analyze_clocking, clocking_problem, read_clocking

IN = {"clk": [2], "rst": [3], "d": [4, 5]}


def _module(cells: dict[str, Any], inputs: dict[str, list[int]] = IN) -> dict[str, Any]:
    ports = {n: {"direction": "input", "bits": b} for n, b in inputs.items()}
    ports["q"] = {"direction": "output", "bits": [10, 11]}
    return {
        "ports": ports,
        "cells": cells,
        "netnames": {
            "q": {"hide_name": 0, "bits": [10, 11]},
            "gclk": {"hide_name": 0, "bits": [20]},
        },
    }


def _cell(
    kind: str,
    params: dict[str, str],
    conns: dict[str, list[Any]],
    outputs: tuple[str, ...] = ("Q",),
) -> dict[str, Any]:
    return {
        "type": kind,
        "parameters": params,
        "connections": conns,
        "port_directions": {k: "output" if k in outputs else "input" for k in conns},
    }


def dff(clk: list[Any], pol: str = "1", **extra: Any) -> dict[str, Any]:
    return _cell(
        "$dff",
        {"CLK_POLARITY": pol, "WIDTH": "10"},
        {"CLK": clk, "D": [4, 5], "Q": [10, 11], **extra},
    )


def test_primary_clock_and_edge() -> None:
    c = analyze_clocking(_module({"r": dff([2])}))
    assert c.clocks == {("clk", "posedge")} and c.registers == 1 and not c.problems
    assert analyze_clocking(_module({"r": dff([2], "0")})).clocks == {("clk", "negedge")}


def test_inverter_on_the_clock_flips_the_edge() -> None:
    cells = {"n": _cell("$not", {}, {"A": [2], "Y": [20]}, ("Y",)), "r": dff([20], "0")}
    assert analyze_clocking(_module(cells)).clocks == {("clk", "posedge")}


def test_gated_clock_is_a_problem_naming_the_register() -> None:
    cells = {"g": _cell("$and", {}, {"A": [2], "B": [3], "Y": [20]}, ("Y",)), "r": dff([20])}
    c = analyze_clocking(_module(cells))
    assert c.problems and "'q'" in c.problems[0] and "gclk" in c.problems[0]
    ref = analyze_clocking(_module({"r": dff([2])}))
    assert "not by a primary input" in clocking_problem(ref, c)


def test_constant_clock_and_black_box_and_assume() -> None:
    assert "constant" in analyze_clocking(_module({"r": dff(["0"])})).problems[0]
    bb = _module({"u": {"type": "helper", "connections": {}, "port_directions": {}}})
    assert "black box" in analyze_clocking(bb).problems[0]
    asm = _module({"a": _cell("$assume", {}, {"A": [3], "EN": ["1"]}, ())})
    assert "$assume" in analyze_clocking(asm).problems[0]


def test_async_pins_compared_by_input_and_level() -> None:
    ref = analyze_clocking(
        _module(
            {
                "r": _cell(
                    "$adff",
                    {"CLK_POLARITY": "1", "ARST_POLARITY": "0"},
                    {"CLK": [2], "ARST": [3], "D": [4, 5], "Q": [10, 11]},
                )
            }
        )
    )
    assert ref.asyncs == {("rst", 0)}
    same = ref
    assert clocking_problem(ref, same) == ""
    high = analyze_clocking(
        _module(
            {
                "r": _cell(
                    "$adff",
                    {"CLK_POLARITY": "1", "ARST_POLARITY": "1"},
                    {"CLK": [2], "ARST": [3], "D": [4, 5], "Q": [10, 11]},
                )
            }
        )
    )
    assert "active high" in clocking_problem(ref, high)
    from_data = analyze_clocking(
        _module(
            {
                "r": _cell(
                    "$adff",
                    {"CLK_POLARITY": "1", "ARST_POLARITY": "0"},
                    {"CLK": [2], "ARST": [4], "D": [4, 5], "Q": [10, 11]},
                )
            }
        )
    )
    assert "d[0]" in clocking_problem(ref, from_data)


@pytest.mark.parametrize(
    "cand_cells, needle",
    [
        ({"r": dff([2], "0")}, "negedge clk"),
        ({"r": dff([4])}, "posedge d[0]"),
        ({"l": _cell("$dlatch", {"EN_POLARITY": "1"}, {"EN": [3], "D": [4], "Q": [10]})}, "latch"),
    ],
)
def test_candidate_differences(cand_cells: dict[str, Any], needle: str) -> None:
    ref = analyze_clocking(_module({"r": dff([2])}))
    assert needle in clocking_problem(ref, analyze_clocking(_module(cand_cells)))


def test_registers_in_a_combinational_reference() -> None:
    ref = analyze_clocking(_module({}))
    assert "no registers" in clocking_problem(ref, analyze_clocking(_module({"r": dff([2])})))


def test_read_clocking_from_json_text() -> None:
    text = json.dumps(
        {"modules": {"m__rtlopt_ref": _module({"r": dff([2])}), "m": _module({"r": dff([2])})}}
    )
    found = read_clocking(text, ["m__rtlopt_ref", "m", "absent"])
    assert set(found) == {"m__rtlopt_ref", "m"}
    with pytest.raises(ValueError):
        read_clocking("{}", ["m"])


def test_combinational_loop_is_a_problem() -> None:
    cells = {
        "n": _cell("$not", {}, {"A": [30], "Y": [31]}, ("Y",)),
        "m": _cell("$mux", {}, {"A": ["0"], "B": [31], "S": [3], "Y": [30]}, ("Y",)),
    }
    assert any("combinational loop" in p for p in analyze_clocking(_module(cells)).problems)
    # a register in the cycle breaks it
    cells["m"] = dff([2])
    cells["m"]["connections"] = {"CLK": [2], "D": [31], "Q": [30]}
    assert not analyze_clocking(_module(cells)).problems


def test_one_clock_model_needs_one_edge_and_no_asynchronous_pin() -> None:
    from rtlopt.formal.clocking import one_clock_reason

    assert one_clock_reason(analyze_clocking(_module({"r": dff([2])}))) == ""
    both = analyze_clocking(_module({"r": dff([2]), "f": dff([2], "0", Q2=[12])}))
    assert "registers on negedge clk, posedge clk" in one_clock_reason(both)
    arst = _cell(
        "$adff",
        {"CLK_POLARITY": "1", "ARST_POLARITY": "0"},
        {"CLK": [2], "ARST": [3], "D": [4, 5], "Q": [10, 11]},
    )
    got = one_clock_reason(analyze_clocking(_module({"r": arst})))
    assert "asynchronous pin on rst (active low)" in got, got
    const = _cell(
        "$adff",
        {"CLK_POLARITY": "1", "ARST_POLARITY": "1"},
        {"CLK": [2], "ARST": ["0"], "D": [4, 5], "Q": [10, 11]},
    )
    assert one_clock_reason(analyze_clocking(_module({"r": const}))) == ""
