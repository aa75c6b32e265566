"""One model of a design for every tool (issue 20, classes 3, 4, 5 and 10), real iverilog and
Yosys through the real evaluator.

* Resets by structure only: a 1-bit input named ``rst`` that the design uses as data is
  compared as data; a candidate that is x until ``rst`` was once 1 is rejected.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config, HarnessConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, Verdict

pytestmark = pytest.mark.tools


def _evaluate(
    tmp: Path, files: dict[str, str], target: str, candidate: str, **harness: object
) -> EvalResult:
    repo = tmp / "repo"
    repo.mkdir(exist_ok=True)
    for name, text in files.items():
        (repo / name).write_text(text)
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(
            base.harness, sim_timeout_s=20.0, random_vectors=300, **harness
        ),
        formal=dataclasses.replace(base.formal, timeout_s=60.0),
    )
    assert isinstance(cfg.harness, HarnessConfig)
    design = load_design(repo / target, None, cfg.project)
    ev = Evaluator(design, cfg, tmp / "scratch", None)
    try:
        return ev.evaluate(candidate)
    finally:
        ev.close()


RST_DATA = """module rd(input clk, input rst, input [7:0] d, output reg [7:0] q);
  always @(posedge clk) q <= d ^ {8{rst}};
endmodule
"""

# x until rst was once 1: forcing rst at power-up (as a reset) would hide the difference
RST_DATA_X = """module rd(input clk, input rst, input [7:0] d, output reg [7:0] q);
  reg seen;
  always @(posedge clk) begin
    seen <= seen | rst;
    q <= (d ^ {8{rst}}) & {8{seen | rst}};
  end
endmodule
"""


def test_data_input_named_rst_is_compared_as_data(tmp_path: Path) -> None:
    design = load_design(_write(tmp_path, "rd.v", RST_DATA), None, Config().project)
    assert design.target.resets == ()
    res = _evaluate(tmp_path, {"rd.v": RST_DATA}, "rd.v", RST_DATA_X)
    assert not res.accepted, res.reason
    assert res.formal is None or res.formal.verdict is not Verdict.PROVEN, res.reason
    # the reference itself, reworded, is still accepted: comparing rst as data is not blind
    same = RST_DATA.replace("d ^ {8{rst}}", "{8{rst}} ^ d")
    ok = _evaluate(tmp_path, {"rd.v": RST_DATA}, "rd.v", same)
    assert ok.accepted, ok.reason


def _write(tmp: Path, name: str, text: str) -> Path:
    folder = tmp / "load"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text)
    return folder / name
