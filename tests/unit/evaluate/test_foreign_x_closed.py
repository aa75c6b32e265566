"""Round 73: a cocotb testbench that writes by a way not read as a write (``setattr``, a
driver library such as ``cocotb_bus``, a handle handed to a call that is not its own), a
simulator script forcing x (a do-file ``force``, xsim ``set_value``), a VHDL testbench
instantiating the target feed x (and z) into the target's inputs
(``evaluate/_foreign_x_cocotb.py``, ``evaluate/_foreign_x_scripts.py``); a test writing only
integer literals and starting a clock stays no x source."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_x import foreign_x_inputs
from rtlopt.frontend import load_design

MUX = (
    "module mux(input clk, input s, input [3:0] a, output [3:0] y);\n"
    "  assign y = s ? a : 4'd0;\nendmodule\n"
)
HEAD = (
    "import cocotb\nfrom cocotb.triggers import Timer, RisingEdge\nfrom cocotb.clock import Clock\n"
)


def _cocotb(body: str, head: str = HEAD) -> dict[str, str]:
    return {"tests/test_mux.py": f"{head}\n@cocotb.test()\nasync def t(dut):\n{body}"}


def _fed(tmp: Path, files: dict[str, str]) -> tuple[tuple[str, ...], bool, str]:
    for name, text in {"mux.v": MUX, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    got = foreign_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig()))
    return got.ports, got.z, got.source


ALL = ("clk", "s", "a")


@pytest.mark.parametrize(
    ("files", "ports", "z", "where"),
    [
        # 05: setattr spells the write otherwise
        (_cocotb('    setattr(dut.s, "value", "x")\n'), ALL, True, "tests/test_mux.py:7:"),
        (_cocotb('    dut.s.__setattr__("value", "x")\n'), ALL, True, "tests/test_mux.py:7:"),
        # 09: a driver library writes inside itself
        (
            _cocotb(
                '    bus = Bus(dut, None, ["s", "a"])\n    txn.s = "x"\n    bus.drive(txn)\n',
                HEAD + "from cocotb_bus.bus import Bus\n",
            ),
            ALL,
            True,
            "tests/test_mux.py:4: a cocotb testbench imports cocotb_bus.bus",
        ),
        (_cocotb("    pass\n", HEAD + "import cocotbext.axi\n"), ALL, True, "imports cocotbext"),
        (_cocotb("    pass\n", HEAD + "from pyuvm import uvm_test\n"), ALL, True, "pyuvm"),
        (_cocotb("    d = cocotb.drivers.BusDriver(dut)\n"), ALL, True, "cocotb.drivers"),
        # the handle handed to a call that is not the repository's own
        (
            _cocotb("    functools.partial(drive, dut.s)()\n", HEAD + "import functools\n"),
            ALL,
            True,
            "hands the handle dut.s to functools.partial()",
        ),
        (_cocotb("    lib.drive([dut.s, dut.a])\n"), ALL, True, "to lib.drive()"),
        # a handle kept in a field, written with a string
        (
            {
                "tests/test_mux.py": "import cocotb\n\nclass D:\n    def __init__(self, dut):\n"
                "        self.sig = dut.s\n\n    def go(self):\n"
                '        self.sig.value = "z"\n\n@cocotb.test()\nasync def t(dut):\n'
                "    D(dut).go()\n"
            },
            ALL,
            True,
            "writes self.sig",
        ),
        # 04: a simulator script forcing x on a port (a do-file, xsim Tcl)
        ({"sim.do": "vsim work.tb\nforce -freeze /tb/dut/s X 0\n"}, ALL, False, "sim.do:2:"),
        (
            {
                "sim.do": "vsim work.tb\nforce -freeze /tb/dut/s X 0\n",
                "tb.v": "module tb; reg sel; mux dut(.s(sel)); endmodule\n",
            },
            ("s",),
            False,
            "sim.do:2:",
        ),
        # round 74: a path that does not end at an instance of the target known to rtlopt
        # (no tb.v here names dut), or a value in braces, is not understood: every input
        ({"sim.tcl": "set_value /tb/s X\n"}, ALL, False, "sim.tcl:1:"),
        ({"x.tcl": "add_force {/tb/dut/a} -radix bin {Z 0ns}\n"}, ALL, True, "x.tcl:1:"),
        ({"run.cmd": "deposit tb.dut.s = 1'bx\n"}, ALL, False, "run.cmd:1:"),
        ({"sim.do": "force /TB/DUT/S U\n"}, ALL, False, "sim.do:1:"),
        (
            {
                "sim.do": "force /TB/DUT/S U\n",
                "tb.v": "module tb; reg sel; mux DUT(.s(sel)); endmodule\n",
            },
            ("s",),
            False,
            "sim.do:1:",
        ),
        ({"sim.do": "set top /tb/dut\nforce $top/s $v\n"}, ALL, True, "sim.do:2:"),
        (
            {
                "sim.do": "force /tb/sel X\n",
                "tb.v": "module tb; reg sel; mux dut(.s(sel)); endmodule\n",
            },
            ALL,
            False,
            "sim.do:1:",
        ),
        (
            {"sim.do": "force /tb/dut -\n", "tb.v": "module tb; mux dut(); endmodule\n"},
            ALL,
            False,
            "",
        ),
        # 08: a VHDL testbench instantiating the target
        (
            {
                "tb.vhd": "architecture s of tb is begin\n  dut: entity work.mux port map (s => s);\nend;\n"
            },
            ALL,
            True,
            "tb.vhd:2: a VHDL testbench instantiates mux",
        ),
        ({"tb.vhdl": "  component MUX\n  port (s : in std_logic);\n"}, ALL, True, "tb.vhdl:1:"),
        ({"tb.vhd": "  u0 : mux port map (s, a, y);\n"}, ALL, True, "tb.vhd:1:"),
    ],
)
def test_an_unread_write_feeds_x(
    tmp_path: Path, files: dict[str, str], ports: tuple[str, ...], z: bool, where: str
) -> None:
    got = _fed(tmp_path, files)
    assert got[:2] == (ports, z), got
    assert where in got[2], got


@pytest.mark.parametrize(
    "files",
    [
        # integer literals, a Clock on the clock, triggers, the file's own helpers, a logger
        _cocotb(
            '    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())\n'
            "    await reset(dut)\n    dut.s.value = 1\n    dut.a.value = 0b1010\n"
            "    await RisingEdge(dut.clk)\n    await Timer(1, 'ns')\n"
            '    dut._log.info("y=%s", dut.y.value)\n    print(dut.y.value)\n'
            "    assert dut.y.value == 10\n    for h in (dut.s, dut.a):\n        h.value = 0\n"
            "\nasync def reset(dut):\n    dut.s.value = 0\n"
        ),
        # a runner, a waveform reader
        {
            "tests/run.py": "from cocotb_test.simulator import run\n\ndef test():\n    run(toplevel='mux')\n"
        },
        {"tests/check.py": "from vcdvcd import VCDVCD\nv = VCDVCD('x.vcd')\nprint(v['tb.y'])\n"},
        # a script writing 0/1, or another signal, and a VHDL file of another entity
        {"sim.do": "force -freeze /tb/dut/s 1 0\nforce /tb/dut/a 4'b1010\n"},
        {"sim.tcl": "set_value -radix bin /tb/s 0\nadd_force {/tb/a} {1010 0ns}\n"},
        {"other.vhd": "  u0: entity work.muxer port map (s => s);\n  -- entity work.mux\n"},
        {"README.md": "force /tb/dut/s X\n"},
    ],
)
def test_stays_no_x_source(tmp_path: Path, files: dict[str, str]) -> None:
    assert _fed(tmp_path, files)[0] == ()
