"""Credible figures (issue 31, issue 33): an equivalent GF(2^8) rewrite of an AES S-box was
reported at 37 W on sky130hd. The cause was OpenSTA's vectorless propagation from the inputs,
which adds transition densities through XORs: reconvergent XOR logic multiplied them at every
level (one net at 4e11 transitions per second). Every net now has the same activity; a figure
outside physical bounds for its cell count is reported as not credible, never as a
percentage. The S-box fixture is our own: a 256-entry case table against x^254 computed
with GF(2^8) multiplications, then the affine map."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rtlopt.check._check import ModuleCheck
from rtlopt.check._ppa_compare import _metric_change
from rtlopt.config import FlowConfig, SandboxConfig
from rtlopt.eda.flow import PpaFlow
from rtlopt.errors import UsageError
from rtlopt.pdk import resolve_pdk
from rtlopt.results import PPA, ppa_problem


def _gmul(a: int, b: int) -> int:
    p = 0
    for _ in range(8):
        if b & 1:
            p ^= a
        a = ((a << 1) ^ (0x1B if a & 0x80 else 0)) & 0xFF
        b >>= 1
    return p


def _sbox(x: int) -> int:
    inv = 0
    for c in range(1, 256):
        if _gmul(x, c) == 1:
            inv = c
    s = inv
    for i in range(1, 5):
        s ^= ((inv << i) | (inv >> (8 - i))) & 0xFF
    return s ^ 0x63


def _table() -> str:
    rows = "\n".join(f"      8'h{i:02x}: y = 8'h{_sbox(i):02x};" for i in range(256))
    return (
        "module sbox(input [7:0] x, output reg [7:0] y);\n  always @* begin\n    case (x)\n"
        f"{rows}\n      default: y = 8'h00;\n    endcase\n  end\nendmodule\n"
    )


GF = """module sbox(input [7:0] x, output [7:0] y);
  function [7:0] gmul(input [7:0] a, input [7:0] b);
    integer i;
    reg [7:0] p, t;
    begin
      p = 8'h00; t = a;
      for (i = 0; i < 8; i = i + 1) begin
        if (b[i]) p = p ^ t;
        t = {t[6:0], 1'b0} ^ (t[7] ? 8'h1b : 8'h00);
      end
      gmul = p;
    end
  endfunction
  wire [7:0] x2 = gmul(x, x);
  wire [7:0] x3 = gmul(x2, x);
  wire [7:0] x6 = gmul(x3, x3);
  wire [7:0] x12 = gmul(x6, x6);
  wire [7:0] x15 = gmul(x12, x3);
  wire [7:0] x30 = gmul(x15, x15);
  wire [7:0] x60 = gmul(x30, x30);
  wire [7:0] x120 = gmul(x60, x60);
  wire [7:0] x240 = gmul(x120, x120);
  wire [7:0] x252 = gmul(x240, x12);
  wire [7:0] b = gmul(x252, x2);
  assign y = b ^ {b[6:0], b[7]} ^ {b[5:0], b[7:6]} ^ {b[4:0], b[7:5]} ^ {b[3:0], b[7:4]}
             ^ 8'h63;
endmodule
"""


@pytest.mark.tools
@pytest.mark.slow
def test_a_gf_sbox_rewrite_has_credible_power_on_sky130(tmp_path: Path) -> None:
    try:
        pdk = resolve_pdk("sky130hd")
    except UsageError as exc:
        pytest.skip(f"sky130hd not available: {exc}")
    (tmp_path / "table.v").write_text(_table())
    (tmp_path / "gf.v").write_text(GF)
    cfg = FlowConfig(pdk="sky130hd", persistent=False)
    with PpaFlow(pdk, cfg, SandboxConfig()) as flow:
        table = flow.measure([tmp_path / "table.v"], "sbox", (), tmp_path / "t").ppa
        gf = flow.measure([tmp_path / "gf.v"], "sbox", (), tmp_path / "g").ppa
    assert table.power_uw is not None and gf.power_uw is not None
    assert ppa_problem(table) == "" and ppa_problem(gf) == "", (table, gf)
    # the rewrite has about 3.5x the cells: its power follows, within a small factor
    ratio = gf.power_uw / table.power_uw
    assert 1.0 < ratio < 3 * gf.cells / table.cells, (gf.power_uw, table.power_uw)


def test_an_impossible_power_is_not_credible() -> None:
    # what OpenSTA's propagated activity gave the rewrite: 1.07 W for 1,259 cells
    assert "beyond" in ppa_problem(PPA(9261.4, 20539.5, 1074750.4, cells=1259))
    assert ppa_problem(PPA(9261.4, 20539.5, 458.5, cells=1259)) == ""
    assert "nan" in ppa_problem(PPA(1.0, math.nan, 1.0, cells=1))
    assert "beyond" in ppa_problem(PPA(10.0, 1e9, 1.0, cells=2))  # 1 ms through two cells


def test_check_shows_no_percentage_for_figures_it_cannot_trust() -> None:
    mc = ModuleCheck("rtl/sbox.v", "sbox", "modified")
    ok = PPA(2343.5, 1831.4, 128.5, cells=378)
    bad = PPA(9261.4, 20539.5, 1074750.4, cells=1259)
    assert _metric_change(mc, ok, bad, "ppa") is None
    assert "not credible" in mc.notes[-1] and "%" not in mc.notes[-1]
    zero = PPA(0.0, 0.0, 0.0, cells=0)
    assert _metric_change(mc, zero, ok, "adp") is None
    assert "not finite" in mc.notes[-1]
    change = _metric_change(mc, ok, PPA(2343.5, 1831.4 * 2, 128.5, cells=378), "adp")
    assert change == pytest.approx(1.0)
