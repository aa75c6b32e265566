"""A ``defparam`` in a branch another build reads, end to end through ``evaluate``: one on a
vendor primitive's instance (hdl-util/hdmi's ``serializer.sv``) leaves an equivalent change
accepted; one on a parent's parameter that reaches the target leaves it unchecked (red team
w33 F1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate
from tests.unit.evaluate.test_defparam_paths import MID, SER

pytestmark = pytest.mark.tools

M = """module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);
  assign y = a + K;
endmodule
"""
#: Equivalent at every K.
CAND = M.replace("a + K", "K + a")


def _top(body: str) -> str:
    return (
        "module top(input clk, input [7:0] a, output [7:0] y, output o);\n"
        f"  mid mu(.a(a), .y(y));\n  ser s(.clk(clk), .a(a), .o(o));\n{body}endmodule\n"
    )


def test_a_vendor_primitives_defparam_in_another_build_leaves_the_change_checked(
    tmp_path: Path,
) -> None:
    files = {"m.v": M, "mid.v": MID, "ser.v": SER, "top.v": _top("")}
    res = _evaluate(tmp_path, files, "m.v", CAND)
    assert res.accepted, res.reason


def test_a_parents_defparam_in_another_build_leaves_the_change_unchecked(tmp_path: Path) -> None:
    top = _top("`ifdef SIMULATION\n  defparam mu.P = 8'd200;\n`endif\n")
    files = {"m.v": M, "mid.v": MID, "ser.v": SER, "top.v": top}
    res = _evaluate(tmp_path, files, "m.v", CAND)
    assert not res.accepted and res.reason.startswith("unchecked: top.v:5:"), res.reason
    assert "holds a defparam (mu.P) on mid, which is or may hold an instance of m" in res.reason
