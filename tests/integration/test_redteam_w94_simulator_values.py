"""Round 94 (held out): values the simulator computes otherwise than both proofs.

iverilog 11 evaluates some elaboration-time values otherwise than IEEE 1800, Yosys and slang
(an untyped parameter of sized operands keeps its carry, ``$clog2`` of a negative argument, a
constant function's signed comparison) and a power with a negative run-time exponent. Each
candidate below differs from the reference only where iverilog reads it otherwise, on an input
no random vector draws: each is refused (``evaluate`` and the gate), and a rewrite whose
parameters every tool reads alike is still accepted."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, evaluate_text, run_rtlopt

pytestmark = [pytest.mark.tools]

REF = "module m(input [31:0] a, input [31:0] b, output [7:0] y);\n  assign y = a[7:0];\nendmodule\n"
RARE = "((a ^ b) == 32'h5A5A1234)"


def _cand(decls: str, expr: str) -> str:
    return (
        "module m(input [31:0] a, input [31:0] b, output [7:0] y);\n"
        f"{decls}  assign y = {RARE} ? {expr} : a[7:0];\nendmodule\n"
    )


CASES = {
    "power": (
        _cand("  wire signed [3:0] k = -4'sd7;\n", "a[7:0] * (64'sd1 ** k)"),
        "a power whose exponent reads a signal",
    ),
    "clog2": (
        _cand(
            "  localparam signed [3:0] K = -4'sd8;\n  localparam S = $clog2(K) - 3;\n",
            "a[7:0] >> S",
        ),
        "iverilog builds m with S",
    ),
    "sized_carry": (
        _cand("  localparam P = 4'd9 + 4'd9;\n", "a[7:0] >> (P - 4'd2)"),
        "iverilog builds m with P (iverilog: 5'd18, slang: 4'd2)",
    ),
    "constant_function": (
        _cand(
            "  function f(input [31:0] v);\n    f = (-3 >= $signed(v[0]));\n  endfunction\n"
            "  localparam S = f(32'd0);\n",
            "a[7:0] & {8{~S}}",
        ),
        "iverilog builds m with S",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_value_the_simulator_computes_otherwise_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    cand, why = CASES[case]
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and not out.get("accepted") and why in reason, reason


def test_parameters_every_tool_reads_alike_are_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = _cand("  localparam [4:0] P = 5'd9 + 5'd9;\n", "a[7:0] >> (P - 5'd18)")
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", cand)
    assert rc == 0 and out.get("accepted"), out


M = "module m #(parameter W = 8) (input [31:0] a, input [31:0] b, output [31:0] y);\n{body}endmodule\n"
TOP = (
    "module top(input [31:0] a, input [31:0] b, output [31:0] y);\n  localparam P = {p};\n"
    "  m #(.W(P)) u(.a(a), .b(b), .y(y));\nendmodule\n"
)


def test_a_parameterization_the_simulator_builds_otherwise_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent gives W = 4'd9 + 4'd9: 2 to slang (the configuration proven), 18 to
    iverilog; the candidate differs at W = 18 only."""
    files = {
        "m.v": M.format(body="  assign y = a >> W;\n"),
        "top.v": TOP.format(p="4'd9 + 4'd9"),
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    cand = M.format(body="  assign y = (((W * 37) & 63) == 26) ? a : a >> W;\n")
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and "iverilog builds m at top.u with W (iverilog: 5'd18" in reason, reason


def test_the_gate_refuses_a_parent_value_respelled_for_the_simulator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "rtlopt.toml": '[check]\noptimization_only = ["*"]\n',
        "m.v": M.format(body=f"  assign y = {RARE} ? a >> W : a;\n"),
        "top.v": TOP.format(p="4'd2"),
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "top.v").write_text(TOP.format(p="4'd9 + 4'd9"))
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "top.v"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa")
    assert r.returncode == 1 and "iverilog builds top with P" in r.stdout, r.stdout[-1500:]
