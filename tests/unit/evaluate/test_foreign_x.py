"""Round 72: inputs a testbench in another language may drive x or z
(``evaluate/_foreign_x.py``): a cocotb write of a string, a ``LogicArray``, a variable, or
through a handle whose port is not named feeds x; an integer literal, a write of an output
and a Verilator harness's two-state write do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_x import _python_writes, foreign_x_inputs
from rtlopt.frontend import load_design

INPUTS = ["s", "a", "b"]


@pytest.mark.parametrize(
    ("line", "fed", "z"),
    [
        ('dut.s.value = "x"', ["s"], False),
        ('dut.s.value = "z"', ["s"], True),
        ('dut.a.value = LogicArray("01XZ")', ["a"], True),
        ('dut.s.value = BinaryValue("x")', ["s"], False),
        ("dut.s.value = Logic('X')  # unknown", ["s"], False),
        ("dut.s.value = v", ["s"], False),
        ('dut.s.setimmediatevalue("x")', ["s"], False),
        ('dut.s <= "x"', ["s"], False),
        ('h.value = "x"', INPUTS, False),
        ('getattr(dut, "s").value = "x"', INPUTS, False),
        ('dut._id("s", extended=False).value = "z"', INPUTS, True),
    ],
)
def test_a_write_that_may_be_x_feeds_the_input(line: str, fed: list[str], z: bool) -> None:
    found = _python_writes(f"async def t(dut, h, v):\n    {line}\n", INPUTS)
    assert [(f, may_z) for _, f, _, may_z in found] == [(fed, z)]


@pytest.mark.parametrize(
    "line",
    [
        "dut.s.value = 1",
        "dut.a.value = 0b1010  # a pattern",
        "dut.b.value = 0x5",
        "dut.s.value = True",
        "dut.s.setimmediatevalue(0)",
        'dut.y.value = "x"',
        "assert dut.s.value == 1",
        "self.value = 3",
        'self.model.value = "x"',
    ],
)
def test_a_write_of_0_1_or_of_no_input_feeds_nothing(line: str) -> None:
    assert _python_writes(f"async def t(dut):\n    {line}\n", INPUTS) == []


MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"


def _fed(tmp: Path, files: dict[str, str]) -> tuple[tuple[str, ...], bool, str]:
    for name, text in {"mux.v": MUX, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    got = foreign_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig()))
    return got.ports, got.z, got.source


def test_a_cocotb_test_writing_x_feeds_its_input(tmp_path: Path) -> None:
    test = 'import cocotb\n\n@cocotb.test()\nasync def t(dut):\n    dut.s.value = "x"\n'
    ports, z, source = _fed(tmp_path, {"tests/test_mux.py": test})
    assert (ports, z) == (("s",), False)
    assert source.startswith("tests/test_mux.py:5: a cocotb testbench writes 's' with \"x\"")


@pytest.mark.parametrize(
    ("files", "ports"),
    [
        ({"tests/test_mux.py": "import cocotb\n\nasync def t(dut):\n    dut.s.value = 1\n"}, ()),
        # no testbench: an object's own field
        ({"scripts/model.py": 'class M:\n    def f(self):\n        self.s.value = "x"\n'}, ()),
        ({"sim/main.cpp": '#include "Vmux.h"\nint main() { Vmux* top; top->s = 1; }\n'}, ()),
        (
            {
                "vpi/drive.c": '#include "vpi_user.h"\nvoid f(vpiHandle h, p_vpi_value v) '
                "{ vpi_put_value(h, v, 0, vpiNoDelay); }\n"
            },
            ("s", "a"),
        ),
    ],
)
def test_other_writes(tmp_path: Path, files: dict[str, str], ports: tuple[str, ...]) -> None:
    assert _fed(tmp_path, files)[0] == ports
