"""Round 101 (held out, `/work/notes/rt101/`): a width parameter's value read where the split
proof did not look, and a real parameter.

A parameter that sizes the ports cannot be an input of the proof. Round 100's split proof read
its uses as a value from an input only in assignments and ``always`` blocks, and used what it
found as probe suggestions. The candidate read ``W`` inside a function, through a localparam
(``L = W``), inside a generate block or under a cast, and singled out ``W = 100`` (``n * n ==
10000``); with decoys (``n[30:24] != 0``) both suggestions fell on values the reference does
not build. Now every use of the value (functions, generate blocks, cast operands, localparams
computed from it) is read from the input, and a difference there is a verdict: probed first
(a refutation names the value), the change is unchecked, rejected, if no probe refutes it.
A change that depends on a ``real`` parameter (``$rtoi(R)`` against a rounding conversion,
different at R = 2.5) is unchecked: no input holds it and integer probes miss fractions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text, module_verdict

pytestmark = pytest.mark.tools

HEAD = "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
REF = HEAD + "  assign y = a + b;\nendmodule\n"
PICK = "  assign y = (n * n == 10000) ? a - b : a + b;\n"

CASES = {
    "in-a-function": (
        "  function [31:0] wv(input [W-1:0] x);\n    wv = W + (x & 1'b0);\n  endfunction\n"
        "  wire [31:0] n = wv(a);\n" + PICK
    ),
    "through-a-localparam": (
        "  localparam [31:0] L = W;\n  assign y = (L * L == 10000 + (a & 1'b0)) ? a - b : a + b;\n"
    ),
    "in-a-generate-block": (
        "  if (1) begin : g\n    wire [31:0] n = W + (a & 1'b0);\n  " + PICK + "  end\n"
    ),
    "under-a-cast": "  wire [31:0] n = 32'(W) + (a & 1'b0);\n" + PICK,
    "with-decoys": (
        "  wire [31:0] n = a - a + W;\n"
        "  assign y = (!n[31] && (n * n == 10000 || n[30:24] != 0)) ? a - b : a + b;\n"
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_width_parameter_read_as_a_value_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, REF, HEAD + CASES[case] + "endmodule\n")
    assert rc == 1, reason
    # refuted at W = 100, unchecked by the split, or (round 104) W-wide data in a fixed-width
    # net: `a & 1'b0` carries the port's width into the 32-bit `n`; or (round 115) a cast of
    # W, a guard the probes cannot check; or (round 117) `L * L` wrapping at 32 bits at a
    # width past every probe
    says = (
        "W=100",
        "uses the value of W",
        "screening",
        "a net of a fixed width",
        "32 ' ( W )",
        "reaches the number",
    )
    assert any(w in reason for w in says), reason


def test_the_reference_uses_of_a_value_kept_in_a_rewrite_are_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = HEAD + "  assign y = (a == W - 1) ? {W{1'b0}} : a + b;\nendmodule\n"
    repo = committed_repo(tmp_path / "repo", {"m.v": ref}, monkeypatch, tmp_path / "cache")
    cand = HEAD + "  assign y = (a != W - 1) ? b + a : {W{1'b0}};\nendmodule\n"
    rc, out = evaluate_text(repo, "m.v", cand)
    assert rc == 0, out
    assert "W as values: the same uses for every value" in str(out.get("scope")), out


def test_a_change_that_depends_on_a_real_parameter_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = "module m #(parameter real R = 1.25) (input [7:0] a, input [7:0] b, output [7:0] y);\n"
    ref = head + "  localparam integer RI = $rtoi(R);\n  assign y = a + b + RI;\nendmodule\n"
    repo = committed_repo(tmp_path / "repo", {"m.v": ref}, monkeypatch, tmp_path / "cache")
    cand = head + "  localparam integer RI = R;\n  assign y = a + b + RI;\nendmodule\n"
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and "a real or a string" in reason, reason
