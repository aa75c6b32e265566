"""A parameter check's copies read the repository's own analyses.

Each configuration of an instantiated target is evaluated on a copy of the design whose
target has that configuration's values as defaults. What the repository does to the target
(the inputs it feeds x, the testbenches and texts that reach it) is the repository's, not the
copy's: it is read once, from the repository's own design (``Design.origin``), and applied to
every copy. Real evaluator (iverilog, Yosys), no PDK.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import _open_inputs, load_design
from rtlopt.frontend._per_design import PerDesign
from rtlopt.results import EvalResult
from tests.integration._fixture_repo import committed_repo

pytestmark = [pytest.mark.tools, pytest.mark.slow]

#: ``b`` chooses with an ``if``: an x on it takes the ``else`` branch (y = 0).
REF = """module m #(parameter W = 4) (input [W-1:0] a, input b, output reg [W-1:0] y);
  always @* if (b) y = a; else y = {W{1'b0}};
endmodule
"""
#: The W = 8 instance leaves ``b`` unconnected: the repository feeds it x (z).
TOP = """module top(input [3:0] a4, input [7:0] a8, input b, output [3:0] y4, output [7:0] y8);
  m u4(.a(a4), .b(b), .y(y4));
  m #(.W(8)) u8(.a(a8), .b(), .y(y8));
endmodule
"""
#: Reads x on ``b`` as the reference does.
SAME_X = """module m #(parameter W = 4) (input [W-1:0] a, input b, output reg [W-1:0] y);
  always @* begin
    y = {W{1'b0}};
    if (b) y = a;
  end
endmodule
"""
#: Equal on 0/1 values, x where the reference is 0 (b = x, a bit 1).
OTHER_X = """module m #(parameter W = 4) (input [W-1:0] a, input b, output [W-1:0] y);
  assign y = a & {W{b}};
endmodule
"""


def _evaluate(tmp: Path, cand: str, seen: list[Any], monkeypatch: pytest.MonkeyPatch) -> EvalResult:
    repo = committed_repo(tmp / "repo", {"m.v": REF, "top.v": TOP}, monkeypatch, tmp / "cache")
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, sim_timeout_s=20.0),
        formal=dataclasses.replace(base.formal, timeout_s=90.0),
    )
    design = load_design(repo / "m.v", None, cfg.project)
    seen.append(design)
    ev = Evaluator(design, cfg, tmp / "scratch", None)
    try:
        return ev.evaluate(cand)
    finally:
        ev.close()


@pytest.fixture
def analysed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The designs whose repository instances the x analysis elaborated (first: the
    repository's own design, appended by ``_evaluate``)."""
    found: list[Any] = []
    compute = _open_inputs._judged

    def counting(design: Any) -> Any:
        found.append(design)
        return compute(design)

    monkeypatch.setattr(_open_inputs, "_JUDGED", PerDesign(counting))
    return found


def test_every_configuration_reads_the_x_the_repository_feeds(
    tmp_path: Path, analysed: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    res = _evaluate(tmp_path, SAME_X, analysed, monkeypatch)
    assert res.accepted, res.reason
    configs = {c["values"]: c["verdict"] for c in res.configurations}
    assert configs.get("W=8") == "proven", res.configurations
    repo, *elaborated = analysed
    # the configuration W = 8 was evaluated on a copy, and no copy was analysed again
    assert elaborated and all(d is repo for d in elaborated), [d.target.file for d in elaborated]


def test_a_change_reading_the_fed_x_otherwise_is_refuted(
    tmp_path: Path, analysed: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    res = _evaluate(tmp_path, OTHER_X, analysed, monkeypatch)
    assert not res.accepted
    assert "x" in res.reason and "b" in res.reason, res.reason
