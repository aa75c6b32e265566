"""Red team round 41 (held out), X5: simulation time 0. ``assign y = ~a;`` rewritten as
``always @* y = ~a;`` is equal on 0/1 and in rtlopt's simulation (it changes every input),
but the block runs only on an event of ``a``: the repository's ``reg a = 1'b1;`` makes none
under SystemVerilog (iverilog -g2012), so its ``y`` stays x until ``a`` first changes, where
the reference's is 0. It was accepted; now it is unchecked (``evaluate/_time_zero.py``), and
so is the reverse. Controls: the same rewrite where the repository changes ``a`` at time 0
(a testbench's ``initial``), and an unchanged ``always @*`` beside a rewritten ``assign``."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_xfaith import _check, _evaluate, _repo

pytestmark = pytest.mark.tools

ASSIGN = "module m(input a, output y);\n  assign y = ~a;\nendmodule\n"
AT_STAR = "module m(input a, output reg y);\n  always @* y = ~a;\nendmodule\n"
#: ``a`` holds its initializer until the first clock edge: no event at time 0
INITIALIZED = (
    "module top(input clk, output y);\n  reg a = 1'b1;\n  always @(posedge clk) a <= ~a;\n"
    "  m u(.a(a), .y(y));\nendmodule\n"
)
#: a testbench sets ``a`` at time 0 (an event)
TESTBENCH = (
    "module tb;\n  reg a; wire y;\n  initial begin a = 1'b1; #5 a = 1'b0; end\n"
    "  m u(.a(a), .y(y));\nendmodule\n"
)


@pytest.mark.parametrize(
    ("ref", "cand", "side"),
    [(ASSIGN, AT_STAR, "candidate"), (AT_STAR, ASSIGN, "reference")],
    ids=["assign_to_always_at_star", "always_at_star_to_assign"],
)
def test_a_change_time_0_tells_apart_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str, side: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, ref, INITIALIZED)
    out = _evaluate(tmp_path, repo, cand)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert f"unchecked: the {side}'s always @* block of m at line 2" in reason, reason
    assert "simulation time 0" in reason, reason


def test_the_gate_refuses_it_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path, monkeypatch, ASSIGN, INITIALIZED)
    r = _check(repo, AT_STAR)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "always @* block of m at line 2" in r.stdout, r.stdout


@pytest.mark.parametrize(
    ("ref", "cand", "top"),
    [
        (AT_STAR, ASSIGN, TESTBENCH),
        (
            "module m(input a, input b, output reg y, output z);\n  always @* y = ~a;\n"
            "  assign z = ~b;\nendmodule\n",
            "module m(input a, input b, output reg y, output z);\n  always @* y = ~a;\n"
            "  assign z = !b;\nendmodule\n",
            "module top(input clk, output y, z);\n  reg a = 1'b1;\n"
            "  always @(posedge clk) a <= ~a;\n  m u(.a(a), .b(clk), .y(y), .z(z));\nendmodule\n",
        ),
    ],
    ids=["changed_at_time_0", "same_block_on_both_sides"],
)
def test_a_rewrite_time_0_does_not_tell_apart_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str, top: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, ref, top)
    out = _evaluate(tmp_path, repo, cand)
    assert out["status"] == "ok", out["reason"]


def test_what_the_repository_changes_at_time_0_a_testbench_outside_may_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 65: the repository's testbench changes ``a`` at time 0, but a testbench outside
    it (or one the configuration leaves out) may instantiate ``m`` and hold ``a``."""
    repo = _repo(tmp_path, monkeypatch, ASSIGN, TESTBENCH)
    out = _evaluate(tmp_path, repo, AT_STAR)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and "may instantiate the module itself" in reason, reason


def test_a_broken_rewrite_is_still_refuted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The time-0 rule is judged once the proofs pass: a broken change keeps its
    counterexample."""
    repo = _repo(tmp_path, monkeypatch, ASSIGN, INITIALIZED)
    out = _evaluate(tmp_path, repo, AT_STAR.replace("~a", "a"))
    assert out["status"] == "invalid" and out["stage"] == "simulation", out["reason"]


#: ``t`` copies ``clk`` in a block that also waits for ``b``: the repository holds ``clk`` at 1
#: (its initializer) and changes ``b`` first, so ``t`` goes from x to 1, a rising edge of the
#: register ``r`` clocks that the proofs' ``t = clk`` never has (``h``, on ``clk``, stays 0)
CLOCKED = """module m(input clk, input rst_n, input b, output y, output z);
  reg t;
  always @(clk or b) t = clk;
  reg r;
  always @(posedge t or negedge rst_n)
    if (!rst_n) r <= 1'b0;
    else r <= 1'b1;
  reg q;
  always @(posedge clk or negedge rst_n)
    if (!rst_n) q <= 1'b0;
    else q <= b;
  assign y = r;
  assign z = q;
endmodule
"""
HELD_CLOCK = """module top(input clk, output y, output z);
  reg mclk = 1'b1;
  reg [1:0] cnt = 2'd0;
  reg b = 1'b0;
  wire rst_n = (cnt != 2'd1);
  always @(posedge clk) if (cnt != 2'd3) cnt <= cnt + 2'd1;
  always @(negedge clk) if (cnt == 2'd3) b <= ~b;
  m u(.clk(mclk), .rst_n(rst_n), .b(b), .y(y), .z(z));
endmodule
"""


def test_a_register_clocked_by_a_late_output_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Accepted before (a register a late block clocks was no reader of it, so what reads
    the register was not compared): under iverilog -g2012 the repository's y is 1 from the
    late block's first event on, the candidate's 0 (``h`` never clocked)."""
    repo = _repo(tmp_path, monkeypatch, CLOCKED, HELD_CLOCK)
    cand = CLOCKED.replace("  reg q;", "  reg h;\n  always @(posedge clk or negedge rst_n)\n"
        "    if (!rst_n) h <= 1'b0;\n    else h <= 1'b1;\n  reg q;").replace(
        "assign y = r;", "assign y = r & h;")  # fmt: skip
    out = _evaluate(tmp_path, repo, cand)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "unchecked" in reason and "clocked by t at line 5" in reason, reason
