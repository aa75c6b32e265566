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


def test_a_dot_folder_is_the_repositorys_git_is_not(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {"tb/tb.v": TB, ".gen/xstim.vh": "initial s = 1'bx;\n", ".git/xstim.vh": "x\n"},
    )
    (root / "tb/xstim.vh").write_text("initial s = 0;\n")
    files = _files(root, None)
    assert ".gen/xstim.vh" in files and ".git/xstim.vh" not in files
    assert ".gen/xstim.vh" in include_decoy(root, {"tb/tb.v": TB}, files)


def test_a_library_of_any_suffix_or_a_dot_folder_is_a_library() -> None:
    defs = {"stim": {"stim.v": "module stim;", ".lib/stim.v": "x", "cells.lib": "y"}}
    assert "module stim" in library_decoy({"stim"}, defs, ["iverilog -y .lib tb.v\n"])
    assert "module stim" in library_decoy({"stim"}, defs, ["iverilog -l cells.lib tb.v\n"])
    assert "module stim" in library_decoy({"stim"}, defs, ["vcs -v ./cells.lib\n"])
    # named relative to the build file's folder
    assert "module stim" in library_decoy({"stim"}, defs, [("sim", "xrun -v ../cells.lib\n")])
    assert library_decoy({"stim"}, defs, ["iverilog -v -o sim.vvp tb.v\n"]) == ""


def test_the_file_level_text_in_front_of_a_module_is_what_it_means() -> None:
    from rtlopt.evaluate._decoys import _meaning
    from rtlopt.evaluate._tb_x_bodies import Body

    def meaning(code: str) -> str:
        at = code.index("module m")
        body = Body("m", at, len(code), frozenset())
        other = (
            [Body("o", 0, code.index("endmodule") + 9, frozenset())] if "module o" in code else []
        )
        return _meaning(code, body, [*other, body])

    m = "module m(input a, output y); assign y = w; endmodule\n"
    assert meaning(m) == meaning(f"\n\n{m}")
    assert meaning(m) != meaning(f"`default_nettype tri1\n{m}")
    assert meaning(m) != meaning(f"`timescale 1ns/1ps\n{m}")
    assert meaning(f"module o; endmodule\n{m}") == meaning(f"\n{m}")


def test_an_include_through_a_macro_is_followed_or_unchecked(tmp_path: Path) -> None:
    from rtlopt.evaluate._decoys import macro_values

    tb = "module tb;\n`include `STIM\nendmodule\n"
    root = _repo(
        tmp_path,
        {"tb/tb.v": tb, "tb/xstim.vh": "initial s = 0;\n", "stim/xstim.vh": "initial s = 1'bx;\n"},
    )
    files = _files(root, None)
    one = macro_values(['`define STIM "xstim.vh"\n'])
    assert "stim/xstim.vh" in include_decoy(root, {"tb/tb.v": tb}, files, one)
    built = macro_values([], ['iverilog -DSTIM=\\"xstim.vh\\" tb.v\n'])
    assert "stim/xstim.vh" in include_decoy(root, {"tb/tb.v": tb}, files, built)
    chained = macro_values(['`define STIM `S2\n`define S2 "xstim.vh"\n'])
    assert "stim/xstim.vh" in include_decoy(root, {"tb/tb.v": tb}, files, chained)
    for values in ({}, macro_values([], ["make STIM=1 +define+STIM=$(S)\n"])):
        assert "cannot tell" in include_decoy(root, {"tb/tb.v": tb}, files, values)
    two = macro_values(['`define STIM "a.vh"\n', '`define STIM "b.vh"\n'])
    assert "cannot tell" in include_decoy(root, {"tb/tb.v": tb}, files, two)
    (root / "stim/xstim.vh").unlink()
    assert include_decoy(root, {"tb/tb.v": tb}, _files(root, None), one) == ""


def test_a_computed_library_names_the_files_its_literal_tail_may_be() -> None:
    defs = {"stim": {"stim.v": "module stim;", "lib/cells.lib": "x"}}
    for make in ("vcs -y $(LIB) tb.v\n", "xrun -v $(OUT)/cells.lib\n", "x -v ${L}/c*.lib\n"):
        assert "module stim" in library_decoy({"stim"}, defs, [make]), make
    assert "module stim" in library_decoy({"stim"}, defs, ["vcs -v /home/u/repo/cells.lib\n"])
    # a log file a variable's folder holds is no library of these files
    assert library_decoy({"stim"}, defs, ["xrun -l $(OUT)/xrun.log tb.v\n"]) == ""


def test_a_macro_a_build_sets_unread_or_a_define_mid_line_counts() -> None:
    from rtlopt.evaluate._decoys import UNREAD, macro_values

    texts = ['`define STIM "xstim.vh"\n`include `STIM\n']
    assert macro_values(texts, ["DEFS += STIM=$(HDR)\n"])["STIM"] == {'"xstim.vh"', UNREAD}
    assert macro_values(texts, ["iverilog +define+STIM=x.vh\n"])["STIM"] == {
        '"xstim.vh"',
        "x.vh",
    }
    assert macro_values(texts, ["iverilog -DOTHER=1 tb.v\n"])["STIM"] == {'"xstim.vh"'}
    mid = macro_values(['`ifdef A `define STIM "b.vh" `endif\n'])
    assert mid["STIM"] == {'"b.vh" `endif'}
