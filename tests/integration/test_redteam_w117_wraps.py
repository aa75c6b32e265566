"""Round 117 (held out, against 82a30641): a module nothing instantiates, changed to compute
a constant that leaves its range only past every probe; each was accepted on 82a30641 and is
refused now (real tools). The correct rewrites of the same round stay accepted.

- a narrow net declared with a parameter (`wire [11:0] k = W; ... + (W - k)`: 0 below 4096
  only), which the reach check read as a localparam of no width limit: now a guard;
- a 32-bit product of a parameter beside the same product in 64 bits (`localparam integer P =
  W * 1048576` against `64'd0 + W * 1048576`, or `{W * 32'd1048576}`): the two part at W =
  4096, past every probe; the reach check now reads the width where a product wraps (and a
  sum near the top of its type: `W + 2147479552` wraps at W = 4096, found while closing it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

HEAD = "module lib #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
SUM = HEAD + "  assign y = a + b;\nendmodule\n"
WRONG = {
    "a-narrow-net-declared-with-a-parameter": (
        "  wire [11:0] k = W;\n  assign y = a + b + (W - k);\n",
        "guard",
    ),
    "a-32-bit-product-beside-a-64-bit-one": (
        "  localparam integer P = W * 1048576;\n"
        "  assign y = a + b + ((64'd0 + W * 1048576) - P);\n",
        "reaches the number",
    ),
    "a-32-bit-sum-near-its-top": (
        "  localparam integer P = W + 2147479552;\n"
        "  wire signed [63:0] d = 64'sd0 + W + 2147479552 - P;\n"
        "  assign y = a + b + d;\n",
        "reaches the number",
    ),
    "a-32-bit-product-in-a-concatenation": (
        "  assign y = a + b + ((64'd0 + W * 1048576) - {W * 32'd1048576});\n",
        "reaches the number",
    ),
}
RIGHT = {
    "commuted": "  assign y = b + a;\n",
    "through-a-net": "  wire [W-1:0] s = a + b;\n  assign y = s;\n",
    "a-product-that-wraps-past-any-width": "  assign y = a + b + (W * 8 - 8 * W);\n",
}


@pytest.mark.parametrize("case", sorted(WRONG))
def test_a_constant_leaving_its_range_past_every_probe_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body, why = WRONG[case]
    rc, reason = module_verdict(tmp_path, monkeypatch, SUM, HEAD + body + "endmodule\n")
    assert rc == 1, reason
    assert why in reason, reason


@pytest.mark.parametrize("case", sorted(RIGHT))
def test_a_correct_rewrite_of_the_round_is_accepted(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, SUM, HEAD + RIGHT[case] + "endmodule\n")
    assert rc == 0, reason
