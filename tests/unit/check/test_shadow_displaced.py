"""A changed header the include order the gate judges by does not read (held-out red team
round 72, ``check/_shadow.py``: displaced_headers): a build whose include folders name its
folder first reads the change, which the gate, reading another file of that name, does not
judge."""

from __future__ import annotations

from pathlib import Path

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


def test_the_header_the_configured_order_reads_and_an_own_folder_s_are_none(
    tmp_path: Path,
) -> None:
    assert _displaced(tmp_path / "1", FILES, ["inc_asic/defs.vh"]) == []
    # the includer's own folder holds the name: every build reads that one
    beside = {**FILES, "rtl/defs.vh": "`define K 4'd3\n"}
    assert _displaced(tmp_path / "2", beside, ["inc_fpga/defs.vh"]) == []
