"""Class E (red team round 76, cases 07 and 13): a testbench writes the target's input a
value that is x only in a configuration the repository's build uses (``ifdef XSTIM`` with the
Makefile's ``-DXSTIM``; a macro whose value is ``1'bx``). ``rtlopt evaluate`` elaborates the
repository under that configuration (``evaluate/_tb_x.py``): a candidate reading x otherwise
is refuted naming the build's define, file and line; a reformatted one is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import evaluate_in_repo

pytestmark = [pytest.mark.tools]

MUX = """module mux(input s, input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = s ? a : b;
endmodule
"""
STIM = "`define SEL_UNKNOWN 1'bx\n`ifdef XSTIM\n  initial s = `SEL_UNKNOWN;\n`endif\n"
TB = """module tb; reg s = 0; reg [3:0] a = 4'b1010, b = 4'b0101; wire [3:0] y;
  mux dut(.s(s), .a(a), .b(b), .y(y));
`include "stim.vh"
  initial begin #10 $display("y=%b", y); $finish; end
endmodule
"""
MAKE = "sim:\n\tiverilog -DXSTIM -o sim.vvp mux.v tb.v\n\tvvp -n sim.vvp\n"


@pytest.mark.parametrize(
    ("body", "refused"),
    [
        ("assign y = (s === 1'b1) ? a : b;", "stim.vh:3: a branch's text under `XSTIM"),
        ("assign y = s ? a :\n                 b;", ""),
    ],
)
def test_x_written_only_under_a_builds_define_is_proven(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    body: str,
    refused: str,
) -> None:
    cand = MUX.replace("assign y = s ? a : b;", body)
    files = {"mux.v": MUX, "tb.v": TB, "stim.vh": STIM, "Makefile": MAKE}
    code, out = evaluate_in_repo(tmp_path, files, "mux.v:mux", cand, capsys, monkeypatch)
    if not refused:
        assert code == 0 and "ACCEPTED" in out and "feeds x into s" in out, out
    else:
        assert code == 1 and "REJECTED" in out and "x-faithfulness" in out, out
        assert refused in " ".join(out.split()) and "build defines XSTIM" in out, out
