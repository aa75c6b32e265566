"""A register with a reset and no initial value, read otherwise before its first reset (round
52, F6): in simulation it is x from power-up until its first write, reset or data, whether or
not it has a reset, and what the target computes from it then is what the repository sees
where it reads the target before resetting it. Every proof but the X policy's forces the reset
in the first step, and the x-exact proof named only registers without a reset as x sources:
a candidate reading ``r`` with an ``if`` (x takes ``else``: 0 where the reference's ``y = r``
is x) was accepted. The x-exact proof now also runs from power-up with the resets free where a
register with a reset has no initial value (``formal/xfaith_sources.py`` ``early_registers``,
``evaluate/_xfaith.py``); a difference found only there is "unchecked: differs before the
first reset". Controls: ``y = r`` written otherwise, a pipeline and a counter with a reset stay
accepted."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

_PORTS = "module m(input clk, input rst, input d, output y);\n"
_REG = "  reg r;\n  always @(posedge clk) if (rst) r <= 1'b0; else r <= d;\n"
REF = _PORTS + _REG + "  assign y = r;\nendmodule\n"
#: The red team's reproducer: ``if (r)`` on x takes ``else`` (0 where the reference is x).
IF_R = (
    "module m(input clk, input rst, input d, output reg y);\n" + _REG
    + "  always_comb if (r) y = 1'b1; else y = 1'b0;\nendmodule\n"
)  # fmt: skip
#: A ``case`` on x takes its default.
CASE_R = IF_R.replace(
    "always_comb if (r) y = 1'b1; else y = 1'b0;",
    "always_comb case (r) 1'b1: y = 1'b1; default: y = 1'b0; endcase",
)
#: The reference's ``if`` on r picks b; the candidate's ``?:`` merges a and b (x where they
#: differ).
_AB = "module m(input clk, input rst, input d, input a, input b, output reg y);\n"
IF_AB = _AB + _REG + "  always @* if (r) y = a; else y = b;\nendmodule\n"
MUX_AB = _AB + _REG + "  always @* y = r ? a : b;\nendmodule\n"
#: An FSM with a reset: its state is x until the reset (or the default's first clock); the
#: candidate reads it by a ``case`` without default after a default assignment (0 on x).
_FSM = (
    "module m(input clk, input rst, input go, output reg y);\n  reg [1:0] s;\n"
    "  always @(posedge clk)\n    if (rst) s <= 2'd0;\n"
    "    else case (s) 2'd0: if (go) s <= 2'd1; 2'd1: s <= 2'd2; default: s <= 2'd0; endcase\n"
)
FSM_REF = _FSM + "  always @* y = (s == 2'd2);\nendmodule\n"
FSM_CAND = _FSM + "  always @* begin y = 1'b0; case (s) 2'd2: y = 1'b1; endcase end\nendmodule\n"

#: Controls: y = r written otherwise (x read alike).
KEEP = (
    _PORTS + "  reg r;\n  always @(posedge clk) r <= rst ? 1'b0 : d;\n  assign y = r;\nendmodule\n"
)
_PIPE = "module m(input clk, input rst, input [3:0] d, output [3:0] y);\n  reg [3:0] p, q;\n"
PIPE_REF = (
    _PIPE + "  always @(posedge clk) if (rst) p <= 4'd0; else p <= d;\n"
    "  always @(posedge clk) if (rst) q <= 4'd0; else q <= p;\n  assign y = q ^ 4'd5;\nendmodule\n"
)
PIPE_CAND = (
    _PIPE + "  always @(posedge clk) begin\n    if (rst) {q, p} <= 8'd0; else {q, p} <= {p, d};\n"
    "  end\n  assign y = {q[3], ~q[2], q[1], ~q[0]};\nendmodule\n"
)
_COUNT = "module m(input clk, input rst, input en, output [2:0] y);\n  reg [2:0] c;\n"
COUNT_REF = (
    _COUNT + "  always @(posedge clk) if (rst) c <= 3'd0; else if (en) c <= c + 3'd1;\n"
    "  assign y = c;\nendmodule\n"
)
COUNT_CAND = (
    _COUNT + "  always @(posedge clk) c <= rst ? 3'd0 : c + {2'b0, en};\n"
    "  assign y = c;\nendmodule\n"
)


def _top(module: str) -> str:
    """A top that drives every input of ``module`` (defined: no x-fed input)."""
    head = module.split(");", 1)[0].split("(", 1)[1]
    ports = [p.split()[-1] for p in head.split(",")]
    decl = ", ".join(f"{'output' if p.strip().startswith('output') else 'input'} "
                     f"{'[3:0] ' if '[3:0]' in p else '[2:0] ' if '[2:0]' in p else ''}{n}"
                     for p, n in zip(head.split(","), ports, strict=True))  # fmt: skip
    conns = ", ".join(f".{n}({n})" for n in ports)
    return f"module top({decl});\n  m u({conns});\nendmodule\n"


def _verdict(tmp_path: Path, mp: pytest.MonkeyPatch, ref: str, cand: str) -> str:
    out = _evaluate(tmp_path, _repo(tmp_path, mp, ref, _top(ref)), cand)
    formal = out.get("formal")
    proof = formal.get("reason") if isinstance(formal, dict) else None
    return f"{out['status']} {out.get('stage')}: {out.get('reason')} (formal: {proof})"


@pytest.mark.parametrize(
    ("ref", "cand"),
    [(REF, IF_R), (REF, CASE_R), (IF_AB, MUX_AB), (FSM_REF, FSM_CAND)],
    ids=["if", "case", "mux", "fsm"],
)
def test_a_reset_register_read_otherwise_before_its_reset_is_not_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str
) -> None:
    said = _verdict(tmp_path, monkeypatch, ref, cand)
    assert said.startswith("invalid formal: unchecked: "), said
    assert "differs before the first reset" in said, said
    assert "counterexample from power-up" in said, said


@pytest.mark.parametrize(
    ("ref", "cand"),
    [(REF, KEEP), (PIPE_REF, PIPE_CAND), (COUNT_REF, COUNT_CAND)],
    ids=["keep", "pipeline", "counter"],
)
def test_a_rewrite_reading_the_reset_register_alike_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str
) -> None:
    said = _verdict(tmp_path, monkeypatch, ref, cand)
    assert said.startswith("ok"), said
    assert "also before the first reset" in said, said
