"""Parameter values set outside Verilog (``evaluate/_foreign_params.py``): a simulator's
command line (``-P``, ``-G``, ``-pvalue+``, ``-defparam``, ``chparam``) or a test runner's
``parameters`` set the target's parameters, and those values are configurations the
repository uses; a macro (``+define+``), another module's own parameter and the target's
localparams are none. Real frontend and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import foreign_overrides, foreign_parameterizations
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations
from rtlopt.frontend.model import Design

TGT = """module tgt #(parameter W = 8, parameter D = W + 1) (input [W-1:0] a, output [W-1:0] y);
  localparam L = 3;
  assign y = ~a;
endmodule
module other #(parameter N = 2) (input a, output y);
  assign y = a;
endmodule
"""


def _design(tmp: Path, files: dict[str, str]) -> Design:
    for name, text in {"tgt.v": TGT, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return load_design(tmp / "tgt.v", "tgt", ProjectConfig())


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("Makefile", "sim:\n\tiverilog -g2012 -Ptgt.W=37 -o sim tgt.v\n", 2),
        ("Makefile", "lint:\n\tverilator --lint-only -GW=37 tgt.v\n", 2),
        ("run.sh", "#!/bin/sh\nvcs -sverilog -pvalue+tgt.W=37 tgt.v\n", 2),
        ("run.sh", "xrun -defparam tgt.W=37 tgt.v\n", 1),
        ("syn.ys", "read_verilog tgt.v\nchparam -set W 37 tgt\n", 2),
        ("files.f", "tgt.v\n-GW=32'h25\n", 2),  # round 71: a sized literal is its value
        ("run.do", "vlog tgt.v\nvsim -gW=37 work.tgt\n", 2),  # round 71: Questa
        ("syn.ys", "hierarchy -top tgt -chparam W 37\n", 1),
        ("build.tcl", "set_property generic {W=37} [current_fileset]\n", 1),
        ("build.tcl", "synth_design -top tgt -generic W=37 -part xc7a35t\n", 1),
        ("sim.sh", 'xelab -generic_top "W=37" tgt -s sim\n', 1),
        ("tgt.qsf", "set_parameter -name W 37\n", 1),
        ("tgt.core", "targets:\n  sim:\n    parameters: [W=37]\n", 3),
        ("tgt.core", "parameters:\n  W: {datatype: int, default: 37, paramtype: vlogparam}\n", 2),
        ("tgt.core", "parameters:\n  W:\n    datatype: int\n    default: 37\n", 2),
        ("tests/cfg.json", '{"toplevel": "tgt", "parameters": {"W": 37}}\n', 1),
        (
            "tests/test_tgt.py",
            'cfg = {"toplevel": "tgt", "parameters": {"W": 37}}\n\ndef test_tgt():\n    run(**cfg)\n',
            1,
        ),
        ("tests/test_tgt.py", 'run(toplevel="tgt", parameters=dict([("W", 37)]))\n', 1),
        ("Makefile", "sim:\n\tiverilog -Ptgt.W=6'd37 -o sim tgt.v\n", 2),
        (
            "tests/test_tgt.py",
            "from cocotb_test.simulator import run\n\ndef test_tgt():\n"
            '    run(verilog_sources=["tgt.v"], toplevel="tgt", parameters={"W": 37})\n',
            4,
        ),
        (
            "tests/test_tgt.py",
            "def test_tgt(runner):\n    parameters = {}\n    parameters['W'] = 0x25\n"
            "    runner.build(hdl_toplevel='tgt', parameters=parameters)\n",
            3,
        ),
        (
            "tests/test_tgt.py",
            "def test_tgt(runner):\n    params = dict(W=37)\n"
            "    runner.build(hdl_toplevel='tgt', parameters=params)\n",
            2,
        ),
        (
            "tests/test_tgt.py",
            "def test_tgt(runner):\n    p = {}\n    p.update({'W': '37'})\n"
            "    runner.build(parameters=p)\n",
            3,
        ),
    ],
)
def test_each_form_sets_a_configuration(tmp_path: Path, name: str, text: str, line: int) -> None:
    design = _design(tmp_path, {name: text})
    found = foreign_overrides(design)
    assert [(o.where, o.values) for o in found] == [(f"{name}:{line}", (("W", "37"),))], found
    settings = parameterizations(design)
    extra, why = foreign_parameterizations(design, TGT, settings, {})
    assert why == "" and [p.values for p in extra] == [(("W", "37"), ("D", "38"))], extra
    assert "." in extra[0].where[0] and f"{name}:{line}" in extra[0].where[0]


@pytest.mark.parametrize(
    "text",
    [
        "sim:\n\tiverilog +define+W=37 -o sim tgt.v\n",  # a macro, no parameter
        "sim:\n\tiverilog -Pother.W=37 -Pother.N=4 -o sim tgt.v\n",  # another module's
        "sim:\n\tverilator -GL=5 tgt.v\n",  # a localparam: no setting a parent can make
        "sim:\n\tverilator -GW=8 tgt.v\n",  # the defaults
        # another top's parameter, named on the same Yosys line (held-out trial 43)
        "syn:\n\tyosys -p 'hierarchy -top other -chparam W 37'\n",
    ],
)
def test_what_sets_no_other_configuration(tmp_path: Path, text: str) -> None:
    design = _design(tmp_path, {"Makefile": text})
    extra, why = foreign_parameterizations(design, TGT, parameterizations(design), {})
    assert extra == [] and why == "", (extra, why)


def test_a_value_that_is_no_literal_is_unchecked(tmp_path: Path) -> None:
    runner = "def test_tgt(runner, w):\n    runner.build(parameters={'W': w})\n"
    design = _design(tmp_path, {"tests/test_tgt.py": runner})
    extra, why = foreign_parameterizations(design, TGT, parameterizations(design), {})
    assert why.startswith("tests/test_tgt.py:2 sets parameter W=? of tgt ("), why
    assert "write the value as a literal" in why
