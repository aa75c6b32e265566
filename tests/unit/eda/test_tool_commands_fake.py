"""Exact command lines of compile, simulate and formal, and the binary that runs, with fake tools.

The fakes (tests/fake_tools, edalize-style mock commands) record their argv and the path they
were started as; the synthesis and STA command lines are in test_yosys_opensta_fake.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.eda.iverilog import compile_sources, run_simulation
from rtlopt.eda.yosys import SynthLibraries, synthesize
from rtlopt.errors import ToolNotFound
from rtlopt.formal import check_equivalence, check_structure
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import Verdict
from rtlopt.tools import Tool, require_tool, tool_paths, tool_versions
from tests.conftest import FAKE_TOOLS, FakeTools

ADDER = (
    "module top(input [3:0] a, input [3:0] b, output [4:0] y);\n  assign y = a + b;\nendmodule\n"
)


def _design(tmp_path: Path) -> Design:
    rtl = tmp_path / "repo" / "rtl"
    rtl.mkdir(parents=True)
    (rtl / "top.v").write_text(ADDER)
    return load_design(rtl / "top.v", "top", ProjectConfig())


def test_fake_compile_command_line(fake_tools: FakeTools, tmp_path: Path) -> None:
    inc, lib, a, b = tmp_path / "inc", tmp_path / "cells.v", tmp_path / "a.v", tmp_path / "b.v"
    inc.mkdir()
    for f in (lib, a, b):
        f.write_text(f"module {f.stem}_m; endmodule\n")
    res = compile_sources(
        [a, b],
        tmp_path / "w",
        top="top",
        include_dirs=[inc],
        defines={"W": "8", "FLAG": ""},
        libraries=[lib],
        out=tmp_path / "w" / "c.vvp",
        timeout=30,
    )
    assert res.ok and res.vvp.is_file() and res.n_errors == 0
    (call,) = fake_tools.calls("iverilog")
    assert call["exe"] == str(FAKE_TOOLS / "iverilog")
    assert call["argv"] == [
        "-g2012",
        "-o",
        str(tmp_path / "w" / "c.vvp"),
        "-s",
        "top",
        "-I",
        str(inc),
        "-DW=8",
        "-DFLAG",
        "-l",
        str(lib),
        str(a),
        str(b),
    ]
    assert call["cwd"] == str(tmp_path / "w")


def test_fake_compile_errors_are_counted(fake_tools: FakeTools, tmp_path: Path) -> None:
    bad = tmp_path / "bad.v"
    bad.write_text("module bad; // FAKE_SYNTAX_ERROR\nendmodule\n")
    res = compile_sources([bad], tmp_path, timeout=30)
    assert not res.ok and res.n_errors == 1 and res.errors == (f"{bad}:1: syntax error",)


def test_fake_simulate_command_line(fake_tools: FakeTools, tmp_path: Path) -> None:
    vvp = tmp_path / "sim.vvp"
    text = '$display("RTLOPT abc123 RESULT vectors=7 checks=%0d mismatches=%0d");\n'
    vvp.write_text(text)
    rep = run_simulation(vvp, tmp_path, timeout=30, memory_mb=None, secret="abc123")
    assert rep.result.passed and rep.result.vectors == 7 and rep.reason == ""
    # the compiled file is gone; vvp read it through a named pipe that is gone too
    assert not vvp.exists() and not list(tmp_path.glob(".rtlopt_*"))
    (call,) = fake_tools.calls("vvp")
    assert call["exe"] == str(FAKE_TOOLS / "vvp") and call["argv"][0] == "-n"
    assert Path(call["argv"][1]).parent == tmp_path and call["argv"][1].endswith(".vvp")
    # the log keeps no live secret
    assert "abc123" not in (tmp_path / "sim.log").read_text()
    vvp.write_text(text + "// FAKE_MISMATCH\n")
    assert not run_simulation(
        vvp, tmp_path, timeout=30, memory_mb=None, secret="abc123"
    ).result.passed
    # another secret: the lines do not count
    vvp.write_text(text + "// FAKE_MISMATCH\n")
    assert (
        "no result line"
        in run_simulation(vvp, tmp_path, timeout=30, memory_mb=None, secret="other").reason
    )


def test_fake_formal_command_lines(fake_tools: FakeTools, tmp_path: Path) -> None:
    design = _design(tmp_path)
    cand = tmp_path / "cand.v"
    cand.write_text(ADDER.replace("a + b", "b + a"))
    res = check_equivalence(design, [cand], tmp_path / "f", FormalConfig())
    assert res.verdict is Verdict.PROVEN, res
    (call,) = fake_tools.calls("yosys")
    assert call["exe"] == str(FAKE_TOOLS / "yosys")
    assert call["argv"] == ["-q", "-l", "equiv.log", "-s", "equiv.ys"]
    assert call["cwd"] == str(tmp_path / "f")
    assert "write_json structure.json" in call["script"]

    fake_tools.clear()
    cand.write_text(ADDER.replace("a + b", "a - b") + "// FAKE_REFUTE\n")
    assert (
        check_equivalence(design, [cand], tmp_path / "g", FormalConfig()).verdict is Verdict.REFUTED
    )
    fake_tools.clear()
    assert check_structure(design, [cand], tmp_path / "s", FormalConfig()) == ""
    (call,) = fake_tools.calls("yosys")
    assert call["argv"] == ["-q", "-l", "structure.log", "-s", "structure.ys"]


def test_identical_candidate_runs_no_tool(fake_tools: FakeTools, tmp_path: Path) -> None:
    design = _design(tmp_path)
    cand = tmp_path / "same.v"
    cand.write_text(ADDER)
    res = check_equivalence(design, [cand], tmp_path / "f", FormalConfig())
    assert res.verdict is Verdict.PROVEN and res.method == "identical source"
    assert fake_tools.calls("yosys") == []


@pytest.fixture
def other_yosys(fake_tools: FakeTools, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A second fake yosys, off PATH, named by RTLOPT_YOSYS and reporting version 9.9."""
    other = tmp_path / "elsewhere" / "yosys-9.9"
    other.parent.mkdir()
    shutil.copy(FAKE_TOOLS / "yosys", other)
    monkeypatch.setenv("RTLOPT_YOSYS", str(other))
    monkeypatch.setenv("RTLOPT_FAKE_VERSION", "9.9")
    return other


def test_rtlopt_yosys_runs_and_records_that_binary(
    other_yosys: Path, fake_tools: FakeTools, tmp_path: Path
) -> None:
    """RTLOPT_YOSYS names another binary (a fake yosys is first on PATH): synthesis and the
    formal check run that one, and it is the one whose path and version are recorded."""
    assert require_tool("yosys") == Tool("yosys", str(other_yosys), "9.9")
    assert tool_versions(("yosys",)) == {"yosys": "9.9"}
    assert tool_paths(("yosys", "vvp")) == {
        "yosys": str(other_yosys),
        "vvp": str(FAKE_TOOLS / "vvp"),
    }
    libs = SynthLibraries.single(tmp_path / "x.lib")
    synthesize([tmp_path / "a.v"], "top", tmp_path / "syn", libs, timeout=30)
    design = _design(tmp_path)
    cand = tmp_path / "cand.v"
    cand.write_text(ADDER.replace("a + b", "b + a"))
    check_equivalence(design, [cand], tmp_path / "f", FormalConfig())
    calls = fake_tools.calls("yosys")
    assert [c["exe"] for c in calls] == [str(other_yosys)] * 2
    assert calls[0]["argv"] == ["-s", str(tmp_path / "syn" / "synth.ys")]


def test_rtlopt_tool_override_that_is_not_a_binary(
    fake_tools: FakeTools, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_IVERILOG", str(tmp_path / "missing"))
    with pytest.raises(ToolNotFound, match="RTLOPT_IVERILOG=.*missing is not an executable"):
        require_tool("iverilog")
    monkeypatch.setenv("RTLOPT_IVERILOG", "vvp")  # a program name is looked up on PATH
    assert require_tool("iverilog").path == str(FAKE_TOOLS / "vvp")
