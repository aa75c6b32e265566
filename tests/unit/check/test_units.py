"""Design units other than plain-named modules that a change adds under a name the repository
used (red team w39 F6, ``check/_units.py``): a ``primitive CELLX`` captures the library cell
``CELLX`` the design instantiates."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._units import captured_units, design_units

UDP = "primitive CELLX(o, i);\n  output o; input i;\n  table 0 : 0; 1 : 1; endtable\nendprimitive\n"
TOP = "module top(input a, output z);\n  CELLX c0(z, a);\nendmodule\n"


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_design_units_reads_every_kind_and_spelling() -> None:
    text = (
        UDP + "interface bus_if;\nendinterface\npackage automatic p;\nendpackage\n"
        "module \\esc (input a);\nendmodule\nmodule plain;\nendmodule\nmodule `NAME;\nendmodule\n"
        "class c;\n  virtual interface bus_if vif;\nendclass\ninterface class ic;\nendclass\n"
    )
    units = design_units(text)
    assert {n: k for n, (k, _, _) in units.items()} == {
        "CELLX": "primitive",
        "bus_if": "interface",
        "p": "package",
        "esc": "module",
        "`NAME": "module",
    }
    assert units["p"][1] == 7


def test_a_new_unit_named_like_a_cell_the_base_uses_is_a_finding(tmp_path: Path) -> None:
    base = _tree(tmp_path / "base", {"top.v": TOP, "pkgs.sv": "import vend_pkg::*;\n"})
    new = _tree(
        tmp_path / "new", {"top.v": TOP, "cells.v": UDP, "p.sv": "package vend_pkg;\nendpackage\n"}
    )
    found = captured_units(
        base, new, [("cells.v", "", UDP), ("p.sv", "", "package vend_pkg;\nendpackage\n")]
    )
    assert [(m.file, m.module) for m in found] == [
        ("cells.v", "CELLX (primitive)"),
        ("p.sv", "vend_pkg (package)"),
    ]
    assert found[0].findings[0].startswith("cells.v:1: primitive CELLX: top.v named CELLX")


def test_a_fresh_name_a_kept_unit_and_an_unchanged_move_are_none(tmp_path: Path) -> None:
    pkg = "package p;\n  localparam W = 8;\nendpackage\n"
    base = _tree(tmp_path / "base", {"top.v": TOP, "a.sv": pkg})
    new = _tree(
        tmp_path / "new", {"top.v": TOP, "b.sv": pkg, "cells.v": UDP.replace("CELLX", "MYBUF")}
    )
    changed = [("cells.v", "", UDP.replace("CELLX", "MYBUF")), ("a.sv", pkg, ""), ("b.sv", "", pkg)]
    assert captured_units(base, new, changed) == []
    edited = [("a.sv", pkg, pkg + "// more\n")]
    assert captured_units(base, _tree(tmp_path / "n2", {"a.sv": pkg}), edited) == []


def test_a_unit_another_file_declares_too_is_a_finding(tmp_path: Path) -> None:
    base = _tree(tmp_path / "base", {"top.v": "module top;\nendmodule\n"})
    new = _tree(
        tmp_path / "new",
        {
            "top.v": "module top;\nendmodule\n",
            "a.sv": "package q;\nendpackage\n",
            "b.sv": "package q;\nendpackage\n",
        },
    )
    found = captured_units(base, new, [("a.sv", "", "package q;\nendpackage\n")])
    assert len(found) == 1 and "b.sv also declares a design unit named q" in found[0].findings[0]
