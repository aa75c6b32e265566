"""Changed files the configured build does not read: a second definition of a design unit,
a define the design reads, a hardware language rtlopt cannot judge (fail closed)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._foreign_units import (
    configured_files,
    define_changes,
    foreign_findings,
    hdl_kind,
    unit_definitions,
)
from rtlopt.config import ProjectConfig

INV = "module inv(input [3:0] a, output [3:0] y);\n  assign y = a ^ 4'b0111;\nendmodule\n"
VHDL = (
    "library ieee; use ieee.std_logic_1164.all;\n"
    "entity top is port (a : in std_logic; y : out std_logic); end entity;\n"
    "architecture rtl of top is\nbegin\n  y <= not a;\nend architecture;\n"
)
MACROS = {"FAST_INV": "the macro FAST_INV, which inv.v reads"}


def _find(
    files: dict[str, tuple[str, str]],
    units: set[str] = frozenset({"inv"}),
    judged: set[str] = frozenset(),
) -> list[tuple[str, str]]:
    changes = {rel: "A" if not old else "M" for rel, (old, _) in files.items()}
    return foreign_findings(changes, judged, lambda rel: files[rel], units, MACROS)


def test_unit_definitions_read_verilog_and_vhdl() -> None:
    assert unit_definitions(INV) == [(1, "module", "inv")]
    assert [(k, n) for _, k, n in unit_definitions(VHDL)] == [
        ("VHDL entity", "top"),
        ("VHDL architecture", "top"),
    ]


def test_a_second_definition_of_a_design_unit_by_content_not_suffix() -> None:
    for rel in ("lib/inv.vg", "lib/inv.vt", "lib/inv", "cells/inv.vqm"):
        found = _find({rel: ("", INV)})
        assert found and "second definition of module inv" in found[0][1], rel
        assert "searches lib/" in found[0][1] or "searches cells/" in found[0][1]
    assert _find({"lib/inv.vg": ("", INV)}, judged={"lib/inv.vg"}) == []  # judged as a source


def test_a_vhdl_entity_of_a_design_name_is_a_second_definition() -> None:
    found = _find({"alt/inv.vhd": ("", VHDL.replace("top", "inv"))})
    assert "second definition of VHDL entity inv" in found[0][1]


def test_a_define_the_design_reads_in_a_file_the_build_does_not_read() -> None:
    old = "`timescale 1ns/1ps\n"
    found = _find({"tb/sim_defs.v": (old, old + "`define FAST_INV\n")})
    assert found and "define of FAST_INV" in found[0][1], found
    assert _find({"tb/sim_defs.v": (old, old + "`undef FAST_INV\n")})
    assert _find({"tb/sim_defs.v": (old, old + "`define CLK_NS 10\n")}) == []
    assert (
        _find({"tb/sim_defs.v": (old, old + "`define FAST_INV\n")}, judged={"tb/sim_defs.v"}) == []
    )


def test_define_changes_read_values_and_resets() -> None:
    assert define_changes("`define A 1\n", "`define A 2\n") == {"A"}
    assert define_changes("`define A 1\n", "`define A 1\n// x\n") == set()
    assert "*" in define_changes("", "`resetall\n")


def test_a_changed_hdl_text_rtlopt_cannot_judge_is_never_passed() -> None:
    assert hdl_kind("top.vhd", VHDL) == "VHDL"
    assert hdl_kind("top.txt", VHDL) == "VHDL"  # by content
    assert hdl_kind("sim/top.cpp", "#include <systemc.h>\nSC_MODULE(top) {};\n") == "SystemC"
    assert hdl_kind("net/top.edf", "(edif top)\n") == "a netlist"
    assert hdl_kind("tb/tb.vt", "module tb;\nendmodule\n").startswith("Verilog")
    found = _find({"top.vhd": (VHDL, VHDL.replace("not a", "a"))}, units=set())
    assert found and "not judged" in found[0][1]


def test_ordinary_changes_are_no_finding() -> None:
    assert _find({"tests/test_inv.py": ("x = 1\n", "x = 2\n")}) == []
    assert _find({"README.md": ("", VHDL + INV + "`define FAST_INV\n")}) == []
    assert hdl_kind("src/main.c", "int main(void) { return 0; }\n") == ""
    assert hdl_kind("docs/conf.py", "project = 'x'\n") == ""


def test_configured_files_are_the_filelists_not_the_scan(tmp_path: Path) -> None:
    (tmp_path / "tb").mkdir()
    for rel in ("inv.v", "tb/sim_defs.v", "tb/tb.v"):
        (tmp_path / rel).write_text("module m; endmodule\n")
    (tmp_path / "files.f").write_text("inv.v\n")
    assert configured_files(tmp_path, ProjectConfig(filelists=("files.f",))) == {"inv.v"}
    assert configured_files(tmp_path, ProjectConfig()) >= {"inv.v", "tb/tb.v"}
    assert configured_files(tmp_path, ProjectConfig(filelists=("missing.f",))) == set()


def test_an_include_the_change_adds_brings_its_header_defines() -> None:
    fast = "`define FAST_INV\n"
    headers = {"fast.vh": fast, "slow.vh": "`define CLK_NS 10\n"}
    assert define_changes("", '`include "fast.vh"\n', headers.get) == {"FAST_INV"}
    assert define_changes("", '`include "slow.vh"\n', headers.get) == {"CLK_NS"}
    assert define_changes("", '`include "gone.vh"\n', headers.get) == {"*"}  # fail closed
    assert define_changes("", "`include `CFG\n", headers.get) == {"*"}
    files = {"tb/sim_defs.v": ("", '`include "fast.vh"\n')}
    found = foreign_findings(
        {"tb/sim_defs.v": "M"}, set(), files.__getitem__, set(), MACROS, headers.get
    )
    assert found and "define of FAST_INV" in found[0][1]


def test_rows_merge_one_a_file_and_skip_flagged_files() -> None:
    from rtlopt.check._check import ModuleCheck
    from rtlopt.check._foreign_units import merged_rows

    rows = [ModuleCheck("a.py", "(file)", "changed", findings=["x"])]
    more = [
        ModuleCheck("a.py", "(file)", "changed", findings=["y"]),
        ModuleCheck("b.vg", "(file)", "changed", findings=["z"]),
        ModuleCheck("c.vlib", "(file)", "changed", findings=["w"]),
    ]
    out = merged_rows(rows, more, {"c.vlib"})
    assert [(m.file, m.findings) for m in out] == [("a.py", ["x", "y"]), ("b.vg", ["z"])]


def test_an_unreadable_vhdl_file_is_judged_by_its_name() -> None:
    found = _find({"big/top.vhd": ("", "")}, units=set())
    assert found and "holds VHDL" in found[0][1]
