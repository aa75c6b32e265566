"""A parameter of the target named outside Verilog in a form no recognised setting reads
(``evaluate/_param_mentions.py``): a helper's dictionary, an expression, a YAML or TOML
table, a string built by concatenation leave the change unchecked, naming the file and the
line; a list of generics and Questa's path form are read whole; a testbench's own parameter
set on its command line and handed to the target's instance is a configuration of the
target; a plain read (``dut.W.value``), documentation, a macro and a FuseSoC core that names
a parameter settable without a value change nothing. Real
frontend and slang, no tool run (round 72)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import foreign_parameterizations
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations
from rtlopt.frontend.model import Design

TGT = """module tgt #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);
  assign y = ~a;
endmodule
"""
TB = """module tb;
  parameter TW = 8;
  reg [TW-1:0] a; wire [TW-1:0] y;
  tgt #(.W(TW)) dut(.a(a), .y(y));
endmodule
"""


def _found(tmp: Path, files: dict[str, str]) -> tuple[list[tuple[tuple[str, str], ...]], str]:
    """The configurations the repository's other files set beyond the defaults, and why
    the change is unchecked ("" where it is not)."""
    for name, text in {"tgt.v": TGT, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    design: Design = load_design(tmp / "tgt.v", "tgt", ProjectConfig())
    extra, why = foreign_parameterizations(design, TGT, parameterizations(design), {})
    return [p.values for p in extra], why


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        (  # 01: a helper returns the dictionary
            "test_tgt.py",
            'def params_for(width):\n    return {"W": width}\n\n'
            'def test_w():\n    runner.build(hdl_toplevel="tgt", parameters=params_for(37))\n',
            "test_tgt.py:2",
        ),
        (  # 02: an expression, no literal (read as W=32 before)
            "test_tgt.py",
            'runner.build(hdl_toplevel="tgt", parameters={"W": 32 + 5})\n',
            "test_tgt.py:1",
        ),
        ("sim/config.yaml", "toplevel: tgt\nparameters:\n  W: 37\n", "sim/config.yaml:3"),
        (
            "pyproject.toml",
            '[tool.sim]\ntoplevel = "tgt"\nparameters = { W = 37 }\n',
            "pyproject.toml:3",
        ),
        ("test_tgt.py", 'runner.build(build_args=["-GW=" + str(37)])\n', "test_tgt.py:1"),
        ("run.sh", "export W=37\nmake sim\n", "run.sh:1"),
        ("Makefile", "W ?= 37  # the CI job's\nsim:\n\tiverilog tgt.v\n", "Makefile:1"),
        ("test_tgt.py", "cfg.W = 37\nrunner.build(parameters=vars(cfg))\n", "test_tgt.py:1"),
        (  # a FuseSoC default the core form does not read
            "tgt.core",
            'parameters:\n  W: {datatype: int, description: "{x}", default: 37}\n',
            "tgt.core:2",
        ),
    ],
)
def test_a_parameter_named_in_a_form_not_read_leaves_the_change_unchecked(
    tmp_path: Path, name: str, text: str, where: str
) -> None:
    extra, why = _found(tmp_path, {name: text})
    assert why.startswith(f"{where} "), why
    assert "parameter W" in why and "W=32" not in why, why
    assert extra == [], extra


@pytest.mark.parametrize(
    ("args", "tail"), [('["-G" "W=37"]', ""), ('["-GW=3" "7"]', ""), ('["-GW=3" "7"]', "  # W")]
)
def test_adjacent_literals_joined_set_the_parameter(tmp_path: Path, args: str, tail: str) -> None:
    """07: Python joins adjacent strings, Verilator gets -GW=37: the joined text is read
    (before a comment of the line too)."""
    text = f'runner.build(hdl_toplevel="tgt", build_args={args}){tail}\n'
    extra, _ = _found(tmp_path, {"test_tgt.py": text})
    assert extra == [(("W", "37"),)], extra


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("sim.tcl", "set_property generic {DEPTH=4 W=37} [get_filesets sim_1]\n"),  # 05
        ("sim.sh", 'xelab -generic_top "DEPTH=4 W=37" tgt\n'),
        ("Makefile", 'sim:\n\tvsim -c -G/tgt/W=37 tgt -do "run -all"\n'),  # 06
        ("Makefile", "sim:\n\tvsim -c -g/tb/dut/W=37 tb\n"),
    ],
)
def test_a_list_of_generics_and_a_path_form_are_read_whole(
    tmp_path: Path, name: str, text: str
) -> None:
    assert _found(tmp_path, {name: text}) == ([(("W", "37"),)], "")


def test_a_testbench_parameter_handed_to_the_target_is_a_configuration_of_it(
    tmp_path: Path,
) -> None:
    makefile = "sim:\n\tiverilog -Ptb.TW=37 -o sim.vvp tgt.v tb.v\n\tvvp -n sim.vvp\n"
    assert _found(tmp_path, {"tb.v": TB, "Makefile": makefile}) == ([(("W", "37"),)], "")


def test_a_testbench_parameter_handed_on_in_a_form_not_read_is_unchecked(
    tmp_path: Path,
) -> None:
    makefile = "TW ?= 37\nsim:\n\tiverilog -o sim.vvp tgt.v tb.v\n"
    extra, why = _found(tmp_path, {"tb.v": TB, "Makefile": makefile})
    assert why.startswith("Makefile:1 names parameter TW of tb"), why


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("test_tgt.py", "async def test_w(dut):\n    assert int(dut.W.value) == 8\n"),
        ("README.md", "Set W to the bus width.\n"),
        ("Makefile", "sim:\n\tiverilog +define+W=1 -DW=2 -W -o sim tgt.v\n"),
        ("Makefile", "sim:\n\tverilator -GW=8 tgt.v\n"),
        ("other.v", "module other #(parameter W = 2) (input a, output y);\nendmodule\n"),
        ("cand.v", TGT.replace("~a", "a ^ {W{1'b1}}")),  # a copy of the target
        ("test_tgt.py", 'runner.build(hdl_toplevel="tgt", parameters={"W": 8})\n'),
        ("model.h", "/* W of the address (the W parameter of tgt) */\nint w;\n"),  # C++
        (
            "lint/tgt.waiver",
            "waive -rules {PARAM_NOT_USED} -location {tgt.v} -regexp {.*W.*} \\\n"
            '      -comment "The W parameter is read by the DV only"\n',
        ),
        ("lint/tgt.vlt", '`verilator_config\nlint_off -rule UNUSED -file "*/tgt.v" -match "*W*"\n'),
        (  # FuseSoC names W settable (serv's core): the user's command line sets it, if any
            "tgt.core",
            'targets:\n  default:\n    parameters:\n      - "is_toplevel? (W)"\n'
            "  lint:\n    parameters: [W]\n    toplevel: tgt\n"
            "parameters:\n  W:\n    datatype: int\n    paramtype: vlogparam\n",
        ),
    ],
)
def test_a_read_a_document_a_macro_and_a_literal_setting_stay_checked(
    tmp_path: Path, name: str, text: str
) -> None:
    assert _found(tmp_path, {name: text}) == ([], "")


def test_a_testbench_parameter_the_target_never_receives_sets_nothing(tmp_path: Path) -> None:
    tb = (
        "module tb;\n  parameter CLK = 10;\n  reg clk = 0; reg [7:0] a; wire [7:0] y;\n"
        "  always #(CLK / 2) clk = ~clk;\n  tgt #(.W(8)) dut(.a(a), .y(y));\nendmodule\n"
    )
    makefile = "CLK ?= 10\nsim:\n\tiverilog -Ptb.CLK=$(CLK) -o sim.vvp tgt.v tb.v\n"
    assert _found(tmp_path, {"tb.v": tb, "Makefile": makefile}) == ([], "")
