"""Red team: a cocotb test of the repository asserts the target's inner register
(``dut.cnt.value == 4``; cocotb's ``dut`` is the target itself), and a candidate renaming
``cnt`` to ``count`` (the ports behave the same) was accepted while that test then failed
(no child ``cnt``). ``rtlopt evaluate`` on a git repository now refuses it as unchecked,
naming the file, the line and what it reads; the same repository whose test reads only ports
accepts it (``evaluate/_reach_foreign.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import evaluate_in_repo

pytestmark = [pytest.mark.tools]

TGT = """module tgt(input clk, input rst, input en, output wrap);
  reg [3:0] cnt;
  always @(posedge clk)
    if (rst) cnt <= 4'd0;
    else if (en) cnt <= cnt + 4'd1;
  assign wrap = (cnt == 4'd15) & ((cnt ^ 4'd0) == 4'd15);
endmodule
"""
RENAMED = """module tgt(input clk, input rst, input en, output wrap);
  reg [3:0] count;
  always @(posedge clk)
    if (rst) count <= 4'd0;
    else if (en) count <= count + 4'd1;
  assign wrap = &count;
endmodule
"""
MAKEFILE = """SIM ?= icarus
TOPLEVEL_LANG = verilog
VERILOG_SOURCES = $(RTL)
COCOTB_TOPLEVEL = tgt
COCOTB_TEST_MODULES = test_tgt
include $(shell cocotb-config --makefiles)/Makefile.sim
"""
TEST = """import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge

@cocotb.test()
async def counts(dut):
    cocotb.start_soon(Clock(dut.clk, 10).start())
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    dut.en.value = 1
    for i in range(5):
        await RisingEdge(dut.clk)
    assert {read}, "internal counter"
"""


def _evaluate(
    tmp: Path, read: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    """``rtlopt evaluate tgt.v --candidate cand.v`` in a new git repository."""
    files = {"tgt.v": TGT, "tests/Makefile": MAKEFILE, "tests/test_tgt.py": TEST.format(read=read)}
    return evaluate_in_repo(tmp, files, "tgt.v:tgt", RENAMED, capsys, monkeypatch)


def test_a_cocotb_read_of_the_renamed_register_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = _evaluate(tmp_path, "dut.cnt.value == 4", capsys, monkeypatch)
    assert code == 1 and "REJECTED" in out and "unchecked" in out, out
    assert "tests/test_tgt.py:14: a cocotb testbench reaches into tgt" in out, out
    assert "(dut.cnt)" in out and "compare only the ports of tgt" in out, out


def test_a_cocotb_test_reading_only_ports_accepts_the_rename(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = _evaluate(tmp_path, "dut.wrap.value == 0", capsys, monkeypatch)
    assert code == 0 and "ACCEPTED" in out, out


def test_a_walk_over_every_handle_of_the_target_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``{h._name: int(h.value) for h in dut}`` reads every name of the target, ``cnt`` too:
    the rename changes what it sees (a held-out red team's form)."""
    read = '{h._name: int(h.value) for h in dut if h._name != "clk"} == {}'
    code, out = _evaluate(tmp_path, read, capsys, monkeypatch)
    assert code == 1 and "REJECTED" in out and "unchecked" in out, out
    assert "(for ... in dut)" in out and "every name of tgt" in out, out
