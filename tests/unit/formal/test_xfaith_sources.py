"""The x sources inside a target (``formal/xfaith_sources.py``): where the x-faithfulness
proof's cone check starts besides the x-fed inputs, and what the proof names; and the
2-state types it refuses (``formal/xfaith_model.two_state``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtlopt.formal.xfaith_model import cone_refusal, rtlil_refusal, two_state
from rtlopt.formal.xfaith_sources import early_registers, x_sources


def _cell(kind: str, ins: dict[str, list[object]], out: dict[str, list[int]]) -> dict[str, object]:
    dirs = {**{p: "input" for p in ins}, **{p: "output" for p in out}}
    return {"type": kind, "port_directions": dirs, "connections": {**ins, **out}}


def _mod(cells: dict[str, object], nets: dict[str, object] | None = None) -> dict[str, object]:
    return {
        "ports": {
            "clk": {"direction": "input", "bits": [2]},
            "a": {"direction": "input", "bits": [3]},
            "y": {"direction": "output", "bits": [6]},
        },
        "cells": cells,
        "netnames": nets or {},
    }


def _write(tmp_path: Path, mod: dict[str, object]) -> Path:
    path = tmp_path / "post.json"
    path.write_text(json.dumps({"modules": {"gold": mod}}))
    return path


#: r (bit 4) is a register of a; a write at index r (``$shift``) makes y.
_REG = _cell("$dff", {"CLK": [2], "D": [3]}, {"Q": [4]})
_WRITE = _cell("$shift", {"A": [3], "B": [4]}, {"Y": [6]})


def test_a_register_without_an_initial_value_starts_the_cone(tmp_path: Path) -> None:
    mod = _mod({"r": _REG, "s": _WRITE}, {"r": {"bits": [4], "attributes": {}}})
    assert "a write at a variable index" in cone_refusal(_write(tmp_path, mod), ["\\gold"], [])
    assert x_sources({"gold": mod}, ["\\gold"]) == ["r before its first write"]


def test_a_register_with_an_initial_value_is_no_source(tmp_path: Path) -> None:
    mod = _mod({"r": _REG, "s": _WRITE}, {"r": {"bits": [4], "attributes": {"init": "0"}}})
    assert cone_refusal(_write(tmp_path, mod), ["\\gold"], []) == ""
    assert x_sources({"gold": mod}, ["\\gold"]) == []


def test_an_x_constant_and_an_undriven_net_are_sources(tmp_path: Path) -> None:
    pow_x = _cell("$pow", {"A": [3], "B": ["x"]}, {"Y": [6]})
    mod = _mod({"p": pow_x})
    assert "a power" in cone_refusal(_write(tmp_path, mod), ["\\gold"], [])
    assert x_sources({"gold": mod}, ["\\gold"]) == ["an x or z constant"]
    pow_u = _cell("$pow", {"A": [3], "B": [7]}, {"Y": [6]})
    mod = _mod({"p": pow_u}, {"u": {"bits": [7]}})
    assert "a power" in cone_refusal(_write(tmp_path, mod), ["\\gold"], [])
    assert x_sources({"gold": mod}, ["\\gold"]) == ["u, which nothing drives"]


def test_a_select_past_its_range_is_a_source(tmp_path: Path) -> None:
    sel = _cell("$shiftx", {"A": [3, 7, 8], "B": [3, 2]}, {"Y": [5]})
    sel["parameters"] = {"A_WIDTH": "11", "B_WIDTH": "10", "Y_WIDTH": "1", "B_SIGNED": "0"}
    mod = _mod({"x": sel, "p": _cell("$pow", {"A": [5], "B": [3]}, {"Y": [6]})})
    assert "a power" in cone_refusal(_write(tmp_path, mod), ["\\gold"], [])
    assert x_sources({"gold": mod}, ["\\gold"]) == ["a select that may be past its range"]
    # four bits at a 2-bit index: never past the range
    sel["connections"]["A"] = [3, 7, 8, 9]  # type: ignore[index]
    sel["parameters"] = {"A_WIDTH": "100", "B_WIDTH": "10", "Y_WIDTH": "1", "B_SIGNED": "0"}
    assert cone_refusal(_write(tmp_path, mod), ["\\gold"], []) == ""
    assert x_sources({"gold": mod}, ["\\gold"]) == []


def test_a_register_a_reset_sets_is_not_named(tmp_path: Path) -> None:
    rst = {"direction": "input", "bits": [9]}
    eqx = _cell("$eqx", {"A": [9], "B": ["1"]}, {"Y": [10]})
    mux = _cell("$mux", {"A": [3], "B": ["0"], "S": [10]}, {"Y": [11]})
    reg = _cell("$dff", {"CLK": [2], "D": [11]}, {"Q": [6]})
    mod = _mod({"e": eqx, "m": mux, "r": reg}, {"r": {"bits": [6]}})
    mod["ports"]["rst"] = rst  # type: ignore[index]
    assert x_sources({"gold": mod}, ["\\gold"], {"rst": 1}) == []
    assert x_sources({"gold": mod}, ["\\gold"], {"rst": 0}) == ["r before its first write"]
    assert x_sources({"gold": mod}, ["\\gold"]) == ["r before its first write"]
    # ``if (rst || clear)``
    cells = mod["cells"]
    cells["o"] = _cell("$logic_or", {"A": [9], "B": [12]}, {"Y": [13]})  # type: ignore[index]
    cells["e"]["connections"]["A"] = [13]  # type: ignore[index]
    assert x_sources({"gold": mod}, ["\\gold"], {"rst": 1}) == []


@pytest.mark.parametrize(
    "code",
    [
        "function automatic bit sel(input logic v);",
        "function automatic int f(input logic v);",
        "  byte t;",
        "input bit b,",
        "assign y = int'(a);",
        "longint unsigned c;",
    ],
)
def test_two_state_types_are_refused(code: str) -> None:
    assert "a 2-state type" in two_state(code)


@pytest.mark.parametrize(
    "code",
    [
        "parameter int N = 3;",
        "localparam int unsigned W = 2;",
        "for (int i = 0; i < 4; i++) y[i] = a[i];",
        "genvar i;",
        "logic [3:0] bitmask; wire interrupt;",
    ],
)
def test_constants_and_loop_variables_pass(code: str) -> None:
    assert two_state(code) == ""


def test_a_default_case_is_no_case_item_with_x() -> None:
    # ``case`` with no item (a switch's default) followed by an assignment of an x constant
    rtlil = "    switch \\s\n      case 1'1\n      case \n        assign \\y 32'x\n    end\n"
    assert rtlil_refusal(rtlil, z=False) == ""
    assert "case item" in rtlil_refusal("      case 2'1x\n", z=False)


def test_the_x_proc_writes_for_a_disabled_memory_write_is_no_source(tmp_path: Path) -> None:
    mux = _cell("$mux", {"A": ["x"], "B": [3], "S": [2]}, {"Y": [7]})
    write = _cell("$memwr", {"ADDR": [7], "DATA": [3], "EN": [2], "CLK": [2]}, {})
    mod = _mod({"m": mux, "w": write})
    assert x_sources({"gold": mod}, ["\\gold"]) == []
    assert cone_refusal(_write(tmp_path, mod), ["\\gold"], []) == ""
    write["connections"]["EN"] = [7]  # type: ignore[index]
    assert x_sources({"gold": mod}, ["\\gold"]) == ["an x or z constant"]


def _reset_mod(init: str | None = None) -> dict[str, object]:
    """``if (rst) r <= 0; else r <= a`` (r: bits 6, 7), with ``init`` on r."""
    eqx = _cell("$eqx", {"A": [9], "B": ["1"]}, {"Y": [10]})
    mux = _cell("$mux", {"A": [3, 3], "B": ["0", "0"], "S": [10]}, {"Y": [11, 12]})
    reg = _cell("$dff", {"CLK": [2], "D": [11, 12]}, {"Q": [6, 7]})
    attrs = {"init": init} if init else {}
    mod = _mod({"e": eqx, "m": mux, "r": reg}, {"r": {"bits": [6, 7], "attributes": attrs}})
    mod["ports"]["rst"] = {"direction": "input", "bits": [9]}  # type: ignore[index]
    return mod


def test_a_register_a_reset_sets_is_x_before_the_first_reset() -> None:
    mods = {"gold": _reset_mod(), "gate": _reset_mod()}
    assert early_registers(mods, ["\\gold", "\\gate"], {"rst": 1}) == ["r[0]", "r[1]"]
    assert x_sources(mods, ["\\gold", "\\gate"], {"rst": 1}) == []
    # no reset: it is a source after the reset (x until its first write), not an early one
    assert early_registers(mods, ["\\gold"], {"rst": 0}) == []
    assert early_registers(mods, ["\\gold"], {}) == []


def test_a_register_with_an_initial_value_is_defined_before_the_reset() -> None:
    mods = {"gold": _reset_mod("01")}
    assert early_registers(mods, ["\\gold"], {"rst": 1}) == []
