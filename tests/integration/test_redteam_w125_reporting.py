"""Red-team round 125 (cases 01, 13, 27): a block that only reports, moved to where a
build defining its macro reads it as a branch (``if (0)`` of a generate, ``else if (en)``
of a statement), changed what the other code is read as: ``assign y = a | b`` became
unconditional with ``DBG`` defined, ``q <= d`` ran every cycle with ``CHK``. Such a block is
no reporting block there, so its configuration is proven (refuted); kept between items it
still is none (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import repo_verdict

pytestmark = pytest.mark.tools

REF = (
    'module m (input a, input b, output y);\n`ifdef DBG\n  initial $display("m: debug");\n'
    "`endif\n  assign y = a & b;\nendmodule\n"
)
BRANCH = (
    "module m (input a, input b, output y);\n  if (0)\n`ifdef DBG\n"
    '    initial $display("m: debug");\n`endif\n    assign y = a | b;\n'
    "  assign y = a & b;\nendmodule\n"
)
SEQ = (
    "module m (input clk, input rst, input en, input d, output reg q);\n{block}"
    "  always @(posedge clk) begin\n    if (rst) q <= 1'b0;\n    else if (en)\n{inner}"
    "      q <= d;\n  end\nendmodule\n"
)
CHK = '`ifdef CHK\n  initial $display("m: checks on");\n`endif\n'
ASSERT = "`ifdef CHK\n      assert (d == d);\n`endif\n"


@pytest.mark.parametrize(
    ("reference", "candidate", "accepted"),
    [
        (REF, BRANCH, False),
        (SEQ.format(block=CHK, inner=""), SEQ.format(block=CHK, inner=ASSERT), False),
        (REF, REF.replace("a & b", "b & a"), True),
    ],
    ids=["generate-branch", "statement-branch", "between-items"],
)
def test_a_reporting_block_in_a_branch_is_read_as_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
    candidate: str,
    accepted: bool,
) -> None:
    rc, reason = repo_verdict(tmp_path, monkeypatch, {"m.v": reference}, "m.v", candidate)
    assert (rc == 0) == accepted, reason
