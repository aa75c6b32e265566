"""The X-policy proof end to end (``formal/xpolicy.py``): a candidate x where the reference is
defined that the 0/1 proofs cannot see, because they read division as synthesis builds it
(all ones for a zero divisor, x in simulation) or start every proof from reset (a register
only the reset writes is x before the first reset, where the reference already holds data).
Both were accepted before; controls: the same division on both sides, a division by a
nonzero constant, and a rewrite keeping the reset structure stay accepted."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

#: 0 for 2^8 of 2^32 values of b, built from b's bits only (no literal the stimulus mines).
_NZ = "  wire nz = !(b[31:16] == b[15:0] && b[15:8] == ~b[7:0]);\n"
_DIV_PORTS = "module m(input [3:0] a, input [31:0] b, output [3:0] y);\n"
DIV_REF = _DIV_PORTS + _NZ + "  assign y = nz ? a : 4'hf;\nendmodule\n"
#: Equal on 0/1 as synthesis builds it (a / 0 = all ones); x in simulation where nz is 0.
DIV_CAND = _DIV_PORTS + _NZ + "  assign y = a / nz;\nendmodule\n"
MOD_REF = _DIV_PORTS + _NZ + "  assign y = nz ? 4'h0 : a;\nendmodule\n"
MOD_CAND = _DIV_PORTS + _NZ + "  assign y = a % nz;\nendmodule\n"
DIV_TOP = (
    "module top(input [3:0] a, input [31:0] b, output [3:0] y);\n"
    "  m u(.a(a), .b(b), .y(y));\nendmodule\n"
)
#: The reference divides by a value that may be 0 too, at the same place.
SAME_DIV_REF = _DIV_PORTS + "  assign y = a / b[3:0];\nendmodule\n"
SAME_DIV_CAND = _DIV_PORTS + "  wire [3:0] d = b[3:0];\n  assign y = a / d;\nendmodule\n"
#: A division by a nonzero constant (never x).
CONST_REF = _DIV_PORTS + "  assign y = a >> 1;\nendmodule\n"
CONST_CAND = _DIV_PORTS + "  assign y = a / 4'd2;\nendmodule\n"

_SEQ_PORTS = "module m(input clk, input rst, input d, output y);\n"
RESET_REF = (
    _SEQ_PORTS + "  reg q;\n  always @(posedge clk) if (rst) q <= 1'b0; else q <= d;\n"
    "  assign y = q;\nendmodule\n"
)
#: v: written by the reset only, x before it; y = q & v is x where the reference's q is 1.
RESET_AND = (
    _SEQ_PORTS + "  reg q, v;\n"
    "  always @(posedge clk) if (rst) begin q <= 1'b0; v <= 1'b1; end else q <= d;\n"
    "  assign y = q & v;\nendmodule\n"
)
RESET_MUX = RESET_AND.replace("assign y = q & v;", "assign y = v ? q : 1'b0;")
#: A counter only a reset makes defined (x + 1 is x): equal on 0/1 (c == c), x before the reset.
RESET_COUNT = (
    _SEQ_PORTS + "  reg q;\n  reg [1:0] c;\n"
    "  always @(posedge clk) if (rst) begin q <= 1'b0; c <= 2'd0; end\n"
    "    else begin q <= d; c <= c + 2'd1; end\n"
    "  assign y = q & (c == c);\nendmodule\n"
)
#: The same reset structure, written otherwise.
RESET_KEEP = (
    _SEQ_PORTS + "  reg q;\n  always @(posedge clk) q <= rst ? 1'b0 : d;\n"
    "  assign y = q;\nendmodule\n"
)
#: A register only the reset writes that never decides the output: the proof runs, and proves.
RESET_HARMLESS = RESET_AND.replace("assign y = q & v;", "assign y = q & (v | 1'b1);")
SEQ_TOP = (
    "module top(input clk, input rst, input d, output reg z);\n  wire y;\n"
    "  m u(.clk(clk), .rst(rst), .d(d), .y(y));\n"
    "  always @(posedge clk) if (y) z <= 1'b1; else z <= 1'b0;\nendmodule\n"
)


def _verdict(tmp_path: Path, mp: pytest.MonkeyPatch, ref: str, top: str, cand: str) -> str:
    out = _evaluate(tmp_path, _repo(tmp_path, mp, ref, top), cand)
    formal = out.get("formal")
    proof = formal.get("reason") if isinstance(formal, dict) else None
    return f"{out['status']} {out.get('stage')}: {out.get('reason')} (formal: {proof})"


@pytest.mark.parametrize(
    ("ref", "cand"), [(DIV_REF, DIV_CAND), (MOD_REF, MOD_CAND)], ids=["div", "mod"]
)
def test_a_division_by_a_value_that_may_be_0_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str
) -> None:
    said = _verdict(tmp_path, monkeypatch, ref, DIV_TOP, cand)
    assert said.startswith("invalid formal"), said
    # refuted by the internal-x proof (x-exact) or the X-policy proof, whichever comes first
    assert (
        "divides by a value that may be 0" in said
        or "division by a value" in said
        or ("modulo by a value" in said)
    ), said
    assert "b=" in said, said  # the counterexample


@pytest.mark.parametrize(
    ("ref", "cand"), [(SAME_DIV_REF, SAME_DIV_CAND), (CONST_REF, CONST_CAND)], ids=["same", "const"]
)
def test_a_division_the_reference_has_or_by_a_constant_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str
) -> None:
    said = _verdict(tmp_path, monkeypatch, ref, DIV_TOP, cand)
    assert said.startswith("ok"), said
    if ref is SAME_DIV_REF:  # the proof ran (a divisor that may be 0) and proved it
        assert "proven, also where the candidate divides by a value that may be 0" in said, said


@pytest.mark.parametrize(
    ("cand", "held"),
    [(RESET_AND, "v[0]"), (RESET_MUX, "v[0]"), (RESET_COUNT, "c[0]")],
    ids=["and", "mux", "count"],
)
def test_a_register_only_the_reset_makes_defined_is_unchecked_before_the_first_reset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: str, held: str
) -> None:
    said = _verdict(tmp_path, monkeypatch, RESET_REF, SEQ_TOP, cand)
    assert said.startswith("invalid formal: unchecked: "), said
    assert "differs before the first reset" in said and held in said, said
    assert "counterexample from power-up" in said and "rst@1=0" in said, said


@pytest.mark.parametrize("cand", [RESET_KEEP, RESET_HARMLESS], ids=["keep", "harmless"])
def test_a_rewrite_keeping_the_reset_structure_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: str
) -> None:
    said = _verdict(tmp_path, monkeypatch, RESET_REF, SEQ_TOP, cand)
    assert said.startswith("ok"), said
    if cand is RESET_HARMLESS:  # the proof ran (v is written by the reset only) and proved it
        assert "proven, also before the first reset" in said, said
