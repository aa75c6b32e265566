"""Testbenches in another language reaching into the target by its inner names
(``evaluate/_reach_foreign.py``): a cocotb test reading ``dut.cnt``, a Verilator harness
reading ``tgt__DOT__cnt``, a VPI routine looking up ``"tgt.cnt"`` make the target's changes
unchecked; port reads, files that are no testbench and a class's own attributes do not.
Real frontend and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.evaluate._reach_foreign import _c_hit, _python_hit
from rtlopt.evaluate._reach_foreign import testbench_kind as kind
from rtlopt.frontend import load_design

TGT = """module tgt(input clk, input rst, input en, output wrap);
  reg [3:0] cnt;
  sub u_sub(.clk(clk), .d(cnt[0]));
  always @(posedge clk)
    if (rst) cnt <= 4'd0;
    else if (en) cnt <= cnt + 4'd1;
  assign wrap = (cnt == 4'd15);
endmodule
module sub(input clk, input d);
  reg x;
  always @(posedge clk) x <= d;
endmodule
"""
COCOTB = """import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge


@cocotb.test()
async def counts(dut):
    cocotb.start_soon(Clock(dut.clk, 10).start())
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    dut.en.value = 1
    for _ in range(16):
        await RisingEdge(dut.clk)
    # the counter wrapped: dut.cnt is 0 again
    assert dut.wrap.value == 0, "cnt wrapped"
{extra}"""


def _reach(tmp: Path, files: dict[str, str]) -> str:
    for name, text in {"tgt.v": TGT, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return repository_reach(load_design(tmp / "tgt.v", "tgt", ProjectConfig()))


@pytest.mark.parametrize(
    ("extra", "shown"),
    [
        ("    assert dut.cnt.value == 4\n", "(dut.cnt)"),
        ("    assert dut._id('cnt', extended=False).value == 4\n", '("cnt")'),
        ('    assert getattr(dut, "cnt").value == 4\n', '("cnt")'),
        ('    assert dut["cnt"].value == 4\n', '("cnt")'),
        ("    assert self_dut.u_sub.x.value == 1\n", "(self_dut.u_sub)"),
        ('    h = dut._id(f"{dut._name}.cnt", extended=False)\n', ".cnt"),
        ('    assert dut._id("u_sub.x", extended=False).value == 1\n', '("u_sub.x")'),
        ("    assert cocotb.top.cnt.value == 4\n", "(top.cnt)"),
    ],
)
def test_a_cocotb_read_of_an_inner_name_is_unchecked(
    tmp_path: Path, extra: str, shown: str
) -> None:
    why = _reach(tmp_path, {"tests/test_tgt.py": COCOTB.format(extra=extra)})
    assert why.startswith("tests/test_tgt.py:17: a cocotb testbench reaches into tgt"), why
    assert shown in why and "compare only the ports of tgt" in why, why


def test_a_cocotb_test_reading_only_ports_is_no_reach(tmp_path: Path) -> None:
    extra = (
        "    assert Names.cnt == 1\n\n\nclass Names:\n    cnt = 1\n"
        "\n\nclass Model:\n    def __init__(self):\n        self.cnt = 0\n\n"
        "    def step(self):\n        self.cnt += 1\n"
    )
    assert _reach(tmp_path, {"tests/test_tgt.py": COCOTB.format(extra=extra)}) == ""


def test_a_python_file_that_is_no_testbench_is_no_reach(tmp_path: Path) -> None:
    script = "import json\n\nclass C:\n    pass\n\nc = C()\nprint(c.cnt, getattr(c, 'cnt'))\n"
    assert _reach(tmp_path, {"scripts/report.py": script}) == ""


VERILATOR = """#include <verilated.h>
#include "Vtgt.h"
#include "Vtgt___024root.h"

int main(int argc, char** argv) {{
    Vtgt* top = new Vtgt;
    top->clk = 0;
    for (int i = 0; i < 20; i++) {{
        top->clk = !top->clk;
        top->eval();
    }}
{extra}    delete top;
    return 0;
}}
"""


@pytest.mark.parametrize(
    ("extra", "shown"),
    [
        ("    assert(top->rootp->tgt__DOT__cnt == 4);\n", "(tgt__DOT__cnt)"),
        ('    printf("%d", top->rootp->tgt__DOT__u_sub__DOT__x);\n', "u_sub__DOT__x"),
    ],
)
def test_a_verilator_harness_reading_an_inner_name_is_unchecked(
    tmp_path: Path, extra: str, shown: str
) -> None:
    why = _reach(tmp_path, {"sim/main.cpp": VERILATOR.format(extra=extra)})
    assert why.startswith("sim/main.cpp:12: a C/C++ testbench reaches into tgt"), why
    assert shown in why, why


def test_a_verilator_harness_driving_only_ports_is_no_reach(tmp_path: Path) -> None:
    extra = '    printf("%d", top->wrap);\n'
    assert _reach(tmp_path, {"sim/main.cpp": VERILATOR.format(extra=extra)}) == ""


def test_a_vpi_lookup_of_an_inner_name_is_unchecked(tmp_path: Path) -> None:
    vpi = (
        '#include "vpi_user.h"\n\nstatic PLI_INT32 peek(PLI_BYTE8* u) {\n'
        '    vpiHandle h = vpi_handle_by_name((PLI_BYTE8*)"tb.dut.cnt", NULL);\n'
        "    return 0;\n}\n"
    )
    why = _reach(tmp_path, {"vpi/peek.c": vpi})
    assert why.startswith("vpi/peek.c:4: a C/C++ testbench") and '("tb.dut.cnt")' in why, why


def test_testbench_kinds() -> None:
    assert kind("from cocotb.triggers import Timer\n") == "cocotb"
    assert kind("import pyuvm\n") == "cocotb"
    assert kind("#include <svdpi.h>\n") == "C/C++"
    assert kind("h = vpi_handle_by_name(name, 0);\n") == "C/C++"
    assert kind("import numpy\n# cocotb\n") == ""
    assert kind("module m; import pkg::*; endmodule\n") == ""


def test_unknown_inner_names_fail_closed() -> None:
    ports = {"clk", "rst"}
    text = "import cocotb\nasync def t(dut):\n    dut.clk.value = 1\n    dut._log.info('x')\n"
    assert _python_hit(text, ports, None) is None
    hit = _python_hit(text + "    assert dut.anything.value == 1\n", ports, None)
    assert hit is not None and hit.shown == "dut.anything"
    assert _c_hit("int x = top->rootp->v__DOT__q;\n", ports, None) is not None
    assert _c_hit("top->clk = 1; top->eval();\n", ports, None) is None


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("x = top->__PVT__cnt;", "__PVT__cnt"),
        ("x = top->v->cnt;", "v->cnt"),
        ("vlSymsp->TOP__tgt.cnt = 3;", "TOP__tgt.cnt"),
        ('h = vpi_handle_by_name((PLI_BYTE8*)"cnt", scope);', '"cnt"'),
        ('std::string p = std::string(s) + ".cnt";', '".cnt"'),
        ('svScope s = svGetScopeFromName("TOP.tgt.u_sub");', '"TOP.tgt.u_sub"'),
        ("x = r->tb__DOT__dut__DOT__g__BRA__0__KET____DOT__cnt;", "g__BRA__0__KET____DOT__cnt"),
    ],
)
def test_the_forms_c_reaches_by(text: str, shown: str) -> None:
    hit = _c_hit(text, {"clk"}, {"cnt", "u_sub"})
    assert hit is not None and shown in hit.shown, hit


def test_a_dpi_model_with_members_named_like_the_targets_is_no_reach(tmp_path: Path) -> None:
    # a C model a DPI import calls: its own structs, headers and prose name no scope
    dpi = (
        '#include "svdpi.h"\n#include "cnt.h"\n\nstruct st { int cnt; };\n'
        "void step(struct st* s) {\n    s->cnt++;\n"
        '    printf("the cnt. value %d\\n", s->cnt);\n    fopen("out.x", "w");\n}\n'
    )
    assert _reach(tmp_path, {"dv/model.c": dpi}) == ""


def test_a_helper_a_cocotb_test_imports_is_read_as_one(tmp_path: Path) -> None:
    helper = "def peek(dut):\n    return dut.cnt.value\n"
    test = COCOTB.format(extra="") + "from tests.helpers import (\n    peek,\n)\n"
    why = _reach(tmp_path, {"tests/helpers.py": helper, "tests/test_tgt.py": test})
    assert why.startswith("tests/helpers.py:2: a cocotb testbench") and "(dut.cnt)" in why, why


def test_a_test_importing_a_cocotb_base_is_read_as_one(tmp_path: Path) -> None:
    base = "import cocotb\n\nclass TB:\n    pass\n"
    test = "from tb_base import TB\n\nasync def t(dut):\n    assert dut.cnt.value == 4\n"
    files = {"tests/tb_base.py": base, "tests/test_tgt.py": test}
    assert _reach(tmp_path, files).startswith("tests/test_tgt.py:4: a cocotb testbench")


def test_a_header_a_verilator_harness_includes_is_read_as_one(tmp_path: Path) -> None:
    peek = "inline int peek(Vtgt* t) { return t->rootp->tgt__DOT__cnt; }\n"
    main = VERILATOR.format(extra="").replace('#include "Vtgt___024root.h"', '#include "peek.h"')
    why = _reach(tmp_path, {"sim/peek.h": peek, "sim/main.cpp": main})
    assert why.startswith("sim/peek.h:1: a C/C++ testbench"), why


def test_a_script_sharing_a_helper_with_a_testbench_is_none(tmp_path: Path) -> None:
    util = "def fmt(x):\n    return str(x)\n"
    script = "import util\n\nclass R:\n    pass\n\nprint(R().cnt)\n"
    test = COCOTB.format(extra="") + "import util\n"
    files = {"tests/util.py": util, "tests/test_tgt.py": test, "tests/report.py": script}
    assert _reach(tmp_path, files) == ""


def test_a_parameter_a_parent_sets_is_no_inner_name(tmp_path: Path) -> None:
    """A test of another module setting its own ``parameters["W"]`` (verilog-axis's runners)
    names the target's parameter W, which the candidate keeps, like a port; a localparam is
    the target's own."""
    tgt = TGT.replace("module tgt(", "module tgt #(parameter W = 4) (").replace(
        "  reg [3:0] cnt;", "  localparam L = 2;\n  reg [3:0] cnt;"
    )
    (tmp_path / "tgt.v").write_text(tgt)
    extra = "\n\ndef test_runner():\n    parameters = {{}}\n    parameters['{name}'] = 8\n"
    bench = tmp_path / "tests" / "test_tgt.py"
    bench.parent.mkdir()
    for name, reached in (("W", False), ("L", True)):
        bench.write_text(COCOTB.format(extra=extra.format(name=name)))
        design = load_design(tmp_path / "tgt.v", "tgt", ProjectConfig())
        assert bool(repository_reach(design)) == reached, (name, repository_reach(design))
