"""Power from simulated switching activity (flow.power_mode = "activity"): real Yosys, real
iverilog VCDs read by the real pywellen, real OpenSTA 2.0.17."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config, FlowConfig, HarnessConfig, SandboxConfig
from rtlopt.eda.activity import (
    MAPPED_INSTANCE,
    NetActivity,
    activity_power,
    cell_models,
    mapped_wrapper,
    read_activity,
)
from rtlopt.eda.flow import PpaFlow, PpaMeasurement
from rtlopt.eda.iverilog import compile_sources, run_vvp
from rtlopt.errors import UsageError
from rtlopt.pdk import PdkInfo, resolve_pdk
from rtlopt.results import EvalResult
from rtlopt.tools import Limits

pytestmark = pytest.mark.tools
pytest.importorskip("pywellen")

# A 4-state counter-like FSM (S0 -> S1 -> S2 -> S3 -> S0, one step per clock, synchronous
# reset to S0, y = 1 in S1 and S2), in two encodings written as next-state equations (a case
# statement would let Yosys's fsm pass re-encode both alike).
GRAY = """module fsm(input clk, input rst, output y);
  reg [1:0] s;
  always @(posedge clk) if (rst) s <= 2'b00; else s <= {s[0], ~s[1]};  // 00 01 11 10
  assign y = s == 2'b01 || s == 2'b11;
endmodule
"""
BINARY = """module fsm(input clk, input rst, output y);
  reg [1:0] s;
  always @(posedge clk) if (rst) s <= 2'b00; else s <= s + 2'd1;  // 00 01 10 11
  assign y = s == 2'b01 || s == 2'b10;
endmodule
"""
FSM_TB = """`timescale 1ns/1ps
module tb;
  reg clk = 0, rst = 1;
  wire y;
  fsm dut(.clk(clk), .rst(rst), .y(y));
  initial begin
    $dumpfile("act.vcd"); $dumpvars(1, dut); $dumpvars(1, dut.u_mapped);
    #12 rst = 0;
    #{stop} $finish;
  end
  always #5 clk = ~clk;
endmodule
"""
GRAY_ASYNC = """module fsm(input clk, input rst, output y);
  reg [1:0] s;
  always @(posedge clk or posedge rst)
    if (rst) s <= 2'b00; else s <= {s[0], ~s[1]};
  assign y = s == 2'b01 || s == 2'b11;
endmodule
"""
ADDER = """module add8(input [7:0] a, input [7:0] b, output [8:0] s);
  assign s = a + b;
endmodule
"""
ADDER_TB = """`timescale 1ns/1ps
module tb;
  reg [7:0] a = 8'h5a, b = 8'hc3;
  wire [8:0] s;
  add8 dut(.a(a), .b(b), .s(s));
  initial begin $dumpfile("act.vcd"); $dumpvars(1, dut); $dumpvars(1, dut.u_mapped); #{stop} $finish; end
endmodule
"""
CYCLES = 400


@pytest.fixture(scope="module")
def sky() -> PdkInfo:
    try:
        return resolve_pdk("sky130hd")
    except UsageError as exc:
        pytest.skip(str(exc))


def _simulated(tb: str, top: str, cycles: int, pdk: PdkInfo, wd: Path):  # type: ignore[no-untyped-def]
    """An ``activity`` callable for PpaFlow: the mapped netlist in ``tb``, read by pywellen."""

    def activity(netlist: Path) -> dict[str, NetActivity]:
        wd.mkdir(parents=True, exist_ok=True)
        (wd / "tb.v").write_text(tb.replace("{stop}", str(cycles * 10)))
        mapped = mapped_wrapper(netlist.read_text(), top)
        (wd / "mapped.v").write_text(mapped.text)
        comp = compile_sources(
            [wd / "mapped.v", wd / "tb.v"],
            wd,
            top="tb",
            out=wd / "tb.vvp",
            libraries=(cell_models(pdk.liberty_plain),),
        )
        assert comp.ok, comp.output
        run = run_vvp(wd / "tb.vvp", wd, limits=Limits(60, None), log_name="sim.log")
        assert run.returncode == 0, run.output()
        return read_activity(
            wd / "act.vcd",
            ("tb.dut", f"tb.dut.{MAPPED_INSTANCE}"),
            cycles,
            mapped.ranges,
            mapped.names,
        )

    return activity


def _measure(
    src: str, top: str, clocks: list[str], tb: str, pdk: PdkInfo, tmp: Path, mode: str
) -> PpaMeasurement:
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / f"{top}.v").write_text(src)
    cfg = FlowConfig(power_mode=mode)
    with PpaFlow(pdk, cfg, SandboxConfig()) as flow:
        return flow.measure(
            [tmp / f"{top}.v"],
            top,
            clocks,
            tmp / "ppa",
            activity=_simulated(tb, top, CYCLES, pdk, tmp / "sim"),
        )


def test_inputs_that_never_toggle_have_no_dynamic_activity_power(
    sky: PdkInfo, tmp_path: Path
) -> None:
    """An adder whose inputs hold one value: the simulated activity of every net is 0, so
    OpenSTA's power with it is leakage only, while its vectorless power (inputs toggling 0.1
    per period) is not."""
    m = _measure(ADDER, "add8", [], ADDER_TB, sky, tmp_path, "activity")
    p = m.ppa
    assert p.power_activity_uw is not None and p.power_vectorless_uw is not None
    assert p.power_uw == p.power_activity_uw  # the metric uses the mode's number
    # leakage of a few dozen cells is nW; the vectorless estimate is uW
    assert p.power_activity_uw < 0.01 * p.power_vectorless_uw, p
    assert p.power_vectorless_uw > 1.0, p
    print("adder", p.power_activity_uw, p.power_vectorless_uw)
    log = Path(m.logs["sta_activity"]).read_text()
    assert "RTLOPT_ACT_ANNOTATED" in log


def test_fsm_encodings_differ_in_activity_power_as_counted_by_hand(
    sky: PdkInfo, tmp_path: Path
) -> None:
    """Hand calculation, per clock period out of reset. Gray (00 01 11 10): one state bit
    changes per step, each bit toggles 0.5 per period, 1.0 in all. Binary (00 01 10 11): s[0]
    changes every step (1.0) and s[1] every other (0.5), 1.5 in all. y is high in two adjacent
    states of four: 0.5 per period, duty 0.5, in both. Both map to two flops and three gates;
    the binary encoding switches its state bits 1.5 times as often, so its activity power must
    be the higher one, by more than OpenSTA's vectorless estimate (which sees the same cell
    count and the same input activity) tells them apart; and the toggle rates read from the
    VCD must be the hand's."""
    g = _measure(GRAY, "fsm", ["clk"], FSM_TB, sky, tmp_path / "gray", "activity")
    b = _measure(BINARY, "fsm", ["clk"], FSM_TB, sky, tmp_path / "bin", "activity")
    print("gray", g.ppa, "binary", b.ppa)
    assert g.ppa.cells == b.ppa.cells == 5, (g.ppa.cells, b.ppa.cells)
    ga, ba = g.ppa.power_activity_uw, b.ppa.power_activity_uw
    gv, bv = g.ppa.power_vectorless_uw, b.ppa.power_vectorless_uw
    assert ga is not None and ba is not None and gv is not None and bv is not None
    assert ba > ga * 1.1, (ba, ga)
    assert ba / ga - 1 > abs(bv / gv - 1), (ba, ga, bv, gv)
    expected = {"gray": (0.5, 0.5), "bin": (1.0, 0.5)}
    for name, m in (("gray", g), ("bin", b)):
        mapped = mapped_wrapper(m.netlist.read_text(), "fsm")
        acts = read_activity(
            tmp_path / name / "sim" / "act.vcd",
            ("tb.dut", f"tb.dut.{MAPPED_INSTANCE}"),
            CYCLES,
            mapped.ranges,
            mapped.names,
        )
        assert acts["y"].activity == pytest.approx(0.5, abs=0.01)
        assert acts["y"].duty == pytest.approx(0.5, abs=0.02)
        got = (acts["s[0]"].activity, acts["s[1]"].activity)
        assert got == pytest.approx(expected[name], abs=0.01), (name, got)


def test_registers_with_asynchronous_reset_keep_their_simulated_activity(
    sky: PdkInfo, tmp_path: Path
) -> None:
    """OpenSTA 2.0.17 propagates activity from an input port across a register's set/clear
    arc and makes its output constant; the reset port (here through an inverter to RESET_B)
    is therefore a clock of the power run, and the state bits' simulated toggles count: the
    power with them is well above the power with every data net held (clock and leakage)."""
    m = _measure(GRAY_ASYNC, "fsm", ["clk"], FSM_TB, sky, tmp_path, "activity")
    mapped = mapped_wrapper(m.netlist.read_text(), "fsm")
    acts = read_activity(
        tmp_path / "sim" / "act.vcd",
        ("tb.dut", f"tb.dut.{MAPPED_INSTANCE}"),
        CYCLES,
        mapped.ranges,
        mapped.names,
    )
    assert acts["s[0]"].activity == pytest.approx(0.5, abs=0.01)
    held = {k: NetActivity(0.0 if k != "clk" else a.activity, a.duty) for k, a in acts.items()}
    still = activity_power(sky.liberty_plain, m.netlist, "fsm", ["clk"], 10.0, held, tmp_path / "h")
    real = m.ppa.power_activity_uw
    assert real is not None
    print("async", real, still.total_uw)
    assert real > still.total_uw * 1.15, (real, still)
    log = Path(m.logs["sta_activity"]).read_text()
    assert "RTLOPT_ACT_ASYNC_SOURCES 1" in log


def test_vectorless_mode_simulates_nothing(sky: PdkInfo, tmp_path: Path) -> None:
    """Off the hot path: with power_mode = vectorless the evaluator's flow gets no activity
    callable, and the cache key differs between the modes."""
    from rtlopt.evaluate import Evaluator
    from rtlopt.frontend import load_design

    src = tmp_path / "fsm.v"
    src.write_text(GRAY)
    base = dataclasses.replace(
        Config(),
        harness=HarnessConfig(sim_timeout_s=20.0, random_vectors=50, sequence_cycles=50),
        sandbox=SandboxConfig(timeout_s=60.0, memory_mb=2048),
    )
    design = load_design(src, "fsm", base.project)
    fingerprints: dict[str, str] = {}
    results: dict[str, EvalResult] = {}
    provs: dict[str, dict[str, object]] = {}
    refs: dict[str, EvalResult] = {}
    for mode in ("vectorless", "activity"):
        cfg = dataclasses.replace(base, flow=FlowConfig(power_mode=mode))
        with Evaluator(design, cfg, tmp_path / mode, pdk=sky) as ev:
            results[mode] = ev.evaluate(BINARY)
            fingerprints[mode] = ev.fingerprint
            provs[mode] = ev.provenance()
            refs[mode] = ev.reference()
    vl, act = results["vectorless"], results["activity"]
    assert vl.accepted and act.accepted, (vl.reason, act.reason)
    assert fingerprints["vectorless"] != fingerprints["activity"]
    assert vl.ppa is not None and vl.ppa.power_activity_uw is None
    assert "power_activity" not in vl.metrics and "activity" not in vl.timings
    assert not list((tmp_path / "vectorless").rglob("activity.vcd"))
    assert act.ppa is not None and act.ppa.power_activity_uw is not None
    assert act.metrics["power"].value == act.metrics["power_activity"].value
    assert act.metrics["power_vectorless"].value == pytest.approx(vl.metrics["power"].value)
    assert provs["activity"]["flow"]["power_mode"] == "activity"  # type: ignore[index]
    assert provs["vectorless"]["flow"]["power_mode"] == "vectorless"  # type: ignore[index]
    ref = refs["activity"].ppa  # the reference gets both numbers too
    assert ref is not None and ref.power_activity_uw is not None
    assert ref.power_vectorless_uw is not None
    print("reference", ref, "candidate", act.ppa, "timings", dict(act.timings))
