"""load_design on a real temporary git repository: filelist, include dir, defines, rtlopt.toml."""

from __future__ import annotations

import dataclasses
import logging
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig, load_config
from rtlopt.errors import DesignError
from rtlopt.frontend import load_design

TOP = """// Top-level spec: a registered adder.
`include "defs.vh"
module top #(parameter N = `WIDTH) (
  input clk, input rst_n,
  input [N-1:0] a, input [`EXTRA-1:0] b,
  output [N:0] y
);
  wire [N:0] s;
  adder #(.N(N)) u_add (.a(a), .b(b[0]), .s(s));
  flop #(.N(N+1)) u_ff (.clk(clk), .rst_n(rst_n), .d(s), .q(y));
endmodule
"""

ADDER = """module adder #(parameter N = 2) (input [N-1:0] a, input b, output [N:0] s);
  assign s = a + b;
endmodule
"""

FLOP = """module flop #(parameter N = 1) (input clk, input rst_n, input [N-1:0] d,
                                   output reg [N-1:0] q);
  always @(posedge clk or negedge rst_n)
    if (!rst_n) q <= 0; else q <= d;
endmodule
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    root = tmp_path / "proj"
    for d in ("rtl/core", "rtl/lib", "include", "tb"):
        (root / d).mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "rtl" / "core" / "top.v").write_text(TOP)
    (root / "rtl" / "lib" / "adder.v").write_text(ADDER)
    (root / "rtl" / "lib" / "flop.v").write_text(FLOP)
    (root / "include" / "defs.vh").write_text("`ifndef EXTRA\n`define EXTRA 2\n`endif\n")
    (root / "tb" / "broken_tb.v").write_text("module tb; initial begin $display(; end endmodule\n")
    (root / "files.f").write_text(
        "+incdir+include\n+define+WIDTH=6\nrtl/core/top.v\n-v rtl/lib/adder.v\n"
    )
    (root / "rtlopt.toml").write_text('[project]\nfilelists = ["files.f"]\ndefines = ["EXTRA=3"]\n')
    return root


def _project(root: Path) -> ProjectConfig:
    return load_config(root / "rtl" / "core" / "top.v").config.project


def test_load_design_with_filelist_include_defines(
    repo: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        d = load_design(repo / "rtl" / "core" / "top.v", None, _project(repo))
    assert d.root == repo.resolve()
    t = d.target
    assert t.name == "top"
    widths = {p.name: p.width for p in t.ports}
    assert widths == {"clk": 1, "rst_n": 1, "a": 6, "b": 3, "y": 7}  # WIDTH=6 from .f, EXTRA=3
    assert t.clocks == ("clk",) and t.resets == ("rst_n",) and t.reset_active_low["rst_n"]
    assert set(d.submodules) == {"adder", "flop"}
    lib = (repo / "rtl" / "lib").resolve()
    assert set(d.closure[:-1]) == {lib / "adder.v", lib / "flop.v"}
    assert d.closure[-1] == (repo / "rtl" / "core" / "top.v").resolve()
    assert (repo / "include").resolve() in d.include_dirs
    assert d.defines["WIDTH"] == "6"
    assert "Top-level spec" in t.header_comment
    assert t.text().startswith("module top") and t.text().endswith("endmodule")
    # the broken testbench is not needed: never parsed (lazy), or a warning, not an error
    assert not any("broken_tb.v" in r.getMessage() for r in caplog.records)
    full = dataclasses.replace(_project(repo), lazy_parse=False)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        d2 = load_design(repo / "rtl" / "core" / "top.v", None, full)
    assert any("broken_tb.v" in r.getMessage() for r in caplog.records)
    assert d2.closure == d.closure and d2.submodules == d.submodules
    assert set(d.modules) == set(d2.modules)  # the broken file defines none


def test_command_line_defines_win(repo: Path) -> None:
    d = load_design(repo / "rtl" / "core" / "top.v", "top", _project(repo), defines={"WIDTH": "10"})
    assert d.target.port("a").width == 10


def test_errors(repo: Path) -> None:
    proj = _project(repo)
    with pytest.raises(DesignError, match="file not found"):
        load_design(repo / "nope.v", None, proj)
    with pytest.raises(DesignError, match=r"module 'nope' not found in top.v; modules here: top"):
        load_design(repo / "rtl" / "core" / "top.v", "nope", proj)
    with pytest.raises(DesignError, match="defined in .*adder.v"):
        load_design(repo / "rtl" / "core" / "top.v", "adder", proj)


def test_syntax_error_in_needed_file_is_fatal(repo: Path) -> None:
    (repo / "rtl" / "lib" / "flop.v").write_text(FLOP.replace("q <= d;", "q <= ;"))
    with pytest.raises(DesignError, match=r"flop.v:4: syntax error") as ei:
        load_design(repo / "rtl" / "core" / "top.v", None, _project(repo))
    assert ei.value.exit_code == 2
    assert "project.exclude" in str(ei.value)


def test_syntax_error_in_target(repo: Path) -> None:
    (repo / "rtl" / "core" / "top.v").write_text(TOP.replace("wire [N:0] s;", "wire [N:0] s"))
    with pytest.raises(DesignError, match=r"top.v:\d+: syntax error"):
        load_design(repo / "rtl" / "core" / "top.v", None, _project(repo))


def test_undefined_submodule(repo: Path) -> None:
    (repo / "rtl" / "lib" / "adder.v").unlink()
    with pytest.raises(DesignError, match="module 'adder' instantiated in top is not defined"):
        load_design(
            repo / "rtl" / "core" / "top.v",
            None,
            ProjectConfig(include_dirs=("include",), defines=("WIDTH=4",)),
        )


def test_several_modules_pick_single_top_or_fail(tmp_path: Path) -> None:
    f = tmp_path / "multi.v"
    f.write_text(
        ADDER + FLOP + "module wrap(input [1:0] a, output [2:0] s);\n"
        "  adder u(.a(a), .b(1'b0), .s(s));\nendmodule\n"
    )
    with pytest.raises(DesignError, match="several top modules: flop, wrap"):
        load_design(f, None, ProjectConfig())
    g = tmp_path / "single_top.v"
    g.write_text(
        ADDER + "module wrap(input [1:0] a, output [2:0] s);\n"
        "  adder u(.a(a), .b(1'b0), .s(s));\nendmodule\n"
    )
    d = load_design(g, None, ProjectConfig())
    assert d.target.name == "wrap" and d.submodules == ("adder",)
    assert d.closure == (g.resolve(),)
    assert load_design(f, "flop", ProjectConfig()).target.clocks == ("clk",)
