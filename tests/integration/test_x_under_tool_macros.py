"""Round 79 cases 17 and 18: a text the repository's build compiles writes the target's input
x only under a macro the build's TOOL predefines (``ifdef __ICARUS__`` where the Makefile runs
iverilog, ``ifdef VERILATOR`` where it runs Verilator; no command line names the macro). The
x analysis counts every tool's predefined macros as a build's (``evaluate/_tb_x_defines.py``
``TOOL_PREDEFINED``): a candidate reading x otherwise is refuted naming the file, line and
macro; a reformatted one is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import evaluate_in_repo

pytestmark = [pytest.mark.tools]

MUX = """module mux(input s, input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = s ? a : b;
endmodule
"""
TB = """module tb; reg s = 0; reg [3:0] a = 4'b1010, b = 4'b0101; wire [3:0] y;
  mux dut(.s(s), .a(a), .b(b), .y(y));
`include "stim.vh"
  initial begin #10 $display("y=%b", y); $finish; end
endmodule
"""
ICARUS = "sim:\n\tiverilog -o sim.vvp mux.v tb.v\n\tvvp -n sim.vvp\n"
VERILATOR = "sim:\n\tverilator --binary --top-module tb mux.v tb.v\n\t./obj_dir/Vtb\n"
#: a value that is x only in the tool's reading (a macro's body, a literal)
STIMS = {
    "__ICARUS__": "`ifdef __ICARUS__\n`define SEL_INIT 1'bx\n`else\n`define SEL_INIT 1'b0\n"
    "`endif\n  initial s = `SEL_INIT;\n",
    "VERILATOR": "`ifdef VERILATOR\n  initial s = 1'bx;\n`endif\n",
    # elaborated with the tool's macro defined (the x literal stands outside the branch)
    "icarus elaborated": "`define SEL_X 1'bx\n`ifdef __ICARUS__\n  initial s = `SEL_X;\n`endif\n",
}
STRICT = "assign y = (s === 1'b1) ? a : b;"


@pytest.mark.parametrize(
    ("macro", "make", "body", "refused"),
    [
        ("__ICARUS__", ICARUS, STRICT, "stim.vh:2: an x/z value written under `__ICARUS__"),
        ("VERILATOR", VERILATOR, STRICT, "stim.vh:2: an x/z value written under `VERILATOR"),
        ("icarus elaborated", ICARUS, STRICT, "stim.vh:3: a branch's text under `__ICARUS__"),
        ("__ICARUS__", ICARUS, "assign y = s ? a :\n                 b;", ""),
    ],
)
def test_x_written_under_a_tools_own_macro_is_proven(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    macro: str,
    make: str,
    body: str,
    refused: str,
) -> None:
    cand = MUX.replace("assign y = s ? a : b;", body)
    files = {"mux.v": MUX, "tb.v": TB, "stim.vh": STIMS[macro], "Makefile": make}
    code, out = evaluate_in_repo(tmp_path, files, "mux.v:mux", cand, capsys, monkeypatch)
    if not refused:
        assert code == 0 and "ACCEPTED" in out and "feeds x into s" in out, out
    else:
        assert code == 1 and "REJECTED" in out and "feeds x into s" in out, out
        assert refused in " ".join(out.split()), out


STIM_MODULE = """module stim #(parameter X = 0) (output reg s);
  initial s = 0;
`ifdef __ICARUS__
  if (X) begin : g_x
    initial #1 s = 1'bx;
  end
`endif
endmodule
"""
TB_PARAM = """module tb; reg [3:0] a = 4'b1010, b = 4'b0101; wire s; wire [3:0] y;
  parameter XSTIM = 0;
  stim #(.X(XSTIM)) st(.s(s));
  mux dut(.s(s), .a(a), .b(b), .y(y));
  initial begin #10 $display("y=%b", y); $finish; end
endmodule
"""


def test_x_under_a_tools_macro_and_a_builds_parameter_is_proven(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The x needs both the Icarus build's parameter (``-Ptb.XSTIM=1``) and its tool's macro:
    the parameter settings are elaborated under the tools' readings too."""
    files = {
        "mux.v": MUX,
        "tb.v": TB_PARAM,
        "stim.v": STIM_MODULE,
        "Makefile": "sim:\n\tiverilog -Ptb.XSTIM=1 -o sim.vvp mux.v stim.v tb.v\n",
    }
    cand = MUX.replace("assign y = s ? a : b;", STRICT)
    code, out = evaluate_in_repo(tmp_path, files, "mux.v:mux", cand, capsys, monkeypatch)
    assert code == 1 and "REJECTED" in out and "feeds x into s" in out, out
    assert "XSTIM=1; Icarus's reading" in out, out
