"""Round 63 (held out, on 1b29c1e): the choice of a held asynchronous reset was one per input
port and named by its word characters, so bit 0 of ``rst_n`` held without an event while bit 1
had one, or two ports ``rst__`` and ``rst_$`` (one choice), was never modelled: a candidate
dropping the register only the second reset clears was proven. Now one choice per bit of the
wire driving the pin, named without collisions (``formal/xfaith_held.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.formal.xfaith_held import _choice, _Wire
from tests.integration.test_redteam_w21 import _evaluate

pytestmark = pytest.mark.tools

VECTOR = (
    "module m(input clk, input [1:0] rst_n, input d, output y);\n  reg q1, q2;\n  wire ra = rst_n[0], rb = rst_n[1];\n  always_ff @(posedge clk or negedge ra)\n    if (!ra) q1 <= 1'b0; else q1 <= d;\n  always_ff @(posedge clk or negedge rb)\n    if (!rb) q2 <= 1'b0; else q2 <= d;\n  assign y = (!ra && !rb) ? q2 : q1;\nendmodule\n",
    "module m(input clk, input [1:0] rst_n, input d, output y);\n  reg q1, q2;\n  wire ra = rst_n[0], rb = rst_n[1];\n  always_ff @(posedge clk or negedge ra)\n    if (!ra) q1 <= 1'b0; else q1 <= d;\n  always_ff @(posedge clk or negedge rb)\n    if (!rb) q2 <= 1'b0; else q2 <= d;\n  assign y = q1;\nendmodule\n",
)
DOLLAR = (
    "module m(input clk, input rst__, input rst_$, input d, output y);\n  reg q1, q2;\n  always_ff @(posedge clk or negedge rst__)\n    if (!rst__) q1 <= 1'b0; else q1 <= d;\n  always_ff @(posedge clk or negedge rst_$)\n    if (!rst_$) q2 <= 1'b0; else q2 <= d;\n  assign y = (!rst__ && !rst_$) ? q2 : q1;\nendmodule\n",
    "module m(input clk, input rst__, input rst_$, input d, output y);\n  reg q1, q2;\n  always_ff @(posedge clk or negedge rst__)\n    if (!rst__) q1 <= 1'b0; else q1 <= d;\n  always_ff @(posedge clk or negedge rst_$)\n    if (!rst_$) q2 <= 1'b0; else q2 <= d;\n  assign y = q1;\nendmodule\n",
)


@pytest.mark.parametrize("case", [VECTOR, DOLLAR], ids=["bits_of_one_port", "names_alike"])
def test_two_resets_one_held_one_evented_are_told_apart(
    tmp_path: Path, case: tuple[str, str]
) -> None:
    ref, cand = case
    res = _evaluate(tmp_path, {"m.v": ref}, "m.v", cand)
    assert not res.accepted, res.reason


def test_choices_are_per_bit_and_never_collide() -> None:
    wires = {n: _Wire(n, 2, 0, "input", "") for n in ("\\rst__", "\\rst_$")}
    names = {_choice((n, i), wires) for n in wires for i in (0, 1)}
    assert len(names) == 4, names
