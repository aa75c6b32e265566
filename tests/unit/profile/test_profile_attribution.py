"""The profile's attribution rules on hand-written netlist JSON and OpenSTA text (no tools)."""

from __future__ import annotations

import pytest

from rtlopt.profile._attribute import module_of_instance, parse_paths, parse_power, read_hierarchy
from rtlopt.profile._model import base_name

AREA = {"AND2": 1.0, "DFF": 4.0}
NETLIST = {
    "modules": {
        "top": {
            "cells": {
                "u_a": {"type": "$paramod\\leaf\\W=2"},
                "u_b": {"type": "mid"},
                "g": {"type": "AND2"},
            }
        },
        "mid": {"cells": {"u_x": {"type": "$paramod\\leaf\\W=2"}, "r": {"type": "DFF"}}},
        "$paramod\\leaf\\W=2": {
            "cells": {"g1": {"type": "AND2"}, "g2": {"type": "AND2"}, "bb": {"type": "RAM16X1D"}}
        },
    }
}


def test_base_names_of_yosys_modules() -> None:
    assert base_name("\\alu") == "alu"
    assert base_name("$paramod$6ce0\\picorv32") == "picorv32"
    assert base_name("$paramod\\fifo\\DEPTH=8") == "fifo"


def test_hierarchy_counts_instances_and_areas() -> None:
    h = read_hierarchy(NETLIST, "top", AREA)
    assert h.nodes == {
        "": "top",
        "u_a": "$paramod\\leaf\\W=2",
        "u_b": "mid",
        "u_b/u_x": "$paramod\\leaf\\W=2",
    }
    assert h.instances()["$paramod\\leaf\\W=2"] == 2
    assert h.own_area["top"] == 1.0 and h.own_area["mid"] == 4.0
    assert h.total_area() == pytest.approx(1.0 + 4.0 + 2 * 2.0)
    assert h.total_area("u_b") == pytest.approx(6.0)
    assert h.unmapped["$paramod\\leaf\\W=2"] == ("RAM16X1D",)


def test_a_module_that_instantiates_itself_is_an_error() -> None:
    loop = {"modules": {"a": {"cells": {"u": {"type": "b"}}}, "b": {"cells": {"u": {"type": "a"}}}}}
    with pytest.raises(ValueError, match="instantiates itself"):
        read_hierarchy(loop, "a", AREA)


def test_cells_belong_to_the_deepest_instance_that_holds_them() -> None:
    nodes = {"": "top", "u_b": "mid", "u_b/u_x": "leaf"}
    assert module_of_instance("u_b/u_x/_12_", nodes) == "leaf"
    assert module_of_instance("u_b/_3_", nodes) == "mid"
    assert module_of_instance("_7_", nodes) == "top"


def test_power_rows_and_paths_are_attributed_by_instance() -> None:
    rows = parse_power(
        "       Internal  Switching  Leakage  Total\n"
        "------\n"
        " 1.0e-06 2.0e-06 1.0e-09 3.001e-06 u_b/u_x/_1_\n"
        " 5.0e-07 0.0e+00 1.0e-09 5.01e-07 _2_\n"
    )
    assert [(r.path, r.total) for r in rows] == [("u_b/u_x/_1_", 3.001e-06), ("_2_", 5.01e-07)]
    report = """Startpoint: u_b/r (rising edge-triggered flip-flop clocked by clk)
Endpoint: out (output port clocked by clk)

    Delay      Time   Description
   0.0000    0.0000 ^ u_b/r/CK (DFF)
   0.3000    0.3000 ^ u_b/r/Q (DFF)
   0.5000    0.8000 v u_b/u_x/g1/Y (AND2)
   0.2000    1.0000 v _2_/Y (AND2)
   0.0000    1.0000 v out (out)
             1.0000   data arrival time
   0.9000    1.9000 v u_b/u_x/g2/Y (AND2)
"""
    (path,) = parse_paths(report, {"": "top", "u_b": "mid", "u_b/u_x": "leaf"}, AREA)
    assert path.arrival_ns == 1.0 and path.endpoint == "out"
    # the row after "data arrival time" (required side) is not counted
    assert dict(path.modules) == pytest.approx({"leaf": 0.5, "mid": 0.3, "top": 0.2})
