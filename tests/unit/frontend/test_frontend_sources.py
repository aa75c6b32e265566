"""Filelists, defines and repository root discovery."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.errors import ConfigError
from rtlopt.frontend import (
    collect_sources,
    filelist_variables,
    find_repo_root,
    guess_variables,
    parse_defines,
    read_filelist,
    read_project_filelist,
)
from rtlopt.frontend._sources import SYNTHESIS_PRELUDE


def test_parse_defines() -> None:
    assert parse_defines(["A", "B=2", " C = x "]) == {"A": "", "B": "2", "C": "x"}


def test_filelist_nested_incdir_define(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTL_HOME", str(tmp_path / "rtl"))
    (tmp_path / "rtl" / "inc").mkdir(parents=True)
    (tmp_path / "rtl" / "a.v").write_text("module a; endmodule\n")
    (tmp_path / "rtl" / "b.v").write_text("module b; endmodule\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "c.v").write_text("module c; endmodule\n")
    (tmp_path / "sub.f").write_text("// nested\n-v lib/c.v\n+define+NESTED=1\n")
    (tmp_path / "top.f").write_text(
        "# comment\n+incdir+rtl/inc+rtl\n+define+W=8+FAST\n-Iinc2 -D X=3\n"
        "$RTL_HOME/a.v  // trailing comment\n${RTL_HOME}/b.v\n-f sub.f\n"
    )
    lst = read_filelist(tmp_path / "top.f", tmp_path)
    assert lst.files == [tmp_path / "rtl" / "a.v", tmp_path / "rtl" / "b.v"]
    assert lst.library_files == [tmp_path / "lib" / "c.v"]
    assert lst.include_dirs[:2] == [tmp_path / "rtl" / "inc", tmp_path / "rtl"]
    assert lst.defines == {"W": "8", "FAST": "", "X": "3", "NESTED": "1"}


def test_filelist_headers_are_the_prelude_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A header listed as a source defines macros for later files: it is read first."""
    monkeypatch.setenv("BASE", str(tmp_path))
    (tmp_path / "cfg.h").write_text("`define W 4\n")
    (tmp_path / "more.vh").write_text("`define M (`W-1)\n")
    (tmp_path / "a.v").write_text("module a(input [`M:0] x); endmodule\n")
    (tmp_path / "sub.f").write_text("$BASE/more.vh\n")
    (tmp_path / "top.f").write_text("${BASE}/cfg.h\n-F sub.f\n$(BASE)/a.v\n")
    lst = read_filelist(tmp_path / "top.f", tmp_path)
    assert lst.prelude == [tmp_path / "cfg.h", tmp_path / "more.vh"]
    # a missing include folder is skipped, as simulators do (cv32e40p lists ../sva)
    (tmp_path / "gone.f").write_text("+incdir+${BASE}/sva+${BASE}\n")
    assert read_filelist(tmp_path / "gone.f", tmp_path).include_dirs == [tmp_path]
    assert lst.files == [tmp_path / "a.v"]
    ss = collect_sources(tmp_path / "a.v", tmp_path, ProjectConfig(filelists=("top.f",)))
    assert ss.prelude == (SYNTHESIS_PRELUDE, tmp_path / "cfg.h", tmp_path / "more.vh")
    assert tmp_path / "cfg.h" not in ss.files


def test_filelist_unset_variable_names_file_line_and_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOPE_BASE", raising=False)
    (tmp_path / "top.f").write_text("// header\n+incdir+${NOPE_BASE}/inc\n")
    with pytest.raises(
        ConfigError, match=r"NOPE_BASE is not set, neither in project.filelist_vars"
    ) as ei:
        read_filelist(tmp_path / "top.f", tmp_path)
    assert ei.value.line == 2 and ei.value.path == (tmp_path / "top.f").resolve()
    assert '"NOPE_BASE=<folder>" to project.filelist_vars' in (ei.value.hint or "")


def test_filelist_variables_from_the_configuration_win_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cv32e40p's manifest style: the build sets DESIGN_RTL_DIR; the configuration states it
    for d in ("rtl", "other"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "a.sv").write_text(f"module a; // {d}\nendmodule\n")
    (tmp_path / "m.flist").write_text("${DESIGN_RTL_DIR}/a.sv\n+incdir+${DESIGN_RTL_DIR}\n")
    monkeypatch.setenv("DESIGN_RTL_DIR", str(tmp_path / "other"))
    project = ProjectConfig(filelists=("m.flist",), filelist_vars=("DESIGN_RTL_DIR=rtl",))
    lst = read_project_filelist(tmp_path, "m.flist", project)
    assert lst.files == [(tmp_path / "rtl" / "a.sv").resolve()], lst.files
    assert lst.include_dirs == [(tmp_path / "rtl").resolve()]
    # without the entry, the environment's value (as before)
    bare = read_project_filelist(tmp_path, "m.flist", ProjectConfig(filelists=("m.flist",)))
    assert bare.files == [tmp_path / "other" / "a.sv"]
    with pytest.raises(ConfigError, match="not NAME=VALUE"):
        filelist_variables(ProjectConfig(filelist_vars=("DESIGN_RTL_DIR",)), tmp_path)


def test_filelist_variables_are_guessed_from_the_files_they_name(tmp_path: Path) -> None:
    # a folder in front of paths, and a name inside a file name (a configuration to choose)
    (tmp_path / "hw" / "rtl").mkdir(parents=True)
    for name in ("alu.sv", "core.sv", "small_cfg_pkg.sv", "big_cfg_pkg.sv", "build_cfg_pkg.sv"):
        (tmp_path / "hw" / "rtl" / name).write_text("")
    (tmp_path / "Flist.core").write_text(
        "// sources\n${ROOT}/hw/rtl/alu.sv\n${ROOT}/hw/rtl/core.sv\n"
        "${ROOT}/hw/rtl/build_cfg_pkg.sv\n${ROOT}/hw/rtl/${CFG}_cfg_pkg.sv\n${LIB}\n"
    )
    guess = guess_variables(tmp_path / "Flist.core", tmp_path)
    assert guess == {"ROOT": ["."], "CFG": ["big", "small"], "LIB": []}, guess
    assert guess_variables(tmp_path / "Flist.core", tmp_path, known=["ROOT", "CFG"]) == {"LIB": []}


def test_filelist_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.f").write_text("missing.v\n")
    with pytest.raises(ConfigError, match="missing.v' listed but not found") as ei:
        read_filelist(tmp_path / "bad.f", tmp_path)
    assert ei.value.line == 1
    (tmp_path / "loop.f").write_text("-f loop.f\n")
    with pytest.raises(ConfigError, match="includes itself"):
        read_filelist(tmp_path / "loop.f", tmp_path)
    with pytest.raises(ConfigError, match="not found"):
        read_filelist(tmp_path / "absent.f", tmp_path)


def test_find_repo_root(tmp_path: Path) -> None:
    (tmp_path / "r" / "rtl" / "deep").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(tmp_path / "r")], check=True)
    f = tmp_path / "r" / "rtl" / "deep" / "x.v"
    f.write_text("module x; endmodule\n")
    assert find_repo_root(f) == (tmp_path / "r").resolve()
    (tmp_path / "plain").mkdir()
    g = tmp_path / "plain" / "y.v"
    g.write_text("")
    assert find_repo_root(g) == (tmp_path / "plain").resolve()


def test_collect_sources_scan_exclude_and_headers(tmp_path: Path) -> None:
    (tmp_path / "rtl" / "include").mkdir(parents=True)
    (tmp_path / "build").mkdir()
    (tmp_path / "rtl" / "t.v").write_text("module t; endmodule\n")
    (tmp_path / "rtl" / "include" / "defs.vh").write_text("`define W 4\n")
    (tmp_path / "build" / "gen.v").write_text("module gen; endmodule\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "h.v").write_text("module h; endmodule\n")
    proj = ProjectConfig(defines=("A=1",), exclude=("build/**",))
    ss = collect_sources(tmp_path / "rtl" / "t.v", tmp_path, proj, defines={"A": "2"})
    assert [p.name for p in ss.files] == ["t.v"]
    assert (tmp_path / "rtl" / "include").resolve() in ss.include_dirs
    assert ss.defines == {"SYNTHESIS": "", "A": "2"}  # evaluated as synthesis reads it
    assert ss.prelude == (SYNTHESIS_PRELUDE,)
    with pytest.raises(ConfigError, match="include directory 'nope' not found"):
        collect_sources(tmp_path / "rtl" / "t.v", tmp_path, ProjectConfig(include_dirs=("nope",)))


def _pulp_style(root: Path) -> None:
    """pulp-platform's layout: headers in include/common_cells/, included by that path."""
    (root / "include" / "common_cells").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "include" / "common_cells" / "registers.svh").write_text(
        "`define FF(q, d, clk) always_ff @(posedge clk) q <= d;\n"
    )
    (root / "src" / "dff.sv").write_text(
        '`include "common_cells/registers.svh"\n'
        "module dff (input logic clk_i, input logic d_i, output logic q_o);\n"
        "  `FF(q_o, d_i, clk_i)\nendmodule\n"
    )


def test_an_include_named_with_its_folder_is_read_from_the_folder_above(tmp_path: Path) -> None:
    # `include "common_cells/registers.svh" resolves in include/, not in the folder holding
    # the header: without -I or include_dirs the module loads, and `rtlopt init` proposes it
    from rtlopt.cli.init import detect
    from rtlopt.frontend import load_design

    _pulp_style(tmp_path)
    ss = collect_sources(tmp_path / "src" / "dff.sv", tmp_path, ProjectConfig())
    assert (tmp_path / "include").resolve() in ss.include_dirs
    design = load_design(tmp_path / "src" / "dff.sv", "dff", ProjectConfig(), root=tmp_path)
    assert [p.name for p in design.target.ports] == ["clk_i", "d_i", "q_o"]
    assert "include" in detect(tmp_path).include_dirs


def test_icarus_command_file_libdir_is_a_library_folder(tmp_path: Path) -> None:
    """``+libdir+a+b`` (and ``+libdir-nocase+``) of an Icarus command file are ``-y``
    folders, in order, never an ignored option."""
    for d in ("lib", "lib2", "lib3"):
        (tmp_path / d).mkdir()
    (tmp_path / "top.v").write_text("module top; endmodule\n")
    (tmp_path / "cmds.txt").write_text("+libdir+lib+lib2\n+libdir-nocase+lib3\ntop.v\n")
    lst = read_filelist(tmp_path / "cmds.txt", tmp_path)
    assert lst.library_dirs == [tmp_path / "lib", tmp_path / "lib2", tmp_path / "lib3"]
    assert lst.files == [tmp_path / "top.v"]
