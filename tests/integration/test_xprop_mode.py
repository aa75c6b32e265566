"""A simulator's x-propagation mode (VCS ``-xprop=tmerge``, Xcelium ``-xprop F``) merges both
branches of an ``if`` on x, so IEEE x semantics, which the x-faithfulness proof reads, no
longer hold: a change of a target that makes x itself (a register before its first write) or
is fed x is unchecked where a text of the repository names such a mode, proven as before
where none does."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult

pytestmark = pytest.mark.tools

REF = "module r(input clk, input d, input e, output reg q);\n  always @(posedge clk) if (e) q <= d;\nendmodule\n"
CAND = "module r(input clk, input d, input e, output reg q);\n  always @(posedge clk) q <= e ? d : q;\nendmodule\n"


def _evaluate(tmp_path: Path, makefile: str) -> EvalResult:
    (tmp_path / "r.v").write_text(REF)
    (tmp_path / "Makefile").write_text(makefile)
    base = Config()
    cfg = dataclasses.replace(
        base,
        formal=dataclasses.replace(base.formal, timeout_s=60.0),
        eval=EvalConfig(workers=1, cache=False, netlist_check="never"),
    )
    design = load_design(tmp_path / "r.v", "r", cfg.project)
    with Evaluator(design, cfg, tmp_path / "eval", None) as ev:
        return ev.evaluate(CAND)


@pytest.mark.parametrize(
    ("makefile", "unchecked"),
    [("sim:\n\tvcs -sverilog -xprop=tmerge r.v\n", True), ("sim:\n\tvcs -sverilog r.v\n", False)],
)
def test_an_x_propagation_mode_leaves_a_change_unchecked(
    tmp_path: Path, makefile: str, unchecked: bool
) -> None:
    r = _evaluate(tmp_path, makefile)
    said = "Makefile:2: the repository simulates with an x-propagation mode (-xprop)"
    assert (said in r.reason) is unchecked, r.reason
