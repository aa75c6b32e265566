"""The round-74 forms through :func:`repository_reach` (real frontend and slang, no tool run):
a golden VCD, an XDC name pattern, an SDC netlist name, a DPI call's separate strings, a Tcl
``join`` and a do-file over the scan limit each leave the target's changes unchecked, and the
same repository without them does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.frontend import load_design

CTR = """module ctr(input clk, input rst, output [3:0] q);
  reg [3:0] cnt;
  always @(posedge clk) if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;
  assign q = cnt;
endmodule
"""
TB = """module tb; reg clk = 0, rst = 1; wire [3:0] q; int v;
  ctr dut(.clk(clk), .rst(rst), .q(q));
  initial begin #12 rst = 0; #50; {body} end
endmodule
"""
VCD = "$scope module tb $end\n$scope module dut $end\n$var reg 4 $ cnt [3:0] $end\n$upscope $end\n"


def _reach(tmp: Path, files: dict[str, str]) -> str:
    for name, text in {"ctr.v": CTR, "tb.sv": TB.format(body=""), **files}.items():
        (tmp / name).write_text(text)
    return repository_reach(load_design(tmp / "ctr.v", "ctr", ProjectConfig()))


@pytest.mark.parametrize(
    ("files", "where"),
    [
        ({"golden.vcd": VCD + "$upscope $end\n$enddefinitions $end\n"}, "golden.vcd:3"),
        (
            {"cdc.xdc": "set_false_path -to [get_cells -hier -filter {NAME =~ *cnt_reg*}]\n"},
            "cdc.xdc:1",
        ),
        ({"cdc.sdc": "set_false_path -to [get_cells dut/cnt_reg[0]]\n"}, "cdc.sdc:1"),
        ({"tb.sv": TB.format(body='v = peek("dut", "cnt");')}, "tb.sv:3"),
        # a gate-level simulation's script: the path rule reads the netlist's register name
        ({"gate.do": "run 60\nexamine /tb/dut/cnt_reg[3]/Q\n"}, "gate.do:2"),
        ({"check.do": "examine [join [list {} tb dut cnt] /]\n"}, "check.do:1"),
        ({"check.do": "examine /tb/q\n" * 320_000 + "examine /tb/dut/cnt\n"}, "check.do"),
    ],
)
def test_the_round_74_forms_leave_the_target_unchecked(
    tmp_path: Path, files: dict[str, str], where: str
) -> None:
    why = _reach(tmp_path, files)
    assert why.startswith(where) and "not checked" in why, why


def test_the_repository_without_them_is_not_reached(tmp_path: Path) -> None:
    files = {
        "check.do": "examine /tb/q\n",
        "io.xdc": "set_property PACKAGE_PIN E3 [get_ports clk]\n",
        "golden.vcd": VCD.replace("cnt", "q") + "$upscope $end\n$enddefinitions $end\n",
    }
    assert _reach(tmp_path, files) == ""
