"""Red team wave 16 (held out, on 424c5db), findings 3 and 7: ``evaluate`` proved a change the
repository's simulation tells apart. 3: the reference decides on an undriven net (``if (a ==
{28'h1234567, u})`` is x, so simulation takes ``else`` for every ``a``; the proof read ``u``
as any value). 7: a candidate's case item narrower than the case statement (``16'hF123 +
16'h2345``: 32'h11468 in simulation, 16'h1468 in Yosys). Both are now constructs tools read
differently (the screen); each test has a control that the same repository still evaluates."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

# each is a whole `evaluate` (simulation and both proofs, 5-7 s on the shared machine); the
# screen rules themselves are covered cheaply by tests/unit/harness/test_screen_case_widths.py
# and test_screen_x_control.py
pytestmark = [pytest.mark.tools, pytest.mark.slow]


def _evaluate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str
) -> tuple[int, dict[str, object]]:
    repo = committed_repo(tmp_path / "repo", {"rtl/top.v": ref}, monkeypatch, tmp_path / "cache")
    return evaluate_text(repo, "rtl/top.v", cand)


UNDRIVEN_REF = """module tgt(input [31:0] a, output reg [31:0] y);
  wire [3:0] u;
  always @* begin
    if (a == {28'h1234567, u}) y = 32'd0; else y = a;
  end
endmodule
"""


def test_an_undriven_net_in_a_reference_condition_is_not_a_wildcard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = """module tgt(input [31:0] a, output [31:0] y);
  assign y = (a[31:4] == 28'h1234567) ? 32'd0 : a;
endmodule
"""
    code, out = _evaluate(tmp_path, monkeypatch, UNDRIVEN_REF, cand)
    assert code == 1 and not out["accepted"], out["candidate"]
    assert "'u' is never driven" in str(out), out


CASE_REF = """module tgt(input [31:0] s, output reg [7:0] y);
  always @* if ((s ^ 32'h5A5A5A5A) == 32'h5A5A4E32) y = 8'd1; else y = s[7:0];
endmodule
"""


@pytest.mark.parametrize(
    ("item", "accepted"),
    [("16'hF123 + 16'h2345", False), ("32'h1468", True)],
)
def test_a_case_item_narrower_than_the_case_expression_is_read_at_the_statement_width(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, item: str, accepted: bool
) -> None:
    cand = f"""module tgt(input [31:0] s, output reg [7:0] y);
  always @* case (s) {item}: y = 8'd1; default: y = s[7:0]; endcase
endmodule
"""
    code, out = _evaluate(tmp_path, monkeypatch, CASE_REF, cand)
    assert bool(out["accepted"]) == accepted and (code == 0) == accepted, out
    if item.startswith("16'"):
        assert "16 bits wide in a 32-bit case statement" in str(out), out
