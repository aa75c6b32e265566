"""Simulation time 0 and a shift by a constant in an ``always @*`` block: iverilog may leave
the shifted name out of the block's list (``b >> 4`` of a 4-bit ``b``), so such a block is
paired only with its own text. A name the block alone writes (a block-local variable: a
rotation ``(d0 << 16) | (d0 >> 16)`` for ``{d0[15:0], d0[31:16]}``, as in secworks' chacha
quarter round) never wakes it, whatever the list holds: such a change is no time-0 change.
A shift of an input, or of a name another item writes, still is (pyslang only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._time_zero import time_zero_change
from rtlopt.frontend import load_design

QR = """module m(input [31:0] a, input [31:0] d, output [31:0] y);
  reg [31:0] r;
  assign y = r;
  always @*
    begin : qr
      reg [31:0] d0;
      reg [31:0] d1;
      d0 = d ^ a;
      d1 = {d0[15:0], d0[31:16]};
      r = d1 + a;
    end
endmodule
"""

TOP = "module top(input [31:0] a, input [31:0] d, output [31:0] y);\n  m u(.a(a), .d(d), .y(y));\nendmodule\n"


def _why(tmp_path: Path, ref: str, cand: str, top: str) -> str:
    (tmp_path / "m.v").write_text(ref)
    if top:
        (tmp_path / "top.v").write_text(top)
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    return time_zero_change(design, ref, cand)


@pytest.mark.parametrize("top", ["", TOP], ids=["target_is_top", "under_a_top"])
def test_a_shift_of_a_name_the_block_alone_writes_is_no_time_zero_change(
    tmp_path: Path, top: str
) -> None:
    cand = QR.replace("{d0[15:0], d0[31:16]}", "(d0 << 16) | (d0 >> 16)")
    assert _why(tmp_path, QR, cand, top) == ""


@pytest.mark.parametrize("top", ["", TOP], ids=["target_is_top", "under_a_top"])
def test_a_shift_of_an_input_or_a_shared_name_is_still_one(tmp_path: Path, top: str) -> None:
    # iverilog may leave ``d`` out of the list: the block is paired with its own text only
    cand = QR.replace("d0 = d ^ a;", "d0 = (d >> 0) ^ a;")
    assert "always @*" in _why(tmp_path, QR, cand, top)
    (tmp_path / "b").mkdir()
    # ``s`` is written by another block too: a shift of it may leave out what wakes this one
    shared = QR.replace(
        "  reg [31:0] r;\n", "  reg [31:0] r;\n  reg [31:0] s;\n  always @* s = a;\n"
    )
    cand = shared.replace("r = d1 + a;", "r = d1 + a + (s >> 0);\n      s = d1;")
    ref = shared.replace("r = d1 + a;", "r = d1 + a + s;\n      s = d1;")
    assert "always @*" in _why(tmp_path / "b", ref, cand, top)
