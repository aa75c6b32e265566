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


PASTE_TOP = (
    "`define CELL(x) x``_lib\n"
    "module top(input a, b, output z);\n  `CELL(AND2) u(.A(a), .B(b), .Z(z));\nendmodule\n"
)
AND2_LIB = "module AND2_lib(input A, B, output Z);\n  assign Z = A & B;\nendmodule\n"


def test_a_new_module_a_base_macro_may_paste_the_name_of_is_a_finding(tmp_path: Path) -> None:
    # `CELL(AND2) names AND2_lib, a library cell, by pasting: AND2_lib is never spelled
    base = _tree(tmp_path / "base", {"top.v": PASTE_TOP})
    new = _tree(tmp_path / "new", {"top.v": PASTE_TOP, "cells.v": AND2_LIB})
    found = captured_units(base, new, [("cells.v", "", AND2_LIB)])
    assert [(m.file, m.module) for m in found] == [("cells.v", "AND2_lib (module)")], found
    assert (
        found[0]
        .findings[0]
        .startswith(
            "cells.v:1: module AND2_lib: top.v:1: the macro `CELL pastes tokens into a name that "
            "may be AND2_lib"
        )
    ), found[0].findings


def test_a_new_module_a_macro_in_an_instance_position_may_name_is_a_finding(
    tmp_path: Path,
) -> None:
    # the macro's body is the module name of an instance; one the build defines names it
    for top in (
        "`define CELL(x) x\nmodule top(input a, output z);\n  `CELL(BUF_lib) u(a, z);\nendmodule\n",
        "module top(input a, output z);\n  `CELL u(a, z);\nendmodule\n",
    ):
        files = {"top.v": top, "Makefile": "sim:\n\tiverilog -DCELL=BUF_lib top.v\n"}
        base = _tree(tmp_path / "base", files)
        cell = AND2_LIB.replace("AND2_lib", "BUF_lib")
        new = _tree(tmp_path / "new", {**files, "cells.v": cell})
        found = captured_units(base, new, [("cells.v", "", cell)])
        assert [m.module for m in found] == ["BUF_lib (module)"], top
        assert "the macro `CELL stands where an instance names its module" in str(found[0].findings)


def test_a_fresh_module_beside_macros_is_none(tmp_path: Path) -> None:
    # a fresh name no pasting macro can give; a plain instance; a label or a declaration a
    # macro pastes (no module name); a macro in an instance position naming another module
    top = (
        PASTE_TOP + "`define LBL(n) n``_A: assert property (1);\n"
        "`define REG(n) logic n``_q;\n`define SUB sub\n"
        "module sub(input a);\nendmodule\n"
        "module t2(input a);\n  sub s(a);\n  `SUB s2(a);\nendmodule\n"
    )
    base = _tree(tmp_path / "base", {"top.v": top})
    for name in ("adder", "Check_A", "x_q"):
        mod = f"module {name}(input a);\nendmodule\n"
        new = _tree(tmp_path / f"new_{name}", {"top.v": top, "n.v": mod})
        assert captured_units(base, new, [("n.v", "", mod)]) == [], name
