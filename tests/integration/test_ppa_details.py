"""PPA details from the real flow: OpenSTA's critical path and the area split by cell and
instance (Yosys 0.23 + OpenSTA 2.0.17, nangate45)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import FlowConfig, SandboxConfig
from rtlopt.eda.flow import PpaFlow
from rtlopt.errors import UsageError
from rtlopt.pdk import PdkInfo, resolve_pdk
from rtlopt.results import EvalResult, PpaDetails, Stage, Status

pytestmark = pytest.mark.tools

DESIGN = """\
module acc(input clk, input [7:0] a, output reg [7:0] q);
  always @(posedge clk) q <= q + a;
endmodule
module top(input clk, input [7:0] a, b, output [7:0] y);
  wire [7:0] q;
  acc u_acc(.clk(clk), .a(a), .q(q));
  reg [7:0] prod;
  always @(posedge clk) prod <= a * b;
  assign y = q ^ prod;
endmodule
"""


@pytest.fixture(scope="module")
def ng() -> PdkInfo:
    try:
        return resolve_pdk("nangate45")
    except UsageError as exc:
        pytest.skip(f"nangate45 not available: {exc}")


@pytest.mark.parametrize("persistent", [True, False])
def test_details_name_the_critical_path_and_split_the_area(
    ng: PdkInfo, tmp_path: Path, persistent: bool
) -> None:
    src = tmp_path / "d.v"
    src.write_text(DESIGN)
    cfg = FlowConfig(pdk="nangate45", power=False, persistent=persistent)
    with PpaFlow(ng, cfg, SandboxConfig()) as flow:
        m = flow.measure([src], "top", ["clk"], tmp_path / "w")
    d = m.ppa.details
    assert d is not None and d.critical_path is not None
    cp = d.critical_path
    # the multiplier a*b into prod is the long path: from an input bit to a prod register
    assert cp.startpoint.startswith(("a[", "b[")) and cp.endpoint.startswith("prod[")
    assert cp.delay_ps == pytest.approx(m.ppa.delay_ps)
    assert len(cp.cells) >= 5 and all(c.endswith(("_X1", "_X2", "_X4")) for c in cp.cells)
    # area by cell type adds up to Yosys's chip area; DFFs: 8 in acc + 8 for prod
    assert sum(a.area_um2 for a in d.area_by_cell) == pytest.approx(m.ppa.area_um2, rel=1e-6)
    assert sum(a.count for a in d.area_by_cell) == m.ppa.cells
    dff = next(a for a in d.area_by_cell if a.name.startswith("DFF"))
    assert dff.count == 16
    inst = {a.name: a for a in d.area_by_instance}
    assert set(inst) == {"(top)", "u_acc"}
    assert sum(a.area_um2 for a in inst.values()) == pytest.approx(m.ppa.area_um2, rel=1e-6)
    # the accumulator (8 DFFs + an 8-bit adder) is smaller than the multiplier side
    assert 8 + 7 <= inst["u_acc"].count < inst["(top)"].count


def test_details_survive_the_result_json_round_trip(ng: PdkInfo, tmp_path: Path) -> None:
    src = tmp_path / "d.v"
    src.write_text(DESIGN)
    with PpaFlow(ng, FlowConfig(pdk="nangate45", power=False), SandboxConfig()) as flow:
        m = flow.measure([src], "top", ["clk"], tmp_path / "w")
    res = EvalResult(Status.OK, Stage.DONE, ppa=m.ppa, reward=11.1)
    back = EvalResult.from_json(res.to_json())
    assert back.ppa == m.ppa and isinstance(back.ppa.details, PpaDetails)
    # results written before the details existed still read
    old = res.to_json()
    del old["ppa"]["details"]
    assert EvalResult.from_json(old).ppa.details is None  # type: ignore[union-attr]
