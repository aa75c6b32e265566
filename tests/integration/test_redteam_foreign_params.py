"""Red team: a cocotb runner of the repository builds the target with ``W=37``
(``cocotb_test.simulator.run(..., toplevel="tgt", parameters={"W": 37})``), a value no
Verilog of the repository elaborates; a candidate differing only at ``W=37``
(``(W * 7 == 259) ? a : ~a``) was accepted (the configurations and probes never set 37).
``rtlopt evaluate`` now checks that configuration too and refuses it, naming the runner's
line; the same runner at ``W=8`` accepts it (``evaluate/_foreign_params.py``). Round 72:
``parameters={"W": 32 + 5}`` was read as ``W=32`` and accepted; an expression is no literal,
so the change is unchecked, and no ``W=32`` is reported as the repository's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import evaluate_in_repo

pytestmark = [pytest.mark.tools]

TGT = """module tgt #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);
  assign y = ~a;
endmodule
"""
TOP = """module top(input [7:0] a, output [7:0] y);
  tgt #(.W(8)) u(.a(a), .y(y));
endmodule
"""
CANDIDATE = """module tgt #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);
  assign y = (W * 7 == 259) ? a : ~a;
endmodule
"""
RUNNER = """import os

from cocotb_test.simulator import run


def test_tgt():
    run(
        verilog_sources=[os.path.join(os.path.dirname(__file__), "..", "tgt.v")],
        toplevel="tgt",
        module="test_tgt",
        parameters={{"W": {w}}},
    )
"""


def _evaluate(
    tmp: Path, w: int | str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    """``rtlopt evaluate tgt.v --candidate cand.v`` in a new git repository."""
    files = {"tgt.v": TGT, "top.v": TOP, "tests/test_runner.py": RUNNER.format(w=w)}
    return evaluate_in_repo(tmp, files, "tgt.v:tgt", CANDIDATE, capsys, monkeypatch)


def test_a_runners_parameter_value_is_a_configuration_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = _evaluate(tmp_path, 37, capsys, monkeypatch)
    assert code == 1 and "REJECTED" in out, out
    assert "under parameters W=37 (tests/test_runner.py:11:" in out, out


def test_a_runner_at_the_repositorys_value_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = _evaluate(tmp_path, 8, capsys, monkeypatch)
    assert code == 0 and "ACCEPTED" in out, out


def test_a_runners_value_that_is_an_expression_leaves_the_change_unchecked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = _evaluate(tmp_path, "32 + 5", capsys, monkeypatch)
    assert code == 1 and "REJECTED" in out, out
    assert "unchecked for parameters: tests/test_runner.py:11 sets parameter W=? of tgt" in out
    assert "W=32" not in out, out
