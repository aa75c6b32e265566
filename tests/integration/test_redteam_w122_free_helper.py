"""Red-team round 122 (cases 10, 11): a value parameter moved into a helper module
(``addk #(.K(W))``) was unchecked: freed, W is an input and the instance's parameter could
not bind it. The freed proof now reads a copy of the helper with K freed too, connected to W
(``frontend/_param_free_inst.py``); a helper wrong at one value of W is refuted there (real
tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import repo_verdict

pytestmark = pytest.mark.tools

TOP = "module top #(parameter integer W = 8) (input [31:0] x, output [31:0] y);\n{body}endmodule\n"
HELPER = (
    "module addk #(parameter integer K = 8) (input [31:0] x, output [31:0] y);\n"
    "  assign y = {y};\nendmodule\n"
)


@pytest.mark.parametrize(
    ("helper", "where", "accepted"),
    [
        ("x + K", "candidate", True),
        ("x + K", "repository", True),
        ("x + K + (K == 12345 ? 1 : 0)", "candidate", False),
    ],
    ids=["helper-in-the-candidate", "helper-in-the-repository", "wrong-at-one-value"],
)
def test_a_value_moved_into_a_helper_is_proven_for_every_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, helper: str, where: str, accepted: bool
) -> None:
    files = {"top.v": TOP.format(body="  assign y = x + W;\n")}
    cand = TOP.format(body="  addk #(.K(W)) u (.x(x), .y(y));\n")
    if where == "repository":
        files["addk.v"] = HELPER.format(y=helper)
    else:
        cand += HELPER.format(y=helper)
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "top.v", cand)
    assert (rc == 0) == accepted, reason
    if not accepted:
        assert "with parameter W free" in reason and "W=00000000000000000011000000111001" in reason
