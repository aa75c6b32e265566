"""Other builds a definition's text hides (evaluate/_builds.py): each repository file's module
or package compared once preprocessed in its own context (the header beside it, a file-level
define, another filelist's include folder or suffix), with the controls that read the same
(no other build, nothing unchecked). The frontend and the real ``iverilog -E``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._alternatives import other_builds, substitution_label
from rtlopt.evaluate._builds import preprocessed_alternatives
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design

pytestmark = pytest.mark.tools

TOP = "module tgt (input [3:0] a, output [3:0] y);\n  sub s (.d(a), .q(y));\nendmodule\n"
INCLUDING = 'module sub (input [3:0] d, output [3:0] q);\n`include "impl.vh"\nendmodule\n'
WITH_OP = (
    "`define OP {}\nmodule sub (input [3:0] d, output [3:0] q);\n  assign q = d `OP 1;\nendmodule\n"
)
PLUS, MINUS = "assign q = d + 4'd1;\n", "assign q = d - 4'd1;\n"


def _design(tmp_path: Path, files: dict[str, str], filelist: str = "a.f") -> Design:
    for rel, text in {"rtl/top.v": TOP, **files}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    project = ProjectConfig(filelists=(filelist,))
    return load_design(tmp_path / "rtl/top.v", "tgt", project, root=tmp_path)


def _builds(d: Design) -> tuple[dict[Path, tuple[Path, ...]], str]:
    return preprocessed_alternatives(d, [d.modules["sub"].file])


@pytest.mark.parametrize("other", [MINUS, PLUS])
def test_the_same_text_reading_the_header_beside_it(tmp_path: Path, other: str) -> None:
    d = _design(
        tmp_path,
        {
            "rtl/sub.v": INCLUDING,
            "rtl/impl.vh": PLUS,
            "rtl/other/sub.v": INCLUDING,
            "rtl/other/impl.vh": other,
            "a.f": "+incdir+rtl\nrtl/sub.v\nrtl/top.v\n",
            "b.f": "+incdir+rtl/other\nrtl/other/sub.v\nrtl/top.v\n",
        },
    )
    found, why = _builds(d)
    assert why == ""
    mine, theirs = (tmp_path / "rtl/sub.v").resolve(), (tmp_path / "rtl/other/sub.v").resolve()
    # the control: the other header reads the same, so there is no other build
    assert found == ({mine: (theirs,)} if other == MINUS else {})
    builds = other_builds(d, [mine])
    assert builds.why == "" and len(builds.builds) == (other == MINUS)
    if other == MINUS:
        assert substitution_label(d, builds.builds[0]) == "with sub from rtl/other/sub.v"


@pytest.mark.parametrize("other", ["-", "+"])
def test_the_same_text_under_another_file_level_define(tmp_path: Path, other: str) -> None:
    d = _design(
        tmp_path,
        {
            "rtl/sub.v": WITH_OP.format("+"),
            "rtl/other/sub.v": WITH_OP.format(other),
            "a.f": "rtl/sub.v\nrtl/top.v\n",
        },
    )
    found, why = _builds(d)
    assert why == "" and bool(found) is (other == "-")


def test_another_filelists_suffix_is_read(tmp_path: Path) -> None:
    minus = "module sub (input [3:0] d, output [3:0] q);\n  " + MINUS + "endmodule\n"
    d = _design(
        tmp_path,
        {
            "rtl/sub.v": minus.replace("-", "+"),
            "rtl/other/sub.vo": minus,
            "a.f": "rtl/sub.v\nrtl/top.v\n",
            "b.f": "rtl/other/sub.vo\nrtl/top.v\n",
        },
    )
    builds = other_builds(d, [d.modules["sub"].file])
    assert builds.why == "" and len(builds.builds) == 1
    assert substitution_label(d, builds.builds[0]) == "with sub from rtl/other/sub.vo"


@pytest.mark.parametrize("other", [MINUS, PLUS])
def test_another_filelists_include_folder(tmp_path: Path, other: str) -> None:
    d = _design(
        tmp_path,
        {
            "rtl/sub.v": INCLUDING,
            "inc_a/impl.vh": PLUS,
            "inc_b/impl.vh": other,
            "a.f": "+incdir+inc_a\nrtl/sub.v\nrtl/top.v\n",
            "b.f": "+incdir+inc_b\nrtl/sub.v\nrtl/top.v\n",
        },
    )
    found, why = _builds(d)
    assert found == {}
    if other == MINUS:  # the same file read otherwise: no build rtlopt substitutes
        assert "rtl/sub.v defines module sub otherwise as b.f reads it" in why
    else:
        assert why == ""


def test_a_file_another_filelist_reads_that_does_not_preprocess_is_unchecked(
    tmp_path: Path,
) -> None:
    files = {
        "rtl/sub.v": INCLUDING,
        "inc_a/impl.vh": PLUS,
        "a.f": "+incdir+inc_a\nrtl/sub.v\nrtl/top.v\n",
        "b.f": "rtl/sub.v\nrtl/top.v\n",
    }
    # b.f finds impl.vh through this build's folders (searched after its own): the same
    assert _builds(_design(tmp_path, files)) == ({}, "")
    files["rtl/other/sub.v"] = INCLUDING.replace("impl.vh", "missing.vh")
    files["b.f"] = "rtl/other/sub.v\nrtl/top.v\n"
    found, why = _builds(_design(tmp_path / "second", files))  # the scans are cached by root
    assert found == {} and "cannot tell how another build reads module sub" in why, why


@pytest.mark.parametrize("k", [3, 1])
def test_another_files_package(tmp_path: Path, k: int) -> None:
    pkg = "package cfg;\n  localparam logic [3:0] K = 4'd{};\nendpackage\n"
    d = _design(
        tmp_path,
        {
            "rtl/top.v": TOP,
            "rtl/cfg.sv": pkg.format(1),
            "rtl/other/cfg.sv": pkg.format(k),
            "rtl/sub.sv": "module sub import cfg::*; (input logic [3:0] d, output logic [3:0] q);"
            "\n  assign q = d + K;\nendmodule\n",
            "a.f": "rtl/cfg.sv\nrtl/sub.sv\nrtl/top.v\n",
            "b.f": "rtl/other/cfg.sv\nrtl/sub.sv\nrtl/top.v\n",
        },
    )
    found, why = _builds(d)
    assert found == {}
    if k == 3:
        assert "rtl/other/cfg.sv defines package cfg otherwise" in why
    else:
        assert why == ""
