"""A parameter of the target named in a comment or in a description string
(``evaluate/_param_mentions.py``, ``evaluate/_text_lex.py``): a comment of the file's
language (by a lexer of it: Python, Verilog and Verilator's ``.vlt``, Hjson, YAML, TOML,
the shell, Make, Tcl) and a one-line string of three words or more that describes (no
digit, no option, the parameter takes no word, the word after it is no value) set nothing;
the near misses (a ``#`` inside a string or a block scalar, a continued line, a tool's
directive, a string for a string parameter, a value word after the name) still leave the
change unchecked. Real frontend and slang, no tool run (ibex's false refusals)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import foreign_parameterizations
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations

TGT = """module tgt #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);
  assign y = ~a;
endmodule
"""
#: The parameter takes a word: a string default.
TGT_STRING = """module tgt #(parameter W = "slow") (input a, output y);
  assign y = a;
endmodule
"""
#: ``Fast`` is a value of the design: an enum's member.
TGT_ENUM = """module tgt #(parameter int Mode = 0) (input a, output y);
  typedef enum int {Slow = 0, Fast = 1} speed_e;
  speed_e s = speed_e'(Mode);
  assign y = a ^ (s == Fast);
endmodule
"""
TB = "module tb;\n  reg a; wire y;\n  tgt dut(.a(a), .y(y));\n  // W=37 was tried once\nendmodule\n"


def _why(tmp: Path, files: dict[str, str], target: str = TGT) -> str:
    """Why the change is unchecked ("" where it is not), the target's text ``target``."""
    name = "tgt.sv" if "typedef" in target else "tgt.v"
    for rel, text in {name: target, **files}.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text)
    design = load_design(tmp / name, "tgt", ProjectConfig())
    extra, why = foreign_parameterizations(design, target, parameterizations(design), {})
    assert extra == []
    return why


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("test_tgt.py", "#!/usr/bin/env python3\n# W is 37 in CI\nimport os  # W\n"),
        ("lint/tgt.vlt", "`verilator_config\n// The W parameter is read by the DV only\n"),
        ("tb.vt", TB),
        ("sim_cfg.hjson", "{\n  // For this block, W is ignored\n  name: tgt\n  # W\n}\n"),
        ("ci.yml", "jobs:\n  sim:  # W is set by make\n    run: make sim\n# W=37\n"),
        ("pyproject.toml", '[tool.sim]\n# W = 37 was tried\ntoplevel = "tgt"  # W\n'),
        ("run.sh", "#!/bin/sh\n# W=37 once\nmake sim  # W\n"),
        ("Makefile", "# W is set by the CI job\nsim:\n\tiverilog tgt.v  \n"),
        ("syn.tcl", "# W=37 once\nyosys read_verilog tgt.v ;# W\n"),
        ("flow.tcl", 'set_flow_bool_var fast 0 "Enable W configuration"\n'),
        ("test_tgt.py", 'parser.add_argument("--fast", help="Enable the W configuration.")\n'),
        ("flow.tcl", 'set_flow_var mode 0 "W fast words"\n'),
    ],
)
def test_a_comment_and_a_description_set_nothing(tmp_path: Path, name: str, text: str) -> None:
    assert _why(tmp_path, {name: text}) == ""


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("test_tgt.py", 'CFG = """\n# W=37\n"""\n', "test_tgt.py:2"),  # data, no comment
        ("ci.yml", "script: |\n  # W=37\n  make sim\n", "ci.yml:2"),  # a block scalar
        ("ci.yml", "script: 'make sim\n  # W=37'\n", "ci.yml:2"),  # a multi-line quoted scalar
        ("run.sh", "make sim\\\n#W=37 tgt\n", "run.sh:2"),  # one word: sim#W=37
        ("run.sh", "make sim\\ # W=37\n", "run.sh:1"),  # an escaped blank: one word
        ("run.sh", "# a note \\\nW=37 make sim\n", "run.sh:2"),  # a comment ends at its line
        ("run.sh", "cat > cfg.txt <<EOF\n# W=37\nEOF\n", "run.sh:2"),  # a here-document
        ("run.sh", "#SBATCH --export=W=37\nmake sim\n", "run.sh:1"),  # a scheduler's directive
        ("run.sh", "#MSUB -v W=37\nmake sim\n", "run.sh:1"),  # no blank after the marker
        ("cfg.hjson", "{\n  opts: '''\n  # W=37\n  '''\n}\n", "cfg.hjson:3"),
        ("cfg.hjson", "{\n  a: x # W=37\n}\n", "cfg.hjson:2"),  # a quoteless value's text
        ("Makefile", "sim:\n\tiverilog tgt.v \\\n\t# W=37\n", "Makefile:3"),  # a recipe's line
        ("Makefile", "X = $(subst a,#W,b)\n", "Makefile:1"),  # inside a function call
        ("syn.tcl", "set opts {\n# W=37\n}\n", "syn.tcl:2"),  # data inside braces
        ("syn.tcl", "yosys chparam \\\n  # W 37\n", "syn.tcl:2"),  # an argument
        ("tb.vt", TB.replace("// W=37", '$display("// W=37 %d", 1);'), "tb.vt:4"),
        ("lint/tgt.vlt", "`verilator_config\n// verilator W=37\n", "lint/tgt.vlt:2"),
        ("flow.tcl", 'set_flow_var mode 0 "set W 37 now"\n', "flow.tcl:1"),  # a digit
        ("flow.tcl", 'set_flow_var args "pass -GW to it"\n', "flow.tcl:1"),  # an option
        ("flow.tcl", 'set_flow_var mode 0 "Enable W on boot"\n', "flow.tcl:1"),  # a switch
        ("flow.tcl", 'set_flow_var mode 0 "Enable W"\n', "flow.tcl:1"),  # two words
        ("flow.tcl", 'set a "Enable the W"\nappend a "=37"\n', "flow.tcl:1"),  # W last
        ("flow.tcl", "set_flow_var mode 0 {Enable W configuration}\n", "flow.tcl:1"),
        ("flow.ys", 'log "Enable W configuration"\n', "flow.ys:1"),  # no lexer for it
    ],
)
def test_a_near_miss_leaves_the_change_unchecked(
    tmp_path: Path, name: str, text: str, where: str
) -> None:
    why = _why(tmp_path, {name: text})
    assert why.startswith(f"{where} names parameter W of tgt"), why


def test_a_description_of_a_parameter_that_takes_a_word_is_a_setting(tmp_path: Path) -> None:
    flow = {"flow.tcl": 'set_flow_var mode 0 "W fast words"\n'}
    assert _why(tmp_path, flow, TGT_STRING).startswith("flow.tcl:1 names parameter W")


def test_a_value_of_the_design_after_the_name_is_a_setting(tmp_path: Path) -> None:
    flow = {"flow.tcl": 'set_flow_var mode 0 "Mode Fast now"\n'}
    assert _why(tmp_path, flow, TGT_ENUM).startswith("flow.tcl:1 names parameter Mode")
    (tmp_path / "flow.tcl").write_text('set_flow_var mode 0 "Mode Quick now"\n')
    assert _why(tmp_path, {}, TGT_ENUM) == ""


@pytest.mark.parametrize("name", ["board/pins.ucf", "board/pins.pcf", "board/pins.lpf"])
def test_a_boards_pin_constraints_set_no_parameter(tmp_path: Path, name: str) -> None:
    # held-out trial 44: a UCF comment "Channel 2 to N signals" read as a setting of N
    text = '# Channel 2 to W signals\nNET "clk" LOC = "AB12";  # W=37\n'
    assert _why(tmp_path, {name: text}) == ""
    # the same text in a file a build may read still leaves the change unchecked
    assert "names parameter W" in _why(tmp_path, {"board/pins.cfg": text})


OTHER = "module other #(parameter W = 2) (input a, output y);\n  assign y = a;\nendmodule\n"
#: A board's top outside the build (excluded): the target's own list is read whole; another
#: module's ``.W(4)`` is that module's (held-out trial 51: ``sync_reset #(.N(4))``).
BOARD = (
    "module board(input a, output y, output z);\n"
    "  other #(.W(4)) u_other(.a(a), .y(z));\n"
    "  tgt #(.W(8)) u_tgt(.a({8{a}}), .y());\nendmodule\n"
)


def test_another_modules_parameter_list_sets_nothing(tmp_path: Path) -> None:
    files = {"other.v": OTHER, "board/board.vt": BOARD}
    assert _why(tmp_path / "other", files) == ""
