"""Formal equivalence with the real Yosys: C910 LZA grouped encoder and RTLLM counter_12."""

from __future__ import annotations

from pathlib import Path

import pytest
from _harness_designs import LZA_DIR, RTLLM, lza_design, rtllm_design, run_harness

from rtlopt.config import FormalConfig
from rtlopt.formal import check_equivalence
from rtlopt.results import Verdict

pytestmark = pytest.mark.tools

_LZA_PRE = (LZA_DIR / "ct_vfmau_lza_simd_half.v").read_text() if LZA_DIR.exists() else ""


def grouped_lza(last_group_base: int = 20) -> str:
    """The LZA with a grouped (6 x 4-bit) leading-one encoder; ``last_group_base`` != 20
    mis-numbers the lowest group (the DESIGN.md mutant)."""
    head = _LZA_PRE[
        _LZA_PRE.index("module ct_vfmau_lza_simd_half") : _LZA_PRE.index("// &CombBeg; @59")
    ]
    groups = []
    for j in range(6):
        hi = 23 - 4 * j
        base = last_group_base if j == 5 else 4 * j
        kw = "if" if j == 0 else "else if"
        groups.append(
            f"  {kw} (|lza_precod[{hi}:{hi - 3}]) "
            f"lza_result[4:0] = 5'd{base} + enc4(lza_precod[{hi}:{hi - 3}]);"
        )
    return (
        head + "function [4:0] enc4(input [3:0] x);\n"
        "  casez (x) 4'b1???: enc4 = 5'd0; 4'b01??: enc4 = 5'd1; 4'b001?: enc4 = 5'd2;\n"
        "  default: enc4 = 5'd3; endcase\nendfunction\n"
        "always @(*) begin\n" + "\n".join(groups) + "\n  else lza_result[4:0] = 5'd24;\nend\n"
        "assign lza_result_zero = ~|lza_precod[23:0];\nendmodule\n"
    )


needs_lza = pytest.mark.skipif(not LZA_DIR.exists(), reason=f"C910 LZA not found at {LZA_DIR}")
needs_rtllm = pytest.mark.skipif(not RTLLM.exists(), reason=f"RTLLM not found at {RTLLM}")


@needs_lza
def test_lza_grouped_encoder_proven_and_mutant_refuted(tmp_path: Path) -> None:
    d = lza_design()
    good = tmp_path / "good.v"
    good.write_text(grouped_lza(20))
    bad = tmp_path / "bad.v"
    bad.write_text(grouped_lza(16))
    cfg = FormalConfig(timeout_s=60)
    r_good = check_equivalence(d, [good], tmp_path / "f_good", cfg)
    assert r_good.verdict is Verdict.PROVEN, r_good
    r_bad = check_equivalence(d, [bad], tmp_path / "f_bad", cfg)
    assert r_bad.verdict is Verdict.REFUTED, r_bad
    cex = r_bad.counterexample
    assert cex["expected lza_result"] != cex["got lza_result"]
    assert len(cex["addend"]) == 24 and cex["sub_vld"] in ("0", "1")
    # random vectors alone do not find it: the leading one must fall in the last group
    rand = run_harness(d, [bad], tmp_path / "sim_rand", only={"random"})
    assert rand.result.passed and rand.result.vectors == 1000, rand.reason
    assert run_harness(d, [good], tmp_path / "sim_good").result.passed
    full = run_harness(d, [bad], tmp_path / "sim_full")  # directed classes may or may not
    assert full.result.vectors > 1000


@needs_rtllm
def test_counter_12_restructured_proven_wrap_at_12_refuted(tmp_path: Path) -> None:
    d = rtllm_design("counter_12")
    name = d.target.name
    body = (
        "module {n}(input rst_n, input clk, input valid_count, output reg [3:0] out);\n"
        "  always @(posedge clk or negedge rst_n)\n"
        "    if (!rst_n) out <= 4'b0;\n"
        "    else if (valid_count) out <= ({cond}) ? 4'b0 : out + 4'd1;\n"
        "endmodule\n"
    )
    ok = tmp_path / "ok.v"
    ok.write_text(body.format(n=name, cond="out[3] & out[1] & out[0]"))  # wraps on 4'b1x11
    bad = tmp_path / "bad.v"
    bad.write_text(body.format(n=name, cond="out == 4'd12"))
    cfg = FormalConfig(timeout_s=60)
    r_ok = check_equivalence(d, [ok], tmp_path / "f_ok", cfg)
    assert r_ok.verdict is Verdict.PROVEN, r_ok
    r_bad = check_equivalence(d, [bad], tmp_path / "f_bad", cfg)
    assert r_bad.verdict is Verdict.REFUTED, r_bad
    assert r_bad.counterexample["expected out"] == "0000"
    assert r_bad.counterexample["got out"] == "1100"
    assert run_harness(d, [ok], tmp_path / "s_ok").result.passed
    sim_bad = run_harness(d, [bad], tmp_path / "s_bad").result
    assert not sim_bad.passed and sim_bad.first_mismatch is not None


@needs_rtllm
def test_sequential_induction_unknown_is_not_proven(tmp_path: Path) -> None:
    """A candidate equal only on reachable states, where induction of depth 1 cannot close:
    the verdict is proven by deeper induction or unknown, never a false refutation."""
    d = rtllm_design("counter_12")
    cand = tmp_path / "c.v"
    # extra shadow register that is always equal to out after reset
    cand.write_text(
        f"module {d.target.name}(input rst_n, input clk, input valid_count,"
        " output [3:0] out);\n"
        "  reg [3:0] a, b;\n  assign out = a;\n"
        "  always @(posedge clk or negedge rst_n)\n"
        "    if (!rst_n) begin a <= 0; b <= 0; end\n"
        "    else if (valid_count) begin a <= (b == 4'd11) ? 4'd0 : b + 4'd1;"
        " b <= (b == 4'd11) ? 4'd0 : b + 4'd1; end\n"
        "endmodule\n"
    )
    r = check_equivalence(
        d, [cand], tmp_path / "f", FormalConfig(timeout_s=60, induction_depth=1, bmc_depth=16)
    )
    assert r.verdict in (Verdict.PROVEN, Verdict.UNKNOWN), r
    if r.verdict is Verdict.UNKNOWN:
        assert "no counterexample within 16 cycles" in r.reason


@needs_rtllm
def test_two_clocks_are_checked_in_the_global_clock_model(tmp_path: Path) -> None:
    """Two clock domains (an asynchronous FIFO): once refused ("multiple clocks"), now checked
    in Yosys's clk2fflogic model (issue 22); an equivalent copy is proven (the two-clock
    refutations are in test_formal_two_clocks.py)."""
    d = rtllm_design("asyn_fifo")
    text = "\n".join(f.read_text() for f in d.closure)
    cut = text.rindex("endmodule")
    cand = tmp_path / "fifo.v"
    cand.write_text(text[:cut] + "wire zz_unused_w;\n" + text[cut:])
    r = check_equivalence(d, [cand], tmp_path / "f", FormalConfig(timeout_s=120))
    assert r.verdict is Verdict.PROVEN, r
