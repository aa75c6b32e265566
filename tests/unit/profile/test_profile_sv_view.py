"""The slang view's module names become ``$paramod\\<module>\\<instance path>`` (so the
attribution counts every instance under its source module), and the paths come back latest
arrival first whatever path group OpenSTA lists first."""

from __future__ import annotations

from pathlib import Path

from rtlopt.profile import base_name
from rtlopt.profile._attribute import parse_paths
from rtlopt.profile._sv import view_read_lines

VIEW = """\
module \\lane$soc.g_lane[0].u_lane (a, y);
endmodule
module \\lane$soc.g_lane[1].u_lane (a, y);
endmodule
module \\odd$name$soc.u_odd (a, y);
endmodule
module soc(a, y);
endmodule
module helper$x (a);
endmodule
"""


def test_view_modules_are_renamed_with_their_instance_path(tmp_path: Path) -> None:
    view = tmp_path / "hierarchy.v"
    view.write_text(VIEW)
    lines = view_read_lines(view, "soc")
    assert lines[0].startswith("read_verilog -sv ")
    renames = [line.split() for line in lines if line.startswith("rename ")]
    retypes = [line.split() for line in lines if line.startswith("chtype -map ")]
    assert [r[1:] for r in renames] == [r[2:] for r in retypes]  # instances follow the module
    new = {old: name for _, old, name in renames}
    assert set(new) == {
        "\\lane$soc.g_lane[0].u_lane",
        "\\lane$soc.g_lane[1].u_lane",
        "\\odd$name$soc.u_odd",
    }
    assert new["\\lane$soc.g_lane[0].u_lane"] == "\\$paramod\\lane\\soc.g_lane[0].u_lane"
    # a module name with a $ of its own keeps it; only the instance path is split off
    assert base_name(new["\\odd$name$soc.u_odd"]) == "odd$name"
    assert {base_name(n) for n in new.values()} == {"lane", "odd$name"}


PATHS = """\
Startpoint: rst_n (input port clocked by clk)
Endpoint: u_a/_1_
Path Group: **async_default**
Path Type: max

    Delay      Time   Description
   0.0000    0.0000 ^ rst_n (in)
   0.0000    0.0000 ^ u_a/_1_/RN (DFFR_X1)
             0.0000   data arrival time

Startpoint: u_b/_2_ (rising edge-triggered flip-flop)
Endpoint: u_b/_3_ (rising edge-triggered flip-flop)
Path Group: clk
Path Type: max

    Delay      Time   Description
   0.0000    0.0000 ^ u_b/_2_/CK (DFF_X1)
   0.5000    0.5000 ^ u_b/_2_/Q (DFF_X1)
   0.7000    1.2000 v u_b/_4_/ZN (INV_X1)
   0.0000    1.2000 v u_b/_3_/D (DFF_X1)
             1.2000   data arrival time
"""


def test_paths_latest_arrival_first() -> None:
    nodes = {"": "soc", "u_a": "a", "u_b": "b"}
    paths = parse_paths(PATHS, nodes, ["DFFR_X1", "DFF_X1", "INV_X1"])
    assert [p.arrival_ns for p in paths] == [1.2, 0.0]
    assert paths[0].modules and paths[0].modules[0][0] == "b"
