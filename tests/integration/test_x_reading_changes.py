"""A change that adds an operator reading x as a value (held-out trial 51, alexforencich's
verilog-uart: ``!rxd_reg`` written ``rxd_reg !== 1'b1``, ``if (rst)`` written ``if (rst !==
1'b0)``, ``if (tvalid)`` written as a ``casex``) decides where the reference leaves x, on an
input nothing in the repository feeds x: each was proven. Every input may be x for it now
(``evaluate/_x_readers.py``); a rewrite without such an operator is proven as before (real
tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

MUX = "module m(input a, input [3:0] b, input [3:0] c, output [3:0] y);\n  assign y = !a ? b : c;\nendmodule\n"
REG = (
    "module m(input clk, input rst, input d, output reg q);\n"
    "  always @(posedge clk) if (rst) q <= 1'b0; else q <= !d;\nendmodule\n"
)
WRONG = {
    "not-equal-to-one": (MUX, MUX.replace("!a ?", "(a !== 1'b1) ?")),
    # round 119: the reference's case equality removed
    "case-equality-removed": (MUX.replace("!a ?", "(a === 1'b0) ?"), MUX),
    # round 120: as many, one moved onto an operand it cannot tell apart
    "case-equality-moved": (
        MUX.replace("!a ? b : c", "(a === 1'b0) ? b : c"),
        MUX.replace("!a ? b : c", "(b === b) ? (!a ? b : c) : c"),
    ),
    "reset-not-equal-to-zero": (REG, REG.replace("if (rst)", "if (rst !== 1'b0)")),
    "casex": (
        MUX,
        "module m(input a, input [3:0] b, input [3:0] c, output reg [3:0] y);\n"
        "  always @* casex (a) 1'b1: y = c; default: y = b; endcase\nendmodule\n",
    ),
}


@pytest.mark.parametrize("case", sorted(WRONG))
def test_a_change_reading_x_as_a_value_is_judged_with_every_input_x(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference, candidate = WRONG[case]
    rc, reason = module_verdict(tmp_path, monkeypatch, reference, candidate)
    assert rc == 1, reason
    assert "reads x as a value otherwise" in reason, reason


@pytest.mark.parametrize(
    ("reference", "candidate"),
    [(MUX, MUX.replace("!a ? b : c", "a ? c : b")), (REG, REG.replace("q <= !d", "q <= ~d"))],
    ids=["mux", "register"],
)
def test_a_rewrite_without_one_is_proven(
    reference: str, candidate: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, reference, candidate)
    assert rc == 0, reason
