"""x the repository feeds the target only from a register's power-up (no reset, no initial
value: x until its first write, ``frontend/_powerup.py``): the x-faithfulness proof lets the
input be x at every step, so a difference it finds may be one simulation never shows. Such a
difference leaves the change unchecked (rejected, not called refuted); a rewrite that reads x
as the reference does is proven (``evaluate/_xfaith.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.results import Verdict
from tests.integration.test_redteam_w21 import _evaluate
from tests.integration.test_redteam_w36 import MUX, MUX_CAND

pytestmark = pytest.mark.tools

TOP = """module top(input clk, input [7:0] a, input d, output [7:0] y);
  reg r;
  always @(posedge clk) r <= d;
  m u(.a(a), .b(r), .y(y));
endmodule
"""

FAITHFUL = MUX.replace(
    "    if (b) y = a;\n    else y = 8'd0;\n", "    y = 8'd0;\n    if (b) y = a;\n"
)


def test_a_difference_only_power_up_x_shows_leaves_the_change_unchecked(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.v": MUX, "top.v": TOP}, "m.v", MUX_CAND, module="m")
    assert not res.accepted, res.reason
    assert res.formal is not None and res.formal.verdict is Verdict.UNKNOWN, res.formal
    assert "powers up x" in res.reason and "register 'r'" in res.reason, res.reason
    assert "feeds x only from a register's power-up until its first write" in res.reason


def test_a_rewrite_reading_power_up_x_as_the_reference_is_proven(tmp_path: Path) -> None:
    assert FAITHFUL != MUX
    res = _evaluate(tmp_path, {"m.v": MUX, "top.v": TOP}, "m.v", FAITHFUL, module="m")
    assert res.accepted, res.reason
    assert res.formal is not None and res.formal.x_inputs == ("b",), res.formal
