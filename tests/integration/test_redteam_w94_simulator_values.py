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
        "$clog2 of a value that may be negative",
    ),
    "sized_carry": (
        _cand("  localparam P = 4'd9 + 4'd9;\n", "a[7:0] >> (P - 4'd2)"),
        "iverilog builds m.P (iverilog: 5'd18, slang: 4'd2)",
    ),
    "constant_function": (
        _cand(
            "  function f(input [31:0] v);\n    f = (-3 >= $signed(v[0]));\n  endfunction\n"
            "  localparam S = f(32'd0);\n",
            "a[7:0] & {8{~S}}",
        ),
        "iverilog builds m.S",
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
    assert rc == 1 and "iverilog builds top.u.W (iverilog: 5'd18" in reason, reason


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
    assert r.returncode == 1 and "top.P (iverilog: 5'd18, slang: 4'd2)" in r.stdout, r.stdout[
        -1500:
    ]


def test_a_candidate_value_the_simulator_computes_otherwise_under_a_parent_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The candidate's own localparam reads alike at its defaults (W = 8) but not where the
    parent builds it (W = 2: 4'd9 + 4'd9 is 18 to iverilog, 2 to the proofs)."""
    files = {"m.v": M.format(body="  assign y = a >> W;\n"), "top.v": TOP.format(p="2")}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    cand = M.format(
        body="  localparam P = (W == 2) ? 4'd9 + 4'd9 : 4'd2;\n"
        f"  assign y = {RARE} ? a >> (W + P - 4'd2) : a >> W;\n"
    )
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and "iverilog builds top.u.P" in reason, reason


#: Round 95: the same values outside the module's own parameter list, each refused
SCOPES = {
    "generate_block": (
        "module m(input [31:0] a, input [31:0] b, output [7:0] y);\n"
        "  if (1) begin : g\n    localparam P = 4'd9 + 4'd9;\n"
        f"    assign y = {RARE} ? a[7:0] >> (P - 4'd2) : a[7:0];\n  end\nendmodule\n",
        "iverilog builds m.g.P (iverilog: 5'd18, slang: 4'd2)",
    ),
    "function_local": (
        _cand(
            "  function [7:0] f(input [7:0] v);\n    localparam P = 4'd9 + 4'd9;\n"
            "    f = v >> (P - 4'd2);\n  endfunction\n",
            "f(a[7:0])",
        ),
        "iverilog builds m.f.P",
    ),
    "generate_if": (
        "module m(input [31:0] a, input [31:0] b, output [7:0] y);\n"
        "  function f(input [31:0] v);\n    f = (-3 >= $signed(v[0]));\n  endfunction\n"
        f"  if (f(32'd0)) begin : g\n    assign y = {RARE} ? 8'd0 : a[7:0];\n"
        "  end else begin : h\n    assign y = a[7:0];\n  end\nendmodule\n",
        "iverilog builds m.g (a generate block slang does not build)",
    ),
    "clog2_inline": (
        _cand("  localparam signed [3:0] K = -4'sd8;\n", "a[7:0] >> ($clog2(K) - 3)"),
        "$clog2 of a value that may be negative",
    ),
}


@pytest.mark.parametrize("case", sorted(SCOPES))
def test_a_value_the_simulator_computes_otherwise_in_any_scope_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    cand, why = SCOPES[case]
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and not out.get("accepted") and why in reason, reason


def test_a_submodule_the_candidate_defines_is_compared_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = (
        "module m_shift(input [7:0] v, output [7:0] o);\n  localparam P = 4'd9 + 4'd9;\n"
        "  assign o = v >> (P - 4'd2);\nendmodule\n"
        + _cand("  wire [7:0] s;\n  m_shift u(.v(a[7:0]), .o(s));\n", "s")
    )
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and "iverilog builds m.u.P" in reason, reason
