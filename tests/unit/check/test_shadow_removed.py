"""A removed file named like a header the repository includes while another file of that name
remains (red team w40 G5, ``check/_shadow.py`` ``removed_shadows``): a build whose include
folders found the removed one first now reads the other."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._shadow import removed_shadows
from rtlopt.frontend._depgraph import design_graph

TOP = '`include "cfg.vh"\nmodule top(output [7:0] z);\n  assign z = `INC;\nendmodule\n'
BASE = {"top.v": TOP, "inc/cfg.vh": "`define INC 1\n", "local/cfg.vh": "`define INC 2\n"}


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _found(
    tmp_path: Path,
    new: dict[str, str],
    removed: list[str],
    stated: tuple[str, ...] = (),
    renames: dict[str, str] | None = None,
    base: dict[str, str] = BASE,
) -> list:
    b, n = _tree(tmp_path / "base", base), _tree(tmp_path / "new", new)
    return removed_shadows(design_graph(n), (b, n), removed, stated, renames or {})


def test_a_removed_header_beside_one_of_the_same_name_is_a_finding(tmp_path: Path) -> None:
    new = {k: v for k, v in BASE.items() if k != "local/cfg.vh"}
    found = _found(tmp_path, new, ["local/cfg.vh"])
    assert len(found) == 1 and found[0].file == "local/cfg.vh" and found[0].change == "removed"
    said = found[0].findings[0]
    assert said.startswith('local/cfg.vh is removed, and top.v includes "cfg.vh"')
    assert "also names inc/cfg.vh" in said and "state the include folders" in said


def test_a_macro_named_include_counts(tmp_path: Path) -> None:
    top = '`define HDR "cfg.vh"\n`include `HDR\nmodule top(output [7:0] z);\n'
    top += "  assign z = `INC;\nendmodule\n"
    base = {**BASE, "top.v": top}
    new = {k: v for k, v in base.items() if k != "local/cfg.vh"}
    found = _found(tmp_path, new, ["local/cfg.vh"], base=base)
    assert len(found) == 1 and "also names inc/cfg.vh" in found[0].findings[0]


def test_none_when_no_other_file_stated_folders_or_its_own_move(tmp_path: Path) -> None:
    alone = {"top.v": TOP, "inc/cfg.vh": "`define INC 1\n"}
    assert _found(tmp_path / "a", {"top.v": TOP}, ["inc/cfg.vh"], base=alone) == []
    new = {k: v for k, v in BASE.items() if k != "local/cfg.vh"}
    assert _found(tmp_path / "b", new, ["local/cfg.vh"], stated=("local", "inc")) == []
    moved = {"top.v": TOP, "hdr/cfg.vh": "`define INC 1\n"}
    renames = {"hdr/cfg.vh": "inc/cfg.vh"}
    assert _found(tmp_path / "c", moved, ["inc/cfg.vh"], renames=renames, base=alone) == []
    fresh = {"top.v": TOP, "inc/cfg.vh": "`define INC 1\n"}
    assert _found(tmp_path / "d", fresh, ["inc/other.vh"], base={**alone, "inc/other.vh": ""}) == []


def test_a_removed_header_of_a_stated_folder_with_a_twin_beside_the_includer(
    tmp_path: Path,
) -> None:
    """Round 73: the gate reads rtl/cfg.vh beside the includer on both sides; iverilog (no
    -grelative-include) read inc/cfg.vh, and now reads the other stated folder's: a finding
    though the removed file's folder is stated."""
    top = {"rtl/top.v": TOP, "rtl/cfg.vh": "`define INC 3\n"}
    base = {**top, "inc/cfg.vh": "`define INC 1\n", "local/cfg.vh": "`define INC 2\n"}
    new = {k: v for k, v in base.items() if k != "inc/cfg.vh"}
    found = _found(tmp_path, new, ["inc/cfg.vh"], stated=("inc", "local"), base=base)
    assert len(found) == 1 and found[0].file == "inc/cfg.vh", found
    assert "rtl/top.v includes" in found[0].findings[0]
