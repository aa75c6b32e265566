"""A header or library module a build's tool may resolve to another file of the repository
than rtlopt reads leaves the change unchecked (``evaluate/_decoys.py``)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.evaluate._decoys import _files, include_decoy, library_decoy

TB = 'module tb;\n`include "xstim.vh"\nmux dut(.s(s));\nendmodule\n'


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_a_header_name_two_files_end_with_is_a_decoy(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {"tb/tb.v": TB, "tb/xstim.vh": "initial s = 0;\n", "stim/xstim.vh": "initial s = 1'bx;\n"},
    )
    why = include_decoy(root, {"tb/tb.v": TB}, _files(root, None))
    assert why.startswith("tb/tb.v:2:") and "stim/xstim.vh" in why and "tb/xstim.vh" in why


def test_a_header_included_by_a_header_is_followed(tmp_path: Path) -> None:
    tb = 'module tb;\n`include "top.vh"\nendmodule\n'
    root = _repo(
        tmp_path,
        {
            "tb/tb.v": tb,
            "tb/top.vh": '`include "cfg.vh"\n',
            "a/cfg.vh": "localparam W = 8;\n",
            "b/cfg.vh": "localparam W = 21;\n",
        },
    )
    assert "cfg.vh" in include_decoy(root, {"tb/tb.v": tb}, _files(root, None))


def test_one_header_or_identical_copies_are_no_decoy(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {"tb/tb.v": TB, "tb/xstim.vh": "initial s = 0;\n", "stim/xstim.vh": "initial s = 0;\n"},
    )
    assert include_decoy(root, {"tb/tb.v": TB}, _files(root, None)) == ""
    (root / "stim/xstim.vh").unlink()
    assert include_decoy(root, {"tb/tb.v": TB}, _files(root, None)) == ""


DEFS = {"stim": {"stim.v": "module stim; s = 0;", "stimlib/stim.v": "module stim; s = r;"}}


def test_a_module_defined_twice_with_a_library_folder_is_a_decoy() -> None:
    make = "sim:\n\tiverilog -y stimlib -o sim.vvp mux.v tb.v\n"
    assert "module stim" in library_decoy({"stim", "tb"}, DEFS, [make])
    assert "module stim" in library_decoy({"stim"}, DEFS, ["vcs -y $(LIB) +libext+.v tb.v\n"])
    assert "module stim" in library_decoy({"stim"}, DEFS, ["verilator -v stimlib/stim.v\n"])


def test_no_library_or_one_definition_is_no_decoy() -> None:
    assert library_decoy({"stim"}, DEFS, ["iverilog -o sim.vvp stim.v tb.v\n"]) == ""
    one = {"stim": {"stimlib/stim.v": "module stim;"}}
    assert library_decoy({"stim"}, one, ["iverilog -y stimlib tb.v\n"]) == ""
    assert library_decoy({"tb"}, DEFS, ["iverilog -y stimlib tb.v\n"]) == ""
