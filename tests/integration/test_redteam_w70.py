"""Round 70 (held out) through the real evaluation: texts the tools read differently that both
proofs agreed on and the test vectors missed.

* A ``foreach`` over ``logic [7:0] a`` (SystemVerilog view path) reached only on a rare input:
  iverilog runs it from 0 up, slang and synthesis from 7 down (``rtlopt.harness._foreach_order``).
* ``localparam U = 1 << 40;``: iverilog evaluates it losslessly (``2**40``), slang and Yosys at
  32 bits (0) (``rtlopt.harness._wide_constant``).

Both are refused at the screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate
from tests.integration.test_redteam_w69_view_text import _evaluate as _evaluate_view

pytestmark = pytest.mark.tools

ENCODER = (
    "module tgt(input logic [7:0] a, input logic [31:0] k, output logic [3:0] y);\n"
    "  typedef logic [3:0] n_t;\n  always_comb begin\n    y = 4'hf;\n{loop}  end\nendmodule\n"
)
DOWN = "    for (int i = 7; i >= 0; i--)\n      if (a[i]) y = n_t'(i);\n"
RARE = (
    "    if ((k ^ (k >> 7)) == 32'h1234_5678) begin\n      foreach (a[j])\n"
    "        if (a[j]) y = n_t'(j);\n    end else begin\n" + DOWN + "    end\n"
)


def test_a_foreach_reached_on_a_rare_input_is_refused(tmp_path: Path) -> None:
    ref = ENCODER.format(loop=DOWN)
    res = _evaluate_view(tmp_path, ref, ENCODER.format(loop=RARE))
    assert not res.accepted, res.reason
    assert "foreach (a[j])" in res.reason and "iterates [7:0]" in res.reason, res.reason


REF = "module tgt(input [63:0] a, output y);\n  assign y = ((a * 64'd3) == 64'h369d0369d034);\nendmodule\n"


def test_a_parameter_iverilog_evaluates_losslessly_is_refused(tmp_path: Path) -> None:
    cand = REF.replace(
        "  assign y = ((a * 64'd3) == 64'h369d0369d034);",
        "  localparam U = 1 << 40;\n  assign y = ((a * 64'd3) == 64'h369d0369d034 + 3 * U);",
    )
    res = _evaluate(tmp_path, {"tgt.v": REF}, "tgt.v", cand)
    assert not res.accepted, res.reason
    assert "the parameter U has no type or range" in res.reason, res.reason
    ranged = cand.replace("localparam U", "localparam [63:0] U")  # 2**40 in every tool
    res = _evaluate(tmp_path / "ranged", {"tgt.v": REF}, "tgt.v", ranged)
    assert not res.accepted and "no type or range" not in res.reason, res.reason
