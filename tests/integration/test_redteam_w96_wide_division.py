"""Round 96 (held out): a division wider than 64 bits, which iverilog computes otherwise than
both proofs.

iverilog 11 gives 0 for ``a / 1`` wider than 64 bits in a continuous assignment, a net's
initializer or a port connection (in procedural code a 128-bit division by a 65-bit divisor is
wrong too, and a 130-bit one never ends); Yosys and slang compute the quotient. A candidate that
divides by 1 only on an input no random vector draws was proven while the repository's
simulator reads 0 there. Such a division is refused by the screen (``harness/_wide_division.py``),
in a candidate and in a reference, wherever it stands; one folded at elaboration or of at most
64 bits is not."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

from rtlopt.harness._readings import reading_problems

pytestmark = [pytest.mark.tools]

REF = "module m(input [64:0] a, input [31:0] b, output [64:0] y);\n  assign y = a;\nendmodule\n"
HEAD = "module m(input [64:0] a, input [31:0] b, output [64:0] y);\n"
RARE = "(b == 32'h5A5A1234)"

REFUSED = {
    "assign": HEAD + f"  assign y = {RARE} ? a / 65'd1 : a;\nendmodule\n",
    "net_initializer": HEAD + "  wire [64:0] q = a % 65'd7;\n  assign y = q;\nendmodule\n",
    "context_width": (
        "module m(input [31:0] a, input [31:0] b, output [64:0] y);\n"
        "  assign y = a / b;\nendmodule\n"
    ),
    "port_connection": HEAD
    + "  s u(.i(a / 65'd1), .o(y));\nendmodule\n"
    + "module s(input [64:0] i, output [64:0] o);\n  assign o = i;\nendmodule\n",
    "generate_parameter": (
        "module m #(parameter W = 65) (input [W-1:0] a, output [W-1:0] y);\n"
        "  if (1) begin : g\n    assign y = a / 1;\n  end\nendmodule\n"
    ),
    "always": HEAD + f"  reg [64:0] r;\n  always @* r = {RARE} ? a / 65'd1 : a;\n"
    "  assign y = r;\nendmodule\n",
    "function": HEAD + "  function [64:0] f(input [64:0] x);\n    f = x / 65'd1;\n"
    "  endfunction\n  assign y = f(a);\nendmodule\n",
}

KEPT = {
    "sixty_four_bits": (
        "module m(input [63:0] a, output [63:0] y);\n  assign y = a / 64'd3;\nendmodule\n"
    ),
    "folded_at_elaboration": HEAD + "  localparam [64:0] Q = 65'h1_0000_0000_0000_0042 / 65'd1;\n"
    "  assign y = a ^ Q;\nendmodule\n",
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_wide_division_in_a_continuous_assignment_is_screened(case: str) -> None:
    found = [m for _, m in reading_problems(REFUSED[case])]
    assert any("bit division" in m for m in found), found


@pytest.mark.parametrize("case", sorted(KEPT))
def test_a_division_iverilog_computes_exactly_is_not_screened(case: str) -> None:
    found = [m for _, m in reading_problems(KEPT[case])]
    assert not any("division" in m for m in found), found


def test_iverilog_computes_the_screened_division_otherwise(tmp_path: Path) -> None:
    """The measured fact the screen rests on: the continuous assignment reads 0, the always
    block reads ``a`` (if a later iverilog computes both alike, this test says so)."""
    tb = tmp_path / "tb.v"
    tb.write_text(
        "module tb;\n  reg [64:0] a; reg [64:0] p; wire [64:0] c = a / 65'd1;\n"
        "  always @* p = a / 65'd1;\n"
        '  initial begin a = 65\'h1_0000_0000_0000_0042; #1 $display("%h %h", c, p); end\n'
        "endmodule\n"
    )
    sim = tmp_path / "sim"
    subprocess.run(["iverilog", "-g2012", "-o", str(sim), str(tb)], check=True)
    out = subprocess.run(["vvp", "-n", str(sim)], capture_output=True, text=True, check=True)
    assert out.stdout.split()[:2] == ["00000000000000000", "10000000000000042"], out.stdout


def test_the_candidate_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", REFUSED["assign"])
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and not out.get("accepted") and "65-bit division" in reason, reason


def test_a_reference_with_such_a_division_checks_no_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = HEAD + "  assign y = a / 65'd1;\nendmodule\n"
    repo = committed_repo(tmp_path / "repo", {"m.v": ref}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", HEAD + "  assign y = a;\nendmodule\n")
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and "65-bit division" in reason, reason
