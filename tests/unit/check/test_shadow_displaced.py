"""A changed header the include order the gate judges by does not read (held-out red team
round 72, ``check/_shadow.py``: displaced_headers): a build whose include folders name its
folder first reads the change, which the gate, reading another file of that name, does not
judge."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._shadow import displaced_headers
from rtlopt.config import ProjectConfig
from rtlopt.frontend._depgraph import design_graph

TOP = '`include "defs.vh"\nmodule a(input [3:0] x, output [3:0] y);\n  assign y = x + `K;\nendmodule\n'


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _displaced(tmp_path: Path, files: dict[str, str], changed: list[str]) -> list:
    tree = _tree(tmp_path / "tree", files)
    project = ProjectConfig(filelists=("files.f",), include_dirs=("inc_asic", "inc_fpga"))
    return displaced_headers(design_graph(tree), tree, project, changed)


FILES = {
    "rtl/a.v": TOP,
    "inc_asic/defs.vh": "`define K 4'd1\n",
    "inc_fpga/defs.vh": "`define K 4'd2\n",
    "files.f": "+incdir+inc_asic\nrtl/a.v\n",
}


def test_a_changed_header_the_configured_order_does_not_read_is_a_finding(
    tmp_path: Path,
) -> None:
    found = _displaced(tmp_path, FILES, ["inc_fpga/defs.vh"])
    assert len(found) == 1 and found[0].file == "inc_fpga/defs.vh", found
    said = found[0].findings[0]
    assert 'rtl/a.v:1 includes "defs.vh"' in said and "read as inc_asic/defs.vh" in said
    assert "-I inc_fpga" in said and "--trust-config" in said


def test_the_header_the_configured_order_reads_is_none(tmp_path: Path) -> None:
    assert _displaced(tmp_path / "1", FILES, ["inc_asic/defs.vh"]) == []
    # the includer's own folder holds the name and the change is that file: judged
    beside = {**FILES, "rtl/defs.vh": "`define K 4'd3\n"}
    assert _displaced(tmp_path / "2", beside, ["rtl/defs.vh"]) == []


BESIDE = {
    "rtl/a.v": TOP,
    "rtl/defs.vh": "`define K 4'd1\n",
    "inc/defs.vh": "`define K 4'd1\n",
    "other/defs.vh": "`define K 4'd1\n",
    "defs.vh": "`define K 4'd1\n",
}


def _beside(tmp_path: Path, files: dict[str, str], changed: str, **rules: object) -> list:
    tree = _tree(tmp_path, files)
    project = ProjectConfig(**rules)  # type: ignore[arg-type]
    return displaced_headers(design_graph(tree), tree, project, [changed])


@pytest.mark.parametrize(
    ("build", "rules", "how"),
    [
        ({"files.f": "+incdir+inc\nrtl/a.v\n"}, {"filelists": ("files.f",)}, "the rules name"),
        ({}, {"include_dirs": ("inc",)}, "the rules name"),
        ({"Makefile": "sim:\n\tiverilog -I$(ROOT)/inc rtl/a.v\n"}, {}, "Makefile names"),
    ],
)
def test_a_changed_header_whose_twin_is_beside_the_includer_is_a_finding(
    tmp_path: Path, build: dict[str, str], rules: dict[str, object], how: str
) -> None:
    """Round 73: the gate (Yosys's order) reads rtl/defs.vh beside the includer, iverilog
    (no -grelative-include) reads inc/defs.vh, which a filelist, the configuration or a build
    script names as an include folder: the change to inc/defs.vh is a finding."""
    found = _beside(tmp_path, {**BESIDE, **build}, "inc/defs.vh", **rules)
    assert len(found) == 1 and found[0].file == "inc/defs.vh", found
    said = found[0].findings[0]
    assert 'rtl/a.v:1 includes "defs.vh", which names two files: rtl/defs.vh' in said
    assert "inc/defs.vh, in the include folder inc" in said and how in said
    assert "which iverilog searches" in said and "rename one of the headers" in said


def test_a_changed_header_in_the_root_or_a_folder_nothing_names(tmp_path: Path) -> None:
    """The repository root is a tool's working directory (iverilog searches it first); a
    folder no filelist, rule nor build script names is reached by no order."""
    found = _beside(tmp_path / "1", BESIDE, "defs.vh")
    assert len(found) == 1 and "in the repository root" in found[0].findings[0], found
    files = {**BESIDE, "README": "other/ holds spare copies\n", "x.f": "other/defs.vh\n"}
    assert _beside(tmp_path / "2", files, "other/defs.vh") == []


def test_a_changed_header_beside_the_includer_s_symlink_target(tmp_path: Path) -> None:
    """rtl/a.v is a symlink to ip/a.v: a tool that resolves it searches ip/ first, the gate
    rtl/; a change to ip/defs.vh is a finding though nothing names ip as an include folder."""
    files = {k: v for k, v in BESIDE.items() if k != "rtl/a.v"}
    tree = _tree(tmp_path, {**files, "ip/a.v": TOP, "ip/defs.vh": "`define K 4'd1\n"})
    (tree / "rtl/a.v").symlink_to("../ip/a.v")
    found = displaced_headers(design_graph(tree), tree, ProjectConfig(), ["ip/defs.vh"])
    assert len(found) == 1, found
    assert "beside ip/a.v, the includer's symlink target" in found[0].findings[0]
