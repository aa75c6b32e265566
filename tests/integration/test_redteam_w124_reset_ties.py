"""Held-out red-team round 124: where the repository ties a reset inactive (``.rst(1'b0)``),
the module runs from its power-up state and the proofs must not force the reset first. The
SAT plan dropped the tied reset, but the ABC engines' plan forced it, and proved changes wrong
only from power-up states the reset never leaves: a mod-10 counter whose unused states 10-15
count on (57), a next state reading a register only the reset writes (59, and 62 with an
asynchronous reset). Each is now rejected; an equivalent rewrite is still proven (real
tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import repo_verdict

pytestmark = pytest.mark.tools

TOP = "module top (input clk, output [3:0] y);\n  m u (.clk(clk), .rst(1'b0), .y(y));\nendmodule\n"
COUNTER = (
    "module m (input clk, input rst, output [3:0] y);\n  reg [3:0] q;\n"
    "  always @(posedge clk) if (rst) q <= 4'd0; else q <= {next};\n  assign y = q;\nendmodule\n"
)
STUCK = (
    "module m (input clk, input rst, output [3:0] y);\n  reg [3:0] q;\n  reg inv;\n"
    "  always @({edge}) if (rst) q <= 4'd0; else q <= (q + 4'd1) ^ {{4{{inv}}}};\n"
    "  always @({edge}) if (rst) inv <= 1'b0;\n  assign y = q;\nendmodule\n"
)
MOD10 = "(q == 4'd9) ? 4'd0 : q + 4'd1"


@pytest.mark.parametrize(
    ("reference", "candidate", "accepted"),
    [
        (COUNTER.format(next=MOD10), COUNTER.format(next="(4'd9 == q) ? 4'd0 : 4'd1 + q"), True),
        (COUNTER.format(next=MOD10), COUNTER.format(next="(q >= 4'd9) ? 4'd0 : q + 4'd1"), False),
        (
            COUNTER.format(next="q + 4'd1"),
            STUCK.format(edge="posedge clk"),
            False,
        ),
        (
            COUNTER.format(next="q + 4'd1").replace("posedge clk)", "posedge clk or posedge rst)"),
            STUCK.format(edge="posedge clk or posedge rst"),
            False,
        ),
    ],
    ids=["equivalent", "unused-states-differ", "reset-only-register", "async-reset-only-register"],
)
def test_a_tied_reset_is_not_forced_by_any_engine(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
    candidate: str,
    accepted: bool,
) -> None:
    files = {"m.v": reference, "top.v": TOP}
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "m.v", candidate)
    assert (rc == 0) == accepted, reason
