"""Round 72: a path to an inner name of the target in any text of the repository
(``evaluate/_reach_text_paths.py``: a Questa do-file, an xsim script, a UVM backdoor or a
SignalSpy string in a Verilog testbench, a waveform check, a GTKWave save file) and Python
that acts like a cocotb test without importing it (``evaluate/_reach_foreign.py``) make the
target's changes unchecked; a path to a port, a file name and a Python file that is no
testbench do not. Real frontend and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.evaluate._reach_foreign import testbenches as benches
from rtlopt.frontend import load_design

CTR = """module ctr(input clk, input rst, output [3:0] q);
  reg [3:0] cnt;
  always @(posedge clk) if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;
  assign q = cnt;
endmodule
"""
TB = """module tb;
  reg clk = 0, rst = 1; wire [3:0] q;
  logic [3:0] v;
  ctr dut(.clk(clk), .rst(rst), .q(q));
  initial begin
{body}  end
endmodule
"""


def _reach(tmp: Path, files: dict[str, str]) -> str:
    for name, text in {"ctr.v": CTR, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return repository_reach(load_design(tmp / "ctr.v", "ctr", ProjectConfig()))


@pytest.mark.parametrize(
    ("files", "where", "shown"),
    [
        # 09: a Questa do-file, an xsim script
        (
            {"sim/run.do": "vsim work.ctr\nforce -freeze sim:/ctr/cnt 4'h7 0\nquit -f\n"},
            "sim/run.do:2",
            "(sim:/ctr/cnt)",
        ),
        ({"sim/run.do": "if {[examine /ctr/cnt] != 7} { quit }\n"}, "sim/run.do:1", "/ctr/cnt"),
        (
            {"sim/xsim.tcl": "add_wave {{/ctr/cnt}}\nset_value -radix hex /ctr/cnt 7\n"},
            "sim/xsim.tcl:1",
            "(/ctr/cnt)",
        ),
        # 10, 13: a string path in a Verilog testbench
        (
            {"tb/tb.sv": TB.format(body='    #5 void\'(uvm_hdl_read("tb.dut.cnt", v));\n')},
            "tb/tb.sv:6",
            "(tb.dut.cnt)",
        ),
        (
            {"tb/tb.sv": TB.format(body='    $init_signal_spy("/tb/dut/cnt", "/tb/v", 1);\n')},
            "tb/tb.sv:6",
            "(/tb/dut/cnt)",
        ),
        # 11: a waveform check of any package, by a path through the testbench's instance
        (
            {
                "tb.v": TB.format(body="    #100 $finish;\n"),
                "check_wave.py": "from pyDigitalWaveTools.vcd.parser import VcdParser\n"
                'sig = find(scope, "tb.dut.cnt")\n',
            },
            "check_wave.py:2",
            "(tb.dut.cnt)",
        ),
        # 14: a GTKWave save file, whatever the scope above the target is named
        (
            {"sim/waves.gtkw": '[dumpfile] "dump.vcd"\n@28\ntb.dut.cnt[3:0]\n'},
            "sim/waves.gtkw:3",
            "",
        ),
        # the module's own name, a comment of a script
        ({"scripts/peek.sh": "# reads ctr.cnt after reset\n"}, "scripts/peek.sh:1", "(ctr.cnt)"),
    ],
)
def test_a_path_to_an_inner_name_in_any_text_is_unchecked(
    tmp_path: Path, files: dict[str, str], where: str, shown: str
) -> None:
    why = _reach(tmp_path, files)
    assert why.startswith(f"{where}: a hierarchical path names cnt, an inner name of ctr"), why
    assert shown in why and "reach ctr by its ports only" in why, why


@pytest.mark.parametrize(
    "files",
    [
        {"sim/run.do": "vsim work.ctr\nforce -freeze sim:/ctr/clk 1 0\nexamine /ctr/q\n"},
        {"tb.v": TB.format(body='    $display("tb.dut.q", tb.dut.q);\n')},
        {"files.f": "ctr.v\n", "README.md": "The counter `tb.dut.cnt` counts.\n"},
        # a Python file that is no testbench: an object's own attribute
        {"scripts/model.py": "class M:\n    def __init__(self):\n        self.cnt = 0\n"},
    ],
)
def test_a_path_to_a_port_or_no_path_is_no_reach(tmp_path: Path, files: dict[str, str]) -> None:
    assert _reach(tmp_path, files) == ""


@pytest.mark.parametrize(
    ("files", "bench"),
    [
        # 08: cocotb from sys.modules; 12: an import continued over lines
        ({"test_ctr.py": 'import sys\ncocotb = sys.modules["cocotb"]\n'}, "test_ctr.py"),
        ({"test_ctr.py": "import os, \\\n    cocotb\n"}, "test_ctr.py"),
        # the handle API on a name
        ({"t.py": "async def t(dut):\n    dut.en.value = 1\n"}, "t.py"),
        ({"t.py": "def t(dut):\n    dut.en.setimmediatevalue(1)\n"}, "t.py"),
        # 18: a pytest test module below a conftest naming cocotb's plugin
        (
            {
                "tests/conftest.py": 'pytest_plugins = ("cocotb_tools.pytest.plugin",)\n',
                "tests/unit/test_ctr.py": "import pytest\n\nasync def test_x(dut):\n    pass\n",
            },
            "tests/unit/test_ctr.py",
        ),
        (
            {
                "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-p cocotb_tools.pytest"\n',
                "tests/test_ctr.py": "async def test_x(dut):\n    pass\n",
            },
            "tests/test_ctr.py",
        ),
    ],
)
def test_python_acting_like_a_cocotb_test_is_a_testbench(
    tmp_path: Path, files: dict[str, str], bench: str
) -> None:
    texts = [(tmp_path / n, t) for n, t in files.items()]
    assert benches(texts).get(tmp_path / bench) == "cocotb"


def test_python_that_is_no_testbench_is_none() -> None:
    texts = [
        (Path("r/model.py"), "from enum import Enum\nclass Mode(Enum):\n    A = 1\nMode.A.value\n"),
        (Path("r/tests/test_util.py"), "import pytest\n\ndef test_x():\n    assert 1\n"),
        (Path("r/tests/conftest.py"), "import pytest\n"),
    ]
    assert benches(texts) == {}


@pytest.mark.parametrize(
    "test",
    [
        'import sys\ncocotb = sys.modules["cocotb"]\n@cocotb.test()\nasync def t(dut):\n'
        "    assert dut.cnt.value == 0\n",
        "import os, \\\n    cocotb\n@cocotb.test()\nasync def t(dut):\n    assert dut.cnt.value == 0\n",
    ],
)
def test_a_cocotb_test_without_an_import_reading_an_inner_name_is_unchecked(
    tmp_path: Path, test: str
) -> None:
    why = _reach(tmp_path, {"test_ctr.py": test})
    assert why.startswith("test_ctr.py:5: a cocotb testbench reaches into ctr"), why


def test_a_pytest_plugin_test_reading_an_inner_name_is_unchecked(tmp_path: Path) -> None:
    files = {
        "tests/conftest.py": 'pytest_plugins = ("cocotb_tools.pytest.plugin",)\n',
        "tests/test_ctr.py": "import pytest\n\n\n@pytest.mark.asyncio\n"
        "async def test_reset(dut):\n    assert dut.cnt.value == 0\n",
    }
    why = _reach(tmp_path, files)
    assert why.startswith("tests/test_ctr.py:6: a cocotb testbench reaches into ctr"), why
