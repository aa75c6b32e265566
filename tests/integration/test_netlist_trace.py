"""A netlist-check mismatch is traced like every other refutation: a VCD that pywellen reads
with the differing bit at the cycle the message names, and a replay script that reproduces it
(real iverilog, Yosys, OpenSTA)."""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FormalConfig, HarnessConfig, SandboxConfig
from rtlopt.errors import UsageError
from rtlopt.evaluate import Evaluator, load_replay
from rtlopt.evaluate._trace import STEP_NS
from rtlopt.frontend import load_design
from rtlopt.pdk import PdkInfo, resolve_pdk
from rtlopt.report import counterexample_lines
from rtlopt.results import Stage, Status

pywellen = pytest.importorskip("pywellen")

pytestmark = pytest.mark.tools

# The reference carries a region (`& d`, which changes nothing where it stands), so screening
# lets a candidate reuse it once: simulation reads `q <= q + (4'hf & d)`, synthesis reads
# `q <= q + (4'hf)`.
REF = """module accp(input clk, input rst, input [3:0] d, output reg [7:0] q);
  always @(posedge clk) if (rst) q <= 8'd0; else q <= q + (d
  // synopsys translate_off
  & d
  // synopsys translate_on
  );
endmodule
"""
CAND = REF.replace("q + (d\n", "q + (4'hf\n")


@pytest.fixture(scope="module")
def sky() -> PdkInfo:
    try:
        return resolve_pdk("sky130hd")
    except UsageError as exc:
        pytest.skip(str(exc))


def _wave(vcd: str, name: str, t: int) -> object:
    wv = pywellen.Waveform(vcd)
    var = next(v for v in wv.all_vars() if v.full_name == name)
    return var.signal.value_at(t)


def _bits(v: object, width: int) -> str:
    return v if isinstance(v, str) else format(int(v), f"0{width}b")  # type: ignore[call-overload]


def test_netlist_check_mismatch_is_a_replayable_waveform(sky: PdkInfo, tmp_path: Path) -> None:
    src = tmp_path / "accp.v"
    src.write_text(REF)
    cfg = dataclasses.replace(
        Config(),
        harness=HarnessConfig(sim_timeout_s=20.0, random_vectors=50, sequence_cycles=50),
        formal=FormalConfig(enabled=False),
        eval=EvalConfig(netlist_check="always", workers=1),
        sandbox=SandboxConfig(timeout_s=60.0, memory_mb=2048),
    )
    design = load_design(src, "accp", cfg.project)
    with Evaluator(design, cfg, tmp_path / "scratch", pdk=sky) as ev:
        res = ev.evaluate(CAND)
    assert res.status is Status.INVALID and res.stage is Stage.NETLIST, res.reason
    assert res.sim is not None and res.sim.passed  # the RTL simulates like the reference
    assert res.netlist is not None and res.netlist.first_mismatch is not None
    vec = int(re.search(r"vector (\d+)", res.reason).group(1))  # type: ignore[union-attr]
    for key in ("trace", "trace_vcd", "trace_testbench", "trace_replay"):
        assert Path(res.logs[key]).is_file(), key
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.kind == "netlist"
    assert rep.reproduced and not rep.note, rep.note
    s = rep.samples[rep.first]
    assert s.step == vec and s.bad == ("q",)
    t = STEP_NS * vec + (STEP_NS // 2) * s.phase
    vcd = res.logs["trace_vcd"]
    assert _wave(vcd, "rtlopt.mismatch", t) == 1
    ref = _bits(_wave(vcd, "rtlopt.reference.q", t), 8)
    cand = _bits(_wave(vcd, "rtlopt.candidate.q", t), 8)
    diff = _bits(_wave(vcd, "rtlopt.diff.q", t), 8)
    assert ref != cand, (ref, cand)  # the netlist adds 4'hf
    assert diff == "".join("1" if a != b else "0" for a, b in zip(ref, cand, strict=True))
    # the report names the netlist check, with the failing input
    lines = counterexample_lines(res)
    assert lines and lines[0].startswith("netlist check"), lines
    r = subprocess.run(
        ["sh", res.logs["trace_replay"]], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r" P \d+ \d+ bad:\w+=1 ", r.stdout), r.stdout[-2000:]
