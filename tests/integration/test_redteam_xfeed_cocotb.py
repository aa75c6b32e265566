"""Red team round 72: a cocotb test of the repository drives x into the target's input
(``dut.s.value = LogicArray("X")``), and a candidate reading that x otherwise (``(s === 1'b1)
? a : b`` for ``s ? a : b``) was accepted on the 0/1 proof while the test then failed.
``rtlopt evaluate`` now proves the candidate x-faithful there (``evaluate/_foreign_x.py``):
that candidate and ``{4{s}} & a | {4{~s}} & b`` (equal on 0/1, not on x) are refuted, a
reformatted ``s ? a : b`` is accepted. Round 73: the same where the test writes by
``setattr(dut.s, "value", "x")`` (``evaluate/_foreign_x_cocotb.py``), and a reformatted
``s ? a : b`` is still accepted beside a VHDL testbench and a do-file forcing x
(``evaluate/_foreign_x_scripts.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import evaluate_in_repo

pytestmark = [pytest.mark.tools]

MUX = """module mux(input s, input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = s ? a : b;
endmodule
"""
TEST = """import cocotb
from cocotb.triggers import Timer
from cocotb.types import LogicArray


@cocotb.test()
async def select_unknown(dut):
    dut.a.value = 0b1010
    dut.b.value = 0b0101
    dut.s.value = LogicArray("X")
    await Timer(1, "ns")
    assert str(dut.y.value) == "XXXX"
"""
SETATTR = TEST.replace('dut.s.value = LogicArray("X")', 'setattr(dut.s, "value", "x")')
VHDL = """library ieee; use ieee.std_logic_1164.all;
entity tb is end entity;
architecture sim of tb is
  signal s : std_logic := 'X';
  signal a, b, y : std_logic_vector(3 downto 0);
begin
  dut: entity work.mux port map (s => s, a => a, b => b, y => y);
end architecture;
"""


@pytest.mark.parametrize(
    ("body", "tests", "refused"),
    [
        (
            "assign y = (s === 1'b1) ? a : b;",
            {"tests/test_mux.py": SETATTR},
            "tests/test_mux.py:10: a cocotb testbench hands the handle dut.s to setattr()",
        ),
        (
            "assign y = {4{s}} & a | {4{~s}} & b;",
            {"tests/test_mux.py": TEST},
            "tests/test_mux.py:10: a cocotb testbench writes 's'",
        ),
        (
            "assign y = s ? a :\n                 b;",
            {"tests/test_mux.py": TEST, "tb.vhd": VHDL, "sim.do": "force /tb/dut/s X\n"},
            "",
        ),
    ],
)
def test_x_a_cocotb_test_drives_into_an_input_is_proven(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    body: str,
    tests: dict[str, str],
    refused: str,
) -> None:
    cand = MUX.replace("assign y = s ? a : b;", body)
    files = {"mux.v": MUX, **tests}
    code, out = evaluate_in_repo(tmp_path, files, "mux.v:mux", cand, capsys, monkeypatch)
    if not refused:
        assert code == 0 and "ACCEPTED" in out and "feeds x into s" in out, out
    else:
        assert code == 1 and "REJECTED" in out, out
        assert refused in " ".join(out.split()), out
