"""End to end: the reference's translate_off ``$error`` (the repository's regression fails on an
ERROR in its log) must be kept by a candidate, and the signal it reads is proven equal: kept
beside a rewrite that keeps the signal, accepted; kept while the signal is re-encoded (the
outputs equal), refuted by the proof (class: a reference's simulation-only check dropped or made
vacuous)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

REF = """module cm(input clk, input [1:0] a, input [1:0] b, output o);
  wire [1:0] sel = a + b;
  assign o = sel[0];
  // synopsys translate_off
  always @(posedge clk) if (sel == 2'b11) $error("%m: sel full");
  // synopsys translate_on
endmodule
"""


@pytest.mark.tools
def test_a_kept_check_reads_signals_proven_equal(tmp_path: Path) -> None:
    dropped = REF.split("  // synopsys translate_off")[0] + "endmodule\n"
    res = _evaluate(tmp_path / "a", {"cm.v": REF}, "cm.v", dropped)
    assert not res.accepted and "keep the reference's check" in res.reason, res.reason
    assert "cm.v:5" in res.reason, res.reason
    kept = REF.replace("assign o = sel[0];", "assign o = a[0] ^ b[0];")
    res = _evaluate(tmp_path / "b", {"cm.v": REF}, "cm.v", kept)
    assert res.accepted, res.reason
    # bit 0 of a - b is bit 0 of a + b: the output is the same, the checked signal is not
    res = _evaluate(tmp_path / "c", {"cm.v": REF}, "cm.v", REF.replace("a + b", "a - b"))
    assert not res.accepted and "sel" in res.reason, res.reason
    assert "a check of the reference reads" in res.reason, res.reason
