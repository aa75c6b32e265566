"""A package the target's parameters depend on, defined twice in the repository with
different texts (``evaluate/_param_lists.py`` :func:`package_copies`): a build compiling
the other copy gives other values, so the change is unchecked; identical copies or a
package the target does not use leave it checked. Real frontend and slang, no tool run."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import foreign_parameterizations
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations

TGT = """module tgt import cfg_pkg::*; #(parameter int W = WIDTH) (input [W-1:0] a,
  output [W-1:0] y);
  assign y = ~a;
endmodule
"""
PKG = "package cfg_pkg;\n  localparam int WIDTH = {};\nendpackage\n"
FL = "rtl/cfg_pkg.sv\nrtl/tgt.sv\n"


def _why(tmp: Path, files: dict[str, str]) -> str:
    for rel, text in {"rtl/tgt.sv": TGT, "rtl/cfg_pkg.sv": PKG.format(8), **files}.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text)
    (tmp / "files.f").write_text(FL)
    subprocess.run(["git", "init", "-q", str(tmp)], check=True)  # the repository's root
    design = load_design(
        tmp / "rtl/tgt.sv", "tgt", ProjectConfig(filelists=(str(tmp / "files.f"),))
    )
    return foreign_parameterizations(design, TGT, parameterizations(design), {})[1]


def test_other_copy_unchecked(tmp_path: Path) -> None:
    why = _why(tmp_path, {"sim/cfg_pkg.sv": PKG.format(37)})
    assert "package cfg_pkg" in why and "sim/cfg_pkg.sv" in why


def test_through_another_package(tmp_path: Path) -> None:
    top = "package cfg_pkg;\n  localparam int WIDTH = base_pkg::B;\nendpackage\n"
    base = "package base_pkg;\n  localparam int B = {};\nendpackage\n"
    files = {"rtl/cfg_pkg.sv": top, "rtl/base_pkg.sv": base.format(8)}
    files["sim/base_pkg.sv"] = base.format(37)
    assert "package base_pkg" in _why(tmp_path, files)


def test_same_copy_or_unused_checked(tmp_path: Path) -> None:
    files = {"sim/cfg_pkg.sv": "// a copy\n" + PKG.format(8)}
    files["a/other_pkg.sv"] = "package other_pkg;\nendpackage\n"
    files["b/other_pkg.sv"] = "package other_pkg; localparam X = 1;\nendpackage\n"
    assert _why(tmp_path, files) == ""


def test_unit_import_in_another_file(tmp_path: Path) -> None:
    tgt = "module tgt #(parameter int W = WIDTH) (input [W-1:0] a, output [W-1:0] y);\n"
    tgt += "  assign y = ~a;\nendmodule\n"
    files = {"rtl/tgt.sv": tgt, "rtl/cfg_pkg.sv": "import cfg_pkg::*;\n" + PKG.format(8)}
    files["sim/cfg_pkg.sv"] = PKG.format(37)
    assert "package cfg_pkg" in _why(tmp_path, files)
