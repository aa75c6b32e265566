"""The x-faithfulness proof of a sequential target pairs registers by next-state function
(``formal/xfaith_pairs.py``), as the 0/1 proofs do: a rewrite that renames its hidden state
closes the induction (before, only registers named alike were paired and the change stayed
unchecked); a pair is proven, never assumed, so a rewrite that reads x otherwise is still
refuted."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

HEAD = "module m(input clk, input rst, input en, input e2, input a, input b, output y, output z);\n"
#: Two held bits whose xor is the output (equal outputs leave them free in an induction
#: step) and a counter that keeps the states of an induction trace distinct.
BODY = (
    "  reg [7:0] c;\n  always @(posedge clk) c <= c + 8'd1;\n  assign z = c[7];\n"
    "  always @(posedge clk) if (rst) R <= 1'b0; else if (en) begin NEXT end\n"
    "  always @(posedge clk) if (rst) S <= 1'b0; else if (e2) S <= a;\n"
    "  assign y = R ^ S;\nendmodule\n"
)
REF = (
    HEAD + "  reg r, s;\n" + BODY.replace("R", "r").replace("S", "s").replace("NEXT", "r <= b & a;")
)
TOP = (
    "module top(input clk, input rst, input en, input e2, input a, output y, output z);\n"
    "  m u(.clk(clk), .rst(rst), .en(en), .e2(e2), .a(a), .b(), .y(y), .z(z));\nendmodule\n"
)


def _renamed(nxt: str) -> str:
    """The reference with ``r``, ``s`` renamed ``q``, ``t`` and ``nxt`` loading ``q``."""
    return HEAD + "  reg q, t;\n" + BODY.replace("NEXT", nxt).replace("R", "q").replace("S", "t")


def test_renamed_registers_are_paired_by_function_and_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, REF, TOP)
    out = _evaluate(tmp_path, repo, _renamed("R <= a & b;"))
    formal = out["formal"]
    assert isinstance(formal, dict)
    assert out["status"] == "ok", out["reason"]
    assert "also where the repository feeds x into b" in str(formal["reason"]), formal


def test_renamed_registers_that_read_x_otherwise_are_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``if (b)`` takes its ``else`` (0) where b is x; the reference's ``b & a`` is x for a = 1."""
    repo = _repo(tmp_path, monkeypatch, REF, TOP)
    out = _evaluate(tmp_path, repo, _renamed("if (b) R <= a; else R <= 1'b0;"))
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into b" in reason, reason
