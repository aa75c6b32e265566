"""The design's configuration words and setting forms in any changed text the gate does not
judge (a cocotb runner's ``defines=``, a Makefile naming a macro the design tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._build_options import option_problems
from rtlopt.check._config_words import design_words, parameter_names, word_problems
from rtlopt.frontend._depgraph import design_graph

RUNNER = (
    "def test_inv():\n"
    "    runner = get_runner('icarus')\n"
    "    runner.build(\n"
    "        verilog_sources=['inv.v'],\n"
    "        hdl_toplevel='inv',\n"
    "{extra}"
    "    )\n"
    "    assert dut.y.value == {value}\n"
)


def _runner(extra: str = "", value: int = 15) -> str:
    return RUNNER.replace("{extra}", extra).replace("{value}", str(value))


@pytest.mark.parametrize(
    "extra",
    [
        '        defines={"FAST_INV": 1},\n',
        '        includes=["inc_fast"],\n',
        '        parameters={"W": 8},\n',
        '        build_args=["-Pinv.W=8"],\n',
        '        "generics": {"W": 8},\n',
    ],
)
def test_a_runner_keyword_setting_is_a_build_option(extra: str) -> None:
    found = option_problems("tests/test_inv.py", _runner(), _runner(extra))
    assert found and found[0][0] == 6, found
    assert "build options" in found[0][1]


def test_an_assertion_or_a_readme_edit_sets_nothing() -> None:
    assert option_problems("tests/test_inv.py", _runner(), _runner(value=14)) == []
    doc = "Set defines: in the runner.\n"
    assert option_problems("README.md", "", doc) == []


def test_parameter_names_of_header_and_body() -> None:
    text = (
        "module m #(parameter W = 4, parameter integer D = f(1, 2), X = 3)\n"
        "  (input [W-1:0] a, output y);\n"
        "  parameter [3:0] P = 1, Q = 2;\n  localparam L = 3;\n  assign y = a == W;\nendmodule\n"
    )
    assert parameter_names(text) == {"W", "D", "X", "P", "Q"}


def _repo(tmp_path: Path) -> Path:
    (tmp_path / "inv.v").write_text(
        "module inv #(parameter W = 4) (input [W-1:0] a, output [W-1:0] y);\n"
        "`ifdef FAST_INV\n  assign y = a ^ 4'b0111;\n`else\n  assign y = ~a;\n`endif\n"
        "endmodule\n"
    )
    (tmp_path / "tb.v").write_text("`ifdef TB_ONLY\n`endif\nmodule tb; endmodule\n")
    return tmp_path


def test_words_are_the_read_files_macros_and_the_required_parameters(tmp_path: Path) -> None:
    graph = design_graph(_repo(tmp_path))
    words = design_words(graph, ["inv.v"], lambda rel, name: "required" if name == "inv" else None)
    assert "FAST_INV" in words and "W" in words and "TB_ONLY" not in words
    assert "W" not in design_words(graph, ["inv.v"], lambda rel, name: None)


def test_a_changed_line_naming_a_word_is_a_finding_in_any_syntax(tmp_path: Path) -> None:
    words = design_words(design_graph(_repo(tmp_path)), ["inv.v"])
    make = "sim:\n\tiverilog inv.v tb.v\n"
    for rel, old, new in [
        (
            "run.py",
            _runner(),
            _runner().replace("'inv'", "'inv'  # FAST\n    os.environ['FAST_INV']='1'"),
        ),
        ("Makefile", make, make + "CFG := FAST_INV\n"),
        ("flow.tcl", "", "set_global_assignment -name VERILOG_MACRO FAST_INV=1\n"),
        ("sim.txt", "FAST_INV\n", ""),  # dropped: named on the base's side
    ]:
        found = word_problems(rel, old, new, words)
        assert found and "macro FAST_INV" in found[0][1], (rel, found)


def test_comments_documentation_and_other_words_are_no_finding(tmp_path: Path) -> None:
    words = design_words(design_graph(_repo(tmp_path)), ["inv.v"])
    assert word_problems("run.py", _runner(), _runner(value=14), words) == []
    assert word_problems("run.py", "", "x = 1  # FAST_INV is off\n", words) == []
    assert word_problems("README.md", "", "Define FAST_INV for speed.\n", words) == []
    assert word_problems("run.py", "", "FAST_INVERTER = 1\n", words) == []


@pytest.mark.parametrize(
    "extra", ['    args = ["-D", name]\n', '    args = "-D" + name\n', "    args = ['-I' + inc]\n"]
)
def test_an_option_whose_value_is_joined_at_run_time_is_a_build_option(extra: str) -> None:
    found = option_problems("tests/run.py", "def run():\n", "def run():\n" + extra)
    assert found and found[0][0] == 2, found
