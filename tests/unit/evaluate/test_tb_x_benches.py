"""A Verilog testbench outside rtlopt's build is elaborated as a build of its own
(``evaluate/_tb_x_benches.py``, held-out trials 49-51): with its folder's version of a module
the build compiles from another file, with the defines its Makefile passes where it does not
parse with the configured ones; what it feeds x is what the instance analysis finds there,
reset and clock driven 0/1 are not x. One that does not parse either way feeds every input."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._tb_x import tb_x_inputs
from rtlopt.frontend import load_design
from rtlopt.frontend._build_flags import folder_defines

CNT = (
    "module cnt(input clk, input rst, input en, output reg [3:0] q);\n"
    "  always @(posedge clk or posedge rst) if (rst) q <= 4'd0; else if (en) q <= q + 4'd1;\n"
    "endmodule\n"
)
CORE = "module core(input clk, input rst, input en, output [3:0] q);\n  cnt u(.*);\nendmodule\n"
#: The build's memory model, and the testbench folder's own with a task it calls.
MEM = "module mem(input clk);\nendmodule\n"
TB_MEM = "module mem(input clk);\n  reg [7:0] m [0:3];\n  task write(input [1:0] a, input [7:0] d); m[a] = d; endtask\nendmodule\n"
TB = """module tb;
reg clk;
reg rst;
reg en = 1'b0;
wire [3:0] q;
initial begin
  if (`TRACE) $dumpvars(0, tb);
  clk = 0;
  rst = 1;
  repeat (3) @(posedge clk);
  rst = 0;
  u_mem.write(0, 8'h5);
  EN_WRITE
  #100 $finish;
end
initial forever clk = #5 ~clk;
core u_core(.clk(clk), .rst(rst), .en(en), .q(q));
mem u_mem(.clk(clk));
endmodule
"""
MAKEFILE = "TRACE ?= 1\nVFLAGS += -DTRACE=$(TRACE)\nVFLAGS += -Dverilog_sim\nsim:\n\tiverilog $(VFLAGS) *.v\n"


def _repo(tmp: Path, en_write: str, makefile: bool = True) -> Path:
    (tmp / "rtl").mkdir(parents=True)
    (tmp / "tb").mkdir()
    (tmp / "rtl" / "cnt.v").write_text(CNT)
    (tmp / "rtl" / "core.v").write_text(CORE)
    (tmp / "rtl" / "mem.v").write_text(MEM)
    (tmp / "rtl.f").write_text("rtl/mem.v\nrtl/cnt.v\nrtl/core.v\n")
    (tmp / "tb" / "tb_top.v").write_text(TB.replace("EN_WRITE", en_write))
    (tmp / "tb" / "mem.v").write_text(TB_MEM)
    if makefile:
        (tmp / "tb" / "makefile").write_text(MAKEFILE)
    return tmp


def _fed(root: Path) -> tuple[tuple[str, ...], str]:
    config = ProjectConfig(filelists=(str(root / "rtl.f"),))
    got = tb_x_inputs(load_design(root / "rtl" / "cnt.v", "cnt", config, root=root))
    return got.ports, got.source


def test_a_makefiles_defines_are_read_with_their_make_variables(tmp_path: Path) -> None:
    _repo(tmp_path, "")
    assert folder_defines(tmp_path / "tb") == {"TRACE": "1", "verilog_sim": ""}


@pytest.mark.parametrize(
    ("en_write", "fed"), [("en = 1'b1;", ()), ("en = 1'bx;", ("en",))], ids=["two-state", "x"]
)
def test_a_testbench_outside_the_build_is_its_own_build(
    tmp_path: Path, en_write: str, fed: tuple[str, ...]
) -> None:
    """Clock and reset written 0/1 from time 0 are not x: a change of the counter is judged
    with its reset (the testbench used to feed every input x, the reset included)."""
    ports, source = _fed(_repo(tmp_path, en_write))
    assert ports == fed, source
    if fed:
        assert source.startswith("tb/tb_top.v as its own build: ") and "tb.u_core.u" in source


def test_a_testbench_that_parses_with_no_known_defines_feeds_every_input(tmp_path: Path) -> None:
    ports, source = _fed(_repo(tmp_path, "en = 1'b1;", makefile=False))
    assert ports == ("clk", "rst", "en")
    assert source.startswith("tb/tb_top.v:1: a Verilog testbench rtlopt does not elaborate")
    assert "does not parse with the configured defines (tb_top.v, line 7)" in source
    assert "project.defines" in source
