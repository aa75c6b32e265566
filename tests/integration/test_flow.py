"""The real PPA flow (Debian Yosys 0.23 + OpenSTA 2.0.17) on the paper's references."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from rtlopt.config import FlowConfig, SandboxConfig
from rtlopt.eda.flow import PpaFlow
from rtlopt.errors import EvaluationTimeout, PluginError, ToolFailed, UsageError
from rtlopt.pdk import PdkInfo, resolve_pdk
from rtlopt.tools import require_tool

pytestmark = pytest.mark.tools

BENCH = Path(os.environ.get("RTLOPT_BENCH_PATH", Path(__file__).parents[3] / "shared" / "bench"))
C910 = BENCH / "c910" / "lza_simd_half"
C910_FILES = [C910 / "ct_vfmau_lza_42.v", C910 / "ct_vfmau_lza_simd_half.v"]
C910_TOP = "ct_vfmau_lza_simd_half"
RTLLM = BENCH / "rtllm"
FAKE = Path(__file__).resolve().parents[1] / "fake_tools"


# OpenSTA 2.0.17 rejects `assign` statements that carry a constant or a concatenation.
_ASSIGN_CONST = re.compile(r"^\s*assign\b[^;]*(?:\d*'[sS]?[bBoOdDhH]|\{)[^;]*;", re.M)


def _pdk(name: str) -> PdkInfo:
    try:
        return resolve_pdk(name)
    except PluginError:
        raise  # a built-in PDK that is not registered is a bug, never "data absent"
    except UsageError as exc:  # the liberty file is not on RTLOPT_PDK_PATH
        pytest.skip(f"PDK {name} not available: {exc}")


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"benchmark data not found: {path} (set RTLOPT_BENCH_PATH)")


@pytest.fixture(scope="module")
def sky() -> PdkInfo:
    return _pdk("sky130hd")


@pytest.fixture(scope="module")
def ng() -> PdkInfo:
    return _pdk("nangate45")


@pytest.fixture(scope="module")
def ng_flow(ng: PdkInfo) -> Iterator[PpaFlow]:
    with PpaFlow(ng, FlowConfig(pdk="nangate45"), SandboxConfig()) as flow:
        yield flow


@pytest.mark.parametrize("persistent", [False, True], ids=["naive", "pipeline"])
def test_c910_sky130_reproduces_paper_adp(sky: PdkInfo, tmp_path: Path, persistent: bool) -> None:
    _need(C910)
    if not require_tool("yosys").version.startswith("0.23"):
        pytest.skip("the paper's number needs Debian's Yosys 0.23")
    cfg = FlowConfig(persistent=persistent, engine="yosys")
    with PpaFlow(sky, cfg, SandboxConfig()) as flow:
        m = flow.measure(C910_FILES, C910_TOP, [], tmp_path)
        prov = flow.provenance()
    assert m.ppa.adp == pytest.approx(3_402_207, rel=0.005)
    assert m.ppa.area_um2 == pytest.approx(1552.74, abs=0.01)
    assert m.ppa.delay_ps == pytest.approx(2191, abs=1)
    assert m.ppa.power_uw is not None and m.ppa.power_uw > 0
    assert m.netlist.is_file() and Path(m.logs["synth"]).is_file()
    assert prov["tool_versions"]["sta"] == "2.0.17" and prov["liberty_md5"] == sky.md5
    assert "abc -liberty" in prov["synth_script"] and prov["clock_period_ns"] == 10.0


def test_c910_nangate45(ng_flow: PpaFlow, tmp_path: Path) -> None:
    _need(C910)
    m = ng_flow.measure(C910_FILES, C910_TOP, [], tmp_path)
    assert m.ppa.area_um2 == pytest.approx(315.2, abs=0.1)
    assert m.ppa.delay_ps == pytest.approx(496, abs=1)


@pytest.mark.parametrize(
    "design,top", [("ROM", "ROM"), ("traffic_light", "verified_traffic_light")]
)
def test_netlist_with_constants_is_read_by_opensta(
    ng_flow: PpaFlow, tmp_path: Path, design: str, top: str
) -> None:
    src = RTLLM / design / f"verified_{design}.v"
    _need(src)
    clocks = ["clk"] if design == "traffic_light" else []
    m = ng_flow.measure([src], top, clocks, tmp_path)
    assert m.ppa.area_um2 > 0 and m.ppa.delay_ps > 0
    netlist = m.netlist.read_text()
    assert not _ASSIGN_CONST.findall(netlist)
    if design == "ROM":  # its constant outputs went to tie cells instead
        assert re.search(r"^\s*LOGIC[01]_X1\b", netlist, re.M)


def test_worker_matches_fresh_process_on_a_sequence(
    ng: PdkInfo, ng_flow: PpaFlow, tmp_path: Path
) -> None:
    """A long-lived session gives the numbers of a fresh one, design after design."""
    _need(RTLLM / "traffic_light")
    Job = tuple[list[Path], str, list[str]]
    cnt: Job = ([RTLLM / "counter_12" / "verified_counter_12.v"], "verified_counter_12", ["clk"])
    tl: Job = (
        [RTLLM / "traffic_light" / "verified_traffic_light.v"],
        "verified_traffic_light",
        ["clk"],
    )
    rom: Job = ([RTLLM / "ROM" / "verified_ROM.v"], "ROM", [])
    # sequential after sequential is where OpenSTA 2.0.17 keeps stale power state
    jobs = [tl, cnt, rom]
    fresh_cfg = FlowConfig(pdk="nangate45", persistent=False)
    with PpaFlow(ng, fresh_cfg, SandboxConfig()) as fresh:
        for i, (files, top, clocks) in enumerate(jobs):
            a = ng_flow.measure(files, top, clocks, tmp_path / f"w{i}")
            b = fresh.measure(files, top, clocks, tmp_path / f"f{i}")
            assert a.ppa == b.ppa
            if top == "verified_counter_12":
                fresh_cnt = b.ppa
    seq = ng_flow.measure(*cnt, tmp_path / "again")
    assert seq.ppa == fresh_cnt
    assert seq.sta is not None and seq.sta.clocks == ("clk",) and seq.sta.registers > 0


def test_clock_period_is_applied_and_reg_to_reg_paths_timed(ng: PdkInfo, tmp_path: Path) -> None:
    src = RTLLM / "counter_12" / "verified_counter_12.v"
    _need(src)
    with PpaFlow(ng, FlowConfig(pdk="nangate45", clock_period_ns=3.0), SandboxConfig()) as flow:
        clocked = flow.measure([src], "verified_counter_12", ["clk"], tmp_path / "c")
        virtual = flow.measure([src], "verified_counter_12", [], tmp_path / "v")
        assert "set_input_delay 0" in (tmp_path / "c" / "sta.tcl").read_text()
    assert clocked.sta is not None and clocked.sta.clocks == ("clk",)
    assert virtual.sta is not None and virtual.sta.warnings  # registers but no clock
    assert clocked.ppa.delay_ps > virtual.ppa.delay_ps  # reg-to-reg paths now count


def test_synthesis_error_is_tool_failed(ng_flow: PpaFlow, tmp_path: Path) -> None:
    bad = tmp_path / "bad.v"
    bad.write_text("module bad(input a, output y); assign y = a &; endmodule\n")
    with pytest.raises(ToolFailed):
        ng_flow.measure([bad], "bad", [], tmp_path / "w")


def test_fake_sta_hang_in_flow_is_timeout(
    ng: PdkInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real Yosys (named by RTLOPT_YOSYS), a fake OpenSTA that hangs (first on PATH): the flow
    raises EvaluationTimeout."""
    _need(C910)
    monkeypatch.setenv("RTLOPT_YOSYS", require_tool("yosys").path)
    monkeypatch.delenv("RTLOPT_STA", raising=False)
    monkeypatch.setenv("PATH", f"{FAKE}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "hang")
    cfg = replace(FlowConfig(pdk="nangate45"), sta_timeout_s=1.0)
    with PpaFlow(ng, cfg, SandboxConfig()) as flow:
        assert flow.provenance()["binaries"] == {
            "yosys": require_tool("yosys").path,
            "sta": str(FAKE / "sta"),
        }
        with pytest.raises(EvaluationTimeout):
            flow.measure(C910_FILES, C910_TOP, [], tmp_path)


def test_pyosys_engine_in_process(ng: PdkInfo, tmp_path: Path) -> None:
    """The in-process engine maps the C910 LZA too (newer ABC: different numbers)."""
    pytest.importorskip("pyosys")
    _need(C910)
    with PpaFlow(ng, FlowConfig(pdk="nangate45", engine="pyosys"), SandboxConfig()) as flow:
        m = flow.measure(C910_FILES, C910_TOP, [], tmp_path)
        assert flow.provenance()["engine"] == "pyosys"
    assert 200 < m.ppa.area_um2 < 500 and 200 < m.ppa.delay_ps < 1500 and m.ppa.cells > 0
