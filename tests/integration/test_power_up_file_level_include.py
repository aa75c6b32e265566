"""A header included at file level, above the module (ibex's ``include "prim_assert.sv"``), is
read with the file: it states no power-up value of the target unless it declares a module.
Only an ``include`` inside the module leaves the power-up values of a changed candidate
uncompared (``evaluate/_power_up.py``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult

pytestmark = pytest.mark.tools

#: Assertion macros as prim_assert.sv writes them: a guard, conditionals, "module" in comments.
HEADER = """// Assertion macros. They can be called as a module body item.
`ifndef ASSERT_SVH
`define ASSERT_SVH
`ifdef FORMAL_TOOL
  `define ASSERT_NEVER(name, p) name: assert property (@(posedge clk_i) !(p));
`else
  `define ASSERT_NEVER(name, p)
`endif
`endif
"""

REF = """`include "assert_macros.svh"

module cnt (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       en_i,
  output logic [3:0] q_o
);
  logic [3:0] q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q <= '0;
    else if (en_i) q <= q + 4'd1;
  end
  assign q_o = q;
  `ASSERT_NEVER(NoWrap, q == 4'hf && en_i && 1'b0)
endmodule
"""

#: The same counter written another way (an adder on a one-bit extension of the enable).
CAND = REF.replace("else if (en_i) q <= q + 4'd1;", "else q <= q + {3'd0, en_i};")


def _evaluate(tmp: Path, ref: str, cand: str) -> EvalResult:
    repo = tmp / "repo"
    (repo / "inc").mkdir(parents=True)
    (repo / "inc" / "assert_macros.svh").write_text(HEADER)
    (repo / "cnt.sv").write_text(ref)
    cfg = Config()
    cfg = dataclasses.replace(
        cfg,
        project=dataclasses.replace(cfg.project, include_dirs=("inc",)),
        harness=dataclasses.replace(cfg.harness, sim_timeout_s=30.0, random_vectors=100),
        formal=dataclasses.replace(cfg.formal, timeout_s=60.0),
    )
    design = load_design(repo / "cnt.sv", "cnt", cfg.project, root=repo)
    with Evaluator(design, cfg, tmp / "scratch", None) as ev:
        return ev.evaluate(cand)


def test_a_rewrite_below_a_file_level_header_of_macros_is_proven(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, REF, CAND)
    assert res.accepted, res.reason
    assert "power-up" not in res.reason, res.reason


def test_the_same_header_included_inside_the_module_is_still_not_compared(
    tmp_path: Path,
) -> None:
    inside = REF.replace('`include "assert_macros.svh"\n', "").replace(
        "  logic [3:0] q;", '  `include "assert_macros.svh"\n  logic [3:0] q;'
    )
    res = _evaluate(tmp_path, inside, _moved(inside))
    assert not res.accepted
    assert "included inside the module may state one" in res.reason, res.reason


def _moved(inside: str) -> str:
    return inside.replace("else if (en_i) q <= q + 4'd1;", "else q <= q + {3'd0, en_i};")
