"""Vendor primitives behind parameters that turn them off (issue 22): modules defined nowhere
that the active configuration never instantiates do not stop the proof; one that is reached
does (real Yosys)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.errors import DesignError
from rtlopt.formal import check_equivalence
from rtlopt.formal.unreached import undefined_modules
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import FormalResult, Verdict

pytestmark = pytest.mark.tools

# a wrapper of vendor RAM cells (defined nowhere), used only when USE_VENDOR is set
VENDOR = """module xil_2r1w(input clk, input we, input [3:0] wa, input [3:0] ra,
                input [7:0] wd, output [7:0] rd);
  genvar i;
  generate
    for (i = 0; i < 8; i = i + 1) begin : g_bit
      RAM16X1D u_ram (.WCLK(clk), .WE(we), .D(wd[i]), .A0(wa[0]), .A1(wa[1]), .A2(wa[2]),
                      .A3(wa[3]), .DPRA0(ra[0]), .DPRA1(ra[1]), .DPRA2(ra[2]),
                      .DPRA3(ra[3]), .DPO(rd[i]), .SPO());
    end
  endgenerate
endmodule
"""

REGFILE = """module regfile #(parameter USE_VENDOR = 0) (input clk, input we, input [3:0] wa,
    input [3:0] ra, input [7:0] wd, output [7:0] rd);
  generate
    if (USE_VENDOR) begin : g_vendor
      xil_2r1w u_xil (.clk(clk), .we(we), .wa(wa), .ra(ra), .wd(wd), .rd(rd));
    end else begin : g_rtl
      reg [7:0] mem [0:15];
      reg [7:0] q;
      always @(posedge clk) begin
        if (we) mem[wa] <= wd;
        q <= mem[ra];
      end
      assign rd = q;
    end
  endgenerate
endmodule
"""
RENAMED = (
    REGFILE.replace("reg [7:0] q;", "reg [7:0] rdata_q;")
    .replace("q <= mem[ra];", "rdata_q <= mem[ra];")
    .replace("assign rd = q;", "assign rd = rdata_q;")
)
BROKEN = RENAMED.replace("rdata_q <= mem[ra];", "rdata_q <= mem[ra] ^ 8'h01;")


def _design(tmp_path: Path, regfile: str) -> Design:
    repo = tmp_path / "repo"
    repo.mkdir(parents=True)
    (repo / "xil_2r1w.v").write_text(VENDOR)
    (repo / "regfile.v").write_text(regfile)
    return load_design(repo / "regfile.v", "regfile", ProjectConfig())


def _check(
    tmp_path: Path, design: Design, text: str, name: str, timeout: float = 60
) -> FormalResult:
    work = tmp_path / name
    work.mkdir()
    cand = work / "candidate.v"
    cand.write_text(text)
    files = [design.root / "xil_2r1w.v", cand]
    return check_equivalence(design, files, work / "formal", FormalConfig(timeout_s=timeout))


def test_a_vendor_wrapper_nothing_instantiates_does_not_stop_the_proof(tmp_path: Path) -> None:
    d = _design(tmp_path, REGFILE)
    assert undefined_modules(d) == ["RAM16X1D"]
    assert d.root / "xil_2r1w.v" in d.closure  # read by the proof's scripts
    res = _check(tmp_path, d, RENAMED, "equiv")
    assert res.verdict is Verdict.PROVEN, res
    # refuted by the bounded check (memory without reset: ~25 s); never proven in 8 s
    res = _check(tmp_path, d, BROKEN, "broken", timeout=8)
    assert res.verdict is not Verdict.PROVEN, res


def test_a_vendor_primitive_that_is_reached_is_never_proven(tmp_path: Path) -> None:
    # the reference reaching it is an input error of the frontend; a candidate reaching it
    # (the vendor branch turned on) leaves the proof unknown, never proven
    with pytest.raises(DesignError, match="RAM16X1D"):
        _design(tmp_path / "on", REGFILE.replace("USE_VENDOR = 0", "USE_VENDOR = 1"))
    d = _design(tmp_path, REGFILE)
    res = _check(tmp_path, d, RENAMED.replace("USE_VENDOR = 0", "USE_VENDOR = 1"), "reached")
    assert res.verdict is Verdict.UNKNOWN, res
    assert "RAM16X1D" in res.reason, res
