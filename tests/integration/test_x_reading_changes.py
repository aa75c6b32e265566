"""A change that adds an operator reading x as a value (held-out trial 51, alexforencich's
verilog-uart: ``!rxd_reg`` written ``rxd_reg !== 1'b1``, ``if (rst)`` written ``if (rst !==
1'b0)``, ``if (tvalid)`` written as a ``casex``) decides where the reference leaves x, on an
input nothing in the repository feeds x: each was proven. Every input may be x for it now
(``evaluate/_x_readers.py``); a rewrite without such an operator is proven as before (real
tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict, repo_verdict

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


SEL = "module m(input s, input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = {sel} ? a : b;\nendmodule\n"
ISONE = "module isone(input s, output o);\n  assign o = (s === 1'b1);\nendmodule\n"
VIA = (
    "module m(input s, input [3:0] a, input [3:0] b, output [3:0] y);\n  wire t;\n"
    "  isone u(.s(s), .o(t));\n  assign y = t ? a : b;\nendmodule\n"
)
#: Round 121: the operator where the module's own text does not show it, or a count of ones
#: (files of a repository, the reference in m.v, the candidate).
ELSEWHERE = {
    "a-macro-of-the-file": (
        {"m.v": "`define ISONE(s) ((s) === 1'b1)\n" + SEL.format(sel="s")},
        SEL.format(sel="`ISONE(s)"),
    ),
    "a-macro-of-a-header": (
        {
            "m.v": '`include "defs.vh"\n' + SEL.format(sel="s"),
            "defs.vh": "`define SEL(s) ((s) !== 1'b0)\n",
        },
        SEL.format(sel="`SEL(s)"),
    ),
    "a-unit-function": (
        {
            "m.sv": "function automatic logic isone(input logic s);\n  return s === 1'b1;\n"
            "endfunction\n" + SEL.format(sel="s")
        },
        SEL.format(sel="isone(s)"),
    ),
    "a-submodule-of-the-candidate": ({"m.v": SEL.format(sel="s"), "isone.v": ISONE}, VIA),
    "a-submodule-of-the-reference": ({"m.v": VIA, "isone.v": ISONE}, SEL.format(sel="s")),
    # round 123: an operator a macro builds by pasting tokens
    "a-pasted-operator": (
        {
            "m.v": '`include "defs.vh"\n' + SEL.format(sel="s"),
            "defs.vh": "`define EQ3(a,b) a =``=``= b\n",
        },
        SEL.format(sel="`EQ3(s,1'b1)"),
    ),
    "a-count-of-ones": ({"m.v": SEL.format(sel="s")}, SEL.format(sel="$countones(s)")),
    "one-hot": ({"m.v": SEL.format(sel="s")}, SEL.format(sel="$onehot(s)")),
}


@pytest.mark.parametrize("case", sorted(ELSEWHERE))
def test_an_operator_reading_x_outside_the_modules_text_counts(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, candidate = ELSEWHERE[case]
    target = next(iter(files))
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, target, candidate)
    assert rc == 1, reason
    assert "not equivalent" in reason or "reads x as a value otherwise" in reason, reason
