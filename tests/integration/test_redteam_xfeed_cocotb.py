"""Red team round 72: a cocotb test of the repository drives x into the target's input
(``dut.s.value = LogicArray("X")``), and a candidate reading that x otherwise (``(s === 1'b1)
? a : b`` for ``s ? a : b``) was accepted on the 0/1 proof while the test then failed.
``rtlopt evaluate`` now proves the candidate x-faithful there (``evaluate/_foreign_x.py``):
that candidate and ``{4{s}} & a | {4{~s}} & b`` (equal on 0/1, not on x) are refuted, a
reformatted ``s ? a : b`` is accepted."""

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


@pytest.mark.parametrize(
    ("body", "accepted"),
    [
        ("assign y = (s === 1'b1) ? a : b;", False),
        ("assign y = {4{s}} & a | {4{~s}} & b;", False),
        ("assign y = s ? a :\n                 b;", True),
    ],
)
def test_x_a_cocotb_test_drives_into_an_input_is_proven(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    body: str,
    accepted: bool,
) -> None:
    cand = MUX.replace("assign y = s ? a : b;", body)
    files = {"mux.v": MUX, "tests/test_mux.py": TEST}
    code, out = evaluate_in_repo(tmp_path, files, "mux.v:mux", cand, capsys, monkeypatch)
    if accepted:
        assert code == 0 and "ACCEPTED" in out and "feeds x into s" in out, out
    else:
        assert code == 1 and "REJECTED" in out, out
        assert "tests/test_mux.py:10: a cocotb testbench writes 's'" in out, out
