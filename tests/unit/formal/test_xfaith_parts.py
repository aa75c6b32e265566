"""The x-faithfulness proof's pieces without tools: what it refuses (``formal/xfaith_model.py``),
how its verdict is read, and which ports the screen hands it (``frontend/_open_inputs.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from rtlopt.formal.plan import FormalPlan
from rtlopt.formal.xfaith import _verdict
from rtlopt.formal.xfaith_model import cone_refusal, rtlil_refusal, same_registers, text_refusal
from rtlopt.frontend._open_inputs import OpenInput, fed_ports
from rtlopt.frontend._run_x import MayBeX
from rtlopt.results import Verdict


def _netlist(tmp_path: Path, cells: dict[str, object]) -> Path:
    mod = {
        "ports": {
            "b": {"direction": "input", "bits": [2]},
            "a": {"direction": "input", "bits": [3]},
            "y": {"direction": "output", "bits": [5]},
        },
        "cells": cells,
    }
    path = tmp_path / "post.json"
    path.write_text(json.dumps({"modules": {"gold": mod}}))
    return path


def _cell(kind: str, ins: dict[str, list[int]], out: dict[str, list[int]]) -> dict[str, object]:
    dirs = {**{p: "input" for p in ins}, **{p: "output" for p in out}}
    return {"type": kind, "port_directions": dirs, "connections": {**ins, **out}}


def test_a_faithful_cone_is_not_refused(tmp_path: Path) -> None:
    cells = {
        "n": _cell("$not", {"A": [2]}, {"Y": [4]}),
        "m": _cell("$mux", {"A": [3], "B": [4], "S": [3]}, {"Y": [5]}),
    }
    assert cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["b"]) == ""


def test_an_unverified_cell_in_the_cone_is_refused(tmp_path: Path) -> None:
    cells = {
        "n": _cell("$not", {"A": [2]}, {"Y": [4]}),
        "s": _cell("$shift", {"A": [3], "B": [4]}, {"Y": [5]}),
    }
    why = cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["b"])
    assert "a write at a variable index" in why


def test_a_cell_outside_the_cone_is_not_refused(tmp_path: Path) -> None:
    cells = {"s": _cell("$pow", {"A": [3], "B": [3]}, {"Y": [5]})}
    assert cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["b"]) == ""
    assert "a power" in cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["a"])


def test_an_x_reaching_a_register_clock_is_refused(tmp_path: Path) -> None:
    cells = {"r": _cell("$dff", {"CLK": [2], "D": [3]}, {"Q": [5]})}
    assert "CLK pin" in cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["b"])
    assert cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["a"]) == ""


def test_an_x_reaching_a_latch_enable_is_refused_its_data_is_not(tmp_path: Path) -> None:
    """A latch with a defined enable passes or holds its data's x as iverilog does; an x
    enable merges in Yosys where iverilog's ``if`` holds."""
    cells = {"l": _cell("$dlatch", {"EN": [2], "D": [3]}, {"Q": [5]})}
    assert "EN pin" in cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["b"])
    assert cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["a"]) == ""
    cells = {"l": _cell("$adlatch", {"EN": [2], "ARST": [4], "D": [3]}, {"Q": [5]})}
    assert "a latch" in cone_refusal(_netlist(tmp_path, cells), ["\\gold"], ["a"])


def test_an_unreadable_netlist_is_refused(tmp_path: Path) -> None:
    assert cone_refusal(tmp_path / "missing.json", ["\\gold"], ["b"])
    assert "missing" in cone_refusal(_netlist(tmp_path, {}), ["\\gate"], ["b"])


def test_case_items_with_x_and_equality_with_z_are_refused() -> None:
    rtlil = "    switch \\s\n      case 2'1x\n      case 2'01\n"
    assert "case item" in rtlil_refusal(rtlil, z=False)
    assert rtlil_refusal("    switch \\s\n      case 2'1-\n", z=False) == ""
    eqx = "  cell $eqx $eq$x.v:3$1\n"
    assert rtlil_refusal(eqx, z=False) == ""
    assert "===" in rtlil_refusal(eqx, z=True)


def test_casex_always_and_casez_with_z_are_refused() -> None:
    assert "casex" in text_refusal(["casex (s) 2'b1x: y = a; endcase"], z=False)
    assert text_refusal(["// casex\ncasez (s) 2'b1?: y = a; endcase"], z=False) == ""
    assert "casez" in text_refusal(["casez (s) 2'b1?: y = a; endcase"], z=True)


def test_the_verdict_is_read_from_the_sat_result() -> None:
    comb, seq = FormalPlan("comb"), FormalPlan("seq", "", {"rst": 1})
    ok = "SAT proof finished - no model found: SUCCESS!"
    assert _verdict(ok, comb, 0, ["b"], 0.0).verdict is Verdict.PROVEN
    assert _verdict(ok, comb, 1, ["b"], 0.0).verdict is Verdict.UNKNOWN
    assert _verdict(ok, seq, 0, ["b"], 0.0).verdict is Verdict.UNKNOWN
    step = "Induction step proven: SUCCESS!"
    assert _verdict(step, seq, 0, ["b"], 0.0).verdict is Verdict.PROVEN
    out = "Interrupted SAT solver: TIMEOUT!"
    assert "timed out" in _verdict(out, comb, 0, ["b"], 0.0).reason
    fail = (
        "SAT proof finished - model found: FAIL!\n\n  Signal Name  Dec  Hex  Bin\n"
        "  ---\n  \\in_a  1  1  1\n  \\in_b  --  --  x\n  \\gold_y  0  0  0\n  \\gate_y  1  1  1\n"
    )
    found = _verdict(fail, comb, 1, ["b"], 0.0)
    assert found.verdict is Verdict.REFUTED
    assert list(found.counterexample)[0] == "b" and found.counterexample["b"] == "x"
    assert found.counterexample["got y"] == "1"


def test_the_ports_fed_x_are_the_target_s_and_z_is_told_apart() -> None:
    here = Path("top.v")
    x = OpenInput("top.u", "b", here, 3, "1'bx")
    assert fed_ports([x]) == (("b",), False)
    assert fed_ports([OpenInput("top.u", "c", here, 3)]) == (("c",), True)
    assert fed_ports([OpenInput("top.u", "c", here, 3, "2'bz0")])[1]
    run = OpenInput("top.u", "b", here, 3, MayBeX.make("selects past the end (size 6)"))
    assert fed_ports([run]) == (("b",), False)
    up = OpenInput("top", "p", here, 1, "", "mid", "top.mid.u.b")
    assert fed_ports([up, x]) == (("b",), True)


def test_registers_are_paired_by_name_and_width(tmp_path: Path) -> None:
    def side(names: dict[str, list[int]]) -> dict[str, object]:
        q = [b for bits in names.values() for b in bits if b != 9]
        cells = {"r": _cell("$dff", {"CLK": [2], "D": [3]}, {"Q": q})}
        nets = {n: {"bits": bits} for n, bits in names.items()}
        return {"cells": cells, "netnames": {**nets, "$auto$1": {"bits": q, "hide_name": 1}}}

    gold = side({"c": [10, 11], "h": [12], "w": [9]})
    gate = side({"c": [20, 21], "h": [22, 23], "k": [24]})
    path = tmp_path / "post.json"
    path.write_text(json.dumps({"modules": {"gold": gold, "gate": gate}}))
    assert same_registers(path, ["\\gold", "\\gate"]) == ["c"]
    assert same_registers(tmp_path / "missing.json", ["\\gold", "\\gate"]) == []
