"""Round 69 (held out) through the real evaluation: a memory written at a 40-bit index that
iverilog reads at 32 bits (``rtlopt.harness._wide_index``) is refused at the screen, before
any proof that reads the index whole could call it equivalent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

pytestmark = pytest.mark.tools

REF = (
    "module tgt(input clk, input we, input [39:0] addr, input [7:0] d, input [2:0] ra,\n"
    "  output [7:0] q);\n  reg [7:0] mem [0:7];\n  wire [39:0] a = addr ^ 40'h12_5abc_def0;\n"
    "  always @(posedge clk)\n    if (we && a < 40'd8) mem[a[2:0]] <= d;\n"
    "  assign q = mem[ra];\nendmodule\n"
)


def test_a_write_at_an_index_simulation_reads_at_32_bits_is_refused(tmp_path: Path) -> None:
    cand = REF.replace("if (we && a < 40'd8) mem[a[2:0]] <= d;", "if (we) mem[a] <= d;")
    res = _evaluate(tmp_path, {"tgt.v": REF}, "tgt.v", cand)
    assert not res.accepted and "the index of mem[a] is 40 bits wide" in res.reason, res.reason
    guarded = REF.replace("a < 40'd8", "a[39:3] == 37'd0")  # the same guard, written otherwise
    res = _evaluate(tmp_path / "ok", {"tgt.v": REF}, "tgt.v", guarded)
    assert res.accepted, res.reason


PARAM_REF = (
    "module tgt #(parameter W = 8) (input clk, input we, input [W-1:0] a, input [7:0] d,\n"
    "  input [2:0] ra, output [7:0] q);\n  reg [7:0] mem [0:7];\n"
    "  always @(posedge clk)\n    if (we && a < 8) mem[a[2:0]] <= d;\n"
    "  assign q = mem[ra];\nendmodule\n"
)
TOP = (
    "module top(input clk, input we, input [39:0] a, input [7:0] d, input [2:0] ra,\n"
    "  output [7:0] q);\n  tgt #(.W(40)) u (.clk(clk), .we(we), .a(a ^ 40'h12_5abc_def0),\n"
    "    .d(d), .ra(ra), .q(q));\nendmodule\n"
)


def test_an_index_wide_only_in_the_repositorys_configuration_is_refused(tmp_path: Path) -> None:
    """At the defaults (W = 8) the index is read alike; the repository's W = 40 is screened
    on its own copy."""
    cand = PARAM_REF.replace("if (we && a < 8) mem[a[2:0]] <= d;", "if (we) mem[a] <= d;")
    res = _evaluate(tmp_path, {"tgt.v": PARAM_REF, "top.v": TOP}, "tgt.v", cand, module="tgt")
    assert not res.accepted and "W=40" in res.reason and "40 bits wide" in res.reason, res.reason
