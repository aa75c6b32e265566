"""Round 83 case 11: the repository's testbench writes the target's select in one branch of
```ifdef FAST`` and leaves it unassigned in the other (the Makefile passes ``-DFAST``; nested
under Icarus's own ``__ICARUS__``). ``rtlopt evaluate`` elaborates the repository under the
configuration entering the empty branch (``evaluate/_tb_x_defines.left_branches``): the
and-or candidate, equal in two states but x where ``s ? a : b`` merges, is refuted naming
the build's define; a reformatted one is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import evaluate_in_repo

pytestmark = [pytest.mark.tools]

MUX = """module m(input s, input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = s ? a : b;
endmodule
"""
TB = """module tb; reg s; reg [3:0] a, b; wire [3:0] y;
m u(.s(s), .a(a), .b(b), .y(y));
initial begin
  a = 4'hF; b = 4'hF;
`ifdef __ICARUS__
 `ifdef FAST
  // s left as it powers up
 `else
  s = 1'b0;
 `endif
`else
  s = 1'b0;
`endif
  #1 $display("s=%b y=%h", s, y);
end
endmodule
"""
MAKE = "sim:\n\tiverilog -DFAST -o t.vvp m.v tb.v\n\tvvp -n t.vvp\n"


@pytest.mark.parametrize(
    ("body", "refused"),
    [
        ("assign y = ({4{s}} & a) | ({4{~s}} & b);", "tb.v:6: a branch without the writes"),
        ("assign y = s ? a :\n                 b;", ""),
    ],
)
def test_an_input_another_build_leaves_unassigned_is_proven(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    body: str,
    refused: str,
) -> None:
    cand = MUX.replace("assign y = s ? a : b;", body)
    files = {"m.v": MUX, "tb.v": TB, "Makefile": MAKE}
    code, out = evaluate_in_repo(tmp_path, files, "m.v:m", cand, capsys, monkeypatch)
    if not refused:
        assert code == 0 and "ACCEPTED" in out and "feeds x into s" in out, out
    else:
        assert code == 1 and "REJECTED" in out and "x-faithfulness" in out, out
        assert refused in " ".join(out.split()) and "FAST" in out, out
