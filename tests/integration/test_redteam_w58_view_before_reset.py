"""Before the first reset on the SystemVerilog view path (round 58): a register with a reset
and no initial value is x from power-up until its first write, and a candidate that reads it
otherwise then (``if (r)`` takes ``else``: 0 where the reference's ``y = r`` is x) was
accepted on the view path, where the x-exact proof read slang's synthesized views (an ``if``
lowered to a ``?:`` that merges x). The proof from power-up with the resets free now reads
procedural views there (``read_slang --no-proc``: ``if`` and ``case`` kept as the text reads
x): the round-52 forms are "unchecked: differs before the first reset" as on the Verilog
path, and rewrites that read the register alike stay accepted. What the procedural views
still read otherwise than the text fails closed: ``casex`` (written as ``casez``) and 2-state
variables (a ``bit`` powers up 0 in simulation, x in the view)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult
from tests.integration.test_redteam_w52_before_reset import (
    CASE_R,
    COUNT_CAND,
    COUNT_REF,
    FSM_CAND,
    FSM_REF,
    IF_AB,
    IF_R,
    KEEP,
    MUX_AB,
    PIPE_CAND,
    PIPE_REF,
    REF,
)

pytestmark = pytest.mark.tools

#: A package import in the header: SystemVerilog only Yosys 0.23 and iverilog 11 cannot read.
PKG = "package p;\n  localparam logic ONE = 1'b1;\nendpackage\n"


#: ``casex`` on x matches its ``1'b1`` item (y = 1) where the candidate's ``if`` takes
#: ``else`` (0); the views write ``casez`` (x takes the default: 0, as the candidate).
CASEX_REF = IF_R.replace(
    "always_comb if (r) y = 1'b1; else y = 1'b0;",
    "always_comb casex (r) 1'b1: y = 1'b1; default: y = 1'b0; endcase",
)
#: A cast to the 2-state ``bit`` turns r's x into 0 in simulation (y = 0 where the
#: candidate's is x); the views read it as r itself (x on both sides).
BIT_REF = REF.replace("  assign y = r;", "  assign y = bit'(r);")


#: A latch-based clock gate cell (cv32e40p's): its latch passes its data's x while the clock
#: is low (a defined enable).
GATE = (
    "module cg(input logic clk_i, input logic en_i, output logic clk_o);\n  logic clk_en;\n"
    "  always_latch if (clk_i == 1'b0) clk_en <= en_i;\n  assign clk_o = clk_i & clk_en;\n"
    "endmodule\n"
)
#: A sleep unit: a sticky enable with a reset gates the clock (x until the reset).
_SLEEP = (
    "module m(input logic clk, input logic rst_n, input logic fe, output logic y,"
    " output logic gclk);\n  logic q;\n"
    "  always_ff @(posedge clk, negedge rst_n)\n"
)
SLEEP_REF = (
    _SLEEP + "    if (!rst_n) q <= 1'b0; else if (fe) q <= 1'b1;\n"
    "  cg u(.clk_i(clk), .en_i(q), .clk_o(gclk));\n  assign y = q;\nendmodule\n"
)
#: The sticky enable as an or, the reset branch inverted (cv32e40p_sleep_unit's rewrite).
SLEEP_OR = SLEEP_REF.replace(
    "if (!rst_n) q <= 1'b0; else if (fe) q <= 1'b1;", "if (rst_n) q <= q | fe; else q <= 1'b0;"
)
#: The gate's enable read by an ``if`` (0 where q is x, before the reset).
SLEEP_IF = SLEEP_REF.replace(
    "cg u(.clk_i(clk), .en_i(q), .clk_o(gclk));",
    "logic e;\n  always_comb if (q) e = 1'b1; else e = 1'b0;\n"
    "  cg u(.clk_i(clk), .en_i(e), .clk_o(gclk));",
)


def _sv(module: str) -> str:
    """``module`` with a package import in its header (read through the view)."""
    return module.replace("module m(", "module m import p::*; (", 1)


def _evaluate(tmp: Path, ref: str, cand: str) -> EvalResult:
    repo = tmp / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    (repo / "p.sv").write_text(PKG)
    (repo / "cg.sv").write_text(GATE)
    (repo / "m.sv").write_text(_sv(ref))
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, random_vectors=100, initial_values="ignore"),
        flow=dataclasses.replace(base.flow, systemverilog="slang"),
    )
    design = load_design(repo / "m.sv", "m", cfg.project)
    with Evaluator(design, cfg, tmp / "scratch", None) as ev:
        return ev.evaluate(_sv(cand))


def _assert_unchecked(res: EvalResult, why: str) -> None:
    """``res`` is not accepted but "unchecked", for the reason ``why``."""
    assert not res.accepted, res.reason
    assert res.reason.startswith("unchecked: ") and why in res.reason, res.reason


@pytest.mark.parametrize(
    ("ref", "cand"),
    [(REF, IF_R), (REF, CASE_R), (IF_AB, MUX_AB), (FSM_REF, FSM_CAND), (SLEEP_REF, SLEEP_IF)],
    ids=["if", "case", "mux", "fsm", "clock-gate"],
)
def test_a_reset_register_read_otherwise_before_its_reset_is_not_accepted_on_the_view(
    tmp_path: Path, ref: str, cand: str
) -> None:
    res = _evaluate(tmp_path, ref, cand)
    assert not res.accepted, res.reason
    assert res.reason.startswith("unchecked: "), res.reason
    # the procedural latch holds an x constant (its data where the clock is high): the
    # target makes x itself then, and the difference is named so
    said = "found a difference from power-up" if ref is SLEEP_REF else "differs before"
    assert said in res.reason and "counterexample" in res.reason, res.reason


@pytest.mark.parametrize(
    ("ref", "cand"),
    [(REF, KEEP), (PIPE_REF, PIPE_CAND), (COUNT_REF, COUNT_CAND), (SLEEP_REF, SLEEP_OR)],
    ids=["keep", "pipeline", "counter", "clock-gate"],
)
def test_a_rewrite_reading_the_reset_register_alike_is_accepted_on_the_view(
    tmp_path: Path, ref: str, cand: str
) -> None:
    res = _evaluate(tmp_path, ref, cand)
    assert res.accepted, res.reason
    assert "also before the first reset" in (res.formal.reason if res.formal else ""), res


@pytest.mark.parametrize(
    ("ref", "cand", "why"),
    # dropping the reference's casex reads x otherwise too (wave 51): every input may be x
    [(CASEX_REF, IF_R, "casex (the reference's line"), (BIT_REF, REF, "holds a 2-state type")],
    ids=["casex", "bit"],
)
def test_what_the_procedural_views_read_otherwise_fails_closed(
    tmp_path: Path, ref: str, cand: str, why: str
) -> None:
    _assert_unchecked(_evaluate(tmp_path, ref, cand), why)


#: Round 58's second round: what slang lowers otherwise than a simulator reads the text, each
#: on a 2-bit state ``s`` with a reset (x until the reset). A write at an x index: iverilog
#: skips it (y = 0), the views mask every bit (x).
_S = (
    "module m(input logic clk, input logic rst, input logic [1:0] d, output logic [3:0] y);\n"
    "  logic [1:0] s;\n  always_ff @(posedge clk) if (rst) s <= 2'd0; else s <= d;\n"
)
XWRITE_REF = _S + "  always_comb begin y = 4'd0; y[s] = 1'b1; end\nendmodule\n"
XWRITE_CAND = _S + "  assign y = {s == 2'd3, s == 2'd2, s == 2'd1, s == 2'd0};\nendmodule\n"
#: A read at an x index: x in iverilog, a ``?:`` tree in the views (1 where every bit is 1).
XREAD_REF = _S + "  localparam logic [3:0] HI = 4'hf;\n  assign y = {3'd0, HI[s]};\nendmodule\n"
XREAD_CAND = _S + "  assign y = 4'd1;\nendmodule\n"
#: ``$countones`` ignores x bits in iverilog (0), an adder in the views (x).
COUNT1_REF = _S + "  assign y = {2'd0, $countones(s)};\nendmodule\n"
COUNT1_CAND = _S + "  assign y = {3'd0, s[0]} + {3'd0, s[1]};\nendmodule\n"
#: A loop variable written in the body: ``int`` turns x into 0 in iverilog.
LOOPW_CAND = _S + (
    "  always_comb begin\n    y = 4'd0;\n"
    "    for (int i = 0; i < 1; i++) begin i = s; y = i[3:0]; i = 1; end\n  end\nendmodule\n"
)
LOOPW_REF = _S + "  assign y = {2'd0, s};\nendmodule\n"
#: Control: a loop's own variable as an index is a constant of each iteration.
LOOP_REF = _S + (
    "  always_comb for (int i = 0; i < 2; i++) begin y[i] = s[1 - i]; y[i + 2] = 1'b0; end\n"
    "endmodule\n"
)
LOOP_CAND = _S + "  assign y = {2'd0, s[0], s[1]};\nendmodule\n"


@pytest.mark.parametrize(
    ("ref", "cand", "why"),
    [
        (XWRITE_REF, XWRITE_CAND, "index that is not a constant (s)"),
        (XREAD_REF, XREAD_CAND, "index that is not a constant (s)"),
        (COUNT1_REF, COUNT1_CAND, "$countones"),
        (LOOPW_REF, LOOPW_CAND, "loop variable (i) written"),
    ],
    ids=["write-at-x-index", "read-at-x-index", "countones", "loop-variable-written"],
)
def test_what_slang_lowers_otherwise_leaves_the_change_unchecked(
    tmp_path: Path, ref: str, cand: str, why: str
) -> None:
    _assert_unchecked(_evaluate(tmp_path, ref, cand), why)


def test_a_loop_variable_index_is_a_constant(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, LOOP_REF, LOOP_CAND)
    assert res.accepted, res.reason
    assert "also before the first reset" in (res.formal.reason if res.formal else ""), res


#: Round 59: a range inside the index (a select of the state).
XRANGE_REF = (
    _S + "  localparam logic [3:0] HI = 4'hf;\n  assign y = {3'd0, HI[s[1:0]]};\nendmodule\n"
)
#: A register the synthesized view folds away (``q & ~q`` is 0 there, x in simulation until
#: q's first write): the procedural views keep it.
FOLD_REF = _S + "  assign y = 4'd0;\nendmodule\n"
FOLD_CAND = _S + (
    "  logic q;\n  always_ff @(posedge clk) if (d[0]) q <= d[1];\n"
    "  assign y = {3'd0, q & ~q};\nendmodule\n"
)


@pytest.mark.parametrize(
    ("ref", "cand", "why"),
    [
        (XRANGE_REF, XREAD_CAND, "index that is not a constant (s)"),
        (FOLD_REF, FOLD_CAND, "q before its first write"),
    ],
    ids=["range-in-index", "folded-register"],
)
def test_round_59_forms_leave_the_change_unchecked(
    tmp_path: Path, ref: str, cand: str, why: str
) -> None:
    _assert_unchecked(_evaluate(tmp_path, ref, cand), why)
