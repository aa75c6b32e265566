"""The procedural view (``read_slang --no-proc``, :func:`rtlopt.eda._slang.elaborate` with
``processes``) reads x as the text does, where the synthesized view does not: iverilog
simulates the original text, both views, with the selecting signal x."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.eda._slang import elaborate

pytestmark = pytest.mark.tools

#: ``if`` on x takes ``else``; a one-item ``case`` on x its default; a default assignment
#: then a ``case`` without default keeps it; a ``case`` whose items cover every 0/1 value
#: takes its ``default`` on x (synthesis drops it as unreachable).
DUT = """`include "inc.vh"
module m(input s, input [1:0] t, input [1:0] a, b, output reg [1:0] y, z, w, v);
  always @* if (s) y = a; else y = b;
  always @* case (s) 1'b1: z = a; default: z = b; endcase
  always @* begin w = b; case (s) 1'b1: w = a; endcase end
  always @* case (t) 2'd0: v = a; 2'd1: v = b; 2'd2, 2'd3: v = a; default: v = `DEF; endcase
endmodule
"""

TB = """module tb;
  reg s; reg [1:0] t; reg [1:0] a, b; wire [1:0] y, z, w, v;
  m u(.s(s), .t(t), .a(a), .b(b), .y(y), .z(z), .w(w), .v(v));
  initial begin
    s = 1'bx; t = 2'bxx; a = 2'b01; b = 2'b10;
    #1 $display("%b %b %b %b", y, z, w, v);
  end
endmodule
"""


def _simulate(tmp: Path, dut: Path, name: str) -> str:
    (tmp / "tb.v").write_text(TB)
    out = tmp / f"{name}.vvp"
    subprocess.run(["iverilog", "-I", str(tmp), "-o", str(out), str(dut), str(tmp / "tb.v")],
                   check=True, capture_output=True)  # fmt: skip
    run = subprocess.run(["vvp", "-n", str(out)], check=True, capture_output=True, text=True)
    return run.stdout.strip().splitlines()[-1]


def test_the_procedural_view_reads_x_as_the_text_and_names_its_headers(tmp_path: Path) -> None:
    (tmp_path / "inc.vh").write_text("`define DEF 2'b11\n")
    (tmp_path / "m.v").write_text(DUT)
    text = _simulate(tmp_path, tmp_path / "m.v", "text")
    assert text == "10 10 10 11", text  # else, default, the default assignment, default
    synth = elaborate([tmp_path / "m.v"], "m", tmp_path / "s", include_dirs=[tmp_path])
    procedural = elaborate(
        [tmp_path / "m.v"], "m", tmp_path / "p", include_dirs=[tmp_path], processes=True
    )
    assert synth.ok and procedural.ok
    assert _simulate(tmp_path, synth.view, "synth") != text  # x merged, default dropped
    assert _simulate(tmp_path, procedural.view, "procedural") == text
    assert set(procedural.read) == {tmp_path / "m.v", tmp_path / "inc.vh"}
    assert synth.read == ()
