"""The frontend on SystemVerilog trees (tests/data/sv_project, issue 16 classes 4, 5 and 9).

No EDA tool runs here: pyslang only.
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig, load_config
from rtlopt.errors import DesignError
from rtlopt.frontend import load_design, parse_text
from rtlopt.frontend._packages import package_files, packages_used

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "sv_project"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "sv project"  # a space: every path below goes through the tools' quoting
    shutil.copytree(FIXTURE, root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _project(root: Path) -> ProjectConfig:
    return load_config(start=root / "rtl").config.project


def test_a_parameter_type_elsewhere_does_not_stop_another_module(repo: Path) -> None:
    # sv_flop.sv (type parameter T, a parameter of type T) is parsed but not needed
    full = dataclasses.replace(_project(repo), lazy_parse=False)
    d = load_design(repo / "rtl" / "plain_add.v", None, full)
    assert d.target.name == "plain_add"
    assert "sv_flop" in d.modules
    assert d.closure == ((repo / "rtl" / "plain_add.v").resolve(),)


def test_a_type_parameter_is_reported_with_its_type(repo: Path) -> None:
    d = load_design(repo / "rtl" / "sv_flop.sv", None, _project(repo))
    params = {p.name: p.value for p in d.target.parameters}
    assert params["T"] == "logic[3:0]"
    assert params["ResetValue"] == "'0"
    assert {p.name: p.width for p in d.target.ports} == {
        "clk_i": 1,
        "rst_ni": 1,
        "d_i": 4,
        "q_o": 4,
    }


def test_package_types_and_packed_arrays_give_port_widths(repo: Path) -> None:
    d = load_design(repo / "rtl" / "sv_alu.sv", None, _project(repo))
    widths = {p.name: p.width for p in d.target.ports}
    # op_e is 2 bits, [Lanes-1:0][7:0] with Lanes = 2 from the package, beat_t 9 bits
    assert widths == {
        "clk_i": 1,
        "rst_ni": 1,
        "op_i": 2,
        "a_i": 16,
        "b_i": 8,
        "beat_o": 9,
        "sum_o": 16,
    }
    assert d.target.clocks == ("clk_i",)
    assert d.target.resets == ("rst_ni",)


def test_a_missing_include_folder_in_a_filelist_is_a_warning(
    repo: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        d = load_design(repo / "rtl" / "sv_alu.sv", None, _project(repo))
    assert not (repo / "sva").exists()
    assert any(
        "sv_files.f:2: include directory" in r.getMessage()
        and "not found; ignored" in r.getMessage()
        for r in caplog.records
    )
    assert all(p.is_dir() for p in d.include_dirs)


def test_a_vendor_cell_in_a_disabled_branch_is_left_undefined(repo: Path) -> None:
    d = load_design(repo / "rtl" / "sv_inv.sv", None, _project(repo))
    assert d.submodules == ()
    assert d.closure == ((repo / "rtl" / "sv_inv.sv").resolve(),)


def test_a_vendor_cell_in_an_enabled_branch_is_still_an_error(repo: Path) -> None:
    f = repo / "rtl" / "sv_inv.sv"
    f.write_text(f.read_text().replace("UseVendorCell = 1'b0", "UseVendorCell = 1'b1"))
    with pytest.raises(
        DesignError, match="module 'VENDOR_INV' instantiated in sv_inv is not defined"
    ):
        load_design(f, None, _project(repo))


def test_packages_of_the_closure_are_found(repo: Path) -> None:
    d = load_design(repo / "rtl" / "sv_alu.sv", None, _project(repo))
    assert package_files(d) == ((repo / "rtl" / "sv_pkg.sv").resolve(),)
    plain = load_design(repo / "rtl" / "plain_add.v", None, _project(repo))
    assert package_files(plain) == ()
    # a candidate's own use of a package counts too
    assert package_files(plain, ["module m; assign y = sv_pkg::Lanes; endmodule"]) == (
        (repo / "rtl" / "sv_pkg.sv").resolve(),
    )


def test_packages_used_by_packages_are_found_in_source_order(repo: Path) -> None:
    rtl = repo / "rtl"
    (rtl / "base_pkg.sv").write_text("package base_pkg;\n  localparam int W = 3;\nendpackage\n")
    (rtl / "mid_pkg.sv").write_text(
        "package mid_pkg;\n  // uses base_pkg::W, not other_pkg::x\n"
        "  localparam int W2 = base_pkg::W * 2;\nendpackage\n"
    )
    (rtl / "other_pkg.sv").write_text("package other_pkg;\n  localparam int x = 1;\nendpackage\n")
    (rtl / "user.sv").write_text(
        "module user (output logic [mid_pkg::W2-1:0] y);\n  assign y = '1;\nendmodule\n"
    )
    (repo / "rtlopt.toml").write_text("")
    d = load_design(rtl / "user.sv", None, _project(repo))
    assert [p.name for p in package_files(d)] == ["base_pkg.sv", "mid_pkg.sv"]
    assert packages_used("/* a::b */ x = c :: d; // e::f") == {"c"}


def test_candidate_text_with_package_imports_parses() -> None:
    text = (FIXTURE.parent / "sv_candidates" / "equiv.sv").read_text()
    mods = parse_text(text, "candidate.sv")
    assert [m.name for m in mods] == ["sv_alu"]
