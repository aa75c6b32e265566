"""Round 115 (held out, `/work/notes/rt115/`, against 61328d18): parameter values that reach a
module nothing instantiates through forms the guard check did not read; each was accepted on
61328d18 and is refused now as a new guard the probes cannot check (real tools).

- a bit-select of a parameter in a localparam used as a width (`W[11] * (1 - W[31])`: wrong at
  W = 2048; no operator of the guard list);
- a fixed-width localparam that wraps (`localparam [7:0] MSB = W - 1`: wrong at W = 257);
- generate `case` items on a parameter (`case (W) 8, 4000:`: an implicit comparison, wrong at
  W = 4000);
- a comparison inside a generate loop's header (`i = i + 1 + (W == 4000)`: headers are exempt
  from the guard check, every odd bit undriven at W = 4000).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

HEAD = "module lib #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
SUM = HEAD + "  assign y = a + b;\nendmodule\n"
XOR = (
    HEAD + "  for (genvar i = 0; i < W; i = i + 1) begin : g\n"
    "    assign y[i] = a[i] ^ b[i];\n  end\nendmodule\n"
)
CASES = {
    "a-bit-select-in-a-width": (
        HEAD + "  assign y = a + b[0];\nendmodule\n",
        HEAD + "  localparam D = W[11] * (1 - W[31]);\n  assign y = a + b[D:0];\nendmodule\n",
    ),
    "a-fixed-width-localparam-wrapping": (
        SUM,
        HEAD + "  localparam [7:0] MSB = W - 1;\n  assign y = a + b[MSB:0];\nendmodule\n",
    ),
    "generate-case-items": (
        SUM,
        HEAD + "  case (W)\n    8, 4000: begin : narrow assign y = a + b[7:0]; end\n"
        "    default: begin : wide assign y = a + b; end\n  endcase\nendmodule\n",
    ),
    "a-comparison-in-a-loop-header": (XOR, XOR.replace("i = i + 1)", "i = i + 1 + (W == 4000))")),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_change_wrong_at_a_value_no_check_reads_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, *CASES[case])
    assert rc == 1, reason
    assert "guard" in reason, reason
