"""Exact command lines and scripts of the synthesis/STA wrappers, with fake tools on PATH."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rtlopt.eda._worker import StaWorker
from rtlopt.eda.opensta import candidate_tcl, parse_sta_output, run_sta, sta_script
from rtlopt.eda.yosys import SynthLibraries, parse_stat, synth_script, synthesize
from rtlopt.errors import EvaluationTimeout, ToolFailed
from tests.conftest import no_sandbox

FAKE = Path(__file__).resolve().parents[2] / "fake_tools"


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fake yosys/sta first on PATH; returns the file their calls are recorded in."""
    log = tmp_path / "calls.jsonl"
    monkeypatch.setenv("PATH", f"{FAKE}{os.pathsep}{os.environ['PATH']}")
    for name in ("RTLOPT_YOSYS", "RTLOPT_STA"):  # the tools on PATH, not an override
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RTLOPT_FAKE_LOG", str(log))
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "ok")
    no_sandbox(monkeypatch)
    return log


def calls(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


LIBS = SynthLibraries(Path("/lib/dff.lib"), Path("/lib/abc.lib"), Path("/lib/area.lib"))


def test_synth_script_is_the_paper_flow_with_tie_cells(tmp_path: Path) -> None:
    text = synth_script(
        [Path("/src/a.v"), Path("/src/b.sv")],
        "top",
        LIBS,
        tmp_path / "n.v",
        tmp_path / "s.txt",
        include_dirs=[Path("/inc")],
        defines={"W": "8", "FLAG": ""},
        tie_hi=("TH", "Z"),
        tie_lo=("TL", "Z"),
    )
    assert text.splitlines() == [
        "read_verilog -sv -I/inc -DW=8 -DFLAG /src/a.v /src/b.sv",
        "hierarchy -check -top top",
        "flatten",
        "synth -top top",
        "dfflibmap -liberty /lib/dff.lib",
        "abc -liberty /lib/abc.lib",
        "opt_clean -purge",
        "setundef -zero",
        "splitnets -ports",
        "opt_clean -purge",
        "hilomap -singleton -hicell TH Z -locell TL Z",
        f"tee -q -o {tmp_path / 's.txt'} stat -liberty /lib/area.lib",
        f"write_verilog -noattr -noexpr -simple-lhs {tmp_path / 'n.v'}",
    ]


def test_synth_script_through_long_lived_abc_spells_out_synth(tmp_path: Path) -> None:
    """With ABC clients, ``synth`` becomes its own steps (``yosys -h synth`` of 0.23, no -lut /
    -noabc) with the generic ``abc -fast`` through one client and the liberty mapping through
    the other; everything else is the default script."""
    kw = {"tie_hi": ("TH", "Z"), "tie_lo": ("TL", "Z")}
    plain = synth_script([Path("/a.v")], "top", LIBS, tmp_path / "n.v", tmp_path / "s.txt", **kw)
    text = synth_script(
        [Path("/a.v")],
        "top",
        LIBS,
        tmp_path / "n.v",
        tmp_path / "s.txt",
        abc_exe=Path("/srv/lib/abc-client.sh"),
        generic_abc_exe=Path("/srv/gen/abc-client.sh"),
        **kw,
    )
    steps = [
        "synth -top top -run begin:fine",
        "opt -fast -full",
        "memory_map",
        "opt -full",
        "techmap",
        "opt -fast",
        "abc -fast -exe /srv/gen/abc-client.sh",
        "opt -fast",
        "synth -top top -run check:",
    ]
    expected = plain.replace("synth -top top\n", "\n".join(steps) + "\n").replace(
        "abc -liberty /lib/abc.lib", "abc -exe /srv/lib/abc-client.sh -liberty /lib/abc.lib"
    )
    assert text == expected and text != plain


def test_synth_script_without_tie_cells_skips_constant_mapping(tmp_path: Path) -> None:
    text = synth_script([Path("/a.v")], "t", LIBS, tmp_path / "n.v", tmp_path / "s.txt")
    assert "hilomap" not in text and "setundef" not in text


def test_synth_script_routes_unsafe_paths_through_safe_links(tmp_path: Path) -> None:
    src = tmp_path / "my dir" / "a.v"
    src.parent.mkdir()
    src.write_text("module t; endmodule\n")
    text = synth_script([src], "t", LIBS, tmp_path / "n.v", tmp_path / "s.txt")
    read = text.splitlines()[0].split()
    assert read[:2] == ["read_verilog", "-sv"] and len(read) == 3
    assert " " not in read[2] and Path(read[2]).resolve() == src.resolve()


def test_parse_stat_takes_the_top_module() -> None:
    text = (
        "=== sub ===\n   Number of cells: 3\n   Chip area for module '\\sub': 5.5\n"
        "=== top ===\n   Number of cells: 12\n   Chip area for module '\\top': 42.25\n"
    )
    assert parse_stat(text, "top") == (42.25, 12)
    assert parse_stat(text, "sub") == (5.5, 3)
    with pytest.raises(ValueError):
        parse_stat(text, "other")


def test_fake_synthesize_records_argv_and_parses(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_FAKE_AREA", "77.5")
    res = synthesize([Path("/src/a.v")], "top", tmp_path / "w", LIBS, timeout=30)
    assert res.area_um2 == 77.5 and res.cells == 7 and res.netlist.is_file()
    (call,) = calls(fake)
    assert call["argv"] == ["-s", str(tmp_path / "w" / "synth.ys")]
    assert "abc -liberty /lib/abc.lib" in str(call["script"])


def test_fake_yosys_crash_is_tool_failed(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "crash")
    with pytest.raises(ToolFailed, match="fake crash"):
        synthesize([Path("/a.v")], "top", tmp_path, LIBS, timeout=30)


def test_fake_yosys_exit_zero_without_outputs_is_tool_failed(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "silent")
    with pytest.raises(ToolFailed, match="no netlist"):
        synthesize([Path("/a.v")], "top", tmp_path, LIBS, timeout=30)


def test_fake_yosys_timeout_is_evaluation_timeout(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "hang")
    with pytest.raises(EvaluationTimeout):
        synthesize([Path("/a.v")], "top", tmp_path, LIBS, timeout=1.0)


def test_candidate_tcl_clocks_and_virtual_clock() -> None:
    text = candidate_tcl(Path("/n.v"), "top", ["clk", "clk2"], 2.5, power=True, token="abc")
    assert "set rtlopt_clock_names [list clk clk2]" in text
    assert "create_clock -name $rtlopt_c -period 2.5 $rtlopt_port" in text
    assert "create_clock -name vclk -period 2.5" in text
    assert "set_power_activity -input -activity 0.1 -duty 0.5" in text
    assert text.rstrip().endswith('puts "RTLOPT_DONE abc"')
    assert "if {0}" in candidate_tcl(Path("/n.v"), "t", [], 1, power=False, token="x")


def test_sta_script_reads_liberty_first() -> None:
    text = sta_script(Path("/l.lib"), Path("/n.v"), "t", [], 10, power=False)
    assert text.startswith("read_liberty /l.lib\n") and text.rstrip().endswith("exit")


def test_parse_sta_output_units_and_errors() -> None:
    out = (
        "RTLOPT_CLOCKS vclk\nRTLOPT_REGISTERS 4\nRTLOPT_PATHS 9\nRTLOPT_DELAY_S 2.5e-10\n"
        "RTLOPT_POWER_W 3e-5\nRTLOPT_DONE t\n"
    )
    r = parse_sta_output(out, power=True)
    assert r.delay_ps == pytest.approx(250.0) and r.power_uw == pytest.approx(30.0)
    assert r.paths == 9 and r.clocks == ("vclk",)
    assert any("no clock port" in w for w in r.warnings)
    with pytest.raises(ToolFailed, match="RTLOPT_POWER_W"):
        parse_sta_output(out.replace("RTLOPT_POWER_W 3e-5\n", ""), power=True)
    with pytest.raises(ToolFailed, match="bad thing"):
        parse_sta_output("RTLOPT_ERROR bad thing\nRTLOPT_DONE t\n", power=False)


def test_fake_run_sta_oneshot(fake: Path, tmp_path: Path) -> None:
    r = run_sta(Path("/l.lib"), Path("/n.v"), "top", ["clk"], 5.0, tmp_path, power=True)
    assert r.delay_ps == pytest.approx(1500.0) and r.power_uw == pytest.approx(20.0)
    assert r.clocks == ("clk",)
    (call,) = calls(fake)
    assert call["argv"] == ["-no_init", "-no_splash", "-exit", str(tmp_path / "sta.tcl")]


def test_fake_sta_crash_is_tool_failed(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "crash")
    with pytest.raises(ToolFailed):
        run_sta(Path("/l.lib"), Path("/n.v"), "top", [], 5.0, tmp_path, power=False)


def _job(tmp_path: Path, name: str) -> Path:
    script = tmp_path / f"{name}.tcl"
    script.write_text(candidate_tcl(Path("/n.v"), "top", [], 10, power=False, token=name))
    return script


def test_fake_worker_loads_liberty_once(fake: Path, tmp_path: Path) -> None:
    with StaWorker(Path("/l.lib"), tmp_path / "w.log", timeout=20) as w:
        outs = [w.run(_job(tmp_path, f"job{i}")) for i in range(3)]
    assert w.starts == 1
    for i, out in enumerate(outs):
        assert parse_sta_output(out, power=False).delay_ps == pytest.approx(1500.0)
        assert f"RTLOPT_DONE job{i}" in out
    kinds = [c["script"] for c in calls(fake)]
    assert sum("read_liberty /l.lib" in str(k) for k in kinds) == 1


def test_fake_worker_timeout_restarts(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = StaWorker(Path("/l.lib"), tmp_path / "w.log", timeout=10)
    try:
        w.run(_job(tmp_path, "a"))
        monkeypatch.setenv("RTLOPT_FAKE_MODE", "hang")  # read by the next process only
        w.close()
        with pytest.raises(EvaluationTimeout):
            w.run(_job(tmp_path, "b"), timeout=1.0)
        assert not w.alive
        monkeypatch.setenv("RTLOPT_FAKE_MODE", "ok")
        assert "RTLOPT_DONE c" in w.run(_job(tmp_path, "c"))
        assert w.starts == 3
    finally:
        w.close()


def test_fake_worker_crash_is_tool_failed(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "crash")
    with StaWorker(Path("/l.lib"), tmp_path / "w.log", timeout=10) as w:
        with pytest.raises(ToolFailed, match="exited"):
            w.run(_job(tmp_path, "a"))


def test_parse_stat_newer_yosys_format() -> None:
    text = (
        "=== top ===\n\n        +----------Local Count\n      282        - wires\n"
        "      233 1.39E+03 cells\n        2   17.517   sky130_fd_sc_hd__a2111oi_0\n"
        "   Chip area for module '\\top': 1391.334400\n"
    )
    assert parse_stat(text, "top") == (1391.3344, 233)


def test_parse_stat_zero_cells_is_zero_area() -> None:
    """Pure wiring: Yosys prints no area line for a module without cells."""
    text = "=== top ===\n\n   Number of wires:                  8\n   Number of cells:  0\n"
    assert parse_stat(text, "top") == (0.0, 0)
    with pytest.raises(ValueError):
        parse_stat(text.replace("cells:  0", "cells:  3"), "top")
