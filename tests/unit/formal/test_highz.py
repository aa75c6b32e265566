"""High impedance found by structure (:mod:`rtlopt.formal.highz`), on the JSON Yosys writes
after ``proc -noopt; flatten`` as the proof scripts do (real Yosys)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from rtlopt.formal.highz import NOT_RUN, high_z, z_sites

needs_yosys = pytest.mark.skipif(shutil.which("yosys") is None, reason="needs yosys")

HEAD = "module m(input [3:0] a, input c, input clk, output [3:0] y);\n"

#: Every spelling of a z the proof would read as 0, by the netlist it leaves.
Z_BODIES = {
    "or": "  assign y = a | {3'b0, 1'bz};\n",
    "ternary": "  assign y = c ? a : 4'bz;\n",
    "decimal": "  assign y = c ? a : 4'dz;\n",
    "unsized": "  assign y = c ? a : 'z;\n",
    "question_digit": "  assign y = c ? a : 4'b10?1;\n",
    "hex_digit": "  assign y = c ? a : 4'hz;\n",
    "bufif": "  bufif1 b0(y[0], a[0], c);\n  assign y[3:1] = a[3:1];\n",
    "notif": "  notif0 n0(y[0], a[0], c);\n  assign y[3:1] = a[3:1];\n",
    "register": "  reg [3:0] r;\n  always @(posedge clk) if (c) r <= 4'bz; else r <= a;\n"
    "  assign y = r;\n",
    "parameter": "  localparam [3:0] Z = 4'b1z00;\n  assign y = a ^ Z;\n",
    "function": "  function [3:0] f(input s);\n    f = s ? 4'd1 : 4'bz;\n  endfunction\n"
    "  assign y = f(c);\n",
    "assign_z": "  assign y = 4'bz;\n",
    "initial_value": "  reg [3:0] r = 4'bz;\n  always @(posedge clk) r <= a;\n  assign y = r;\n",
    "submodule": "  zs u(.a(a[0]), .c(c), .y(y[0]));\n  assign y[3:1] = a[3:1];\n",
    "equality": "  assign y = {3'b0, a === 4'bz};\n",
}

#: No z: what must pass (x constants, casez and casex items, comparisons).
PLAIN_BODIES = {
    "x_constant": "  assign y = c ? a : 4'bx;\n",
    "casez_items": "  reg [3:0] v;\n  always @* casez (a)\n    4'b1???: v = 4'd1;\n"
    "    4'b01??: v = 4'd2;\n    4'b0z1?: v = 4'd3;\n    default: v = 4'd0;\n  endcase\n"
    "  assign y = v;\n",
    "casex_items": "  reg [3:0] v;\n  always @* casex (a)\n    4'b1xxx: v = 4'd1;\n"
    "    default: v = 4'd0;\n  endcase\n  assign y = v;\n",
    "register": "  reg [3:0] r = 4'd5;\n  always @(posedge clk) if (c) r <= 4'd0; else r <= a;\n"
    "  assign y = r;\n",
}

SUB = "module zs(input a, input c, output y);\n  assign y = c ? a : 1'bz;\nendmodule\n"


def _json(tmp_path: Path, body: str) -> dict:
    (tmp_path / "d.v").write_text(SUB + HEAD + body + "endmodule\n")
    script = "read_verilog d.v\nhierarchy -top m\nproc -noopt\nflatten\nwrite_json d.json\n"
    (tmp_path / "d.ys").write_text(script)
    subprocess.run(["yosys", "-q", "-s", "d.ys"], cwd=tmp_path, check=True, capture_output=True)
    return dict(json.loads((tmp_path / "d.json").read_text())["modules"])


@needs_yosys
@pytest.mark.parametrize("form", sorted(Z_BODIES))
def test_every_spelling_of_z_is_found(tmp_path: Path, form: str) -> None:
    sites = z_sites(_json(tmp_path, Z_BODIES[form]), "m")
    assert sites, form


@needs_yosys
@pytest.mark.parametrize("form", sorted(PLAIN_BODIES))
def test_designs_without_z_hold_none(tmp_path: Path, form: str) -> None:
    assert z_sites(_json(tmp_path, PLAIN_BODIES[form]), "m") == []


def _two(gold_cells: dict, gate_cells: dict) -> str:
    def mod(cells: dict) -> dict:
        return {"cells": cells, "netnames": {"y": {"bits": [2], "attributes": {}}}}

    return json.dumps({"modules": {"g": mod(gold_cells), "c": mod(gate_cells)}})


TBUF = {"b0": {"type": "$_TBUF_", "connections": {"A": [3], "E": [4], "Y": [2]}}}
AND = {"x": {"type": "$and", "connections": {"A": [3], "B": [4], "Y": [2]}, "parameters": {}}}


def test_a_candidate_with_z_is_rejected_and_a_reference_with_z_unchecked() -> None:
    unchecked, rejected = high_z(_two(AND, TBUF), "g", "c")
    assert unchecked == ""
    assert rejected.startswith("the candidate holds high impedance (tri-state cell $_TBUF_ b0")
    assert "the reference does not" in rejected and "two-valued logic" in rejected
    unchecked, rejected = high_z(_two(TBUF, AND), "g", "c")
    assert unchecked.startswith("unchecked: the reference holds high impedance") and not rejected
    unchecked, rejected = high_z(_two(TBUF, TBUF), "g", "c")  # the reference decides first
    assert unchecked.startswith("unchecked: ") and not rejected
    assert high_z(_two(AND, AND), "g", "c") == ("", "")


def test_a_z_digit_in_a_cell_parameter_counts_and_a_string_does_not() -> None:
    bits = dict(AND["x"], parameters={"INIT": "01z0"})
    text = dict(AND["x"], parameters={"NAME": "z "}, attributes={"src": "z.v:3.1-3.5"})
    assert high_z(_two(AND, {"x": bits}), "g", "c")[1]
    assert high_z(_two(AND, {"x": text}), "g", "c") == ("", "")


def test_a_missing_or_partial_netlist_is_not_run() -> None:
    assert high_z("", "g", "c") == (NOT_RUN, "")
    assert high_z("{not json", "g", "c") == (NOT_RUN, "")
    assert high_z(_two(AND, AND), "g", "other") == (NOT_RUN, "")
